/**
 * The active profile's orders and own trades as the cache holds them: the open orders, the order
 * history and the trades (with the fees paid over the whole filtered set), newest first, each
 * with when sync last read it. Asking for one also puts its sync job first for a while, so the
 * screen that shows it is the one brought up to date. One OrderHistory, built in app.ts, serves
 * whichever profile is active.
 */
import type { MethodParsedInput } from '../../shared/contract';
import type { OrderView, Page, TradesPage } from '../../shared/types';
import type { Store } from '../store';

type OrderJob = 'openOrders' | 'orders' | 'trades';

/** What the reads need of the active profile's session: its id and its sync's jobs. */
export interface OrderHistorySession {
  readonly profile: { readonly id: string };
  readonly sync: {
    /** Runs these jobs first for a while (the screen that shows them is open). */
    focus(jobs: OrderJob[]): void;
    jobStatus(job: OrderJob): { readonly lastSuccessAt: number | null };
  };
}

export class OrderHistory {
  constructor(private readonly deps: { store: Store }) {}

  /** The open orders (of one symbol, or all). */
  open(session: OrderHistorySession, symbol: string | undefined): Page<OrderView> {
    const { profile, sync } = session;
    sync.focus(['openOrders']);
    const rows = this.deps.store.orders.openOrders(profile.id, symbol);
    return {
      rows: rows.map((row) => ({ ...row })),
      total: rows.length,
      asOf: sync.jobStatus('openOrders').lastSuccessAt,
    };
  }

  /** A page of the orders, newest first, of one symbol or status or all. */
  orders(
    session: OrderHistorySession,
    { symbol, status, offset, limit }: MethodParsedInput<'orders.history'>,
  ): Page<OrderView> {
    const { profile, sync } = session;
    sync.focus(['orders']);
    const page = this.deps.store.orders.ordersPage(profile.id, {
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
  }

  /** A page of the own trades, newest first, and the fees paid over every trade the filter takes. */
  trades(
    session: OrderHistorySession,
    { filter, offset, limit }: MethodParsedInput<'orders.trades'>,
  ): TradesPage {
    const { profile, sync } = session;
    const { store } = this.deps;
    sync.focus(['trades']);
    const query = {
      symbol: filter.symbol,
      side: filter.side,
      from: filter.startTime,
      to: filter.endTime,
    };
    const page = store.orders.tradesPage(profile.id, {
      ...query,
      direction: 'desc',
      offset,
      limit,
    });
    return {
      rows: page.rows.map((row) => ({ ...row })),
      total: page.total,
      asOf: sync.jobStatus('trades').lastSuccessAt,
      feesByAsset: store.orders.feesByAsset(profile.id, query),
    };
  }
}
