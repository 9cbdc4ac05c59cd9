/**
 * The one exponential back-off rule, for every retry of the main process and the page alike: the
 * wait doubles from `firstMs` with each failure, up to `maxMs`. With "equal" jitter the wait is
 * drawn from the upper half of that ceiling, so clients that lost the same server do not all come
 * back in the same millisecond; without it the wait is exact (a user is told how long to wait).
 */
export interface Backoff {
  firstMs: number;
  maxMs: number;
  jitter?: 'none' | 'equal';
}

/** The wait before retry `attempt` (0: the first retry). */
export function backoffDelay(
  attempt: number,
  backoff: Backoff,
  random: () => number = Math.random,
): number {
  // 2^30 is past any cap worth having; the bound keeps the power finite.
  const ceiling = Math.min(
    backoff.maxMs,
    backoff.firstMs * 2 ** Math.min(Math.max(0, attempt), 30),
  );
  if (backoff.jitter !== 'equal') return ceiling;
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
