/**
 * orders.*: open orders, order history and own trades from the cache; test, place and cancel
 * through the order desk (electron/orders/desk.ts). Testing, placing and canceling need a key
 * with the trade permission: without it the answer says what the key may do before anything is
 * sent.
 */
import type { ApiContext, HandlerGroup } from './context';

export function ordersHandlers(ctx: ApiContext) {
  return {
    'orders.open': async ({ symbol }) => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['openOrders']);
      const rows = ctx.store.orders.openOrders(profile.id, symbol);
      return {
        rows: rows.map((row) => ({ ...row })),
        total: rows.length,
        asOf: sync.jobStatus('openOrders').lastSuccessAt,
      };
    },
    'orders.history': async ({ symbol, status, offset, limit }) => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['orders']);
      const page = ctx.store.orders.ordersPage(profile.id, {
        symbol,
        status,
        direction: 'desc',
        offset,
        limit,
      });
      return {
        rows: page.rows.map((row) => ({ ...row })),
        total: page.total,
        asOf: sync.jobStatus('orders').lastSuccessAt,
      };
    },
    'orders.trades': async ({ filter, offset, limit }) => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['trades']);
      const query = {
        symbol: filter.symbol,
        side: filter.side,
        from: filter.startTime,
        to: filter.endTime,
      };
      const page = ctx.store.orders.tradesPage(profile.id, {
        ...query,
        direction: 'desc',
        offset,
        limit,
      });
      return {
        rows: page.rows.map((row) => ({ ...row })),
        total: page.total,
        asOf: sync.jobStatus('trades').lastSuccessAt,
        feesByAsset: ctx.store.orders.feesByAsset(profile.id, query),
      };
    },
    'orders.test': (input) => ctx.orders.test(ctx.session.requireTrade('test orders'), input),
    'orders.place': (input) => ctx.orders.place(ctx.session.requireTrade('place orders'), input),
    'orders.cancel': (input) => ctx.orders.cancel(ctx.session.requireTrade('cancel orders'), input),
    'orders.cancelAll': async ({ symbol }) => ({
      canceled: await ctx.orders.cancelAll(ctx.session.requireTrade('cancel orders'), symbol),
    }),
  } satisfies HandlerGroup<'orders'>;
}
