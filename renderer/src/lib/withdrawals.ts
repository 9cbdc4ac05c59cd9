/** How a withdraw record reads on screen: its kind, where it went, and why it failed. */
import type { BackfillProgress, WithdrawView } from '../../../shared/types';

/** The kind of transfer: on the chain, or to another account of the exchange (off-chain). */
export function withdrawKind(row: Pick<WithdrawView, 'partnerTransfer'>): 'On-chain' | 'Partner' {
  return row.partnerTransfer ? 'Partner' : 'On-chain';
}

/**
 * Where the funds went: the destination address of an on-chain withdrawal, or for a partner
 * transfer the receiving account, when the record names one (the interface leaves it out of most
 * partner records; some deployments send it as the address). null when the record has none.
 */
export function withdrawDestination(
  row: Pick<WithdrawView, 'partnerTransfer' | 'address'>,
): { kind: 'address' | 'account'; text: string } | null {
  const text = row.address?.trim();
  if (!text) return null;
  return { kind: row.partnerTransfer ? 'account' : 'address', text };
}

/**
 * Why a date range cannot match anything, or null when it can: a start after the end selects
 * no day at all, which the table would otherwise show as "0 records" without a reason.
 */
export function dateRangeProblem(
  startTime: number | undefined,
  endTime: number | undefined,
): string | null {
  if (startTime === undefined || endTime === undefined || startTime <= endTime) return null;
  return 'The "From" date is after the "To" date, so no withdrawal can match. Change one of the dates.';
}

/**
 * While the full-history fetch waits for the exchange's rate limit on the withdraw history (a few
 * requests a minute), how long it waits, so it does not look stalled; null when it is not waiting.
 */
export function backfillWaitText(
  progress: Pick<BackfillProgress, 'state' | 'waitingUntil'>,
  now: number,
): string | null {
  if (progress.state !== 'running' || progress.waitingUntil === undefined) return null;
  const seconds = Math.ceil((progress.waitingUntil - now) / 1000);
  const when = seconds > 0 ? `in about ${seconds} s` : 'now';
  return `Waiting for the exchange's rate limit on the withdraw history (a few requests a minute): the next request goes ${when}.`;
}
