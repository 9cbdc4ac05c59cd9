import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/sandbox/clock';

describe('ManualClock', () => {
  it('fires due timers in time order while advancing', () => {
    const clock = new ManualClock(1_000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    const cancelled = clock.setTimeout(() => fired.push('never'), 150);
    clock.clearTimeout(cancelled);
    clock.advance(150);
    expect(fired).toEqual(['a@1100']);
    clock.advance(100);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1_250);
  });

  it('runs timers scheduled by a firing timer when they fall due in the same advance', () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 10);
    }, 10);
    clock.advance(30);
    expect(fired).toEqual([10, 20]);
  });
});
