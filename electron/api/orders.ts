/**
 * orders.*: open orders, order history and own trades from the cache (electron/orders/history.ts);
 * test, place and cancel through the order desk (electron/orders/desk.ts). Testing, placing and
 * canceling need a key with the trade permission: without it the answer says what the key may do
 * before anything is sent. A linked sub-account's order is canceled with its own key, whose
 * permission the exchange checks (the parent's key may not be allowed to trade at all).
 */
import { MAIN_ACCOUNT } from '../../shared/ledger';
import type { ApiContext, HandlerGroup } from './context';

export function ordersHandlers(ctx: ApiContext) {
  const cancelSession = (account: string | undefined) =>
    (account ?? MAIN_ACCOUNT) === MAIN_ACCOUNT
      ? ctx.session.requireTrade('cancel orders')
      : ctx.session.require();
  return {
    'orders.open': async (input) => ctx.orderHistory.open(ctx.session.require(), input),
    'orders.history': async (input) => ctx.orderHistory.orders(ctx.session.require(), input),
    'orders.trades': async (input) => ctx.orderHistory.trades(ctx.session.require(), input),
    'orders.test': (input) => ctx.orders.test(ctx.session.requireTrade('test orders'), input),
    'orders.place': (input) => ctx.orders.place(ctx.session.requireTrade('place orders'), input),
    'orders.cancel': (input) => ctx.orders.cancel(cancelSession(input.account), input),
    'orders.cancelAll': async (input) => ({
      canceled: await ctx.orders.cancelAll(cancelSession(input.account), input),
    }),
  } satisfies HandlerGroup<'orders'>;
}
