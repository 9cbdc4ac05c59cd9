/**
 * The app lock's state, without the password: whether the app is locked, the idle timer (on the
 * injected clock, so tests advance time instead of waiting), and the growing wait after wrong
 * passwords. Checking a password is the caller's job (api/lock.ts); this only decides whether a
 * check may run now and what a failure or a success changes.
 */
import { backoffDelay } from '../../shared/backoff';
import type { Clock, TimerHandle } from './clock';

export interface LockBackoff {
  /** Wrong passwords answered at once; after these each one makes the next wait. */
  freeAttempts: number;
  /** The wait after the first failure beyond the free ones; it doubles with each further one. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Three tries at once, then 1 s, 2 s, 4 s … up to 5 minutes between tries. */
export const DEFAULT_LOCK_BACKOFF: LockBackoff = {
  freeAttempts: 3,
  firstDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
};

/** How long the next try waits after `failures` wrong passwords in a row. */
export function lockDelayMs(failures: number, backoff: LockBackoff = DEFAULT_LOCK_BACKOFF): number {
  if (failures < backoff.freeAttempts) return 0;
  return backoffDelay(failures - backoff.freeAttempts, {
    firstMs: backoff.firstDelayMs,
    maxMs: backoff.maxDelayMs,
  });
}

export type LockReason = 'start' | 'idle' | 'user' | 'system';

export interface LockStateOptions {
  clock: Clock;
  /** A password is set. Without one the app never locks. */
  enabled: boolean;
  /** Idle time before locking; 0: never. */
  idleMs: number;
  /** Wrong passwords in a row so far, and when the last one came (restored after a restart). */
  failures?: number;
  lastFailureAt?: number | null;
  backoff?: LockBackoff;
  /** Called after every change (locked, unlocked, a failure, a new setting). */
  onChange?: (reason: LockReason | 'unlock' | 'failure' | 'settings') => void;
}

export type AttemptCheck = { allowed: true } | { allowed: false; retryAt: number };

export class LockState {
  private readonly clock: Clock;
  private readonly backoff: LockBackoff;
  private readonly onChange: NonNullable<LockStateOptions['onChange']>;
  private enabledNow: boolean;
  private idleMsNow: number;
  private lockedNow: boolean;
  private failuresNow: number;
  private lastFailureAt: number | null;
  private idleTimer: TimerHandle | undefined;
  private disposed = false;

  /** Starts locked when a password is set: the app locks on start. */
  constructor(options: LockStateOptions) {
    this.clock = options.clock;
    this.backoff = options.backoff ?? DEFAULT_LOCK_BACKOFF;
    this.onChange = options.onChange ?? (() => undefined);
    this.enabledNow = options.enabled;
    this.idleMsNow = Math.max(0, options.idleMs);
    this.lockedNow = options.enabled;
    this.failuresNow = options.failures ?? 0;
    this.lastFailureAt = options.lastFailureAt ?? null;
  }

  get enabled(): boolean {
    return this.enabledNow;
  }

  get locked(): boolean {
    return this.lockedNow;
  }

  get idleMs(): number {
    return this.idleMsNow;
  }

  get failures(): number {
    return this.failuresNow;
  }

  get lastFailure(): number | null {
    return this.lastFailureAt;
  }

  /** When the next try is accepted, or null when at once. */
  retryAt(): number | null {
    if (this.lastFailureAt === null) return null;
    const at = this.lastFailureAt + lockDelayMs(this.failuresNow, this.backoff);
    return at > this.clock.now() ? at : null;
  }

  /** Whether a password may be checked now: the wait after earlier failures is over. */
  checkAttempt(): AttemptCheck {
    const at = this.retryAt();
    return at === null ? { allowed: true } : { allowed: false, retryAt: at };
  }

  recordFailure(): void {
    this.failuresNow++;
    this.lastFailureAt = this.clock.now();
    this.onChange('failure');
  }

  /** The right password: the count starts again, and the app unlocks if it was locked. */
  recordSuccess(): void {
    const hadFailures = this.failuresNow > 0;
    this.failuresNow = 0;
    this.lastFailureAt = null;
    if (this.lockedNow) {
      this.lockedNow = false;
      this.armIdle();
      this.onChange('unlock');
    } else if (hadFailures) {
      this.onChange('settings');
    }
  }

  /** Locks now; false when there is no password (nothing to unlock with) or already locked. */
  lock(reason: LockReason): boolean {
    if (!this.enabledNow || this.lockedNow || this.disposed) return false;
    this.lockedNow = true;
    this.clearIdle();
    this.onChange(reason);
    return true;
  }

  /** The user did something: the idle timer starts again. Ignored while locked. */
  activity(): void {
    if (!this.lockedNow) this.armIdle();
  }

  /** A password was set (enabled) or removed; the app stays unlocked either way. */
  setEnabled(enabled: boolean): void {
    this.enabledNow = enabled;
    if (!enabled) {
      this.lockedNow = false;
      this.failuresNow = 0;
      this.lastFailureAt = null;
    }
    this.armIdle();
    this.onChange('settings');
  }

  setIdleMs(idleMs: number): void {
    this.idleMsNow = Math.max(0, idleMs);
    this.armIdle();
    this.onChange('settings');
  }

  /** Starts the idle timer of an app that starts unlocked (no password, or unlocked at once). */
  start(): void {
    this.armIdle();
  }

  dispose(): void {
    this.disposed = true;
    this.clearIdle();
  }

  private armIdle(): void {
    this.clearIdle();
    if (this.disposed || !this.enabledNow || this.lockedNow || this.idleMsNow <= 0) return;
    this.idleTimer = this.clock.setTimeout(() => {
      this.idleTimer = undefined;
      this.lock('idle');
    }, this.idleMsNow);
  }

  private clearIdle(): void {
    if (this.idleTimer) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
