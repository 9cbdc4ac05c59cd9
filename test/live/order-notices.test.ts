/**
 * What the user is told of an account's orders and fills (live/order-notices.ts), the rules the
 * main account's live session and every linked sub-account's feed share: a fill held until its
 * order's update covers it (or a summary window is over), the fills after the first summed up per
 * window, a cancel told once, and two accounts' orders of the same id kept apart. On a manual
 * clock and a real store; the stream's events are handed in as the live session and the feed hand
 * them, after storing the order as they do (`orderRowOf`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { orderRowOf } from '../../electron/live/live-session';
import { FILL_SUMMARY_EVERY_MS, OrderNotices } from '../../electron/live/order-notices';
import { createLogger } from '../../electron/log';
import { DEFAULT_SETTINGS } from '../../electron/settings/stored';
import type { Store } from '../../electron/store';
import { storePort } from '../../electron/sync/store-port';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import type { NotificationView, OrderUpdate, OwnTradeUpdate, Settings } from '../../shared/types';
import { freshStore } from '../store/helpers';

const P = 'p1';
const SUB = 'desk@subs.test';
let store: Store;
let clock: ManualClock;
let notices: OrderNotices;
let settings: Settings;
/** The 'notification' events, as the page would turn them into toasts. */
let shown: NotificationView[];
/** What the notices logged: a failure to tell is logged, never thrown. */
let logged: string[];

beforeEach(() => {
  store = freshStore(P);
  storePort(store).replaceSymbols(
    P,
    [{ symbol: 'btcusdt', baseAsset: 'BTC', quoteAsset: 'USDT' }] as never,
    0,
  );
  clock = new ManualClock(1_800_000_000_000);
  settings = DEFAULT_SETTINGS;
  shown = [];
  logged = [];
  notices = new OrderNotices({
    notify: {
      store,
      profileId: P,
      emit: (event, payload) => {
        if (event === 'notification') shown.push(payload as NotificationView);
      },
      settings: () => settings,
      now: () => clock.now(),
      log: createLogger((line) => logged.push(line)),
    },
    clock,
    port: storePort(store),
  });
  for (const account of [MAIN_ACCOUNT, SUB]) {
    notices.open(account, { order: (id) => store.orders.getOrder(P, id, account) });
  }
});

afterEach(() => {
  expect(logged).toEqual([]);
  store.close();
});

/** An order of `account` as its stream tells it: stored first, then handed to the notices. */
function orderUpdate(account: string, fields: Partial<OrderUpdate> & { orderId: number }): void {
  const update: OrderUpdate = {
    clientOrderId: `c${fields.orderId}`,
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    status: 'wait',
    price: '100',
    origQty: '0.5',
    executedQty: '0',
    time: clock.now(),
    ...fields,
  };
  const existing = store.orders.getOrder(P, update.orderId, account);
  const row = orderRowOf(update, existing);
  if (row) store.orders.upsertOrders(P, [row], account);
  notices.order(account, update, existing?.status);
}

let tradeId = 0;
function trade(account: string, fields: Partial<OwnTradeUpdate> & { orderId: number }): void {
  const update: OwnTradeUpdate = {
    tradeId: ++tradeId,
    symbol: 'btcusdt',
    side: 'buy',
    price: '100',
    qty: '0.1',
    fee: '0',
    feeCurrency: 'usdt',
    time: clock.now(),
    ...fields,
  };
  notices.trade(account, update, `c${update.orderId}`);
}

const titles = () => shown.map((n) => n.title);

