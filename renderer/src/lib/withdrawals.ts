/** How a withdraw record reads on screen: its kind, where it went, and why it failed. */
import type { WithdrawView } from '../../../shared/types';

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
