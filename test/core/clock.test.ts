/** The clocks everything waits on: the manual one fires due timers in time order as it advances. */
import { describe, expect, it } from 'vitest';
import { ManualClock, SystemClock } from '../../electron/core/clock';

describe('ManualClock', () => {
  it('fires due timers in time order during advance, and only those', () => {
    const clock = new ManualClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    const canceled = clock.setTimeout(() => fired.push('never'), 150);
    clock.clearTimeout(canceled);
    clock.setTimeout(() => fired.push('later'), 500);
    clock.advance(300);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1300);
    expect(clock.pending).toBe(1);
  });

  it('fires a timer set by a timer within the same advance', () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 50);
    }, 50);
    clock.advance(100);
    expect(fired).toEqual([50, 100]);
  });

  it('never goes back: set() to an earlier time keeps the present', () => {
    const clock = new ManualClock(500);
    clock.set(100);
    expect(clock.now()).toBe(500);
    clock.set(900);
    expect(clock.now()).toBe(900);
  });
});

describe('SystemClock', () => {
  it('reads the wall clock plus its skew and runs real timers', async () => {
    const clock = new SystemClock();
    clock.skewMs = 60_000;
    const skewed = clock.now() - Date.now();
    expect(skewed).toBeGreaterThanOrEqual(59_990);
    expect(skewed).toBeLessThanOrEqual(60_000);
    const fired = await new Promise<boolean>((resolve) => {
      clock.setTimeout(() => resolve(true), 5);
    });
    expect(fired).toBe(true);
    let late = false;
    const handle = clock.setTimeout(() => (late = true), 5);
    clock.clearTimeout(handle);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(late).toBe(false);
  });
});
