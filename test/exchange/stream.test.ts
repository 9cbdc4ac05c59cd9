/**
 * StreamClient against the real sandbox's WebSocket server: typed events, state changes, the
 * server dropping every connection, auth token expiry, and 2,000 streams over two connections.
 */
import { createServer, connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../electron/exchange/client';
import { ManualClock } from '../../electron/core/clock';
import { StreamClient } from '../../electron/exchange/stream';
import type { OrderUpdateEvent } from '../../electron/exchange/wire';
import type { ConnectionState } from '../../shared/types';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { clientFor, parentOf, restingBuyPrice } from './helpers';

let sandbox: Sandbox;
let client: ExchangeClient;
let price: string;
const symbol = 'btcusdt';

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
  client = clientFor(sandbox, parentOf(sandbox).trade, { rateLimits: false });
  price = await restingBuyPrice(client, symbol);
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

function nextEvent<T>(
  streams: StreamClient,
  event: 'order',
  match: (p: OrderUpdateEvent) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${event} event within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const listener = (payload: OrderUpdateEvent) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      streams.off(event, listener);
      resolve(payload as T);
    };
    streams.on(event, listener);
  });
}

function waitForState(
  streams: StreamClient,
  state: ConnectionState,
  timeoutMs: number,
): Promise<void> {
  if (streams.connectionState === state) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`not ${state} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const listener = (s: ConnectionState) => {
      if (s !== state) return;
      clearTimeout(timer);
      streams.off('state', listener);
      resolve();
    };
    streams.on('state', listener);
  });
}

/** A port nothing listens on (yet): connections to it are refused. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function placeAndSee(
  streams: StreamClient,
  clientOrderId: string,
): Promise<OrderUpdateEvent> {
  const seen = nextEvent<OrderUpdateEvent>(streams, 'order', (p) => p.c === clientOrderId);
  await client.trading.placeOrder({
    symbol,
    side: 'buy',
    type: 'limit',
    quantity: '0.001',
    price,
    clientOrderId,
  });
  return seen;
}

describe('StreamClient', () => {
  it('goes connecting -> live and delivers typed private and public events', async () => {
    const streams = new StreamClient({
      streamUrl: sandbox.streamUrl,
      authKeyProvider: () => client.auth.createAuthToken(),
    });
    const states: ConnectionState[] = [];
    streams.on('state', (s) => states.push(s));
    const trades: string[] = [];
    streams.on('trades', (p, stream) => {
      for (const t of p.trades) expect(['buy', 'sell']).toContain(t.S);
      trades.push(stream);
    });
    await streams.subscribe([
      'orderUpdate',
      'ownTrade',
      'outboundAccountPosition',
      `${symbol}@trades`,
    ]);
    expect(states).toEqual(['connecting', 'live']);

    const update = await placeAndSee(streams, '1'.repeat(32));
    expect(update.S).toBe('buy');
    expect(update.X).toBe('wait');
    expect(typeof update.i).toBe('number');

    // A crossing order makes a public trade and an ownTrade.
    const book = await client.market.depth({ symbol, limit: 5 });
    const ownTrade = new Promise<void>((resolve) => streams.on('ownTrade', () => resolve()));
    await client.trading.placeOrder({
      symbol,
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: book.asks[0]![0],
    });
    await ownTrade;
    await expect.poll(() => trades.length, { timeout: 5000 }).toBeGreaterThan(0);
    await streams.close();
    expect(streams.connectionState).toBe('offline');
  });

  it('is live and resubscribed within 2 s after the server drops every connection', async () => {
    const streams = new StreamClient({
      streamUrl: sandbox.streamUrl,
      authKeyProvider: () => client.auth.createAuthToken(),
    });
    await streams.subscribe(['orderUpdate', `${symbol}@trades`]);
    const reconnected = new Promise<void>((resolve) =>
      streams.once('reconnected', () => resolve()),
    );
    const states: ConnectionState[] = [];
    streams.on('state', (s) => states.push(s));
    const droppedAt = Date.now();
    sandbox.admin.dropStreamConnections();
    await reconnected;
    expect(Date.now() - droppedAt).toBeLessThan(2000);
    expect(states).toEqual(['reconnecting', 'live']);
    expect(streams.connectionState).toBe('live');
    // Resubscribed: private events flow again on the new connection.
    const update = await placeAndSee(streams, '2'.repeat(32));
    expect(update.c).toBe('2'.repeat(32));
    await streams.close();
  });

  it('renews the auth token before it expires (on its clock) and keeps delivering private events', async () => {
    let issued = 0;
    const clock = new ManualClock(Date.now());
    const streams = new StreamClient({
      streamUrl: sandbox.streamUrl,
      clock,
      // Reports a 3-second life: renewed 0.6 s before its end.
      authKeyProvider: async () => {
        issued++;
        const token = await client.auth.createAuthToken();
        return { ...token, timeout_duration: 3 };
      },
    });
    await streams.subscribe(['orderUpdate']);
    expect(issued).toBe(1);
    clock.advance(2399);
    expect(issued).toBe(1);
    clock.advance(1);
    await expect.poll(() => issued).toBe(2);
    const update = await placeAndSee(streams, '3'.repeat(32));
    expect(update.c).toBe('3'.repeat(32));
    await streams.close();
  });

  it('waits its reconnect back-off on its clock, not the wall clock', async () => {
    const clock = new ManualClock(Date.now());
    const streams = new StreamClient({ streamUrl: sandbox.streamUrl, clock });
    await streams.subscribe([`${symbol}@trades`]);
    const states: ConnectionState[] = [];
    streams.on('state', (s) => states.push(s));
    sandbox.admin.dropStreamConnections();
    await expect.poll(() => streams.connectionState).toBe('reconnecting');
    // The first reconnect waits 125-250 ms of the clock: nothing has been scheduled on the wall.
    await expect.poll(() => sandbox.admin.streamConnectionCount()).toBe(0);
    expect(states).toEqual(['reconnecting']);
    clock.advance(250);
    await waitForState(streams, 'live', 5000);
    expect(states).toEqual(['reconnecting', 'live']);
    await streams.close();
  });

  it('says reconnected when it first goes live after the exchange could not be reached', async () => {
    // The users of the stream read what they need over REST when they start (an alert its
    // window, the live session the funds); while the first connection could not be made, what
    // happened is missed the same as during a drop, so going live then is a reconnect too.
    const port = await freePort();
    const streams = new StreamClient({
      streamUrl: `ws://127.0.0.1:${port}${new URL(sandbox.streamUrl).pathname}`,
      timing: { backoffBaseMs: 20, backoffMaxMs: 100, offlineAfterAttempts: 2 },
    });
    let reconnects = 0;
    streams.on('reconnected', () => reconnects++);
    const subscribed = streams.subscribe([`${symbol}@trades`]);
    const relay = createServer((socket) => {
      const upstream = connect(Number(new URL(sandbox.streamUrl).port), '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    try {
      await waitForState(streams, 'offline', 5000);
      await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
      await subscribed;
      await waitForState(streams, 'live', 5000);
      expect(reconnects).toBe(1);
    } finally {
      await streams.close();
      relay.close();
    }
  });

  it('after the token expired at the exchange, a reconnect gets 401, renews the token and resyncs', async () => {
    let issued = 0;
    const streams = new StreamClient({
      streamUrl: sandbox.streamUrl,
      authKeyProvider: async () => {
        issued++;
        return client.auth.createAuthToken();
      },
    });
    await streams.subscribe(['orderUpdate']);
    const reconnected = new Promise<void>((resolve) =>
      streams.once('reconnected', () => resolve()),
    );
    // A day later by the exchange's clock the token has expired (each create_auth_token of the
    // earlier tests extended it by 30 minutes); then the socket goes too.
    sandbox.admin.faults.skewClock(24 * 3_600_000);
    try {
      sandbox.admin.dropStreamConnections();
      await reconnected;
      expect(issued).toBe(2);
      expect(streams.connectionState).toBe('live');
      const update = await placeAndSee(streams, '4'.repeat(32));
      expect(update.c).toBe('4'.repeat(32));
    } finally {
      sandbox.admin.faults.skewClock(0);
      await streams.close();
    }
  });

  it('spreads 2,000 streams over two connections and unsubscribes them', async () => {
    const streams = new StreamClient({ streamUrl: sandbox.streamUrl });
    const names = Array.from({ length: 2000 }, (_, i) => `${symbol}@kline_${i + 1}m`);
    // The earlier tests' sockets are gone at the server once their close completes.
    await expect.poll(() => sandbox.admin.streamConnectionCount()).toBe(0);
    await streams.subscribe(names);
    expect(streams.connectionCount).toBe(2);
    expect(streams.subscriptions).toHaveLength(2000);
    expect(sandbox.admin.streamConnectionCount()).toBe(2);
    await streams.unsubscribe(names.slice(1024));
    expect(streams.connectionCount).toBe(1);
    await waitForState(streams, 'live', 2000);
    await streams.close();
  });
});

describe('the kline stream payload', () => {
  it('is read the same whether its amounts come as strings (the interface) or numbers', () => {
    const streams = new StreamClient({ streamUrl: 'ws://127.0.0.1:1/ws' });
    const seen: unknown[] = [];
    streams.on('kline', (payload) => seen.push(payload));
    const head = '"E":1767225605000,"s":"btcusdt","t":1767225600000,"T":1767225659999,"i":"1m"';
    const asStrings = `"o":"42000.5","c":"42010","h":"42020.25","l":"41990","v":"0.00125"`;
    const asNumbers = `"o":42000.5,"c":42010,"h":42020.25,"l":41990,"v":0.00125`;
    for (const amounts of [asStrings, asNumbers]) {
      streams.feedRaw(`{"stream":"btcusdt@kline_1m","data":{${head},${amounts}}}`);
    }
    const expected = {
      E: 1767225605000,
      s: 'btcusdt',
      t: 1767225600000,
      T: 1767225659999,
      i: '1m',
      o: '42000.5',
      c: '42010',
      h: '42020.25',
      l: '41990',
      v: '0.00125',
    };
    expect(seen).toEqual([expected, expected]);
  });
});
