/**
 * orders.*: open orders, order history and own trades from the cache; test, place and cancel
 * through the client. A place that meets a 5xx or a timeout is reconciled by the client (by
 * clientOrderId) before it answers, so a retry by the user never doubles an order silently.
 * Testing, placing and canceling need a key with the trade permission: without it the answer
 * says what the key may do before anything is sent. A test is a review: local checks with their
 * numbers first (see orders/review.ts), the exchange's test endpoint only when they all pass.
 */
import { randomBytes } from 'node:crypto';
import { Decimal } from '../../shared/exact-decimal';
import { toOrderView } from '../core/views';
import type { Order } from '../exchange/wire';
import { testOrder, toNewOrder } from '../orders/review';
import type { ApiContext, HandlerGroup } from './context';

export function ordersHandlers(ctx: ApiContext) {
  const remember = (profileId: string, orders: Order[]): void => {
    if (orders.length === 0) return;
    ctx.store.orders.upsertOrders(profileId, orders);
    ctx.emit('data.changed', { profileId, kinds: ['orders'] });
  };

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
    'orders.test': (input) =>
      testOrder(
        ctx.rules,
        ctx.session.requireTrade('test orders').client,
        input,
        new Decimal(ctx.settings().priceWarningPercent),
      ),
    'orders.place': async (input) => {
      const { profile, client, journal, live } = ctx.session.requireTrade('place orders');
      await ctx.rules.checkOrderDecimals(client, input);
      // Journaled under its clientOrderId before it is sent: if the app dies before the answer,
      // the next start looks the order up instead of leaving the user to guess.
      // Its own client order id, so the live session can hold a fill that overtakes the answer.
      const clientOrderId = randomBytes(16).toString('hex');
      const order = await live.placeOrder(clientOrderId, () =>
        journal.placeOrder({ ...toNewOrder(input), clientOrderId }),
      );
      remember(profile.id, [order]);
      ctx.log.info(`placed order ${order.id} (${order.symbol} ${order.side} ${order.type})`);
      return toOrderView(order);
    },
    'orders.cancel': async ({ symbol, orderId }) => {
      const { profile, client } = ctx.session.requireTrade('cancel orders');
      await ctx.rules.checkListedSymbol(client, symbol);
      const order = await client.trading.cancelOrder({ symbol, orderId });
      remember(profile.id, [order]);
      return toOrderView(order);
    },
    'orders.cancelAll': async ({ symbol }) => {
      const { profile, client } = ctx.session.requireTrade('cancel orders');
      await ctx.rules.checkListedSymbol(client, symbol);
      const canceled = await client.trading.cancelAllOrders({ symbol });
      remember(profile.id, canceled);
      return { canceled: canceled.map(toOrderView) };
    },
  } satisfies HandlerGroup<'orders'>;
}
