/** Sentences about the ledger's entries, built in one place so the screens and tests agree. */
import type { InferredDetail } from '../../../shared/ledger';
import { formatDateTime } from '../../../shared/format';

/**
 * When an inferred entry happened: after the observation that opens its interval, and before the
 * known movement that needed it (the withdrawal, trade or transfer that would otherwise have spent
 * more than was there) or else by the observation that closes it.
 */
export function inferredWindow(detail: Pick<InferredDetail, 'from' | 'to' | 'before'>): string {
  const from = formatDateTime(detail.from);
  if (detail.before) {
    return `Happened between ${from} and before the ${detail.before.kind} of ${formatDateTime(detail.before.time)}`;
  }
  return `Happened between ${from} and ${formatDateTime(detail.to)}`;
}
