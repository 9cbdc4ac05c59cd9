/**
 * Time and timers behind one interface, so that whatever waits (sync pacing, live notification
 * windows, the sandbox's market) can run on a manual clock in tests: a test advances time instead
 * of sleeping. Nothing else in electron/ touches setTimeout or setInterval (a lint rule): the
 * toolbox at the end (sleep, withTimeout, Timer, Repeater, Throttle, retry, and inTurns for work
 * in slices) covers every wait.
 */
import { backoffDelay, type Backoff } from '../../shared/backoff';

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

/**
 * Wall-clock time. `skewMs` shifts what now() reads, for an exchange whose clock is off by a known
 * amount; the timers are not affected.
 */
export class SystemClock implements Clock {
  skewMs = 0;
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private nextId = 1;

  now(): number {
    return Date.now() + this.skewMs;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    const timer = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, ms);
    // A pending timer never keeps the process alive on its own: quitting must not wait on one.
    timer.unref?.();
    this.timers.set(id, timer);
    return { id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const timer = this.timers.get(handle.id);
    if (timer) clearTimeout(timer);
    this.timers.delete(handle.id);
  }
}

/** A clock that only moves when told to; due timers fire in time order during advance(). */
export class ManualClock implements Clock {
  private current: number;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  private nextId = 1;

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + Math.max(0, ms), fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.timers.delete(handle.id);
  }

  /** How many timers are waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  set(ms: number): void {
    this.advance(ms - this.current);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, earliest first. */
  advance(ms: number): void {
    const target = this.current + Math.max(0, ms);
    for (;;) {
      let nextId = -1;
      let nextAt = Infinity;
      for (const [id, timer] of this.timers) {
        if (timer.at <= target && timer.at < nextAt) {
          nextAt = timer.at;
          nextId = id;
        }
      }
      if (nextId < 0) break;
      const timer = this.timers.get(nextId)!;
      this.timers.delete(nextId);
      this.current = Math.max(this.current, timer.at);
      timer.fn();
    }
    this.current = target;
  }
}

// ---- The async toolbox: every wait of the main process goes through a Clock, so a test on a
// ManualClock drives it by advancing time.

