/**
 * Every contract method over the real browser-mode bridge (WebSocket, token, Host/Origin) against
 * the sandbox exchange, with a real profile whose secret key the test knows: each result's shape
 * is checked, and afterwards every message of the session and every log line is searched for the
 * secret key (and the full API key), which must never appear.
 */
import type { AlertView } from '../../shared/alerts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodNames, type MethodName } from '../../shared/contract';
import type {
  AllProfilesHistoryView,
  AllProfilesView,
  AssetLedgerView,
  InferredEntryView,
  LedgerHistoryView,
  LedgerSettingsView,
  LedgerSummaryView,
  NetWorthView,
  ReportFileView,
} from '../../shared/ledger';
import type {
  AccountView,
  ActivityItem,
  AppStatus,
  BackfillProgress,
  CoinView,
  CsvExport,
  DepositAddressView,
  DepthView,
  FundsView,
  JournalEntryView,
  KlineView,
  NotificationView,
  OrderReview,
  OrderView,
  OrphanedKeyView,
  Page,
  PortfolioSummary,
  ProfileView,
  PublicTradeView,
  Settings,
  SubAccountsView,
  SubTransferView,
  SymbolView,
  TickerView,
  TradesPage,
  TransferOutcome,
  WithdrawView,
} from '../../shared/types';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import { startSandbox, type Sandbox } from '../../electron/sandbox';
import { DECIMAL, eventually, rendererDir, tempDir, testSecretStore, WireClient } from './helpers';

let sandbox: Sandbox;
let app: SpotfolioApp;
let host: BrowserModeHost;
let client: WireClient;
let dir: ReturnType<typeof tempDir>;
const logLines: string[] = [];
const called = new Set<string>();
let apiKey = '';
let secretKey = '';
let parentEmail = '';
let subEmails: string[] = [];
/** A sub-account's own key, linked over the bridge: it must never reach the page or the log. */
let subKey = { apiKey: '', secretKey: '' };

async function ok<T>(method: MethodName, input: unknown = {}): Promise<T> {
  called.add(method);
  return client.ok<T>(method, input);
}

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 11 });
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const key = parent.keys.find((k) => k.canTrade)!;
  apiKey = key.apiKey;
  secretKey = key.secretKey;
  parentEmail = parent.email;
  subEmails = sandbox.world.accounts.filter((a) => a.role === 'sub').map((a) => a.email);
  const sub = sandbox.world.accounts.find((a) => a.email === subEmails[1])!;
  subKey = { apiKey: sub.keys[0]!.apiKey, secretKey: sub.keys[0]!.secretKey };
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: testSecretStore().store,
    demo: 'off',
    sandboxOptions: { seed: 12 },
    log: (line) => logLines.push(line),
  });
  host = await startBrowserMode({ app, rendererDir: rendererDir(dir.path) });
  client = await WireClient.connect(host.port, host.token);
});

