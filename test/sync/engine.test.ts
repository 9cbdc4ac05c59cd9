import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { ExchangeClient, ExchangeError, type CoinInfo } from '../../electron/exchange';
import { JOBS, SyncEngine, fundsView } from '../../electron/sync';
import { exportCsv } from '../../electron/export/csv-export';
import { storePort } from '../../electron/sync/store-port';
import type { DataKind } from '../../shared/types';
import { PARENT, PROFILE, scenario, until, type Scenario } from './helpers';

const DAY = 86_400_000;
const SUB = 'sub1@example.test';

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

function changedKinds(s: Scenario): DataKind[] {
  return s.events
    .filter((e) => e.event === 'data.changed')
    .flatMap((e) => (e.payload as { kinds: DataKind[] }).kinds);
}

describe('SyncEngine refresh', () => {
  it('writes each kind to the store, emits data.changed, then serves it offline', async () => {
    current = await scenario();
    const { admin } = current.sandbox;
    admin.credit(PARENT, 'btc', '1.25');
    admin.credit(PARENT, 'usdt', '1000');
    admin.createAccount({ email: SUB, parentEmail: PARENT });
    admin.credit(SUB, 'eth', '3');
    admin.seedWithdrawHistory(PARENT, {
      count: 25,
      fromMs: Date.now() - 30 * DAY,
      toMs: Date.now(),
      seed: 5,
    });
    const client = current.client();
    const engine = new SyncEngine({
      pacing: false,
      store: current.store,
      client,
      profileId: PROFILE,
      emit: current.emit,
    });

    for (const kind of [
      'prices',
      'funds',
      'account',
      'withdrawals',
      'subAccounts',
      'transfers',
      'trades',
      'openOrders',
      'symbols',
    ] as const) {
      await engine.refresh(kind);
      expect(engine.jobStatus(kind).error, kind).toBeNull();
    }
    expect(changedKinds(current)).toEqual(
      expect.arrayContaining(['funds', 'prices', 'withdrawals', 'subAccounts', 'orders']),
    );
    const online = fundsView(current.store, PROFILE, 'usdt', Date.now());
    expect(online.rows.find((r) => r.asset === 'btc')!.total).toBe('1.25');
    expect(online.rows.find((r) => r.asset === 'usdt')!.value).toBe('1000');
    expect(current.store.withdraws.count(PROFILE)).toBe(25);
    const subs = current.store.subAccounts.list(PROFILE).rows;
    expect(subs.map((s) => s.email)).toEqual([SUB]);
    expect(subs[0]!.balances).toEqual([{ asset: 'eth', balance: '3' }]);

    // A fresh kind is not fetched again unless forced.
    const before = engine.jobStatus('funds').lastSuccessAt;
    await engine.refresh('funds');
    expect(engine.jobStatus('funds').lastSuccessAt).toBe(before);

    // Offline: the exchange is gone; jobs record a network error and the cache still answers.
    await current.sandbox.close();
    for (const kind of ['funds', 'withdrawals', 'subAccounts'] as const) {
      await expect(engine.refresh(kind, { force: true })).resolves.toBeUndefined();
      const status = engine.jobStatus(kind);
      expect(status.error?.kind, kind).toBe('network');
      expect(status.failures).toBe(1);
      expect(status.nextDueAt).toBeGreaterThan(status.error!.at);
    }
    const offline = fundsView(current.store, PROFILE, 'usdt', Date.now());
    expect(offline.rows.find((r) => r.asset === 'btc')!.total).toBe('1.25');
    expect(current.store.withdraws.page(PROFILE, { limit: 1000 }).total).toBe(25);
    expect(current.store.subAccounts.list(PROFILE).rows).toHaveLength(1);
    const csv = exportCsv(current.store, PROFILE, {
      kind: 'withdrawals',
      filter: {},
      delimiter: ';',
    });
    expect(csv.rows).toBe(25);
    expect(csv.content.split('\r\n')).toHaveLength(27); // header + 25 rows + the final CRLF
    await engine.stop();
  });

  it('keeps a value snapshot of the funds (the ledger reads it as a balance observation)', async () => {
    current = await scenario();
    current.sandbox.admin.credit(PARENT, 'usdt', '500');
    const client = current.client();
    const engine = new SyncEngine({
      pacing: false,
      store: current.store,
      client,
      profileId: PROFILE,
      emit: current.emit,
    });
    await engine.refresh('prices');
    await engine.refresh('funds');
    await engine.valueSnapshotNow();
    const snapshots = storePort(current.store).snapshots(PROFILE, 'usdt', 0, Date.now());
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({
      quoteAsset: 'usdt',
      totalValue: '500',
      assets: [{ asset: 'usdt', total: '500', value: '500' }],
    });
    await engine.stop();
  });
});