/** Resolves after `ms` on the clock, or at once when `signal` aborts (it never rejects). */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clock.clearTimeout(handle);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const handle = clock.setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Work in slices: a generator that yields between slices. Run at once (atOnce) where a caller
 * needs the result now, or a slice per turn of the event loop (inTurns), so whatever else is due
 * (a bridge call, a timer, a stream's message) is served between two slices.
 */
export type Slices<T> = Generator<void, T, void>;

export function atOnce<T>(slices: Slices<T>): T {
  for (;;) {
    const step = slices.next();
    if (step.done) return step.value;
  }
}

/**
 * Resolves on the next turn of the event loop: after what is due now (I/O already read, replies
 * already written) has run. A turn takes no time on any clock (a ManualClock need not be advanced
 * for it), so it is the one wait here that is not a clock's timer.
 */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

export async function inTurns<T>(slices: Slices<T>): Promise<T> {
  for (;;) {
    const step = slices.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/**
 * Settles as `promise` does, or rejects with `onTimeout()` once `ms` have passed on the clock
 * first. The promise itself is not cancelled: the caller decides what a late answer means.
 */
export function withTimeout<T>(
  clock: Clock,
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const handle = clock.setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clock.clearTimeout(handle);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(handle);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * A run-once scheduler: one slot that runs `fn` once, `ms` after it was started. Starting it
 * again replaces the pending run (a delayer: the run moves to the last start); startIfIdle keeps
 * the pending one.
 */
export class Timer {
  private handle: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly fn: () => void,
  ) {}

  /** A run is pending. */
  get armed(): boolean {
    return this.handle !== undefined;
  }

  start(ms: number): void {
    this.cancel();
    this.handle = this.clock.setTimeout(() => {
      this.handle = undefined;
      this.fn();
    }, ms);
  }

  startIfIdle(ms: number): void {
    if (!this.handle) this.start(ms);
  }

  cancel(): void {
    this.clock.clearTimeout(this.handle);
    this.handle = undefined;
  }
}

/** Runs `fn` every `ms` on the clock until stopped (the next run is counted from this one's start). */
export class Repeater {
  private readonly timer: Timer;

  constructor(clock: Clock, ms: number, fn: () => void) {
    this.timer = new Timer(clock, () => {
      this.timer.start(ms);
      fn();
    });
    this.timer.start(ms);
  }

  stop(): void {
    this.timer.cancel();
  }
}

/**
 * A throttler per key: trigger(keys) runs `fn` at once with the keys that last ran at least `ms`
 * ago (or never), and gathers the others into runs at the end of their own intervals. One key's
 * burst then never delays another key: a fill's order update does not hold back its trade's.
 */
export class KeyedThrottle<K> {
  private readonly lastRunAt = new Map<K, number>();
  private readonly waiting = new Set<K>();
  private readonly trailing: Timer;

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly fn: (keys: K[]) => void,
  ) {
    this.trailing = new Timer(clock, () => this.runDue());
  }

  trigger(keys: Iterable<K>): void {
    for (const key of keys) this.waiting.add(key);
    this.runDue();
  }

  /** Runs every waiting key now (before closing, so nothing triggered goes unrun). */
  flush(): void {
    this.trailing.cancel();
    const keys = [...this.waiting];
    this.waiting.clear();
    if (keys.length === 0) return;
    const now = this.clock.now();
    for (const key of keys) this.lastRunAt.set(key, now);
    this.fn(keys);
  }

  /** Drops every pending run. */
  cancel(): void {
    this.waiting.clear();
    this.trailing.cancel();
  }

  /** How long `key` waits yet; 0 when it may run (a clock set back must not stall it). */
  private waitOf(key: K, now: number): number {
    const wait = (this.lastRunAt.get(key) ?? -Infinity) + this.ms - now;
    return wait <= 0 || wait > this.ms ? 0 : wait;
  }

  private runDue(): void {
    const now = this.clock.now();
    const due = [...this.waiting].filter((key) => this.waitOf(key, now) === 0);
    for (const key of due) {
      this.waiting.delete(key);
      this.lastRunAt.set(key, now);
    }
    if (this.waiting.size > 0) {
      this.trailing.start(Math.min(...[...this.waiting].map((key) => this.waitOf(key, now))));
    } else {
      this.trailing.cancel();
    }
    if (due.length > 0) this.fn(due);
  }
}

/**
 * A throttler: trigger() runs `fn` at once when it last ran at least `ms` ago, else once at the
 * end of those `ms` for every trigger meanwhile (a burst costs one run per interval, and a lone
 * trigger is not delayed). The keyed throttle's rule, for one key.
 */
export class Throttle {
  private readonly keyed: KeyedThrottle<true>;

  constructor(clock: Clock, ms: number, fn: () => void) {
    this.keyed = new KeyedThrottle(clock, ms, () => fn());
  }

  trigger(): void {
    this.keyed.trigger([true]);
  }

  /** Drops a pending trailing run. */
  cancel(): void {
    this.keyed.cancel();
  }
}

export interface RetryOptions {
  backoff: Backoff;
  /** Whether the failure is worth another try (default: every failure is). */
  retryable?: (error: unknown, failures: number) => boolean;
  /** The least wait a failure asks for (an exchange's Retry-After), on top of the back-off. */
  atLeastMs?: (error: unknown) => number | undefined;
  /** Called after each failure that will be retried, with the wait before the next try. */
  onRetry?: (error: unknown, failures: number, delayMs: number) => void;
  /** Ends the waiting: the retry stops and rejects with the last failure. */
  signal?: AbortSignal;
  random?: () => number;
}

/**
 * Runs `run` until it succeeds, waiting on the clock with back-off between failures. Rejects with
 * the failure that is not retryable, or the last one once `signal` aborts.
 */
export async function retry<T>(
  clock: Clock,
  run: (attempt: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  for (let failures = 0; ;) {
    try {
      return await run(failures);
    } catch (error) {
      failures += 1;
      if (options.signal?.aborted || (options.retryable && !options.retryable(error, failures))) {
        throw error;
      }
      const delayMs = Math.max(
        backoffDelay(failures - 1, options.backoff, options.random),
        options.atLeastMs?.(error) ?? 0,
      );
      options.onRetry?.(error, failures, delayMs);
      await sleep(clock, delayMs, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}
