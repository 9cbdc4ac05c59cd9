/**
 * Orders in the money journal, against the sandbox over real HTTP: every order is written with
 * its clientOrderId before it is sent; one whose answer was lost is reconciled by that id (the
 * client's own check, then the journal's); an entry a dead process left "sending" is settled by
 * the check and shown with the facts until dismissed, placed or not.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { ExchangeClient } from '../../electron/exchange/client';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { openStore, type Store } from '../../electron/store';
import { eventually, tempDir, testSecretStore } from './helpers';

const ORDER_PATH = '/sapi/v1/order';

let sandbox: Sandbox;
let app: SpotfolioApp;
let dir: ReturnType<typeof tempDir>;
let store: Store;
let exchange: ExchangeClient;
let profileId = '';
let price = '';

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 61, simulation: false });
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const key = parent.keys.find((k) => k.canTrade)!;
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: testSecretStore().store,
    demo: 'off',
    log: () => undefined,
  });
  const profile = await app.handlers['profiles.add']({
    name: 'Main',
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
  });
  profileId = profile.id;
  exchange = new ExchangeClient({
    baseUrl: sandbox.baseUrl,
    apiKey: key.apiKey,
    secretKey: key.secretKey,
  });
  const depth = await exchange.market.depth({ symbol: 'btcusdt', limit: 5 });
  // Far below the book: the order rests, nothing fills.
  price = new Decimal(depth.bids[0]![0]).div(2).toDecimalPlaces(0).toFixed();
  ({ store } = openStore({ dataDir: dir.path }));
});

afterAll(async () => {
  store?.close();
  await exchange?.close();
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

const order = () =>
  ({ symbol: 'btcusdt', side: 'buy', type: 'limit', quantity: '0.001', price }) as const;

describe('orders in the money journal', () => {
  it('writes each order before it is sent and records its id once answered', async () => {
    const placed = await app.handlers['orders.place'](order());
    expect(placed.id).toBeGreaterThan(0);
    const [entry] = store.journal.withStatus(profileId, ['completed']);
    expect(entry).toMatchObject({
      kind: 'order',
      asset: 'btcusdt',
      amount: '0.001',
      order: { side: 'buy', type: 'limit', price },
      notice: false,
      steps: [{ status: 'done', ref: String(placed.id) }],
    });
    const onExchange = await exchange.trading.getOrder({
      clientOrderId: entry!.steps[0]!.clientOrderId!,
    });
    expect(onExchange.id).toBe(placed.id);
    // Settled in view of the user: nothing to show.
    expect(await app.handlers['journal.list']({})).toEqual([]);
  });

  it('an order whose answer was lost is found by its clientOrderId, placed once', async () => {
    sandbox.admin.faults.inject({ method: 'POST', path: ORDER_PATH }, { kind: 'error-after' });
    const placed = await app.handlers['orders.place']({ ...order(), quantity: '0.002' });
    const entry = store.journal
      .withStatus(profileId, ['completed'])
      .find((e) => e.amount === '0.002');
    expect(entry?.steps[0]).toMatchObject({ status: 'done', ref: String(placed.id) });
    const open = await exchange.trading.openOrders({ symbol: 'btcusdt' });
    expect(open.filter((o) => new Decimal(o.origQty).eq('0.002'))).toHaveLength(1);
  });

  it('settles what a dead process left sending, and says so until dismissed', async () => {
    // One that reached the exchange (placed here directly under the journal's id), one that did not.
    const reached = 'journaltestreached0000000000001';
    const lost = 'journaltestlost000000000000000001';
    const at = Date.now();
    for (const [clientOrderId, quantity] of [
      [reached, '0.003'],
      [lost, '0.004'],
    ] as const) {
      const entry = store.journal.create({
        profileId,
        kind: 'order',
        asset: 'btcusdt',
        amount: quantity,
        order: { symbol: 'btcusdt', side: 'buy', type: 'limit', price },
        steps: [{ clientOrderId }],
        createdAt: at,
      });
      store.journal.markStep(entry.id, 1, { status: 'sending', windowFrom: at }, at);
    }
    const placed = await exchange.trading.placeOrder({
      ...order(),
      quantity: '0.003',
      clientOrderId: reached,
    });

    expect(placed.id).toBeGreaterThan(0);
    const shown = await app.handlers['journal.check']({});
    const byQuantity = new Map(shown.map((e) => [e.amount, e]));
    expect(byQuantity.get('0.003')).toMatchObject({
      status: 'completed',
      actions: ['dismiss'],
      facts: `The order to buy 0.003 BTCUSDT at ${price} was placed (order ${placed.id}).`,
      steps: [{ status: 'done', ref: String(placed.id) }],
    });
    expect(byQuantity.get('0.004')).toMatchObject({
      status: 'not-made',
      actions: ['dismiss'],
      facts: `The order to buy 0.004 BTCUSDT at ${price} was not placed.`,
      steps: [{ status: 'not-made' }],
    });
    const open = await exchange.trading.openOrders({ symbol: 'btcusdt' });
    expect(open.filter((o) => new Decimal(o.origQty).eq('0.003'))).toHaveLength(1);
    expect(open.filter((o) => new Decimal(o.origQty).eq('0.004'))).toHaveLength(0);

    for (const entry of shown) await app.handlers['journal.resolve']({ id: entry.id });
    expect(await app.handlers['journal.list']({})).toEqual([]);
    // A settled entry has nothing left to send.
    await expect(app.handlers['journal.finish']({ id: shown[0]!.id })).rejects.toMatchObject({
      kind: 'invalid-input',
    });
  }, 30_000);

  it('checks again when the private stream reconnects, with no call from the page', async () => {
    const at = Date.now();
    const entry = store.journal.create({
      profileId,
      kind: 'order',
      asset: 'btcusdt',
      amount: '0.005',
      order: { symbol: 'btcusdt', side: 'buy', type: 'limit', price },
      steps: [{ clientOrderId: 'journaltestreconnect0000000001' }],
      createdAt: at,
    });
    store.journal.markStep(entry.id, 1, { status: 'sending', windowFrom: at }, at);
    sandbox.admin.dropStreamConnections();
    const settled = await eventually(
      'the reconnect to settle the entry',
      () => {
        const row = store.journal.get(entry.id);
        return row && row.status !== 'in-progress' ? row : undefined;
      },
      30_000,
    );
    expect(settled).toMatchObject({ status: 'not-made', notice: true });
    expect((await app.handlers['journal.list']({})).map((e) => e.id)).toEqual([entry.id]);
  }, 40_000);
});
