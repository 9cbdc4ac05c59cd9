import type { OrderView } from '../../../shared/types';
import { formatAmount } from '../../../shared/format';

/** "Buy 0.001 BTCUSDT at 61,250.07", for toasts. */
export function orderSummary(order: OrderView): string {
  const side = order.side === 'buy' ? 'Buy' : 'Sell';
  return `${side} ${formatAmount(order.origQty)} ${order.symbol.toUpperCase()} at ${formatAmount(order.price)}`;
}
