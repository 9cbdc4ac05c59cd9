/** A depth ladder's rows: price, size and the running total that sizes each row's bar. */
import { Decimal, divide } from '../../../shared/exact-decimal';

export interface LadderRow {
  price: string;
  qty: string;
  cumulative: string;
  /** cumulative / the side's largest cumulative, 0..1, for the bar width. */
  fill: number;
}

export function ladder(levels: [string, string][], depth: number): LadderRow[] {
  const rows: LadderRow[] = [];
  let running = new Decimal(0);
  for (const [price, qty] of levels.slice(0, depth)) {
    running = running.plus(new Decimal(qty));
    rows.push({ price, qty, cumulative: running.toString(), fill: 0 });
  }
  const max = running;
  for (const row of rows) {
    row.fill = max.isZero() ? 0 : divide(row.cumulative, max).toNumber();
  }
  return rows;
}

/** Best ask minus best bid; null when a side is empty. */
export function spread(bids: [string, string][], asks: [string, string][]): string | null {
  const bestBid = bids[0]?.[0];
  const bestAsk = asks[0]?.[0];
  if (bestBid === undefined || bestAsk === undefined) return null;
  return new Decimal(bestAsk).minus(new Decimal(bestBid)).toString();
}
