import type { OrderView, SymbolView } from '../../../shared/types';
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
