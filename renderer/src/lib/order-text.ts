import type { SymbolView } from '../../../shared/types';
import { Decimal } from '../../../shared/exact-decimal';

/**
 * The market the order form opens on: the first (by name) whose quote asset the user has free to
 * buy with, else the first whose base asset the user holds free to sell, else the first. A form
 * opening on BTC/INR with 0 INR free offers an order that cannot be paid for.
 */
export function defaultOrderMarket(
  markets: readonly SymbolView[],
  free: ReadonlyMap<string, string>,
): string {
  const sorted = [...markets].sort((a, b) => a.symbol.localeCompare(b.symbol));
  const has = (asset: string) => new Decimal(free.get(asset.toLowerCase()) ?? '0').gt(0);
  return (
    sorted.find((m) => has(m.quoteAsset))?.symbol ??
    sorted.find((m) => has(m.baseAsset))?.symbol ??
    sorted[0]?.symbol ??
    ''
  );
}