describe('deposit addresses', () => {
  it('validates against the coin list, fetches once, then serves from the cache (offline too)', async () => {
    current = await scenario();
    const client = current.client();
    const coins: CoinInfo[] = await client.wallet.coins();
    const coin = coins.find((c) => c.networkList.some((n) => n.depositEnable))!;
    const network = coin.networkList.find((n) => n.depositEnable)!;
    let addressCalls = 0;
    const original = client.wallet.depositAddress.bind(client.wallet);
    client.wallet.depositAddress = async (p) => {
      addressCalls += 1;
      return original(p);
    };
    const engine = new SyncEngine({
      pacing: false,
      store: current.store,
      client,
      profileId: PROFILE,
      emit: current.emit,
    });

    const first = await engine.depositAddress(coin.coin, network.network);
    expect(first.fromCache).toBe(false);
    expect(first.address.length).toBeGreaterThan(0);
    expect(first.memoRequired).toBe(Boolean(network.memoRequired));
    const second = await engine.depositAddress(coin.coin, network.network);
    expect(second).toEqual({ ...first, fromCache: true });
    expect(addressCalls).toBe(1);

    await expect(engine.depositAddress('nosuchcoin', network.network)).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'coin',
      message: 'Unknown coin NOSUCHCOIN',
    });
    await expect(engine.depositAddress(coin.coin, 'NOSUCHNET')).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'network',
      message: `Network NOSUCHNET is not available for ${coin.coin.toUpperCase()}`,
    });
    const disabled = coins
      .flatMap((c) => c.networkList.filter((n) => !n.depositEnable).map((n) => ({ c, n })))
      .at(0)!;
    expect(disabled).toBeDefined(); // the sandbox lists networks with deposits disabled
    const error = await engine
      .depositAddress(disabled.c.coin, disabled.n.network)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect(error).toMatchObject({
      kind: 'invalid-input',
      field: 'network',
      message: `Deposits are disabled on network ${disabled.n.network} of ${disabled.c.coin.toUpperCase()}`,
    });
    expect(addressCalls).toBe(1);

    await current.sandbox.close();
    const offline = await engine.depositAddress(coin.coin, network.network);
    expect(offline).toEqual(second);
    expect(storePort(current.store).coins(PROFILE).coins.length).toBe(coins.length);
    await engine.stop();
  });
});

describe('scheduling', () => {
  it('start() refreshes every kind on its own, what is focused first, and backs off offline', async () => {
    current = await scenario();
    current.sandbox.admin.credit(PARENT, 'usdt', '42');
    const client = current.client();
    // The order in which the exchange is called: what the first tick started.
    const callOrder: string[] = [];
    for (const group of [
      'general',
      'market',
      'trading',
      'account',
      'wallet',
      'subAccounts',
    ] as const) {
      const methods = client[group] as unknown as Record<string, (...args: unknown[]) => unknown>;
      for (const name of Object.keys(methods)) {
        const original = methods[name]!.bind(methods);
        methods[name] = (...args: unknown[]) => {
          callOrder.push(`${group}.${name}`);
          return original(...args);
        };
      }
    }
    const engine = new SyncEngine({
      pacing: false,
      store: current.store,
      client,
      profileId: PROFILE,
      emit: current.emit,
    });
    engine.focus(['withdrawals', 'coins']);
    engine.start();
    await until(
      () => engine.status().every((s) => s.lastSuccessAt !== null),
      'every job to run once',
    );
    const started = engine.status();
    // The focused kinds were among the first jobs started (4 run at once; unfocused, the
    // scheduler's default order would start prices, funds, openOrders and subAccounts first).
    expect(callOrder.indexOf('wallet.coins')).toBeLessThan(4);
    expect(callOrder.indexOf('wallet.withdraws')).toBeLessThan(4);
    expect(started.every((s) => s.error === null)).toBe(true);
    expect(fundsView(current.store, PROFILE, 'usdt', Date.now()).rows).toEqual([
      expect.objectContaining({ asset: 'usdt', total: '42', value: '42' }),
    ]);
    // Each job is next due one freshness period after its success.
    for (const status of started) {
      expect(status.nextDueAt - status.lastSuccessAt!).toBe(JOBS[status.kind].freshnessMs);
    }
    await current.sandbox.close();
    await engine.refresh('prices', { force: true });
    await engine.refresh('prices', { force: true });
    const failing = engine.jobStatus('prices');
    expect(failing.failures).toBe(2);
    expect(failing.error?.kind).toBe('network');
    // Back-off doubles: 2 s after the first failure, 4 s after the second.
    expect(failing.nextDueAt - failing.error!.at).toBe(4000);
    await engine.stop();
  });
});

