/**
 * orders.*: open orders, order history and own trades from the cache (electron/orders/history.ts);
 * test, place and cancel through the order desk (electron/orders/desk.ts). Testing, placing and
 * canceling need a key with the trade permission: without it the answer says what the key may do
 * before anything is sent.
 */
import type { ApiContext, HandlerGroup } from './context';

export function ordersHandlers(ctx: ApiContext) {
  return {
    'orders.open': async ({ symbol }) => ctx.orderHistory.open(ctx.session.require(), symbol),
    'orders.history': async (input) => ctx.orderHistory.orders(ctx.session.require(), input),
    'orders.trades': async (input) => ctx.orderHistory.trades(ctx.session.require(), input),
    'orders.test': (input) => ctx.orders.test(ctx.session.requireTrade('test orders'), input),
    'orders.place': (input) => ctx.orders.place(ctx.session.requireTrade('place orders'), input),
    'orders.cancel': (input) => ctx.orders.cancel(ctx.session.requireTrade('cancel orders'), input),
    'orders.cancelAll': async ({ symbol }) => ({
      canceled: await ctx.orders.cancelAll(ctx.session.requireTrade('cancel orders'), symbol),
    }),
  } satisfies HandlerGroup<'orders'>;
}
