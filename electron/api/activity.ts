/**
 * activity.*: the recent-activity feed (orders, own trades and balance changes from the cache,
 * newest first) and the notification list.
 */
import type { ActivityItem, NotificationView } from '../../shared/types';
import type { NotificationRow } from '../store/types';
import type { ApiContext, HandlerGroup } from './context';

function toNotificationView(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    time: row.time,
    read: row.read,
  };
}

export function activityHandlers(ctx: ApiContext) {
  return {
    'activity.feed': async ({ limit }) => {
      const { profile } = ctx.session.require();
      const { store } = ctx;
      const orders = store.orders.ordersPage(profile.id, { direction: 'desc', limit }).rows;
      const trades = store.orders.tradesPage(profile.id, { direction: 'desc', limit }).rows;
      const funds = store.funds.list(profile.id).rows;
      const items: ActivityItem[] = [
        ...orders.map((o): ActivityItem => ({
          kind: 'order',
          time: o.updatedTime,
          order: {
            orderId: o.id,
            clientOrderId: o.clientOrderId,
            symbol: o.symbol,
            side: o.side,
            type: o.type,
            status: o.status,
            price: o.price,
            origQty: o.origQty,
            executedQty: o.executedQty,
            time: o.updatedTime,
          },
        })),
        ...trades.map((t): ActivityItem => ({
          kind: 'trade',
          time: t.time,
          trade: {
            tradeId: t.id,
            orderId: t.orderId,
            symbol: t.symbol,
            side: t.side,
            price: t.price,
            qty: t.qty,
            fee: t.fee,
            feeCurrency: t.feeCurrency,
            time: t.time,
          },
        })),
        ...funds.map((f): ActivityItem => ({
          kind: 'balance',
          time: f.updatedAt,
          balance: { asset: f.asset, free: f.free, locked: f.locked, time: f.updatedAt },
        })),
      ];
      return items.sort((a, b) => b.time - a.time).slice(0, limit);
    },
    'activity.notifications': async ({ limit }) => {
      const { profile } = ctx.session.require();
      return ctx.store.notifications.list(profile.id, { limit }).map(toNotificationView);
    },
    'activity.markNotificationsRead': async () => {
      const { profile } = ctx.session.require();
      ctx.store.notifications.markRead(profile.id, 'all');
      ctx.emit('data.changed', { profileId: profile.id, kinds: ['notifications'] });
      return { ok: true as const };
    },
  } satisfies HandlerGroup<'activity'>;
}
