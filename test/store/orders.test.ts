import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import type { OrderInput, OwnTradeInput } from '../../electron/store';
import { freshStore, removeTempDirs } from './helpers';

afterEach(removeTempDirs);

const order = (id: number, overrides: Partial<OrderInput> = {}): OrderInput => ({
  id,
  clientOrderId: `c${id}`,
  symbol: 'btcusdt',
  side: 'buy',
  type: 'limit',
  status: 'wait',
  price: '100.5',
  origQty: '2',
  executedQty: '0',
  createdTime: 1000 + id,
  updatedTime: 1000 + id,
  ...overrides,
});

const trade = (id: number, overrides: Partial<OwnTradeInput> = {}): OwnTradeInput => ({
  id,
  symbol: id % 2 === 0 ? 'btcusdt' : 'ethusdt',
  orderId: 500 + id,
  side: id % 3 === 0 ? 'sell' : 'buy',
  price: '10',
  qty: '0.1',
  quoteQty: '1',
  fee: '0.000123456789',
  feeCurrency: id % 3 === 0 ? 'usdt' : id % 2 === 0 ? 'btc' : 'eth',
  isBuyerMaker: id % 2 === 0,
  time: 10_000 + id * 100,
  ...overrides,
});

describe('orders', () => {
  it('upsert: later updates win, older ones are ignored, stopPrice and createdTime survive a stream update', () => {
    const store = freshStore();
    store.orders.upsertOrders('p1', [
      order(1, { type: 'stop_limit', status: 'idle', stopPrice: '99' }),
    ]);
    store.orders.upsertOrders('p1', [
      order(1, {
        type: 'stop_limit',
        status: 'wait',
        executedQty: '1',
        createdTime: 5000,
        updatedTime: 5000,
      }),
    ]);
    store.orders.upsertOrders('p1', [
      order(1, { type: 'stop_limit', status: 'idle', updatedTime: 1002 }),
    ]);
    expect(store.orders.getOrder('p1', 1)).toEqual({
      ...order(1, { type: 'stop_limit', status: 'wait', executedQty: '1', updatedTime: 5000 }),
      account: 'main',
      stopPrice: '99',
      goneAt: null,
    });
    expect(store.orders.getOrderByClientId('p1', 'c1')?.id).toBe(1);
    expect(store.orders.getOrder('p1', 2)).toBeNull();
    expect(() => store.orders.upsertOrders('p1', [order(3, { status: 'new' as 'wait' })])).toThrow(
      'order 3 status is "new"',
    );
    store.close();
  });

  it('open orders, max id per symbol, filtered pages', () => {
    const store = freshStore();
    store.orders.upsertOrders('p1', [
      order(1, { status: 'done' }),
      order(2),
      order(3, {
        symbol: 'ethusdt',
        side: 'sell',
        status: 'idle',
        type: 'stop_limit',
        stopPrice: '1',
      }),
      order(4, { status: 'cancel' }),
      order(5),
    ]);
    expect(store.orders.openOrders('p1').map((o) => o.id)).toEqual([5, 3, 2]);
    expect(store.orders.openOrders('p1', 'ethusdt').map((o) => o.id)).toEqual([3]);
    expect(store.orders.maxOrderId('p1', 'btcusdt')).toBe(5);
    expect(store.orders.maxOrderId('p1', 'xrpusdt')).toBeNull();

    const page = store.orders.ordersPage('p1', {
      symbol: 'btcusdt',
      status: ['done', 'cancel'],
      direction: 'asc',
    });
    expect(page).toMatchObject({ total: 2 });
    expect(page.rows.map((o) => o.id)).toEqual([1, 4]);
    const paged = store.orders.ordersPage('p1', { offset: 1, limit: 2 });
    expect(paged.total).toBe(5);
    expect(paged.rows.map((o) => o.id)).toEqual([4, 3]);
    expect(
      store.orders.ordersPage('p1', { side: 'sell', from: 1003, to: 1003 }).rows.map((o) => o.id),
    ).toEqual([3]);
    store.close();
  });
});

describe('orders the exchange no longer knows', () => {
  it('a gone order leaves the open orders and every status filter, stays in the history, and an answer about it clears the mark', () => {
    const store = freshStore();
    store.orders.upsertOrders('p1', [order(1), order(2), order(3, { status: 'done' })]);
    // Only an open order can be found gone; a settled one keeps its final state.
    expect(store.orders.markOrdersGone('p1', [2, 3], 5000)).toBe(1);
    expect(store.orders.markOrdersGone('p1', [2], 6000)).toBe(0);
    expect(store.orders.openOrders('p1').map((o) => o.id)).toEqual([1]);
    expect(store.orders.getOrder('p1', 2)).toMatchObject({ status: 'wait', goneAt: 5000 });
    expect(store.orders.getOrder('p1', 3)?.goneAt).toBeNull();
    expect(store.orders.ordersPage('p1').rows.map((o) => o.id)).toEqual([3, 2, 1]);
    expect(store.orders.ordersPage('p1', { status: 'wait' }).rows.map((o) => o.id)).toEqual([1]);

    store.orders.upsertOrders('p1', [order(2, { status: 'cancel', updatedTime: 7000 })]);
    expect(store.orders.getOrder('p1', 2)).toMatchObject({ status: 'cancel', goneAt: null });
    store.close();
  });
});

