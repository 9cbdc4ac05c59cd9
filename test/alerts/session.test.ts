/**
 * Alerts against the real sandbox over HTTP and WebSocket, on real record files: a crossing trade
 * reaches the alert through the all-market ticker stream and becomes a notification (Activity),
 * a toast event and a desktop notification (numbers hidden in privacy mode); a crossing made while
 * the ticker stream was cut, or while the app was closed, is found in the candles re-read over
 * REST and fires once; the bridge refuses an unknown market, a line that is not a positive
 * decimal and a duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertSession } from '../../electron/alerts/session';
import type { AlertFiring } from '../../electron/alerts/engine';
import { SystemClock } from '../../electron/core/clock';
import type { DesktopNotification } from '../../electron/core/notifier';
import { ExchangeClient } from '../../electron/exchange/client';
import { SharedStream } from '../../electron/exchange/shared-stream';
import { StreamClient } from '../../electron/exchange/stream';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { openStore, type Store } from '../../electron/store';
import { DEFAULT_SETTINGS } from '../../electron/settings/stored';
import { methodSchema } from '../../shared/contract-schemas';
import type { EventName, EventPayloads } from '../../shared/contract';
import type { Settings } from '../../shared/types';
import { eventually, tempDir } from '../api/helpers';
import { startLiveApp, type LiveApp } from '../live/helpers';
import { recordingLog } from './helpers';
import { hourMove as hourMoveIn, tradeAgo as tradeAgoIn } from './past-trades';

const SELLER = 'seller@alerts.test';
const BUYER = 'buyer@alerts.test';
const HOLDER = 'holder@alerts.test';
let sandbox: TestSandbox;
let seller: ExchangeClient;
let buyer: ExchangeClient;
const keys = new Map<string, { apiKey: string; secretKey: string }>();

beforeAll(async () => {
  sandbox = await startSandbox({ world: 'empty', rateLimits: false });
  const key = (email: string) => {
    sandbox.admin.createAccount({ email });
    sandbox.admin.credit(email, 'btc', '10');
    sandbox.admin.credit(email, 'xrp', '1000');
    sandbox.admin.credit(email, 'sol', '100');
    sandbox.admin.credit(email, 'usdt', '1000000');
    const created = sandbox.admin.createApiKey(email, { canTrade: true });
    keys.set(email, created);
    return created;
  };
  seller = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...key(SELLER) });
  buyer = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...key(BUYER) });
  await trade('100');
});

afterAll(async () => {
  await seller?.close();
  await buyer?.close();
  await sandbox?.close();
});

/** Two other accounts trade 0.001 BTC at `price`: the market's last price becomes `price`. */
async function trade(price: string): Promise<void> {
  await seller.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'sell',
    type: 'limit',
    quantity: '0.001',
    price,
  });
  await buyer.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    quantity: '0.001',
    price,
  });
}

const pastKeys = () => ({ seller: keys.get(SELLER)!, buyer: keys.get(BUYER)! });
const tradeAgo = (minutesAgo: number, symbol: string, price: string, quantity: string) =>
  tradeAgoIn(sandbox, pastKeys(), minutesAgo, { symbol, price, quantity });
const hourMove = (symbol: string) => hourMoveIn(sandbox, symbol);

interface SessionWorld {
  store: Store;
  session: AlertSession;
  fired: AlertFiring[];
  desktop: DesktopNotification[];
  events: { event: EventName; payload: unknown }[];
  settings: Settings;
  close(): Promise<void>;
}

/** An alert session as the app runs one, with a slow reconnect so a test can trade in the gap. */
function alertSession(dataDir: string, profileId = 'p1'): SessionWorld {
  const { store } = openStore({ dataDir });
  if (!store.profiles.get(profileId)) {
    store.profiles.create({
      id: profileId,
      name: 'Main',
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
      apiKeyMasked: 'abcd…wxyz',
      canTrade: true,
      canWithdraw: true,
      isDemo: false,
      createdAt: Date.now(),
    });
  }
  const client = new ExchangeClient({ baseUrl: sandbox.baseUrl });
  // The profile's stream client as the session builds one, with a slow reconnect.
  const streams = new SharedStream(
    new StreamClient({
      streamUrl: sandbox.streamUrl,
      timing: { backoffBaseMs: 3000, backoffMaxMs: 3000 },
    }),
  );
  const fired: AlertFiring[] = [];
  const desktop: DesktopNotification[] = [];
  const events: { event: EventName; payload: unknown }[] = [];
  const log = recordingLog();
  const world: SessionWorld = {
    store,
    fired,
    desktop,
    events,
    settings: structuredClone(DEFAULT_SETTINGS),
    session: new AlertSession({
      store,
      profileId,
      streams,
      client,
      emit: (event, payload) => events.push({ event, payload }),
      clock: new SystemClock(),
      log,
      settings: () => world.settings,
      notifier: { show: (notification) => desktop.push(notification) },
      onFired: (firing) => fired.push(firing),
    }),
    async close() {
      await world.session.close();
      await streams.close();
      await client.close();
      store.close();
      expect(log.errors).toEqual([]);
    },
  };
  return world;
}

