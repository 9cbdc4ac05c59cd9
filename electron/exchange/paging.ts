/**
 * Whole histories from paged endpoints: every order or own trade from an id on, and the withdraw
 * history over any span (the exchange answers at most 1000 records and windows under 90 days).
 */
import { validate, type InputOf } from './inputs';
import type { OwnTrade, Order, WithdrawRecord } from './wire';

const PAGE_LIMIT = 1000;

/** Each window spans < 90 days, as the exchange requires when both startTime and endTime are sent. */
export const WITHDRAW_WINDOW_MS = 89 * 86_400_000;

/**
 * Splits the inclusive range [startTime, endTime] into disjoint inclusive windows shorter than 90
 * days, newest first, that cover it exactly.
 */
export function withdrawWindows(
  startTime: number,
  endTime: number,
  windowMs = WITHDRAW_WINDOW_MS,
): { windowStart: number; windowEnd: number }[] {
  const windows: { windowStart: number; windowEnd: number }[] = [];
  let windowEnd = endTime;
  while (windowEnd >= startTime) {
    const windowStart = Math.max(startTime, windowEnd - windowMs + 1);
    windows.push({ windowStart, windowEnd });
    windowEnd = windowStart - 1;
  }
  return windows;
}

/** The single-page reads the helpers walk with. */
export interface PagedReads {
  allOrders(p: InputOf<'allOrders'>): Promise<Order[]>;
  myTrades(p: InputOf<'myTrades'>): Promise<OwnTrade[]>;
  withdraws(p: InputOf<'withdraws'>): Promise<WithdrawRecord[]>;
}

/** Every order of a symbol from fromOrderId on (ascending ids); onPage gets the running count. */
export async function allOrdersFrom(
  reads: PagedReads,
  p: InputOf<'allOrdersFrom'>,
): Promise<Order[]> {
  const v = validate('allOrdersFrom', p, 'allOrdersFrom');
  const out: Order[] = [];
  let from = v.fromOrderId ?? 1;
  for (;;) {
    const page = await reads.allOrders({ symbol: v.symbol, orderId: from, limit: PAGE_LIMIT });
    const fresh = page.filter((o) => o.id >= from);
    out.push(...fresh);
    v.onPage?.(out.length);
    if (page.length < PAGE_LIMIT || fresh.length === 0) return out;
    from = Math.max(...fresh.map((o) => o.id)) + 1;
  }
}

/** Every own trade from fromId on (ascending ids); onPage gets the running count. */
export async function allMyTradesFrom(
  reads: PagedReads,
  p: InputOf<'allMyTradesFrom'>,
): Promise<OwnTrade[]> {
  const v = validate('allMyTradesFrom', p, 'allMyTradesFrom');
  const out: OwnTrade[] = [];
  let from = v.fromId ?? 1;
  for (;;) {
    const query: InputOf<'myTrades'> = { fromId: from, limit: PAGE_LIMIT };
    if (v.symbol !== undefined) query.symbol = v.symbol;
    const page = await reads.myTrades(query);
    const fresh = page.filter((t) => t.id >= from);
    out.push(...fresh);
    v.onPage?.(out.length);
    if (page.length < PAGE_LIMIT || fresh.length === 0) return out;
    from = Math.max(...fresh.map((t) => t.id)) + 1;
  }
}

/**
 * Walks [startTime, endTime] in windows < 90 days (newest first), offset-paging inside each
 * window. Records are deduplicated by id: a withdrawal created while paging shifts the
 * newest-first order by one, which can repeat a record but never skip one.
 */
export async function withdrawHistory(
  reads: PagedReads,
  p: InputOf<'withdrawHistory'>,
): Promise<WithdrawRecord[]> {
  const v = validate('withdrawHistory', p, 'withdrawHistory');
  const windows = withdrawWindows(v.startTime, v.endTime);
  const seen = new Set<string>();
  const out: WithdrawRecord[] = [];
  let done = 0;
  for (const { windowStart, windowEnd } of windows) {
    const records: WithdrawRecord[] = [];
    for (let offset = 0; ;) {
      const query: InputOf<'withdraws'> = {
        startTime: windowStart,
        endTime: windowEnd,
        offset,
        limit: PAGE_LIMIT,
      };
      if (v.coin !== undefined) query.coin = v.coin;
      const page = await reads.withdraws(query);
      for (const record of page) {
        if (seen.has(record.id)) continue;
        seen.add(record.id);
        records.push(record);
      }
      if (page.length < PAGE_LIMIT) break;
      offset += page.length;
    }
    out.push(...records);
    done++;
    await v.onWindow?.({ done, total: windows.length, windowStart, windowEnd, records });
  }
  return out;
}
