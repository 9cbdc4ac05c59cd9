/**
 * One stream client shared by the live session, alerts and the market watch, against the real
 * sandbox over 127.0.0.1: the private streams, the all-market tickers and a market's trades and
 * book go over one connection, each user hearing only its own streams; a stream leaves the
 * connection only when no user holds it; a dropped connection comes back once for everyone with
 * every held stream; closing leaves no socket and no timer on the clock.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import type { ExchangeClient } from '../../electron/exchange/client';
import { SharedStream, type StreamUser } from '../../electron/exchange/shared-stream';
import { PRIVATE_STREAMS, StreamClient } from '../../electron/exchange/stream';
import { marketStreams } from '../../electron/live/market-watch';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import type { ConnectionState } from '../../shared/types';
import { clientFor, parentOf, restingBuyPrice } from './helpers';

const TICKERS = '!ticker@arr';
const PRIVATE = [...PRIVATE_STREAMS];
const MARKET = marketStreams('btcusdt');
const DATA_EVENTS = ['trades', 'tickers', 'kline', 'depth', 'account', 'order', 'ownTrade'];

let sandbox: TestSandbox;
let client: ExchangeClient;
let price: string;
let orders = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, simulation: { ratePerSecond: 20 } });
  client = clientFor(sandbox, parentOf(sandbox).trade, { rateLimits: false });
  price = await restingBuyPrice(client, 'btcusdt');
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

interface World {
  clock: ManualClock;
  shared: SharedStream;
  /** The stream of each data message each user heard, in order. */
  heard: Map<StreamUser, string[]>;
  user(label: string): StreamUser;
}

let world: World | undefined;

/** A shared client on a manual clock (its reconnect waits only when the test moves the clock). */
async function openWorld(): Promise<World> {
  // Each test starts with no connection left over at the exchange.
  await expect.poll(() => sandbox.admin.streamConnectionCount()).toBe(0);
  const clock = new ManualClock(Date.now());
  const shared = new SharedStream(
    new StreamClient({
      streamUrl: sandbox.streamUrl,
      clock,
      authKeyProvider: () => client.auth.createAuthToken(),
    }),
  );
  const heard = new Map<StreamUser, string[]>();
  world = {
    clock,
    shared,
    heard,
    user(label) {
      const user = shared.user(label);
      const streams: string[] = [];
      heard.set(user, streams);
      for (const event of DATA_EVENTS) {
        user.on(event as 'trades', (_payload: unknown, stream: string) => streams.push(stream));
      }
      return user;
    },
  };
  return world;
}

afterEach(async () => {
  await world?.shared.close();
  world = undefined;
});

/** A resting order of the parent's: the private streams bring its update. */
async function placeResting(): Promise<string> {
  const clientOrderId = String(++orders).padStart(32, 'a');
  await client.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    quantity: '0.001',
    price,
    clientOrderId,
  });
  return clientOrderId;
}

const sorted = (names: readonly string[]) => [...names].sort();

