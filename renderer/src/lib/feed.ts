/** The activity feed's merge of loaded and live items. */
import type { ActivityItem } from '../../../shared/types';

export const feedLimit = 200;

/** Merges new live items into the feed: newest first, no duplicates, bounded length. */
export function mergeFeed(
  current: ActivityItem[],
  incoming: ActivityItem[],
  limit = feedLimit,
): ActivityItem[] {
  const key = (item: ActivityItem) =>
    item.kind === 'order'
      ? `o:${item.order.orderId}:${item.order.status}:${item.order.executedQty}`
      : item.kind === 'trade'
        ? `t:${item.trade.tradeId}`
        : `b:${item.balance.asset}:${item.balance.time}:${item.balance.free}:${item.balance.locked}`;
  const seen = new Set<string>();
  const merged: ActivityItem[] = [];
  for (const item of [...incoming, ...current].sort((a, b) => b.time - a.time)) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    merged.push(item);
    if (merged.length >= limit) break;
  }
  return merged;
}
