/**
 * Time and timers behind one interface, so that whatever waits (sync pacing, live notification
 * windows, the sandbox's market) can run on a manual clock in tests: a test advances time instead
 * of sleeping.
 */
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