/**
 * Runs `test` on a fresh data folder, where `open()` starts an alert session (again after
 * `close()`, as a restart of the app). The last session opened is closed and the folder removed
 * whatever the test did.
 */
async function onFreshFolder(test: (open: () => SessionWorld) => Promise<void>): Promise<void> {
  const dir = tempDir('spotfolio-alerts-');
  let last: SessionWorld | undefined;
  try {
    await test(() => (last = alertSession(dir.path)));
  } finally {
    await last?.close();
    dir.remove();
  }
}

/** A BTCUSDT price alert waiting for a crossing of `threshold` from a last price of 100. */
function addPriceAlert(
  world: SessionWorld,
  direction: 'above' | 'below',
  threshold: string,
  timing = { repeat: false, cooldownMinutes: 60 },
): number {
  const now = Date.now();
  return world.session.repository.create(
    'p1',
    { kind: 'price', symbol: 'btcusdt', direction, threshold, ...timing },
    { lastSide: direction === 'above' ? 'below' : 'above', lastValue: '100', lastSeenAt: now },
    now,
  ).id;
}

const eventsOf = <E extends EventName>(world: SessionWorld, event: E) =>
  world.events.filter((e) => e.event === event).map((e) => e.payload as EventPayloads[E]);

describe('an alert session on the sandbox', () => {
  it('fires on a crossing trade through the ticker stream, once', () =>
    onFreshFolder(async (open) => {
      const world = open();
      const id = addPriceAlert(world, 'above', '110');
      await world.session.start();
      await trade('111');
      await eventually('the alert to fire', () => (world.fired.length > 0 ? true : undefined));
      await trade('112');
      // Seen, and not told again: the one-shot alert rests once it has fired.
      await eventually('the price after the firing to be seen', () =>
        world.session.engine.lastPrice('btcusdt') === '112' ? true : undefined,
      );
      expect(world.fired).toHaveLength(1);
      expect(world.fired[0]!.alert.id).toBe(id);
      // Recorded for Activity, a toast for the page, a desktop notification.
      const notifications = world.store.notifications.list('p1');
      expect(notifications.map((n) => [n.kind, n.body])).toEqual([
        ['alert', 'BTCUSDT is at 111, above 110'],
      ]);
      expect(eventsOf(world, 'notification').map((n) => n.title)).toEqual([
        'Price alert: BTCUSDT above the line',
      ]);
      expect(world.desktop.map((n) => n.body)).toEqual(['BTCUSDT is at 111, above 110']);
      expect(eventsOf(world, 'data.changed').some((e) => e.kinds.includes('alerts'))).toBe(true);
      const stored = world.session.repository.get('p1', id)!;
      expect(stored.lastFiredAt).toBe(world.fired[0]!.at);
      expect(stored.state.spent).toBe(true);
    }));

  it('hides the amounts of the desktop notification in privacy mode', () =>
    onFreshFolder(async (open) => {
      const world = open();
      world.settings = { ...world.settings, privacyMode: true };
      await trade('100');
      addPriceAlert(world, 'below', '95');
      await world.session.start();
      await trade('94.5');
      await eventually('the alert to fire', () => (world.desktop.length > 0 ? true : undefined));
      expect(world.desktop[0]!.body).toBe('BTCUSDT is at ••••, below ••••');
      expect(world.desktop[0]!.title).not.toMatch(/\d/);
    }));

  it('finds a crossing made while the ticker stream was cut, and fires it once', () =>
    onFreshFolder(async (open) => {
      const world = open();
      await trade('100');
      addPriceAlert(world, 'above', '130');
      await world.session.start();
      // A tick while live, so the gap starts from a price the stream gave.
      await trade('101');
      await eventually('a price from the stream', () =>
        world.session.engine.lastSeen('btcusdt')! > Date.now() - 900 ? true : undefined,
      );
      sandbox.admin.dropStreamConnections();
      // Over the line and back before the stream returns (it waits 1.5 to 3 s to reconnect).
      await trade('131');
      await trade('102');
      expect(world.fired).toHaveLength(0);
      await eventually('the gap re-read to fire', () =>
        world.fired.length > 0 ? true : undefined,
      );
      expect(world.fired[0]!.message.body).toBe(
        'BTCUSDT is at 131, above 130 (crossed while the stream was away)',
      );
      await world.session.settled();
      await trade('103');
      await eventually('the next price to be seen', () =>
        world.session.engine.lastPrice('btcusdt') === '103' ? true : undefined,
      );
      expect(world.fired).toHaveLength(1);
    }));

  it('finds a crossing made while the app was closed, after a restart', () =>
    onFreshFolder(async (open) => {
      let world = open();
      await trade('100');
      addPriceAlert(world, 'below', '90', { repeat: true, cooldownMinutes: 1 });
      await world.session.start();
      await trade('99');
      await eventually('a price from the stream', () =>
        world.session.engine.lastSeen('btcusdt')! > Date.now() - 900 ? true : undefined,
      );
      await world.close();

      await trade('89');
      await trade('98');
      world = open();
      await world.session.start();
      expect(world.fired.map((f) => f.message.body)).toEqual([
        'BTCUSDT is at 89, below 90 (crossed while the stream was away)',
      ]);
      // The next start re-reads nothing it has told already.
      await world.close();
      world = open();
      await world.session.start();
      expect(world.fired).toHaveLength(0);
    }));

  it('measures a 1-hour move from the candles at start: one already made fires at once', () =>
    onFreshFolder(async (open) => {
      // A quiet market: one trade 70 minutes ago, the next one now, 1.29 % higher.
      await tradeAgo(70, 'solusdt', '100', '1');
      await tradeAgo(0, 'solusdt', '101.29', '1');
      const world = open();
      const now = Date.now();
      const id = world.session.repository.create(
        'p1',
        {
          kind: 'price-move',
          symbol: 'solusdt',
          direction: 'up',
          threshold: '1',
          window: '1h',
          repeat: false,
          cooldownMinutes: 60,
        },
        { lastSide: null, lastValue: null, lastSeenAt: null },
        now,
      ).id;
      await world.session.start();
      const move = await hourMove('solusdt');
      expect(move).toEqual({ change: '+1.29', price: '101.29' });
      expect(world.fired.map((f) => [f.alert.id, f.message.body])).toEqual([
        [id, `SOLUSDT moved ${move.change} % within 1h (now ${move.price})`],
      ]);
      expect(world.session.repository.get('p1', id)!.lastSeenAt).not.toBeNull();
    }));
});

