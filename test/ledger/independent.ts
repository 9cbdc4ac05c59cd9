/**
 * The ledger's figures computed on their own from the exchange's records, by the rules
 * docs/architecture.md states, for tests that compare the app's figures with them exactly: a
 * division rounded as divide() does, a lot's share as the ledger splits it, the price of a time
 * from 12-hour candles, and a FIFO over own trades in USDT markets with the P&L of an interval.
 */
import Decimal from 'decimal.js';

/** Exact for every sum and product here. */
export const Exact = Decimal.clone({ precision: 400, rounding: Decimal.ROUND_HALF_EVEN });
export type Exact = Decimal;

/**
 * a ÷ b by the stated rule, computed on its own: the exact quotient's digits (a nudge past the
 * truncation keeps a cut-off tail from looking like an exact half), then half-even to 40
 * significant digits, never more than 40 places.
 */
export function quotient(a: Exact, b: Exact): Exact {
  const Truncating = Exact.clone({ rounding: Decimal.ROUND_DOWN });
  let q = new Truncating(a).div(new Truncating(b));
  if (!q.times(b).eq(a)) q = q.plus(new Exact(10).pow(q.e - 390));
  const places = Math.min(40, 39 - q.e);
  return new Exact(q.toDecimalPlaces(places, Decimal.ROUND_HALF_EVEN));
}

/** A split of a lot's cost: half-even to 18 places (the ledger's stated rule for shares). */
export const share = (total: Exact, part: Exact, whole: Exact): Exact =>
  part.eq(whole) ? total : total.times(part).div(whole).toDecimalPlaces(18);

export const TWELVE_HOURS_MS = 12 * 3_600_000;

/**
 * The price of a time from a market's 12-hour candles ([openTime, close], any order): the close
 * of the last candle finished by `time`; before the first, the first close; null without any.
 */
export function closeAt(candles: readonly [number, string][], time: number): Exact | null {
  const sorted = [...candles].sort((a, b) => a[0] - b[0]);
  if (sorted.length === 0) return null;
  let close = sorted[0]![1];
  for (const [openTime, value] of sorted) {
    if (openTime + TWELVE_HOURS_MS <= time) close = value;
  }
  return new Exact(close);
}

/** An own trade as the exchange's myTrades states it. */
export interface TradeRecord {
  id: number;
  symbol: string;
  side: string;
  qty: string;
  quoteQty: string;
  fee: string;
  feeCurrency: string;
  time: number;
}

export interface FigureSet {
  realized: Exact;
  fees: Exact;
  unrealized: Exact;
}

/**
 * FIFO in `cash` over one account's trades on USDT markets (base = the symbol less "usdt"), as
 * of `at` (every trade at or before it), valued at `price(asset, at)`:
 * - the reporting asset is cash (no lots, no gains);
 * - a trade is worth its quote amount at the quote's price of its time (its base amount when the
 *   base is cash); a buy's fee (in the base it receives) adds to what it buys, a sell's fee (in
 *   the USDT it receives) reduces its proceeds; cash carries no fee, the other side does;
 * - the opening USDT, which the records do not explain, came in just before the first trade that
 *   spent it, at its value then.
 */