afterAll(async () => {
  if (process.env.APP_TEST_LOG)
    (await import('node:fs')).writeFileSync(process.env.APP_TEST_LOG, logLines.join('\n'));
  client?.close();
  await host?.close();
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

describe('the whole contract over browser mode', () => {
  let profile: ProfileView;

  it('starts with no profile and says so', async () => {
    const status = await ok<AppStatus>('app.status');
    expect(status).toMatchObject({ mode: 'browser', activeProfileId: null, demo: false });
    expect(typeof status.version).toBe('string');
    expect(status.keychain.available).toBe(true);
    expect(await ok<ProfileView[]>('profiles.list')).toEqual([]);
    const noProfile = await client.call('funds.list');
    expect(noProfile).toMatchObject({ ok: false, error: { kind: 'no-profile' } });
  });

  it('adds a real profile after verifying the key, and goes live', async () => {
    profile = await ok<ProfileView>('profiles.add', {
      name: 'Main',
      apiKey,
      secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    expect(profile).toMatchObject({ name: 'Main', isDemo: false, active: true, canTrade: true });
    expect(profile.apiKeyMasked).not.toBe(apiKey);
    expect(apiKey.endsWith(profile.apiKeyMasked.slice(-4))).toBe(true);
    await eventually('the private stream to go live', () =>
      client.eventsOf('connection.state').some((e) => e.state === 'live') ? true : undefined,
    );
    const status = await ok<AppStatus>('app.status');
    expect(status).toMatchObject({ activeProfileId: profile.id, connection: 'live', demo: false });
    expect(status.pacingWaitMs).toBeGreaterThanOrEqual(0);
    const list = await ok<ProfileView[]>('profiles.list');
    expect(list.map((p) => p.id)).toEqual([profile.id]);
    expect(await ok<ProfileView>('profiles.activate', { id: profile.id })).toMatchObject({
      id: profile.id,
      active: true,
    });
    // A new name alone is saved as it is; the addresses stay and are not checked again.
    const renamed = await ok<ProfileView>('profiles.update', {
      id: profile.id,
      name: 'Main account',
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    expect(renamed).toMatchObject({ id: profile.id, name: 'Main account', active: true });
    profile = await ok<ProfileView>('profiles.update', {
      id: profile.id,
      name: 'Main',
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    expect(profile).toMatchObject({ name: 'Main', active: true });
  });

  it('serves funds, portfolio and account from the cache', async () => {
    const refreshed = await ok<FundsView>('funds.refresh');
    expect(refreshed.rows.length).toBeGreaterThan(0);
    expect(refreshed.asOf).toEqual(expect.any(Number));
    for (const row of refreshed.rows) {
      expect(row.free).toMatch(DECIMAL);
      expect(row.total).toMatch(DECIMAL);
    }
    const funds = await ok<FundsView>('funds.list');
    expect(funds.quoteAsset).toBe('usdt');
    expect(funds.rows.map((r) => r.asset).sort()).toEqual(
      refreshed.rows.map((r) => r.asset).sort(),
    );
    await eventually('prices to be cached', async () => {
      const summary = await ok<PortfolioSummary>('portfolio.summary');
      return summary.allocation.length > 0 ? summary : undefined;
    });
    const summary = await ok<PortfolioSummary>('portfolio.summary');
    expect(summary.totalValue).toMatch(DECIMAL);
    expect(summary.change24hPercent).toMatch(DECIMAL);
    const account = await ok<AccountView>('account.info');
    expect(account).toMatchObject({ canTrade: true });
    expect(typeof account.accountType).toBe('string');
  });

  it('reads withdrawals and deposits', async () => {
    const backfill = await ok<BackfillProgress>('withdrawals.backfill', {});
    expect(['idle', 'running', 'done', 'error']).toContain(backfill.state);
    const page = await eventually('withdrawals to be cached', async () => {
      const p = await ok<Page<WithdrawView>>('withdrawals.list', {});
      return p.total > 0 ? p : undefined;
    });
    expect(page.rows.length).toBeLessThanOrEqual(page.total);
    expect(page.rows[0]!.amount).toMatch(DECIMAL);
    expect(['success', 'failed', 'pending', 'cancelled']).toContain(page.rows[0]!.status);
    const status = await ok<BackfillProgress>('withdrawals.backfillStatus');
    expect(status.doneWindows).toBeLessThanOrEqual(status.totalWindows);
    const coins = await ok<string[]>('withdrawals.coins');
    expect(coins.length).toBeGreaterThan(0);
    const filtered = await ok<Page<WithdrawView>>('withdrawals.list', {
      filter: { coin: coins[0] },
      sort: { field: 'amount', dir: 'asc' },
      limit: 5,
    });
    expect(filtered.rows.every((r) => r.coin === coins[0])).toBe(true);

    const deposits = await eventually('coins to be cached', async () => {
      const c = await ok<{ coins: CoinView[]; asOf: number | null }>('deposits.coins');
      return c.coins.length > 0 ? c : undefined;
    });
    expect(deposits.asOf).toEqual(expect.any(Number));
    const coin = deposits.coins.find((c) => c.networks.some((n) => n.depositEnable))!;
    const network = coin.networks.find((n) => n.depositEnable)!;
    const address = await ok<DepositAddressView>('deposits.address', {
      coin: coin.coin,
      network: network.network,
    });
    expect(address).toMatchObject({ coin: coin.coin, network: network.network });
    expect(address.address.length).toBeGreaterThan(0);
    const again = await ok<DepositAddressView>('deposits.address', {
      coin: coin.coin,
      network: network.network,
    });
    expect(again).toMatchObject({ address: address.address, fromCache: true });
    // Nothing waits for the one-a-minute slot now, so nothing can be canceled.
    expect(await ok('deposits.pending')).toEqual([]);
    expect(await ok('deposits.cancel', { coin: coin.coin, network: network.network })).toEqual({
      canceled: false,
    });
  });

  it('lists sub-accounts and moves funds from main to a sub-account', async () => {
    const view = await ok<SubAccountsView>('subAccounts.refresh');
    expect(view.accounts.map((a) => a.email).sort()).toEqual([...subEmails].sort());
    const listed = await ok<SubAccountsView>('subAccounts.list');
    expect(listed.accounts.length).toBe(subEmails.length);
    const outcome = await ok<TransferOutcome>('subAccounts.transfer', {
      asset: 'usdt',
      amount: '5',
      fromEmail: parentEmail,
      toEmail: subEmails[0],
    });
    expect(outcome).toMatchObject({ state: 'completed', fundsAt: subEmails[0], amount: '5' });
    expect(outcome.legs).toHaveLength(1);
    expect(outcome.legs[0]).toMatchObject({ status: 'success', txnId: expect.any(Number) });
    const history = await eventually('the transfer in the history', async () => {
      const h = await ok<Page<SubTransferView>>('subAccounts.history', {});
      return h.rows.some((r) => r.txnId === outcome.legs[0]!.txnId) ? h : undefined;
    });
    expect(history.rows[0]!.qty).toMatch(DECIMAL);
    expect((await ok<SubAccountsView>('subAccounts.list')).parentEmail).toBe(parentEmail);
  });

  it('links a sub-account to its own key and unlinks it', async () => {
    const linked = await ok<SubAccountsView>('subAccounts.link', {
      email: subEmails[1],
      ...subKey,
    });
    const account = linked.accounts.find((a) => a.email === subEmails[1])!;
    expect(account.link?.apiKeyMasked).toContain('…');
    const unlinked = await ok<SubAccountsView>('subAccounts.unlink', { email: subEmails[1] });
    expect(unlinked.accounts.every((a) => a.link === null)).toBe(true);
  });

  it('keeps a journal of money movements and answers for keychain entries without a profile', async () => {
    // The transfer above completed in view of the user: nothing for the journal to show.
    expect(await ok<JournalEntryView[]>('journal.list')).toEqual([]);
    expect(await ok<JournalEntryView[]>('journal.check')).toEqual([]);
    for (const method of ['journal.finish', 'journal.resolve'] as const) {
      called.add(method);
      expect(await client.call(method, { id: 999_999 })).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input', field: 'id' },
      });
    }
    // The profile's own entry is no orphan.
    expect(await ok<OrphanedKeyView[]>('profiles.orphanedKeys')).toEqual([]);
    called.add('profiles.deleteOrphanedKey');
    expect(await client.call('profiles.deleteOrphanedKey', { id: 'no-such-entry' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found', field: 'id' },
    });
    // Nothing removed yet; a profile that was never removed cannot be restored.
    expect(await ok<unknown[]>('profiles.removed')).toEqual([]);
    called.add('profiles.restore');
    expect(
      await client.call('profiles.restore', {
        id: 'no-such-profile',
        apiKey: 'abcdefghijkl',
        secretKey: 'abcdefghijkl',
      }),
    ).toMatchObject({ ok: false, error: { kind: 'not-found', field: 'id' } });
    called.add('profiles.reattachKey');
    expect(
      await client.call('profiles.reattachKey', {
        id: 'no-such-entry',
        name: 'Gone',
        baseUrl: sandbox.baseUrl,
        streamUrl: sandbox.streamUrl,
      }),
    ).toMatchObject({ ok: false, error: { kind: 'not-found', field: 'id' } });
  });

  it('answers market data and streams the watched symbol', async () => {
    const symbols = await ok<SymbolView[]>('market.symbols');
    const btc = symbols.find((s) => s.symbol === 'btcusdt')!;
    expect(btc).toMatchObject({ baseAsset: 'btc', quoteAsset: 'usdt' });
    expect(btc.tickSize).toMatch(DECIMAL);
    const tickers = await ok<TickerView[]>('market.tickers');
    expect(tickers.find((t) => t.symbol === 'btcusdt')!.lastPrice).toMatch(DECIMAL);
    const klines = await ok<KlineView[]>('market.klines', {
      symbol: 'btcusdt',
      interval: '1m',
      limit: 10,
    });
    expect(klines.length).toBeLessThanOrEqual(10);
    for (const k of klines) expect(k.close).toMatch(DECIMAL);
    const depth = await ok<DepthView>('market.depth', { symbol: 'btcusdt', limit: 5 });
    expect(depth.symbol).toBe('btcusdt');
    expect(depth.asks.length).toBeGreaterThan(0);
    expect(depth.bids.length).toBeGreaterThan(0);
    const trades = await ok<PublicTradeView[]>('market.trades', { symbol: 'btcusdt', limit: 5 });
    expect(Array.isArray(trades)).toBe(true);
    expect(await ok('market.watch', { symbol: 'btcusdt' })).toEqual({ symbol: 'btcusdt' });
    await eventually('a market.depth event', () =>
      client.eventsOf('market.depth').find((d) => d.symbol === 'btcusdt'),
    );
  });

  it('tests, places and cancels orders, and a fill arrives live', async () => {
    const depth = await ok<DepthView>('market.depth', { symbol: 'btcusdt', limit: 5 });
    const [bestBid] = depth.bids[0]!;
    const [bestAsk] = depth.asks[0]!;
    const farBelow = (Number(bestBid) / 2).toFixed(0);
    const order = {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: farBelow,
    };
    const review = await ok<OrderReview>('orders.test', order);
    expect(review.ok).toBe(true);
    expect(review.checks.map((c) => [c.check, c.status])).toEqual([
      ['tick', 'passed'],
      ['step', 'passed'],
      ['limits', 'passed'],
      // Half the best bid is far from the last price: a warning, not a refusal.
      ['price', 'warning'],
      ['balance', 'passed'],
      ['exchange', 'passed'],
    ]);
    // The exchange's test endpoint would accept this form; the funds it needs are not there.
    const unaffordable = await ok<OrderReview>('orders.test', { ...order, quantity: '100000' });
    expect(unaffordable.ok).toBe(false);
    expect(unaffordable.checks.find((c) => c.check === 'balance')).toMatchObject({
      status: 'failed',
      text: expect.stringMatching(/^Not enough USDT: this buy needs [\d,.]+ USDT/),
    });
    expect(unaffordable.checks.at(-1)).toMatchObject({ check: 'exchange', status: 'skipped' });
    const placed = await ok<OrderView>('orders.place', order);
    expect(placed).toMatchObject({
      symbol: 'btcusdt',
      side: 'buy',
      status: 'wait',
      origQty: '0.001',
    });
    const open = await ok<Page<OrderView>>('orders.open', { symbol: 'btcusdt' });
    expect(open.rows.map((o) => o.id)).toContain(placed.id);
    const canceled = await ok<OrderView>('orders.cancel', {
      symbol: 'btcusdt',
      orderId: placed.id,
    });
    expect(canceled).toMatchObject({ id: placed.id, status: 'cancel' });
    const second = await ok<OrderView>('orders.place', order);
    const third = await ok<OrderView>('orders.place', order);
    // Every open order of the symbol goes, the world's resting orders of this account included.
    const all = await ok<{ canceled: OrderView[] }>('orders.cancelAll', { symbol: 'btcusdt' });
    expect(all.canceled.map((o) => o.id)).toEqual(expect.arrayContaining([second.id, third.id]));
    expect(all.canceled.every((o) => o.status === 'cancel')).toBe(true);
    expect((await ok<Page<OrderView>>('orders.open', { symbol: 'btcusdt' })).total).toBe(0);

    const taker = await ok<OrderView>('orders.place', { ...order, price: bestAsk });
    await eventually('the fill in a live batch', () =>
      client.eventsOf('live.batch').find((b) => b.trades.some((t) => t.orderId === taker.id)),
    );
    await eventually('a fill notification', () =>
      client.eventsOf('notification').find((n) => n.kind === 'fill'),
    );
    await eventually('market trades of the fill', () =>
      client.eventsOf('market.trades').find((t) => t.symbol === 'btcusdt' && t.trades.length > 0),
    );
    expect(await ok('market.unwatch')).toEqual({ symbol: null });
    const trades = await ok<TradesPage>('orders.trades', { filter: { symbol: 'btcusdt' } });
    expect(trades.rows.some((t) => t.orderId === taker.id)).toBe(true);
    expect(trades.feesByAsset.length).toBeGreaterThan(0);
    const history = await ok<Page<OrderView>>('orders.history', { symbol: 'btcusdt' });
    expect(history.rows.map((o) => o.id)).toContain(placed.id);
    const invalid = await client.call('orders.place', { ...order, quantity: '-1' });
    expect(invalid).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'quantity' },
    });
  });

  it('normalises amounts and refuses more decimals than the market allows, before sending', async () => {
    const depth = await ok<DepthView>('market.depth', { symbol: 'btcusdt', limit: 5 });
    const farBelow = (Number(depth.bids[0]![0]) / 2).toFixed(0);
    const order = { symbol: 'btcusdt', side: 'buy', type: 'limit' };
    const placed = await ok<OrderView>('orders.place', {
      ...order,
      quantity: '0000.00100',
      price: `00${farBelow}.000`,
    });
    expect(placed).toMatchObject({ origQty: '0.001', status: 'wait' });
    expect(placed.price).toMatch(new RegExp(`^${farBelow}(\\.0+)?$`));
    await ok('orders.cancel', { symbol: 'btcusdt', orderId: placed.id });

    const ordersBefore = (await ok<Page<OrderView>>('orders.history', { symbol: 'btcusdt' })).total;
    const tooFine = await client.call('orders.place', {
      ...order,
      quantity: '0.001000001',
      price: farBelow,
    });
    expect(tooFine).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'quantity',
        message: 'quantity has 9 decimals; BTCUSDT allows 6',
      },
    });
    const fractionOfTick = await client.call('orders.test', {
      ...order,
      quantity: '0.001',
      price: `${farBelow}.001`,
    });
    expect(fractionOfTick).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'price',
        message: 'price has 3 decimals; BTCUSDT allows 2 (tick size 0.01)',
      },
    });
    // Trailing zeros are not decimals: "0.0010000000" is 0.001.
    expect(
      await ok('orders.test', { ...order, quantity: '0.0010000000', price: `${farBelow}.10` }),
    ).toMatchObject({ ok: true });
    const unknownMarket = await client.call('orders.test', {
      ...order,
      symbol: 'dogeusdt',
      quantity: '1',
      price: '1',
    });
    expect(unknownMarket).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'symbol',
        message: 'DOGEUSDT is not a market of this exchange',
      },
    });
    const transfer = await client.call('subAccounts.transfer', {
      asset: 'btc',
      // BTC is traded with 6 decimals against USDT and quoted with 8 in ETHBTC: 8 is allowed.
      amount: '0.000000001',
      fromEmail: parentEmail,
      toEmail: subEmails[0],
    });
    expect(transfer).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'amount',
        message: 'amount has 9 decimals; BTC allows 8',
      },
    });
    const wrongType = await client.call('orders.cancel', { symbol: 'btcusdt', orderId: '12' });
    expect(wrongType).toEqual({
      ok: false,
      error: { kind: 'invalid-input', field: 'orderId', message: 'orderId must be an integer' },
    });
    const prototypeName = await client.call('__proto__.toString', {});
    expect(prototypeName).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: 'Unknown method __proto__.toString' },
    });
    // Nothing refused above reached the exchange.
    expect((await ok<Page<OrderView>>('orders.history', { symbol: 'btcusdt' })).total).toBe(
      ordersBefore,
    );
  });

  it('keeps settings, exports CSV and lists activity', async () => {
    const settings = await ok<Settings>('settings.get');
    expect(settings).toMatchObject({ quoteAsset: 'usdt', theme: 'system', privacyMode: false });
    const updated = await ok<Settings>('settings.update', { theme: 'dark', privacyMode: true });
    expect(updated).toMatchObject({ theme: 'dark', privacyMode: true, quoteAsset: 'usdt' });
    expect(await ok<Settings>('settings.get')).toEqual(updated);
    const unlisted = await client.call('settings.update', { quoteAsset: 'xyz' });
    expect(unlisted).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'quoteAsset',
        message: 'The exchange lists no asset XYZ; it quotes prices in BTC, INR, USDT',
      },
    });
    expect((await ok<Settings>('settings.get')).quoteAsset).toBe('usdt');
    expect(await ok<Settings>('settings.update', { quoteAsset: 'BTC' })).toMatchObject({
      quoteAsset: 'btc',
    });
    expect(await ok<Settings>('settings.update', { quoteAsset: 'usdt' })).toMatchObject({
      quoteAsset: 'usdt',
    });

    const csv = await ok<CsvExport>('export.csv', { kind: 'trades' });
    expect(csv.rows).toBeGreaterThan(0);
    expect(csv.fileName).toMatch(/\.csv$/);
    expect(csv.content.split('\n')[0]).toContain(',');

    const feed = await ok<ActivityItem[]>('activity.feed', { limit: 20 });
    expect(feed.length).toBeGreaterThan(0);
    expect(feed.some((item) => item.kind === 'trade')).toBe(true);
    const notifications = await ok<NotificationView[]>('activity.notifications', {});
    expect(notifications.some((n) => n.kind === 'fill' && !n.read)).toBe(true);
    expect(await ok('activity.markNotificationsRead')).toEqual({ ok: true });
    const after = await ok<NotificationView[]>('activity.notifications', {});
    expect(after.every((n) => n.read)).toBe(true);
  });

  it('creates, pauses, edits, lists and removes an alert, refusing bad ones', async () => {
    const created = await ok<AlertView>('alerts.create', {
      kind: 'price',
      symbol: 'BTCUSDT',
      direction: 'above',
      threshold: '0999999.50',
    });
    expect(created).toMatchObject({
      symbol: 'btcusdt',
      threshold: '999999.5',
      repeat: false,
      status: 'active',
      lastFiredAt: null,
    });
    expect(
      await client.call('alerts.create', {
        kind: 'price',
        symbol: 'btcusdt',
        direction: 'above',
        threshold: '1,000',
      }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'threshold' },
    });
    expect(
      await client.call('alerts.create', {
        kind: 'price',
        symbol: 'zzzusdt',
        direction: 'above',
        threshold: '1',
      }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'symbol' },
    });
    const paused = await ok<AlertView>('alerts.setPaused', { id: created.id, paused: true });
    expect(paused.status).toBe('paused');
    const edited = await ok<AlertView>('alerts.update', {
      id: created.id,
      alert: {
        kind: 'balance',
        asset: 'usdt',
        direction: 'below',
        threshold: '1',
        repeat: true,
        cooldownMinutes: 5,
      },
    });
    expect(edited).toMatchObject({
      kind: 'balance',
      asset: 'usdt',
      repeat: true,
      cooldownMinutes: 5,
    });
    expect((await ok<AlertView[]>('alerts.list')).map((a) => a.id)).toEqual([created.id]);
    expect(await ok('alerts.remove', { id: created.id })).toEqual({ removed: true });
    expect(await ok<AlertView[]>('alerts.list')).toEqual([]);
  });

  it('answers the ledger: P&L, net worth with every sub-account, an asset page, reports', async () => {
    await ok<Settings>('settings.update', { quoteAsset: 'usdt' });
    const summary = await eventually('own trades imported', async () => {
      const answer = await ok<LedgerSummaryView>('ledger.summary', { range: 'month' });
      return answer.import.complete && answer.import.storedTrades > 0 ? answer : undefined;
    });
    expect(summary).toMatchObject({ currency: 'usdt', method: 'fifo', account: null });
    expect(summary.includes).toMatch(/^Main account and 2 sub-accounts: \d+ trades?, /);
    expect(summary.range?.pnl).toMatch(DECIMAL);

    // The ledger's main-account holdings are the balances the exchange reports.
    const funds = await ok<FundsView>('funds.list');
    const worth = await ok<NetWorthView>('ledger.netWorth');
    expect(worth.accounts.map((a) => a.account)).toEqual(['main', ...[...subEmails].sort()]);
    const main = worth.accounts[0]!;
    for (const fund of funds.rows.filter((row) => Number(row.total) > 0)) {
      expect(main.assets.find((a) => a.asset === fund.asset)?.quantity, fund.asset).toBe(
        fund.total.replace(/\.?0+$/, ''),
      );
    }
    const sum = worth.accounts.reduce((total, a) => total + Number(a.value), 0);
    expect(Math.abs(sum - Number(worth.total))).toBeLessThan(1e-6);

    const btc = await ok<AssetLedgerView>('ledger.asset', { asset: 'BTC' });
    expect(btc.asset).toBe('btc');
    expect(btc.entries.some((entry) => entry.kind === 'trade')).toBe(true);
    expect(btc).toMatchObject({ account: null, subAccounts: [...subEmails].sort() });
    expect(btc.covers).toBe('Every account together (main account and 2 sub-accounts)');
    // The main account alone: the page and the net worth name it and cover nothing else.
    const mainBtc = await ok<AssetLedgerView>('ledger.asset', { asset: 'btc', account: 'Main' });
    expect(mainBtc.account).toBe('main');
    expect(mainBtc.covers).toBe('Main account only, not the 2 sub-accounts');
    expect(mainBtc.lots.every((lot) => lot.account === 'main')).toBe(true);
    expect(mainBtc.figures.quantity).toBe(
      main.assets.find((a) => a.asset === 'btc')?.quantity ?? '0',
    );
    const mainWorth = await ok<NetWorthView>('ledger.netWorth', { account: 'main' });
    expect(mainWorth.accounts.map((a) => a.account)).toEqual(['main']);
    expect(mainWorth.total).toBe(mainWorth.accounts[0]!.value);
    for (const [method, input] of [
      ['ledger.asset', { asset: 'btc', account: '' }],
      ['ledger.netWorth', { account: ' ' }],
    ] as const) {
      expect(await client.call(method, input)).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input', field: 'account' },
      });
    }
    // Every profile together, with one profile: the whole is that profile's every account, read
    // at the same prices (the market moves between two reads, so until both saw the same).
    const whole = await eventually('the whole and the net worth at the same prices', async () => {
      const [all, net] = await Promise.all([
        ok<AllProfilesView>('ledger.allProfiles', { range: 'day' }),
        ok<NetWorthView>('ledger.netWorth'),
      ]);
      return all.total === net.total ? { all, net } : undefined;
    });
    expect(
      whole.all.profiles.map(({ value, share, accounts }) => ({ value, share, accounts })),
    ).toEqual([
      { value: whole.net.total, share: '1', accounts: ['main', ...[...subEmails].sort()] },
    ]);
    const wholeHistory = await ok<AllProfilesHistoryView>('ledger.allProfilesHistory', {
      range: 'day',
    });
    expect(wholeHistory.profiles.map((profile) => profile.profileId)).toEqual([
      whole.all.profiles[0]!.profileId,
    ]);
    expect(await client.call('ledger.allProfilesHistory', { range: 'decade' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'range' },
    });
    // The history is the main account's, as the Portfolio's total is.
    const history = await ok<LedgerHistoryView>('ledger.history', { range: 'year' });
    const mainSummary = await ok<LedgerSummaryView>('ledger.summary', { account: 'main' });
    expect(history.points.at(-1)?.value).toBe(mainSummary.totals.value);
    const latest = await ok<LedgerSummaryView>('ledger.summary', {});

    const inferred = await ok<InferredEntryView[]>('ledger.inferred');
    expect(inferred).toHaveLength(latest.inferred.count);
    const credit = inferred.find((entry) => entry.inferred.credit)!;
    const labelled = await ok<InferredEntryView>('ledger.annotate', {
      id: credit.id,
      label: 'Opening balance',
    });
    expect(labelled.inferred.label).toBe('Opening balance');
    expect((await ok<LedgerSummaryView>('ledger.summary', {})).inferred.unlabelled).toBe(
      latest.inferred.unlabelled - 1,
    );
    // Written about the entry as it stands: nothing to look at again; an unknown id is refused.
    expect(labelled.inferred.review).toBeNull();
    called.add('ledger.review');
    expect(
      await client.call('ledger.review', { id: 'inferred:none', action: 'keep' }),
    ).toMatchObject({ ok: false, error: { kind: 'not-found', field: 'id' } });
    expect(await client.call('ledger.review', { id: credit.id, action: 'forget' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'action' },
    });

    expect(await ok<LedgerSettingsView>('ledger.settings')).toEqual({
      method: 'fifo',
      currency: 'usdt',
    });
    expect(await ok<LedgerSettingsView>('ledger.setMethod', { method: 'average' })).toMatchObject({
      method: 'average',
    });
    expect((await ok<LedgerSummaryView>('ledger.summary', {})).method).toBe('average');
    for (const method of ['lifo', 'hifo'] as const) {
      await ok('ledger.setMethod', { method });
      expect(await ok<LedgerSettingsView>('ledger.settings')).toMatchObject({ method });
      const chosen = await ok<LedgerSummaryView>('ledger.summary', {});
      expect(chosen.method).toBe(method);
      expect(chosen.includes).toContain(`cost by ${method.toUpperCase()}`);
    }
    await ok('ledger.setMethod', { method: 'fifo' });

    const year = new Date().getUTCFullYear();
    const tax = await ok<ReportFileView>('ledger.taxReport', { year, longTermAfterDays: 365 });
    expect(tax.path.startsWith(dir.path)).toBe(true);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(tax.path, 'utf8').split(/\r?\n/)[0]).toBe(
      'Description,Asset,Quantity,Date Acquired,Date Sold,Proceeds,Cost Basis,Gain or Loss,Holding Days,Method,Currency',
    );
    expect(tax.summary).toMatchObject({ year, method: 'fifo', currency: 'usdt' });
    expect(tax.terms?.fileName).toBe(`spotfolio-tax-${year}-fifo-usdt-terms.csv`);
    const terms = readFileSync(tax.terms!.path, 'utf8').split(/\r?\n/);
    expect(terms[0]).toBe(
      'Term,Rows,Proceeds,Cost Basis,Gain or Loss,Long Term After Days,Method,Currency',
    );
    expect(terms.slice(1, 4).map((line) => line.split(',').slice(0, 2))).toEqual([
      ['Short term', String(tax.summary!.shortTerm.rows)],
      ['Long term', String(tax.summary!.longTerm.rows)],
      ['Total', String(tax.rows)],
    ]);
    expect(terms[3]!.split(',')[4]).toBe(tax.summary!.total.gain);
    const hifo = await ok<ReportFileView>('ledger.taxReport', {
      year,
      method: 'hifo',
      longTermAfterDays: 365,
    });
    expect(hifo.fileName).toBe(`spotfolio-tax-${year}-hifo-usdt.csv`);
    expect(hifo.summary).toMatchObject({ year, method: 'hifo', currency: 'usdt' });
    const koinly = await ok<ReportFileView>('ledger.koinlyExport');
    expect(koinly.rows).toBeGreaterThan(0);
    expect(readFileSync(koinly.path, 'utf8').split(/\r?\n/)[0]).toBe(
      'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
    );
    expect(await ok('ledger.openExportsFolder')).toEqual({ folder: tax.folder });
  });

  it('enters demo mode beside the real profile and leaves it again', async () => {
    const demo = await ok<ProfileView>('profiles.enterDemo');
    expect(demo).toMatchObject({ name: 'Demo', isDemo: true, active: true });
    expect((await ok<AppStatus>('app.status')).demo).toBe(true);
    const back = await ok<ProfileView>('profiles.activate', { id: profile.id });
    expect(back).toMatchObject({ id: profile.id, active: true });
    expect(await ok('profiles.remove', { id: demo.id })).toEqual({ removed: true });
    const list = await ok<ProfileView[]>('profiles.list');
    expect(list.map((p) => p.id)).toEqual([profile.id]);
  });

  it('locks and unlocks; while locked only the lock answers; a reset forgets the profiles', async () => {
    expect(await ok('lock.status')).toMatchObject({ enabled: false, locked: false });
    await ok('lock.setPassword', { password: 'bridge test pw' });
    expect(await ok('lock.setIdle', { idleMinutes: 1 })).toMatchObject({ idleMinutes: 1 });
    expect(await ok('lock.activity')).toEqual({ ok: true });
    await ok('lock.setPassword', { current: 'bridge test pw', password: 'bridge test pw 2' });
    expect(await ok('lock.lock')).toMatchObject({ enabled: true, locked: true });
    expect(await client.call('funds.list')).toMatchObject({ ok: false, error: { kind: 'locked' } });
    expect(await ok('lock.unlock', { password: 'bridge test pw 2' })).toMatchObject({
      unlocked: true,
    });
    expect(await ok('lock.confirm', { password: 'bridge test pw 2' })).toMatchObject({
      confirmed: true,
    });
    expect(await ok('lock.removePassword', { current: 'bridge test pw 2' })).toMatchObject({
      enabled: false,
    });
    // Last: the reset removes the profile's local data and its key, after a backup.
    expect(await ok('lock.reset', { confirm: true })).toMatchObject({ enabled: false });
    expect(await ok('profiles.list')).toEqual([]);
  });

  it('called every contract method', () => {
    expect(methodNames.filter((name) => !called.has(name))).toEqual([]);
  });

  it('never sent the secret key (or the full API key) to the page or the log', () => {
    expect(client.raw.length).toBeGreaterThan(50);
    expect(client.eventsOf('live.batch').length).toBeGreaterThan(0);
    expect(logLines.length).toBeGreaterThan(0);
    for (const text of [...client.raw, ...logLines]) {
      expect(text).not.toContain(secretKey);
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(subKey.secretKey);
      expect(text).not.toContain(subKey.apiKey);
    }
  });
});