describe('alerts through the app and its bridge', () => {
  let live: LiveApp;
  const desktop: DesktopNotification[] = [];

  beforeAll(async () => {
    sandbox.admin.createAccount({ email: HOLDER });
    sandbox.admin.credit(HOLDER, 'usdt', '500');
    const key = sandbox.admin.createApiKey(HOLDER, { canTrade: true });
    live = await startLiveApp(sandbox, key, { notifier: { show: (n) => desktop.push(n) } });
  });
  afterAll(async () => {
    await live?.close();
  });

  it('refuses an unknown market, a line that is not a positive decimal, and a duplicate', async () => {
    const { handlers } = live.app;
    await expect(
      handlers['alerts.create']({
        kind: 'price',
        symbol: 'nopeusdt',
        direction: 'above',
        threshold: '1',
        repeat: false,
        cooldownMinutes: 60,
      }),
    ).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'symbol',
      message: 'NOPEUSDT is not a market of this exchange',
    });
    const schema = methodSchema('alerts.create')!;
    for (const threshold of ['0', '-5', '1e3', 'abc', '']) {
      const parsed = schema.safeParse({
        kind: 'price',
        symbol: 'btcusdt',
        direction: 'above',
        threshold,
      });
      expect(parsed.success, threshold).toBe(false);
      expect(parsed.error!.issues[0]!.path).toEqual(['threshold']);
      expect(parsed.error!.issues[0]!.message).toMatch(
        /^The price must be (a positive decimal|greater than zero)/,
      );
    }
    const input = schema.parse({
      kind: 'price',
      symbol: 'BTCUSDT',
      direction: 'above',
      threshold: '0150.50',
    });
    const created = await handlers['alerts.create'](input as never);
    expect(created).toMatchObject({
      symbol: 'btcusdt',
      threshold: '150.5',
      status: 'active',
      lastFiredAt: null,
    });
    const again = schema.parse({
      kind: 'price',
      symbol: 'btcusdt',
      direction: 'above',
      threshold: '150.500',
      repeat: true,
    });
    await expect(handlers['alerts.create'](again as never)).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'threshold',
      message: 'You already have this alert: BTCUSDT above 150.5',
    });
    await handlers['alerts.remove']({ id: created.id });
    expect(await handlers['alerts.list']({})).toEqual([]);
  });

  it('fires a balance alert from the private stream, listed in Activity and with its last firing', async () => {
    const { handlers } = live.app;
    // The alert starts from the balance the app knows: wait until sync has read it.
    await eventually('the funds in the cache', async () =>
      (await handlers['funds.list']({})).rows.some((row) => row.asset === 'usdt')
        ? true
        : undefined,
    );
    const alert = await handlers['alerts.create']({
      kind: 'balance',
      asset: 'usdt',
      direction: 'above',
      threshold: '600',
      repeat: false,
      cooldownMinutes: 60,
    });
    sandbox.admin.credit(HOLDER, 'usdt', '100.5');
    await eventually('the alert notification', async () =>
      (await handlers['activity.notifications']({ limit: 50 })).find((n) => n.kind === 'alert'),
    );
    const listed = (await handlers['alerts.list']({})).find((a) => a.id === alert.id)!;
    expect(listed.status).toBe('fired');
    expect(listed.lastFiredAt).not.toBeNull();
    expect(listed.lastValue).toBe('600.5');
    expect(desktop.map((n) => n.body)).toContain('Free USDT is 600.5 USDT, above 600 USDT');
    expect(live.eventsOf('notification').some((n) => n.kind === 'alert')).toBe(true);
    // Resuming re-arms it, from the side it is on now: no firing for what is already true.
    const resumed = await handlers['alerts.setPaused']({ id: alert.id, paused: false });
    expect(resumed.status).toBe('active');
    // A later balance, still above the line, reaches the app and is not told.
    sandbox.admin.credit(HOLDER, 'usdt', '0.5');
    await eventually('the next balance to reach the app', async () =>
      (await handlers['funds.list']({})).rows.some(
        (row) => row.asset === 'usdt' && row.free === '601',
      )
        ? true
        : undefined,
    );
    const alertsTold = (await handlers['activity.notifications']({ limit: 50 })).filter(
      (n) => n.kind === 'alert',
    );
    expect(alertsTold).toHaveLength(1);
  });

  it('reads the last hour of a new 1-hour move alert when it is made: seen at once, fired at once', async () => {
    const { handlers } = live.app;
    // The hour before: 1 at 65 and 30 minutes ago; now 1.0129 (+1.29 % on the price an hour ago).
    await tradeAgo(65, 'xrpusdt', '1', '10');
    await tradeAgo(30, 'xrpusdt', '1.0005', '10');
    await tradeAgo(0, 'xrpusdt', '1.0129', '10');
    const move = await hourMove('xrpusdt');
    expect(move).toEqual({ change: '+1.29', price: '1.0129' });
    const quiet = await handlers['alerts.create']({
      kind: 'price-move',
      symbol: 'xrpusdt',
      direction: 'up',
      threshold: '2',
      window: '1h',
      repeat: false,
      cooldownMinutes: 60,
    });
    const reached = await handlers['alerts.create']({
      kind: 'price-move',
      symbol: 'xrpusdt',
      direction: 'up',
      threshold: '1.29',
      window: '1h',
      repeat: false,
      cooldownMinutes: 60,
    });
    const body = `XRPUSDT moved ${move.change} % within 1h (now ${move.price} USDT)`;
    await eventually('the move alert to fire', async () =>
      (await handlers['activity.notifications']({ limit: 50 })).find((n) => n.body === body),
    );
    const listed = await handlers['alerts.list']({});
    // The one below its line has seen the move too (not blind for an hour), and stays quiet.
    expect(listed.find((a) => a.id === quiet.id)).toMatchObject({
      status: 'active',
      lastValue: move.change.slice(1),
      lastFiredAt: null,
    });
    expect(listed.find((a) => a.id === quiet.id)!.lastSeenAt).not.toBeNull();
    expect(listed.find((a) => a.id === reached.id)).toMatchObject({
      status: 'fired',
      lastValue: move.change.slice(1),
    });
  });
});
