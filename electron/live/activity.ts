/**
 * The Activity screen's reads: the recent-activity feed (orders, own trades and balance changes
 * from the cache, newest first, in the shapes of the private stream's events, so the live feed
 * goes on from it) and the notifications, which the user marks read. One Activity, built in
 * app.ts, serves whichever profile is active.
 */
import type { ActivityItem, NotificationView } from '../../shared/types';
import type { Emit } from '../core/events';
import type { Store } from '../store';
import { toNotificationView } from './notify';

export interface ActivityDeps {
  store: Store;
  emit: Emit;
}

export class Activity {
  constructor(private readonly deps: ActivityDeps) {}

  /** The newest `limit` orders, own trades and balance changes of the profile together. */
  feed(profileId: string, limit: number): ActivityItem[] {
    const { store } = this.deps;
    const orders = store.orders.ordersPage(profileId, { direction: 'desc', limit }).rows;
    const trades = store.orders.tradesPage(profileId, { direction: 'desc', limit }).rows;
    const funds = store.funds.list(profileId).rows;
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
  }

  /** The profile's newest `limit` notifications. */
  notifications(profileId: string, limit: number): NotificationView[] {
    return this.deps.store.notifications.list(profileId, { limit }).map(toNotificationView);
  }

  /** Marks every notification of the profile read, and says the list changed. */
  markNotificationsRead(profileId: string): void {
    this.deps.store.notifications.markRead(profileId, 'all');
    this.deps.emit('data.changed', { profileId, kinds: ['notifications'] });
  }
}
