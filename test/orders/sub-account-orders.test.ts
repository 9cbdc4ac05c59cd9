/**
 * The Orders screen's reads cover every account the user's keys can read (issue 21): a linked
 * sub-account's open orders and order history are read with its own key, kept with the account
 * they are of, and updated from its private stream; its orders are canceled with its own key
 * (reconciled, never sent twice, on a 5xx), and a key that may not trade is refused as such.
 * Against the sandbox over real HTTP and WebSocket, a real SQLite store and the keychain of the
 * run (scripts/with-keyring.sh).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotfolioApp } from '../../electron/app';
import type { ExchangeClient } from '../../electron/exchange/client';
import type { Order } from '../../electron/exchange';
import type { TestSandbox } from '../../electron/sandbox/testing';
import type { WorldAccount } from '../../electron/sandbox/world';
import type { OrderView } from '../../shared/types';
import { eventually } from '../api/helpers';
import { subAccountWorld, type SubAccountWorld } from '../session/sub-account-world';

let world: SubAccountWorld;
let sandbox: TestSandbox;
let app: SpotfolioApp;
let dispatch: SubAccountWorld['dispatch'];
let parent: WorldAccount;
let savings: WorldAccount;
let desk: WorldAccount;
const clientOf = (key: { apiKey: string; secretKey: string }) => world.clientOf(key);

/** A buy far below the market: it rests on the book until canceled. */
async function restingBuy(client: ExchangeClient, quantity: string): Promise<Order> {
  const book = await client.market.depth({ symbol: 'btcusdt', limit: 5 });
  const price = (Number(book.bids[0]![0]) * 0.5).toFixed(2);
  return client.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    quantity,
    price,
  });
}

/** What the exchange's own record says of an order, as the app must show it. */
function asRecorded(order: Order | OrderView, account: string) {
  const { id, symbol, side, type, status, price, origQty, executedQty } = order;
  return { account, id, symbol, side, type, status, price, origQty, executedQty };
}

/** The same facts of an order as the app shows it. */
const shown = (order: OrderView) => asRecorded(order, order.account);

/** The account's order history as the screen reads it (no feed is asked to read). */
const history = (account: string) =>
  app.handlers['orders.history']({ account, offset: 0, limit: 100 });

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

beforeAll(async () => {
  world = await subAccountWorld(61);
  ({ sandbox, app, dispatch, parent, savings, desk } = world);
});

afterAll(() => world?.close());

