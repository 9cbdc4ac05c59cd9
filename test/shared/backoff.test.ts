import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../shared/backoff';

describe('backoffDelay', () => {
  it('doubles from the first wait up to the cap, exactly without jitter', () => {
    const lock = { firstMs: 1000, maxMs: 5 * 60_000 };
    expect([0, 1, 2, 3, 8, 9, 50].map((attempt) => backoffDelay(attempt, lock))).toEqual([
      1000, 2000, 4000, 8000, 256_000, 300_000, 300_000,
    ]);
    // A negative attempt (no failure yet beyond the free ones) waits the first delay, not less.
    expect(backoffDelay(-1, lock)).toBe(1000);
  });

  it('draws from the upper half of the ceiling with equal jitter', () => {
    const stream = { firstMs: 250, maxMs: 30_000, jitter: 'equal' } as const;
    expect(backoffDelay(0, stream, () => 0)).toBe(125);
    expect(backoffDelay(0, stream, () => 1)).toBe(250);
    expect(backoffDelay(3, stream, () => 0.5)).toBe(1500);
    expect(backoffDelay(20, stream, () => 1)).toBe(30_000);
    expect(backoffDelay(20, stream, () => 0)).toBe(15_000);
  });
});
