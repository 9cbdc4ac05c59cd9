import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { DEFAULT_LOCK_BACKOFF, lockDelayMs, LockState } from '../../electron/core/lock';

const minute = 60_000;

function state(options: { enabled?: boolean; idleMs?: number; clock?: ManualClock } = {}) {
  const clock = options.clock ?? new ManualClock(0);
  const changes: string[] = [];
  const lock = new LockState({
    clock,
    enabled: options.enabled ?? true,
    idleMs: options.idleMs ?? 5 * minute,
    onChange: (reason) => changes.push(reason),
  });
  lock.start();
  return { clock, lock, changes };
}

describe('LockState', () => {
  it('starts locked when a password is set, and unlocked without one', () => {
    expect(state({ enabled: true }).lock.locked).toBe(true);
    expect(state({ enabled: false }).lock.locked).toBe(false);
  });

  it('locks after the idle time on the manual clock, and activity starts the wait again', () => {
    const { clock, lock, changes } = state({ idleMs: 5 * minute });
    lock.recordSuccess();
    expect(lock.locked).toBe(false);

    clock.advance(5 * minute - 1);
    expect(lock.locked).toBe(false);
    lock.activity();
    clock.advance(5 * minute - 1);
    expect(lock.locked).toBe(false);

    clock.advance(1);
    expect(lock.locked).toBe(true);
    expect(changes).toEqual(['unlock', 'idle']);
    // Locked: no timer is left waiting, and activity does not arm one.
    lock.activity();
    expect(clock.pending).toBe(0);
  });

  it('never idles without a password or with the idle lock off', () => {
    const off = state({ enabled: true, idleMs: 0 });
    off.lock.recordSuccess();
    off.clock.advance(24 * 60 * minute);
    expect(off.lock.locked).toBe(false);
    expect(off.clock.pending).toBe(0);

    const none = state({ enabled: false });
    none.clock.advance(24 * 60 * minute);
    expect(none.lock.locked).toBe(false);
    expect(none.lock.lock('user')).toBe(false);
  });

  it('uses a changed idle time from the next activity on', () => {
    const { clock, lock } = state({ idleMs: 60 * minute });
    lock.recordSuccess();
    lock.setIdleMs(1 * minute);
    clock.advance(1 * minute);
    expect(lock.locked).toBe(true);
  });

  it('locks on demand and says so once', () => {
    const { lock, changes } = state();
    lock.recordSuccess();
    expect(lock.lock('system')).toBe(true);
    expect(lock.lock('user')).toBe(false);
    expect(changes).toEqual(['unlock', 'system']);
  });

  it('makes each wrong password past the third wait twice as long, up to five minutes', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => lockDelayMs(n))).toEqual([
      0, 0, 0, 1000, 2000, 4000, 8000,
    ]);
    expect(lockDelayMs(40)).toBe(DEFAULT_LOCK_BACKOFF.maxDelayMs);

    const { clock, lock } = state();
    for (let i = 0; i < 3; i++) {
      expect(lock.checkAttempt()).toEqual({ allowed: true });
      lock.recordFailure();
    }
    expect(lock.failures).toBe(3);
    expect(lock.checkAttempt()).toEqual({ allowed: false, retryAt: 1000 });
    clock.advance(999);
    expect(lock.checkAttempt().allowed).toBe(false);
    clock.advance(1);
    expect(lock.checkAttempt()).toEqual({ allowed: true });
    lock.recordFailure();
    expect(lock.retryAt()).toBe(1000 + 2000);

    lock.recordSuccess();
    expect(lock.failures).toBe(0);
    expect(lock.retryAt()).toBeNull();
    expect(lock.locked).toBe(false);
  });

  it('keeps the wait of failures from before a restart', () => {
    const clock = new ManualClock(10_000);
    const lock = new LockState({
      clock,
      enabled: true,
      idleMs: 0,
      failures: 5,
      lastFailureAt: 9_000,
    });
    expect(lock.retryAt()).toBe(9_000 + 4000);
  });
});