describe('open orders that heal', () => {
  const traders: ExchangeClient[] = [];
  afterEach(async () => {
    await Promise.all(traders.splice(0).map((c) => c.close()));
  });
  const ORDER_PATH = '/sapi/v1/order';
  const doesNotExist = {
    kind: 'answer',
    status: 400,
    code: 2004,
    message: 'Order does not exist.',
  } as const;

  async function placed(s: Scenario) {
    s.sandbox.admin.credit(PARENT, 'usdt', '1000');
    const engineClient = s.client();
    // The scenario's key reads only; the orders are placed (and canceled) with one that trades.
    const client = new ExchangeClient({
      baseUrl: s.sandbox.baseUrl,
      ...s.sandbox.admin.createApiKey(PARENT, { canTrade: true }),
      rateLimits: false,
    });
    traders.push(client);
    const engine = new SyncEngine({
      pacing: false,
      store: s.store,
      client: engineClient,
      profileId: PROFILE,
      emit: s.emit,
    });
    const place = (price: string) =>
      client.trading.placeOrder({
        symbol: 'btcusdt',
        side: 'buy',
        type: 'limit',
        quantity: '0.001',
        price,
      });
    return { client, engine, orders: [await place('100'), await place('101'), await place('102')] };
  }

  it('an order the exchange no longer knows is marked gone, one its lookup misses is read from the history, and the rest refresh', async () => {
    current = await scenario();
    const s = current;
    const { client, engine, orders } = await placed(s);
    const [kept, canceled, inHistory] = orders as [
      (typeof orders)[0],
      (typeof orders)[0],
      (typeof orders)[0],
    ];
    await engine.refresh('openOrders');
    expect(
      s.store.orders
        .openOrders(PROFILE)
        .map((o) => o.id)
        .sort(),
    ).toEqual([kept.id, canceled.id, inHistory.id].sort());

    // What an exchange reset leaves behind: an order only the app still holds open.
    const ghost = { ...kept, id: kept.id + 1_000_000, clientOrderId: 'gone-with-the-reset' };
    s.store.orders.upsertOrders(PROFILE, [ghost]);
    await client.trading.cancelOrder({ symbol: 'btcusdt', orderId: canceled.id });
    await client.trading.cancelOrder({ symbol: 'btcusdt', orderId: inHistory.id });
    // The first lookup (the newest order the store holds open, inHistory) answers 2004 although
    // the exchange's history still has the order: the history's answer is taken.
    s.sandbox.admin.faults.inject({ method: 'GET', path: ORDER_PATH }, doesNotExist);
    await engine.refresh('openOrders', { force: true });
    // Both looked for in the history: the one the lookup missed and the one nobody knows.
    expect(s.sandbox.admin.faults.count({ method: 'GET', path: '/sapi/v1/allOrders' })).toBe(2);

    const status = engine.jobStatus('openOrders');
    expect(status.error).toBeNull();
    expect(status.failures).toBe(0);
    expect(s.store.orders.openOrders(PROFILE).map((o) => o.id)).toEqual([kept.id]);
    expect(s.store.orders.getOrder(PROFILE, inHistory.id)).toMatchObject({
      status: 'cancel',
      goneAt: null,
    });
    expect(s.store.orders.getOrder(PROFILE, canceled.id)).toMatchObject({
      status: 'cancel',
      goneAt: null,
    });
    const gone = s.store.orders.getOrder(PROFILE, ghost.id);
    expect(gone?.status).toBe('wait');
    expect(gone?.goneAt).toEqual(expect.any(Number));
    // Kept in the history (all of it), answering no status filter: it is open no more.
    expect(s.store.orders.ordersPage(PROFILE).rows.map((o) => o.id)).toContain(ghost.id);
    expect(
      s.store.orders.ordersPage(PROFILE, { status: ['idle', 'wait'] }).rows.map((o) => o.id),
    ).toEqual([kept.id]);

    // Settled: the next refreshes ask nothing about it.
    const lookups = s.sandbox.admin.faults.count({ method: 'GET', path: ORDER_PATH });
    await engine.refresh('openOrders', { force: true });
    expect(s.sandbox.admin.faults.count({ method: 'GET', path: ORDER_PATH })).toBe(lookups);
    expect(engine.jobStatus('openOrders').error).toBeNull();
  });

  it('one lookup that fails keeps neither the list nor the other orders out of the store', async () => {
    current = await scenario();
    const s = current;
    const { client, engine, orders } = await placed(s);
    const [kept, first, second] = orders as [
      (typeof orders)[0],
      (typeof orders)[0],
      (typeof orders)[0],
    ];
    await engine.refresh('openOrders');
    await client.trading.cancelOrder({ symbol: 'btcusdt', orderId: first.id });
    await client.trading.cancelOrder({ symbol: 'btcusdt', orderId: second.id });
    const fresh = await client.trading.placeOrder({
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: '99',
    });
    s.sandbox.admin.faults.inject({ method: 'GET', path: ORDER_PATH }, { kind: 'error-before' });
    await engine.refresh('openOrders', { force: true });

    // The failed lookup is the job's error (retried with back-off); everything else is stored.
    expect(engine.jobStatus('openOrders').error?.kind).toBe('server');
    const open = s.store.orders.openOrders(PROFILE).map((o) => o.id);
    expect(open).toContain(fresh.id);
    expect(open).toContain(kept.id);
    const statuses = [first, second].map((o) => s.store.orders.getOrder(PROFILE, o.id)?.status);
    expect(statuses.filter((x) => x === 'cancel')).toHaveLength(1);
    expect(changedKinds(s)).toContain('orders');

    await engine.refresh('openOrders', { force: true });
    expect(engine.jobStatus('openOrders').error).toBeNull();
    expect(
      s.store.orders
        .openOrders(PROFILE)
        .map((o) => o.id)
        .sort(),
    ).toEqual([kept.id, fresh.id].sort());
  });
});

