import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeError, type CoinInfo } from '../../electron/exchange';
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