describe('order notices', () => {
  it('tells the first fill at once and sums up the rest of the window in one', () => {
    orderUpdate(MAIN_ACCOUNT, { orderId: 1, side: 'sell', executedQty: '0.1' });
    trade(MAIN_ACCOUNT, { orderId: 1, side: 'sell', qty: '0.1', price: '101' });
    expect(titles()).toEqual(['Sell order 20 % filled']);
    expect(shown[0]!.body).toMatch(/^Sell 0\.1 BTC at 101 USDT/);

    for (const [executed, price] of [
      ['0.2', '102'],
      ['0.3', '103'],
      ['0.5', '104'],
    ] as const) {
      clock.advance(100);
      orderUpdate(MAIN_ACCOUNT, { orderId: 1, side: 'sell', executedQty: executed });
      trade(MAIN_ACCOUNT, { orderId: 1, side: 'sell', qty: '0.1', price, fee: '0.01' });
    }
    expect(shown).toHaveLength(1);
    clock.advance(FILL_SUMMARY_EVERY_MS);
    expect(titles()).toEqual(['Sell order 20 % filled', 'Sell order filled']);
    expect(shown[1]!.body).toBe('3 more fills: Sell 0.3 BTC, last at 104 USDT (fees 0.03 USDT)');
    // A quiet window ends the group: the next fill of the order is a first one again.
    clock.advance(FILL_SUMMARY_EVERY_MS);
    expect(shown).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });

  it('holds a fill until the order update covering it, then names how much is filled', () => {
    orderUpdate(MAIN_ACCOUNT, { orderId: 2 });
    clock.advance(10);
    trade(MAIN_ACCOUNT, { orderId: 2, qty: '0.5' });
    // The stored update is older than the fill: it does not cover it yet.
    expect(shown).toEqual([]);
    clock.advance(10);
    orderUpdate(MAIN_ACCOUNT, { orderId: 2, status: 'done', executedQty: '0.5' });
    expect(titles()).toEqual(['Buy order filled']);
  });

  it('lets a held fill go when its window ends, counting it over the last update known', () => {
    orderUpdate(MAIN_ACCOUNT, { orderId: 3, origQty: '0.4' });
    clock.advance(10);
    trade(MAIN_ACCOUNT, { orderId: 3, qty: '0.1' });
    clock.advance(FILL_SUMMARY_EVERY_MS - 1);
    expect(shown).toEqual([]);
    clock.advance(1);
    expect(titles()).toEqual(['Buy order 25 % filled']);
    // Of an order never seen, the title says what is known.
    trade(MAIN_ACCOUNT, { orderId: 4 });
    clock.advance(FILL_SUMMARY_EVERY_MS);
    expect(titles()[1]).toBe('Buy order partly or fully filled');
  });

  it("keeps two accounts' orders of the same id apart, and names the sub-account", () => {
    orderUpdate(MAIN_ACCOUNT, { orderId: 7, side: 'sell', origQty: '1', executedQty: '0.25' });
    orderUpdate(SUB, { orderId: 7, side: 'buy', origQty: '2', executedQty: '1' });
    trade(MAIN_ACCOUNT, { orderId: 7, side: 'sell', qty: '0.25' });
    // Not the main account's order 7 filled once more: the sub-account's first fill of its own.
    trade(SUB, { orderId: 7, side: 'buy', qty: '1' });
    expect(titles()).toEqual(['Sell order 25 % filled', `Buy order 50 % filled in ${SUB}`]);
    expect(shown[1]!.body).toMatch(/^Buy 1 BTC at 100 USDT/);

    clock.advance(100);
    orderUpdate(SUB, { orderId: 7, side: 'buy', origQty: '2', executedQty: '2', status: 'done' });
    trade(SUB, { orderId: 7, side: 'buy', qty: '1', price: '99' });
    clock.advance(FILL_SUMMARY_EVERY_MS);
    // One summary, the sub-account's only: the main account's order had no more fills.
    expect(titles().slice(2)).toEqual([`Buy order filled in ${SUB}`]);
    expect(shown[2]!.body).toBe('1 more fills: Buy 1 BTC, last at 99 USDT (no fees)');
    // Kept in the notification centre as shown, the account named.
    expect(store.notifications.list(P).map((n) => n.title)).toEqual([...titles()].reverse());
  });

  it('tells a cancel once, with what was filled of it', () => {
    orderUpdate(SUB, { orderId: 9, executedQty: '0.2' });
    orderUpdate(SUB, { orderId: 9, executedQty: '0.2', status: 'cancel' });
    orderUpdate(SUB, { orderId: 9, executedQty: '0.2', status: 'cancel' });
    expect(shown.map((n) => [n.kind, n.title, n.body])).toEqual([
      [
        'cancel',
        `Order canceled in ${SUB}`,
        'Buy 0.5 BTC at 100 USDT was canceled (0.2 BTC filled)',
      ],
    ]);
  });

  it('obeys the notification settings for every account: recorded, not shown', () => {
    settings = {
      ...DEFAULT_SETTINGS,
      notifications: { ...DEFAULT_SETTINGS.notifications, fills: false },
    };
    orderUpdate(SUB, { orderId: 11, executedQty: '0.5', status: 'done' });
    trade(SUB, { orderId: 11, qty: '0.5' });
    expect(shown).toEqual([]);
    expect(store.notifications.list(P).map((n) => n.title)).toEqual([`Buy order filled in ${SUB}`]);
  });

  it('tells a fill of an order placed here after "Order placed"', async () => {
    let answer!: () => void;
    const placed = notices.placeOrder(MAIN_ACCOUNT, 'c12', async () => {
      await new Promise<void>((resolve) => (answer = resolve));
      return {
        id: 12,
        clientOrderId: 'c12',
        symbol: 'btcusdt',
        side: 'buy',
        type: 'limit',
        status: 'done',
        price: '100',
        origQty: '0.5',
        executedQty: '0.5',
        createdTime: clock.now(),
        updatedTime: clock.now(),
      } as never;
    });
    orderUpdate(MAIN_ACCOUNT, { orderId: 12, executedQty: '0.5', status: 'done' });
    trade(MAIN_ACCOUNT, { orderId: 12, qty: '0.5' });
    // The same client order id in a sub-account is no order placed here.
    orderUpdate(SUB, { orderId: 12, executedQty: '0.5', status: 'done' });
    trade(SUB, { orderId: 12, qty: '0.5' });
    expect(titles()).toEqual([`Buy order filled in ${SUB}`]);
    answer();
    await placed;
    expect(titles()).toEqual([`Buy order filled in ${SUB}`, 'Order placed', 'Buy order filled']);
  });

  it('tells what waits of an account when it closes, and nothing of it after', () => {
    orderUpdate(SUB, { orderId: 13 });
    clock.advance(10);
    trade(SUB, { orderId: 13, qty: '0.1' });
    orderUpdate(MAIN_ACCOUNT, { orderId: 13 });
    clock.advance(10);
    trade(MAIN_ACCOUNT, { orderId: 13, qty: '0.1' });
    expect(shown).toEqual([]);
    notices.close(SUB);
    expect(titles()).toEqual([`Buy order 20 % filled in ${SUB}`]);
    trade(SUB, { orderId: 14 });
    orderUpdate(SUB, { orderId: 14, status: 'cancel' });
    clock.advance(FILL_SUMMARY_EVERY_MS);
    // The main account's held fill is still told when its own window ends.
    expect(titles()).toEqual([`Buy order 20 % filled in ${SUB}`, 'Buy order 20 % filled']);
  });
});