describe('own trades', () => {
  it('insert once (a trade never changes); a self-trade keeps both sides', () => {
    const store = freshStore();
    expect(store.orders.insertTrades('p1', [trade(1), trade(2)])).toBe(2);
    expect(store.orders.insertTrades('p1', [trade(2), trade(3)])).toBe(1);
    expect(
      store.orders.insertTrades('p1', [
        trade(4, { orderId: 900, side: 'buy' }),
        trade(4, { orderId: 901, side: 'sell' }),
      ]),
    ).toBe(2);
    expect(store.orders.tradesPage('p1', { limit: 1000 }).total).toBe(5);
    expect(store.orders.maxTradeId('p1', 'btcusdt')).toBe(4);
    expect(store.orders.tradesPage('p1', { orderId: 501 }).rows).toEqual([
      { ...trade(1), account: 'main' },
    ]);
    store.close();
  });

  it('filter by symbol, side and time; sort both ways; page; exact fee sums over the filter', () => {
    const store = freshStore();
    const trades = Array.from({ length: 40 }, (_, i) => trade(i + 1));
    store.orders.insertTrades('p1', trades);
    const btcBuys = trades.filter((t) => t.symbol === 'btcusdt' && t.side === 'buy');
    const page = store.orders.tradesPage('p1', { symbol: 'btcusdt', side: 'buy', limit: 3 });
    expect(page.total).toBe(btcBuys.length);
    expect(page.rows.map((t) => t.id)).toEqual(
      btcBuys
        .map((t) => t.id)
        .reverse()
        .slice(0, 3),
    );
    const asc = store.orders.tradesPage('p1', { from: 10_500, to: 11_000, direction: 'asc' });
    expect(asc.rows.map((t) => t.id)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(store.orders.tradesPage('p1', { offset: 38 }).rows.map((t) => t.id)).toEqual([2, 1]);

    const fees = store.orders.feesByAsset('p1', { symbol: 'btcusdt' });
    const btcTrades = trades.filter((t) => t.symbol === 'btcusdt');
    const count = (currency: string) => btcTrades.filter((t) => t.feeCurrency === currency).length;
    expect(fees).toEqual([
      { asset: 'btc', fee: new Decimal('0.000123456789').times(count('btc')).toFixed() },
      { asset: 'usdt', fee: new Decimal('0.000123456789').times(count('usdt')).toFixed() },
    ]);
    expect(() => store.orders.tradesPage('p1', { side: 'bid' as 'buy' })).toThrow(
      'side filter "bid" is unknown',
    );
    store.close();
  });
});

describe('accounts', () => {
  const sub = 'desk@example.test';

  it("keeps each account's orders apart, even under the same id, and reads the accounts asked for", () => {
    const store = freshStore();
    store.orders.upsertOrders('p1', [order(1), order(2, { status: 'done' })]);
    store.orders.upsertOrders(
      'p1',
      [order(1, { price: '7', origQty: '0.000000000000000001' })],
      sub,
    );
    store.orders.upsertOrders('p1', [order(3, { symbol: 'ethusdt' })], sub);
    expect(store.orders.getOrder('p1', 1)).toMatchObject({ account: 'main', price: '100.5' });
    expect(store.orders.getOrder('p1', 1, sub)).toMatchObject({
      account: sub,
      price: '7',
      origQty: '0.000000000000000001',
    });
    // Left out, the main account's alone, as before there were others.
    expect(store.orders.openOrders('p1').map((o) => [o.account, o.id])).toEqual([['main', 1]]);
    expect(
      store.orders.openOrders('p1', undefined, ['main', sub]).map((o) => [o.account, o.id]),
    ).toEqual([
      [sub, 3],
      [sub, 1],
      ['main', 1],
    ]);
    expect(store.orders.openOrders('p1', 'ethusdt', ['main', sub]).map((o) => o.id)).toEqual([3]);
    expect(store.orders.ordersPage('p1', { accounts: [sub] }).total).toBe(2);
    expect(store.orders.ordersPage('p1', { accounts: [] }).total).toBe(0);
    expect(store.orders.orderedSymbols('p1', sub)).toEqual(['btcusdt', 'ethusdt']);
    expect(store.orders.markOrdersGone('p1', [1], 5000, sub)).toBe(1);
    expect(store.orders.getOrder('p1', 1)?.goneAt).toBeNull();
    expect(() => store.orders.upsertOrders('p1', [order(9)], 'Desk@Example.test')).toThrow(
      'is not an account',
    );
    store.close();
  });

  it("pages the main account's and a sub-account's trades together, fees summed over both", () => {
    const store = freshStore();
    store.orders.insertTrades('p1', [trade(2), trade(4)]);
    store.subAccountKeys.insertTrades('p1', sub, [trade(3, { feeCurrency: 'btc' }), trade(4)]);
    const both = store.orders.tradesPage('p1', { accounts: ['main', sub], direction: 'desc' });
    // The same time and id in two accounts: by account name, in the page's direction.
    expect(both.rows.map((t) => [t.account, t.id])).toEqual([
      ['main', 4],
      [sub, 4],
      [sub, 3],
      ['main', 2],
    ]);
    expect(
      store.orders.tradesPage('p1', { accounts: [sub], direction: 'asc' }).rows.map((t) => t.id),
    ).toEqual([3, 4]);
    const fees = store.orders.feesByAsset('p1', { accounts: ['main', sub] });
    expect(fees).toEqual([
      {
        asset: 'btc',
        fee: new Decimal('0.000123456789').times(4).toFixed(),
      },
    ]);
    store.close();
  });
});