export function figuresAsOf(input: {
  cash: string;
  price: (asset: string, time: number) => Exact;
  opening: Exact;
  trades: readonly TradeRecord[];
  at: number;
}): FigureSet {
  const { cash, price } = input;
  const lots = new Map<string, { qty: Exact; cost: Exact }[]>();
  let realized = new Exact(0);
  let fees = new Exact(0);
  const add = (asset: string, qty: Exact, cost: Exact) => {
    if (asset === cash) return;
    const list = lots.get(asset) ?? [];
    lots.set(asset, list);
    list.push({ qty, cost });
  };
  const dispose = (asset: string, qty: Exact, proceeds: Exact) => {
    if (asset === cash) return;
    const list = lots.get(asset)!;
    let cost = new Exact(0);
    let left = qty;
    while (left.gt(0)) {
      const lot = list[0]!;
      const taken = Exact.min(lot.qty, left);
      const part = share(lot.cost, taken, lot.qty);
      cost = cost.plus(part);
      lot.qty = lot.qty.minus(taken);
      lot.cost = lot.cost.minus(part);
      if (lot.qty.isZero()) list.shift();
      left = left.minus(taken);
    }
    realized = realized.plus(proceeds.minus(cost));
  };
  const ordered = [...input.trades].sort((a, b) => a.time - b.time || a.id - b.id);
  const first = ordered[0];
  if (first && first.time <= input.at) {
    add('usdt', input.opening, input.opening.times(price('usdt', first.time)));
  }
  for (const trade of ordered) {
    if (trade.time > input.at) break;
    const base = trade.symbol.slice(0, -4);
    const qty = new Exact(trade.qty);
    const quoteQty = new Exact(trade.quoteQty);
    const fee = new Exact(trade.fee);
    const usdt = cash === 'usdt' ? new Exact(1) : price('usdt', trade.time);
    const value = cash === base ? qty : quoteQty.times(usdt);
    if (trade.side === 'buy') {
      const feeValue = base === cash ? fee : share(value, fee, qty);
      fees = fees.plus(feeValue);
      const proceeds = base === cash ? value.minus(feeValue) : value;
      dispose('usdt', quoteQty, proceeds);
      add(base, qty.minus(fee), proceeds);
    } else {
      const feeValue =
        cash === 'usdt' ? fee : base === cash ? share(value, fee, quoteQty) : fee.times(usdt);
      fees = fees.plus(feeValue);
      const proceeds = base === cash ? value : value.minus(feeValue);
      dispose(base, qty, proceeds);
      add('usdt', quoteQty.minus(fee), proceeds);
    }
  }
  let unrealized = new Exact(0);
  for (const [asset, list] of lots) {
    for (const lot of list) {
      unrealized = unrealized.plus(lot.qty.times(price(asset, input.at)).minus(lot.cost));
    }
  }
  return { realized, fees, unrealized };
}

/** The P&L of (from, to]: the figures at `to` less those at `from`. */
export function intervalFigures(
  input: Omit<Parameters<typeof figuresAsOf>[0], 'at'>,
  from: number,
  to: number,
) {
  const start = figuresAsOf({ ...input, at: from });
  const end = figuresAsOf({ ...input, at: to });
  const realized = end.realized.minus(start.realized);
  const unrealizedChange = end.unrealized.minus(start.unrealized);
  return {
    realizedPnl: realized.toFixed(),
    feesPaid: end.fees.minus(start.fees).toFixed(),
    unrealizedChange: unrealizedChange.toFixed(),
    pnl: realized.plus(unrealizedChange).toFixed(),
  };
}

export type MethodName = 'fifo' | 'lifo' | 'hifo' | 'average';

/**
 * One account's holding of one (non-cash) asset under a cost method, by the rules
 * docs/architecture.md states, written on its own: FIFO takes the oldest lot first, LIFO the
 * newest, HIFO the highest cost per unit as the lot came in (equal ones oldest first); a lot
 * taken in part gives its cost's share (half-even to 18 places). Average cost: what leaves
 * carries the share of the whole position's cost.
 */
export class MethodPosition {
  private lots: { qty: Exact; cost: Exact; at: number; seq: number; unit: Exact }[] = [];
  private seq = 0;
  constructor(private readonly method: MethodName) {}

  add(qty: Exact, cost: Exact, at: number): void {
    this.lots.push({ qty, cost, at, seq: this.seq++, unit: cost.div(qty) });
  }

  get quantity(): Exact {
    return this.lots.reduce((sum, lot) => sum.plus(lot.qty), new Exact(0));
  }

  get cost(): Exact {
    return this.lots.reduce((sum, lot) => sum.plus(lot.cost), new Exact(0));
  }

  /** Takes `qty` out; the cost it carries. */
  take(qty: Exact): Exact {
    if (this.method === 'average') {
      const total = this.quantity;
      const out = share(this.cost, qty, total);
      const left = this.cost.minus(out);
      const rest = total.minus(qty);
      // The cost left is spread over what is left; only the total matters from here on.
      this.lots = rest.isZero() ? [] : [{ qty: rest, cost: left, at: 0, seq: 0, unit: left }];
      return out;
    }
    let left = qty;
    let taken = new Exact(0);
    while (left.gt(0)) {
      const lot = this.next();
      const part = Exact.min(lot.qty, left);
      const cost = share(lot.cost, part, lot.qty);
      taken = taken.plus(cost);
      lot.qty = lot.qty.minus(part);
      lot.cost = lot.cost.minus(cost);
      if (lot.qty.isZero()) this.lots.splice(this.lots.indexOf(lot), 1);
      left = left.minus(part);
    }
    return taken;
  }

  private next() {
    if (this.method === 'fifo') return this.lots[0]!;
    if (this.method === 'lifo') return this.lots[this.lots.length - 1]!;
    return [...this.lots].sort(
      (a, b) => b.unit.comparedTo(a.unit) || a.at - b.at || a.seq - b.seq,
    )[0]!;
  }
}