describe('an exchange whose address refuses', () => {
  const clients: ExchangeClient[] = [];
  const servers: { server: Server; sockets: Set<Socket> }[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    for (const { server, sockets } of servers.splice(0)) {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  async function listening(server: Server): Promise<number> {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    return (server.address() as AddressInfo).port;
  }

  async function engineOn(s: Scenario, port: number, clock: ManualClock): Promise<SyncEngine> {
    const client = new ExchangeClient({
      baseUrl: `http://127.0.0.1:${port}`,
      ...s.keys,
      rateLimits: false,
      timeoutMs: 200,
    });
    clients.push(client);
    return new SyncEngine({
      pacing: false,
      store: s.store,
      client,
      profileId: PROFILE,
      emit: s.emit,
      clock,
    });
  }

  it('says so once refused connections have lasted, and a timeout is no refusal', async () => {
    current = await scenario();
    // A port where nothing listens: every connection is refused.
    const closed = createServer();
    const port = await listening(closed);
    await new Promise<void>((done) => closed.close(() => done()));
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const refused = await engineOn(current, port, clock);

    await refused.refresh('funds', { force: true });
    expect(refused.restStatus()).toMatchObject({ state: 'offline' });
    expect(refused.restStatus().refused).toBeUndefined();
    clock.advance(5_000);
    await refused.refresh('funds', { force: true });
    expect(refused.restStatus().refused).toBeUndefined();
    clock.advance(5_000);
    const statusEvents = changedKinds(current).filter((k) => k === 'status').length;
    await refused.refresh('funds', { force: true });
    expect(refused.restStatus()).toMatchObject({
      state: 'offline',
      refused: { since: Date.UTC(2026, 0, 1), attempts: 3 },
    });
    // The page hears of it: the status changed although it was offline before.
    expect(changedKinds(current).filter((k) => k === 'status').length).toBe(statusEvents + 1);

    // A server that takes the connection and never answers: timeouts, however long they last.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    servers.push({ server: silent, sockets });
    const timedOut = await engineOn(current, await listening(silent), clock);
    for (let i = 0; i < 4; i++) {
      await timedOut.refresh('funds', { force: true });
      clock.advance(5_000);
    }
    expect(timedOut.restStatus().state).toBe('offline');
    expect(timedOut.restStatus().refused).toBeUndefined();
  });
});