describe("a linked sub-account's orders", () => {
  // savings is linked with a read-only key of its own, desk with one allowed to trade.
  let savingsOrder: Order;
  let deskOrder: Order;
  let mainOrder: Order;
  let deskClient: ExchangeClient;
  let savingsClient: ExchangeClient;

  it('refuses an account the profile does not have, naming the field', async () => {
    expect(await dispatch('orders.open', { account: 'not an e-mail' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'account' },
    });
    expect(await dispatch('orders.history', { account: 'someone@else.test' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'account', message: /not a sub-account/ },
    });
    expect(
      await dispatch('orders.cancel', { symbol: 'btcusdt', orderId: 1, account: 42 }),
    ).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'account' } });
  });

  it('names the sub-accounts whose orders cannot be read until linked', async () => {
    savingsClient = clientOf(savings.keys[0]!);
    deskClient = clientOf(desk.keys[0]!);
    savingsOrder = await restingBuy(savingsClient, '0.0123');
    deskOrder = await restingBuy(deskClient, '0.0456');
    const book = await deskClient.market.depth({ symbol: 'btcusdt', limit: 5 });
    const placed = await app.handlers['orders.place']({
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.0789',
      price: (Number(book.bids[0]![0]) * 0.5).toFixed(2),
    });
    expect(placed.account).toBe('main');
    mainOrder = await clientOf(parent.keys[0]!).trading.getOrder({ orderId: placed.id });

    const every = await app.handlers['orders.open']({});
    expect(every.accounts).toEqual(['main']);
    expect(every.unlinked.sort()).toEqual([savings.email, desk.email].sort());
    const one = await app.handlers['orders.open']({ account: desk.email });
    expect(one).toMatchObject({
      accounts: [],
      unlinked: [desk.email],
      linked: [],
      rows: [],
      total: 0,
    });

    const readOnly = sandbox.admin.createApiKey(savings.email, { canTrade: false });
    await app.handlers['subAccounts.link']({ email: savings.email, ...readOnly });
    await app.handlers['subAccounts.link']({ email: desk.email, ...desk.keys[0]! });
    await eventually('both linked sub-accounts read', async () => {
      const ids = (await app.handlers['orders.open']({})).rows.map((o) => o.id);
      return ids.includes(savingsOrder.id) && ids.includes(deskOrder.id) ? true : undefined;
    });
  });

  it("lists every account's open orders with their account, exactly as the exchange records them", async () => {
    const recorded = [
      asRecorded(await savingsClient.trading.getOrder({ orderId: savingsOrder.id }), savings.email),
      asRecorded(await deskClient.trading.getOrder({ orderId: deskOrder.id }), desk.email),
      ...(await clientOf(parent.keys[0]!).trading.openOrders()).map((o) => asRecorded(o, 'main')),
    ].sort(byId);
    expect(recorded.map((o) => o.id)).toContain(mainOrder.id);
    expect(recorded.find((o) => o.id === savingsOrder.id)).toMatchObject({
      status: 'wait',
      origQty: '0.0123',
    });

    const every = await app.handlers['orders.open']({});
    expect(every.accounts).toEqual(['main', ...[savings.email, desk.email].sort()]);
    expect(every.unlinked).toEqual([]);
    expect(every.linked).toEqual([savings.email, desk.email].sort());
    expect(every.rows.map(shown).sort(byId)).toEqual(recorded);

    const own = await app.handlers['orders.open']({ account: desk.email });
    expect(own.rows.map(shown)).toEqual([asRecorded(deskOrder, desk.email)]);
    const main = await app.handlers['orders.open']({ account: 'main' });
    expect(main.rows.every((o) => o.account === 'main')).toBe(true);
    expect(main.rows.map((o) => o.id)).toContain(mainOrder.id);

    const past = await history(savings.email);
    expect(past.rows.map(shown)).toEqual([asRecorded(savingsOrder, savings.email)]);
  });

  it("takes the sub-account's order events from its private stream", async () => {
    const opens = sandbox.admin.faults.count({ path: '/sapi/v1/openOrders', method: 'GET' });
    const placed = await restingBuy(deskClient, '0.0011');
    // orders.history asks no feed to read: the order can only come over the stream.
    const streamed = await eventually('the streamed order', async () =>
      (await history(desk.email)).rows.find((o) => o.id === placed.id),
    );
    expect(shown(streamed)).toEqual(asRecorded(placed, desk.email));
    // Canceled at the exchange by the sub-account itself: its update changes the row.
    const canceled = await deskClient.trading.cancelOrder({
      symbol: 'btcusdt',
      orderId: placed.id,
    });
    await eventually('the streamed cancel', async () =>
      (await history(desk.email)).rows.find((o) => o.id === placed.id && o.status === 'cancel'),
    );
    expect(sandbox.admin.faults.count({ path: '/sapi/v1/openOrders', method: 'GET' })).toBe(opens);
    const row = (await history(desk.email)).rows.find((o) => o.id === placed.id)!;
    expect(shown(row)).toEqual(
      asRecorded(await deskClient.trading.getOrder({ orderId: canceled.id }), desk.email),
    );
  });

  it("cancels with the sub-account's own key, once, whatever a 5xx says", async () => {
    const cancels = () => sandbox.admin.faults.count({ path: '/sapi/v1/order', method: 'DELETE' });
    const before = cancels();
    // The cancel is made, then the answer is lost: the app looks it up instead of sending again.
    sandbox.admin.faults.inject(
      { method: 'DELETE', path: '/sapi/v1/order' },
      { kind: 'error-after' },
    );
    const answer = await app.handlers['orders.cancel']({
      symbol: 'btcusdt',
      orderId: deskOrder.id,
      account: desk.email,
    });
    expect(cancels()).toBe(before + 1);
    const recorded = await deskClient.trading.getOrder({ orderId: deskOrder.id });
    expect(recorded.status).toBe('cancel');
    expect(shown(answer)).toEqual(asRecorded(recorded, desk.email));
    const open = await app.handlers['orders.open']({});
    expect(open.rows.map((o) => o.id)).not.toContain(deskOrder.id);
  });

  it('shows the exchange refusing a key that may not trade, and changes nothing', async () => {
    await expect(
      app.handlers['orders.cancel']({
        symbol: 'btcusdt',
        orderId: savingsOrder.id,
        account: savings.email,
      }),
    ).rejects.toMatchObject({
      kind: 'permission',
      message: expect.stringContaining(`The key linked to ${savings.email} may not trade`),
    });
    expect((await savingsClient.trading.getOrder({ orderId: savingsOrder.id })).status).toBe(
      'wait',
    );
    const open = await app.handlers['orders.open']({ account: savings.email });
    expect(open.rows.map(shown)).toEqual([asRecorded(savingsOrder, savings.email)]);
  });

  it('forgets the orders read with a key when it is unlinked', async () => {
    await app.handlers['subAccounts.unlink']({ email: savings.email });
    const open = await app.handlers['orders.open']({});
    expect(open.rows.some((o) => o.account === savings.email)).toBe(false);
    expect(open.unlinked).toEqual([savings.email]);
  });
});
