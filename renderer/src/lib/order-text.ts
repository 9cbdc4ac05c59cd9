import type { OrderView, SymbolView } from '../../../shared/types';
import { Decimal } from '../../../shared/exact-decimal';
import { describeOrder } from '../../../shared/format';

/**
 * "Buy 0.001 BTC at 61,250.07 USDT" (with ", stop 2,850 USDT" for a stop-limit), for toasts; the
 * units come from the market's symbol when it is known.
 */
export function orderSummary(order: OrderView, symbols: readonly SymbolView[] = []): string {
  const market = symbols.find((s) => s.symbol === order.symbol);
  return describeOrder({
    side: order.side,
    qty: order.origQty,
    price: order.price,
    stopPrice: order.stopPrice,
    symbol: order.symbol,
    baseAsset: market?.baseAsset,
    quoteAsset: market?.quoteAsset,
  });
}

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