describe('one stream client shared by every user of a profile', () => {
  it('carries the private streams, the tickers and the watched market on one connection; each user hears its own', async () => {
    const { shared, heard, user } = await openWorld();
    const live = user('live');
    const alerts = user('alerts');
    const market = user('market');
    await Promise.all([
      live.subscribe(PRIVATE),
      alerts.subscribe([TICKERS]),
      market.subscribe(MARKET),
    ]);
    expect(sandbox.admin.streamsByConnection()).toEqual([sorted([...PRIVATE, TICKERS, ...MARKET])]);
    expect(shared.client.connectionCount).toBe(1);
    expect(shared.connectionState).toBe('live');

    await placeResting();
    await expect.poll(() => heard.get(live)!.includes('orderUpdate')).toBe(true);
    await expect.poll(() => heard.get(alerts)!.includes(TICKERS)).toBe(true);
    await expect
      .poll(() => MARKET.every((stream) => heard.get(market)!.includes(stream)), { timeout: 5000 })
      .toBe(true);
    // Nobody hears another's streams, though they all come over the same socket.
    expect(new Set(heard.get(live))).toEqual(
      new Set(heard.get(live)!.filter((s) => PRIVATE.includes(s))),
    );
    expect(new Set(heard.get(alerts))).toEqual(new Set([TICKERS]));
    expect(new Set(heard.get(market))).toEqual(new Set(MARKET));
  });

  it('drops a stream from the connection only when no user holds it any more', async () => {
    const { shared, heard, user } = await openWorld();
    const live = user('live');
    const alerts = user('alerts');
    const market = user('market');
    // A second user of the market's trades (as a chart would be).
    const chart = user('chart');
    await Promise.all([
      live.subscribe(PRIVATE),
      alerts.subscribe([TICKERS]),
      market.subscribe(MARKET),
      chart.subscribe([MARKET[0]!]),
    ]);
    expect(shared.holdersOf(MARKET[0]!)).toBe(2);

    // The alerts let their tickers go: the watch's streams and the private ones stay.
    await alerts.unsubscribe([TICKERS]);
    expect(sandbox.admin.streamsByConnection()).toEqual([sorted([...PRIVATE, ...MARKET])]);
    expect(alerts.held).toEqual([]);
    const alertsHeard = heard.get(alerts)!.length;

    // The watch lets the trades go while the chart holds them: they stay on the connection and
    // reach the chart only.
    await market.unsubscribe([MARKET[0]!]);
    expect(sandbox.admin.streamsByConnection()).toEqual([sorted([...PRIVATE, ...MARKET])]);
    const marketTrades = heard.get(market)!.filter((s) => s === MARKET[0]).length;
    const chartTrades = heard.get(chart)!.length;
    await expect
      .poll(() => heard.get(chart)!.length, { timeout: 5000 })
      .toBeGreaterThan(chartTrades + 2);
    expect(heard.get(market)!.filter((s) => s === MARKET[0]).length).toBe(marketTrades);
    // Over a second of ticker cadence has passed: the alerts heard no ticker since letting go.
    await new Promise((done) => setTimeout(done, 1200));
    expect(heard.get(alerts)!.length).toBe(alertsHeard);

    // The last holder lets go: the stream leaves the connection.
    await chart.unsubscribe([MARKET[0]!]);
    expect(sandbox.admin.streamsByConnection()).toEqual([sorted([...PRIVATE, MARKET[1]!])]);
    expect(shared.held.sort()).toEqual(sorted([...PRIVATE, MARKET[1]!]));
  });

  it('a stream the exchange refuses is held by nobody, and the others flow on', async () => {
    const { shared, user } = await openWorld();
    const live = user('live');
    const market = user('market');
    await live.subscribe(PRIVATE);
    await expect(market.subscribe(marketStreams('nosuchpair'))).rejects.toThrow(/unknown stream/);
    expect(market.held).toEqual([]);
    expect(shared.held.sort()).toEqual(sorted(PRIVATE));
    expect(shared.connectionState).toBe('live');
    expect(sandbox.admin.streamsByConnection()).toEqual([sorted(PRIVATE)]);
  });

  it('reconnects once for everyone, resubscribing every stream held', async () => {
    const { clock, shared, heard, user } = await openWorld();
    const live = user('live');
    const alerts = user('alerts');
    const market = user('market');
    const idle = user('idle');
    await Promise.all([
      live.subscribe(PRIVATE),
      alerts.subscribe([TICKERS]),
      market.subscribe(MARKET),
    ]);
    const states: ConnectionState[] = [];
    shared.onState((state) => states.push(state));
    const reconnected = new Map<StreamUser, number>();
    const userStates = new Map<StreamUser, ConnectionState[]>();
    for (const one of [live, alerts, market, idle]) {
      reconnected.set(one, 0);
      userStates.set(one, []);
      one.on('reconnected', () => reconnected.set(one, reconnected.get(one)! + 1));
      one.on('state', (state) => userStates.get(one)!.push(state));
    }

    sandbox.admin.dropStreamConnections();
    await expect.poll(() => shared.connectionState).toBe('reconnecting');
    // The reconnect waits its back-off on the client's clock: nothing reconnects meanwhile.
    expect(sandbox.admin.streamConnectionCount()).toBe(0);
    clock.advance(250);
    await expect.poll(() => shared.connectionState, { timeout: 5000 }).toBe('live');

    expect(states).toEqual(['reconnecting', 'live']);
    expect(shared.client.connectionCount).toBe(1);
    expect(sandbox.admin.streamsByConnection()).toEqual([sorted([...PRIVATE, TICKERS, ...MARKET])]);
    for (const holder of [live, alerts, market]) {
      expect(reconnected.get(holder)).toBe(1);
      expect(userStates.get(holder)).toEqual(['reconnecting', 'live']);
    }
    // A user holding nothing hears nothing of it.
    expect(reconnected.get(idle)).toBe(0);
    expect(userStates.get(idle)).toEqual([]);

    // Every stream flows again on the new connection.
    const since = new Map([...heard].map(([one, streams]) => [one, streams.length]));
    const after = (one: StreamUser) => heard.get(one)!.slice(since.get(one));
    await placeResting();
    await expect.poll(() => after(live).includes('orderUpdate')).toBe(true);
    await expect.poll(() => after(alerts).includes(TICKERS), { timeout: 5000 }).toBe(true);
    await expect.poll(() => after(market).includes(MARKET[1]!)).toBe(true);
  });

  it('closes its socket and every timer on its clock, and takes no user after', async () => {
    const { clock, shared, user } = await openWorld();
    const live = user('live');
    const market = user('market');
    await Promise.all([live.subscribe(PRIVATE), market.subscribe(MARKET)]);
    expect(clock.pending).toBeGreaterThan(0);
    await shared.close();
    await expect.poll(() => sandbox.admin.streamConnectionCount()).toBe(0);
    expect(clock.pending).toBe(0);
    expect(shared.connectionState).toBe('offline');
    await expect(market.subscribe(MARKET)).rejects.toThrow(/released/);
    await market.release();
    expect(() => shared.user('late')).toThrow(/closed/);
  });
});
