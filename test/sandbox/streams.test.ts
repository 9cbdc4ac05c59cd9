/**
 * The sandbox's WebSocket streams over real `ws` clients on 127.0.0.1, against the whole sandbox
 * (startSandbox) driven by a ManualClock: connection rules, every error row, each stream's payload,
 * and private-stream isolation between accounts. Private events are produced by signed REST calls.
 */
import { createHmac } from 'node:crypto';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthTokens } from '../../electron/sandbox/auth-tokens';
import { ManualClock, type Clock, type TimerHandle } from '../../electron/core/clock';
import { MatchingEngine } from '../../electron/sandbox/engine';
import { SandboxEvents } from '../../electron/sandbox/events';
import { Ledger } from '../../electron/sandbox/ledger';
import { DEMO_MARKETS } from '../../electron/sandbox/world';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { candleBounds, parseKlineSpan } from '../../electron/sandbox/klines';
import { textFrame } from '../../electron/sandbox/streams/connection';
import { attachStreamServer } from '../../electron/sandbox/streams/server';

type Message = Record<string, unknown> & {
  event?: string;
  stream?: string;
  data?: unknown;
  id?: number;
};

/** How long a test waits for an expected message before failing (a safety net, not a sleep). */
const WAIT_MS = 5000;

/** A `ws` client that queues every message and hands them out in order, by predicate. */
class StreamTestClient {
  private readonly queue: Message[] = [];
  private readonly waiters: {
    match: (m: Message) => boolean;
    resolve: (m: Message) => void;
    reject: (e: Error) => void;
  }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private closeInfo: { code: number; reason: string } | undefined;
  private nextPingId = 1_000_000;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as Message;
      const index = this.waiters.findIndex((w) => w.match(message));
      if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(message);
      else this.queue.push(message);
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: String(reason) };
        for (const waiter of this.waiters.splice(0)) {
          waiter.reject(new Error(`connection closed (${code} ${String(reason)})`));
        }
        resolve(this.closeInfo);
      });
    });
    ws.on('error', () => undefined);
  }

  static async connect(url: string): Promise<StreamTestClient> {
    const client = new StreamTestClient(new WebSocket(url));
    const hello = await client.next();
    expect(hello).toEqual({ data: { timeout_duration: 1800 }, event: 'connected' });
    return client;
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** The first queued or arriving message that matches. */
  next(match: (m: Message) => boolean = () => true): Promise<Message> {
    const index = this.queue.findIndex(match);
    if (index >= 0) return Promise.resolve(this.queue.splice(index, 1)[0]!);
    if (this.closeInfo)
      return Promise.reject(new Error(`connection closed (${this.closeInfo.code})`));
    return new Promise((resolve, reject) => {
      const waiter = { match, resolve, reject };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(
          new Error(
            `no matching message within ${WAIT_MS} ms; queued: ${JSON.stringify(this.queue)}`,
          ),
        );
      }, WAIT_MS);
      waiter.resolve = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
      waiter.reject = (e) => {
        clearTimeout(timer);
        reject(e);
      };
      this.waiters.push(waiter);
    });
  }

  /** The next message of a data stream. */
  data(stream: string): Promise<Message> {
    return this.next((m) => m.stream === stream);
  }

  /** Sends a control message and returns the reply (the next message carrying an event). */
  async request(value: unknown): Promise<Message> {
    this.send(value);
    return this.next((m) => m.event !== undefined);
  }

  /**
   * Everything the server sent before now: a ping round trip proves that every earlier message
   * has arrived (one connection is ordered). Counts as one incoming message.
   */
  async flush(): Promise<Message[]> {
    const id = this.nextPingId++;
    this.send({ event: 'ping', id });
    await this.next((m) => m.event === 'pong' && m.id === id);
    return this.queue.splice(0);
  }

  close(): void {
    this.ws.close();
  }
}

interface Keys {
  apiKey: string;
  secretKey: string;
}

/** A signed REST call (all parameters in the query string), as the interface describes. */
async function signed(
  sandbox: TestSandbox,
  keys: Keys,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const query = new URLSearchParams({
    ...params,
    timestamp: String(sandbox.clock.now()),
  }).toString();
  const signature = createHmac('sha256', keys.secretKey).update(query).digest('hex');
  const response = await fetch(`${sandbox.baseUrl}${path}?${query}&signature=${signature}`, {
    method,
    headers: { 'X-API-KEY': keys.apiKey },
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function authKey(sandbox: TestSandbox, keys: Keys): Promise<string> {
  const body = await signed(sandbox, keys, 'POST', '/sapi/v1/create_auth_token');
  expect(typeof body.auth_key).toBe('string');
  return body.auth_key as string;
}

async function depth(
  sandbox: TestSandbox,
  symbol: string,
): Promise<{ asks: string[][]; bids: string[][] }> {
  const response = await fetch(`${sandbox.baseUrl}/sapi/v1/depth?symbol=${symbol}&limit=5`);
  return (await response.json()) as { asks: string[][]; bids: string[][] };
}

async function tickSize(sandbox: TestSandbox, symbol: string): Promise<Decimal> {
  const response = await fetch(`${sandbox.baseUrl}/sapi/v1/exchangeInfo`);
  const info = (await response.json()) as {
    symbols: { symbol: string; filters: { filterType: string; tickSize?: string }[] }[];
  };
  const market = info.symbols.find((s) => s.symbol === symbol)!;
  return new Decimal(market.filters.find((f) => f.filterType === 'PRICE_FILTER')!.tickSize!);
}

/** A price strictly inside the spread (the best bid plus one tick), so an order there is the best. */
async function insideBid(sandbox: TestSandbox, symbol: string): Promise<string> {
  const book = await depth(sandbox, symbol);
  const tick = await tickSize(sandbox, symbol);
  const bid = new Decimal(book.bids[0]![0]!);
  const ask = new Decimal(book.asks[0]![0]!);
  const price = bid.plus(tick);
  if (price.gte(ask)) throw new Error(`the ${symbol} spread is a single tick; the test needs more`);
  return price.toFixed();
}

let accountCounter = 0;
/** A fresh account with a trading key and funds in both assets of btcusdt. */
function newTrader(sandbox: TestSandbox): { email: string; keys: Keys } {
  const email = `trader${++accountCounter}@streams.test`;
  sandbox.admin.createAccount({ email });
  const keys = sandbox.admin.createApiKey(email, { canTrade: true });
  sandbox.admin.credit(email, 'usdt', '1000000');
  sandbox.admin.credit(email, 'btc', '100');
  return { email, keys };
}

const SYMBOL = 'btcusdt';

function parentKeys(sandbox: TestSandbox): Keys {
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  return parent.keys.find((k) => k.canTrade)!;
}

describe('sandbox streams: connection rules and errors', () => {
  let sandbox: TestSandbox;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    sandbox = await startSandbox({ world: 'demo', clock, rateLimits: false });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('greets with connected and answers ping with pong, echoing the id or 0', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    expect(await client.request({ event: 'ping' })).toEqual({
      data: { timeout_duration: 1800 },
      event: 'pong',
      id: 0,
    });
    expect(await client.request({ event: 'ping', id: 42 })).toEqual({
      data: { timeout_duration: 1800 },
      event: 'pong',
      id: 42,
    });
    client.close();
  });

  it('subscribes and unsubscribes public streams with the interface replies', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    const streams = [`${SYMBOL}@trades`, `${SYMBOL}@depth`, '!ticker@arr'];
    expect(await client.request({ event: 'subscribe', streams, id: 7 })).toEqual({
      data: { streams },
      event: 'subscribed',
      id: 7,
    });
    expect(await client.request({ event: 'unsubscribe', streams: [`${SYMBOL}@depth`] })).toEqual({
      data: { streams: [`${SYMBOL}@depth`] },
      event: 'unsubscribed',
      id: 0,
    });
    client.close();
  });

  it.each([
    [
      'streams is not an array',
      { event: 'subscribe', streams: `${SYMBOL}@trades`, id: 3 },
      { code: 400, message: 'Invalid request: streams must be an array' },
      3,
    ],
    [
      'a private stream without an auth_key',
      { event: 'subscribe', streams: ['orderUpdate'], id: 4 },
      { code: 401, message: 'Invalid request: unauthorized access' },
      4,
    ],
    [
      'a private stream with an unknown auth_key',
      { event: 'subscribe', streams: ['ownTrade'], auth_key: 'f'.repeat(64), id: 5 },
      { code: 401, message: 'Invalid request: unauthorized access' },
      5,
    ],
    [
      'an unsupported method',
      { event: 'listen', streams: [], id: 6 },
      { code: 400, message: 'Invalid request: unsupported method' },
      6,
    ],
    [
      'a missing method',
      { streams: [`${SYMBOL}@trades`] },
      { code: 400, message: 'Invalid request: unsupported method' },
      0,
    ],
    [
      'an unparseable message',
      '{"event":"subscribe",',
      { code: 500, message: 'Invalid request: could not parse message' },
      0,
    ],
    [
      'a JSON value that is not a message',
      '[1,2,3]',
      { code: 500, message: 'Invalid request: could not parse message' },
      0,
    ],
    [
      'a negative id',
      { event: 'ping', id: -1 },
      { code: 400, message: 'Invalid request: ID must be an unsigned integer' },
      0,
    ],
    [
      'a fractional id',
      { event: 'subscribe', streams: [], id: 1.5 },
      { code: 400, message: 'Invalid request: ID must be an unsigned integer' },
      0,
    ],
    [
      'a string id',
      { event: 'ping', id: '9' },
      { code: 400, message: 'Invalid request: ID must be an unsigned integer' },
      0,
    ],
    [
      'an auth_key that is not a string',
      { event: 'subscribe', streams: ['orderUpdate'], auth_key: 12345, id: 8 },
      { code: 400, message: 'Invalid request: auth_key must be a string' },
      8,
    ],
    [
      'an unknown stream name',
      { event: 'subscribe', streams: [`${SYMBOL}@trades`, 'nosuchcoin@trades'], id: 9 },
      { code: 400, message: 'Invalid request: unknown stream nosuchcoin@trades' },
      9,
    ],
    [
      'a kline interval of an unknown unit',
      { event: 'subscribe', streams: [`${SYMBOL}@kline_5s`], id: 10 },
      { code: 400, message: `Invalid request: unknown stream ${SYMBOL}@kline_5s` },
      10,
    ],
    [
      'a partial depth of an unsupported level',
      { event: 'subscribe', streams: [`${SYMBOL}@depth7@100ms`], id: 11 },
      { code: 400, message: `Invalid request: unknown stream ${SYMBOL}@depth7@100ms` },
      11,
    ],
  ])('answers %s with its error row', async (_name, message, data, id) => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    expect(await client.request(message)).toEqual({ data, event: 'error', id });
    // The connection stays usable after an error.
    expect((await client.request({ event: 'ping', id: 1 })).event).toBe('pong');
    client.close();
  });

  it('subscribes nothing of a request with one bad stream', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({ event: 'subscribe', streams: [`${SYMBOL}@depth`, 'bad'], id: 1 });
    // Had btcusdt@depth been subscribed, its snapshot would precede the pong.
    expect(await client.flush()).toEqual([]);
    client.close();
  });

  it('allows 1024 streams on a connection and refuses the 1025th with 429', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    const streams = Array.from({ length: 1024 }, (_, i) => `${SYMBOL}@kline_${i + 1}m`);
    const reply = await client.request({
      event: 'subscribe',
      streams: streams.slice(0, 1000),
      id: 1,
    });
    expect(reply.event).toBe('subscribed');
    const second = await client.request({
      event: 'subscribe',
      streams: streams.slice(1000),
      id: 2,
    });
    expect(second).toEqual({ data: { streams: streams.slice(1000) }, event: 'subscribed', id: 2 });
    clock.advance(1000);
    // Re-subscribing an already subscribed stream adds nothing and is fine.
    expect((await client.request({ event: 'subscribe', streams: [streams[0]], id: 3 })).event).toBe(
      'subscribed',
    );
    expect(
      await client.request({ event: 'subscribe', streams: [`${SYMBOL}@trades`], id: 4 }),
    ).toEqual({
      data: { code: 429, message: 'Too many request: max streams subscription limit reached' },
      event: 'error',
      id: 4,
    });
    // Freeing one makes room for one.
    await client.request({ event: 'unsubscribe', streams: [streams[0]], id: 5 });
    expect(
      (await client.request({ event: 'subscribe', streams: [`${SYMBOL}@trades`], id: 6 })).event,
    ).toBe('subscribed');
    client.close();
  });

  it('disconnects a connection that sends more than 5 messages in a second', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    for (let i = 1; i <= 5; i++) client.send({ event: 'ping', id: i });
    for (let i = 1; i <= 5; i++) expect((await client.next((m) => m.id === i)).event).toBe('pong');
    clock.advance(1000);
    // A new second: five more are fine, the sixth disconnects.
    for (let i = 6; i <= 11; i++) client.send({ event: 'ping', id: i });
    const closed = await client.closed;
    expect(closed.code).toBe(1008);
    const pongs = (
      await Promise.allSettled([6, 7, 8, 9, 10].map((i) => client.next((m) => m.id === i)))
    ).filter((r) => r.status === 'fulfilled').length;
    expect(pongs).toBe(5);
  });

  it('counts WebSocket ping frames towards the 5 messages per second', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    for (let i = 0; i < 6; i++) client.ws.ping();
    expect((await client.closed).code).toBe(1008);
  });

  it('drops every connection abruptly with dropAll and counts connections', async () => {
    sandbox.admin.dropStreamConnections();
    expect(sandbox.admin.streamConnectionCount()).toBe(0);
    const clients = await Promise.all(
      [1, 2, 3].map(() => StreamTestClient.connect(sandbox.streamUrl)),
    );
    expect(sandbox.admin.streamConnectionCount()).toBe(3);
    sandbox.admin.dropStreamConnections();
    const codes = await Promise.all(clients.map(async (c) => (await c.closed).code));
    expect(codes).toEqual([1006, 1006, 1006]);
    expect(sandbox.admin.streamConnectionCount()).toBe(0);
  });

  it('refuses a WebSocket upgrade on another path', async () => {
    const ws = new WebSocket(sandbox.streamUrl.replace(/\/ws$/, '/elsewhere'));
    const status = await new Promise<number | undefined>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      ws.on('error', () => resolve(undefined));
    });
    expect(status).toBe(404);
  });
});

describe('sandbox streams: connection lifetime', () => {
  let sandbox: TestSandbox;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    sandbox = await startSandbox({ world: 'demo', clock, rateLimits: false });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('closes a connection after 30 minutes, and a ping restarts the 30 minutes', async () => {
    const idle = await StreamTestClient.connect(sandbox.streamUrl);
    const pinging = await StreamTestClient.connect(sandbox.streamUrl);
    // (Un)subscribing is a probe that, unlike a ping, does not extend the life.
    const probe = { event: 'unsubscribe', streams: [`${SYMBOL}@trades`] };
    clock.advance(20 * 60_000);
    expect((await pinging.request({ event: 'ping' })).event).toBe('pong');
    clock.advance(10 * 60_000 - 1);
    expect((await idle.request(probe)).event).toBe('unsubscribed');
    clock.advance(1);
    expect((await idle.closed).code).toBe(1000);
    expect((await pinging.request(probe)).event).toBe('unsubscribed');
    clock.advance(20 * 60_000 - 1);
    expect((await pinging.request(probe)).event).toBe('unsubscribed');
    clock.advance(1);
    expect((await pinging.closed).code).toBe(1000);
  });
});

describe('sandbox streams: public payloads', () => {
  let sandbox: TestSandbox;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    sandbox = await startSandbox({ world: 'demo', clock, rateLimits: false });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  /**
   * Buys up to `most` from the best ask with the demo parent's trading key (a taker trade that
   * fills completely at one price: never more than the best level holds).
   */
  async function takeBestAsk(
    most: string,
  ): Promise<{ price: string; qty: string; orderId: number }> {
    const book = await depth(sandbox, SYMBOL);
    const [price, available] = book.asks[0]!;
    const qty = Decimal.min(most, available!).toFixed();
    const order = await signed(sandbox, parentKeys(sandbox), 'POST', '/sapi/v1/order', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      quantity: qty,
      price: price!,
    });
    expect(order.status).toBe('done');
    return { price: price!, qty, orderId: order.id as number };
  }

  it('sends each trade on <symbol>@trades with the interface keys', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({ event: 'subscribe', streams: [`${SYMBOL}@trades`] });
    const { price, qty, orderId } = await takeBestAsk('0.001');
    const message = await client.data(`${SYMBOL}@trades`);
    const data = message.data as { trades: Record<string, unknown>[] };
    expect(Object.keys(message).sort()).toEqual(['data', 'stream']);
    expect(data.trades.length).toBeGreaterThanOrEqual(1);
    const trade = data.trades[0]!;
    expect(Object.keys(trade).sort()).toEqual(['E', 'S', 'a', 'b', 'm', 'p', 'q', 's', 't']);
    expect(trade).toMatchObject({
      E: clock.now(),
      S: 'buy',
      a: orderId,
      m: false,
      p: price,
      q: qty,
      s: SYMBOL,
    });
    expect(typeof trade.b).toBe('number');
    expect(Number.isInteger(trade.t)).toBe(true);
    client.close();
  });

  it('sends all tickers at once, then only the tickers that changed', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({ event: 'subscribe', streams: ['!ticker@arr'] });
    const first = (await client.data('!ticker@arr')).data as Record<string, unknown>[];
    const symbols = first.map((t) => t.s);
    expect(symbols).toContain(SYMBOL);
    expect(symbols).toContain('ethbtc');
    for (const ticker of first) {
      expect(Object.keys(ticker).sort()).toEqual([
        'E',
        'T',
        'U',
        'a',
        'b',
        'c',
        'h',
        'l',
        'o',
        'q',
        's',
        'u',
      ]);
      expect(ticker.T).toBe('SPOT');
      for (const key of ['a', 'b', 'c', 'h', 'l', 'o', 'q'])
        expect(ticker[key]).toMatch(/^\d+(\.\d+)?$/);
    }
    const { price } = await takeBestAsk('0.002');
    clock.advance(1000);
    const changed = (await client.data('!ticker@arr')).data as Record<string, unknown>[];
    expect(changed.map((t) => t.s)).toEqual([SYMBOL]);
    expect(changed[0]).toMatchObject({ c: price, u: 'btc', U: 'usdt', E: clock.now() });
    // Nothing changed in the next second: nothing is sent.
    clock.advance(1000);
    expect(await client.flush()).toEqual([]);
    client.close();
  });

  it('sends klines of any <number><unit> interval every 5 seconds, aggregated from trades', async () => {
    // A trade first, so the market has a price whatever the world's history.
    await takeBestAsk('0.001');
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    const streams = [`${SYMBOL}@kline_1m`, `${SYMBOL}@kline_7m`, `${SYMBOL}@kline_1M`];
    await client.request({ event: 'subscribe', streams });
    const snapshots = await Promise.all(streams.map((s) => client.data(s)));
    for (const message of snapshots) {
      expect(Object.keys(message.data as object).sort()).toEqual([
        'E',
        'T',
        'c',
        'h',
        'i',
        'l',
        'o',
        's',
        't',
        'v',
      ]);
    }
    const before = snapshots[1]!.data as Record<string, string | number>;
    expect(before.i).toBe('7m');
    expect((before.t as number) % (7 * 60_000)).toBe(0);
    expect(before.T).toBe((before.t as number) + 7 * 60_000 - 1);
    const month = snapshots[2]!.data as Record<string, number>;
    expect(month.t).toBe(Date.UTC(2026, 0, 1));
    expect(month.T).toBe(Date.UTC(2026, 1, 1) - 1);

    const { price, qty } = await takeBestAsk('0.003');
    clock.advance(5000);
    const after = (await client.data(`${SYMBOL}@kline_7m`)).data as Record<string, string>;
    // Amounts are strings, as the interface's stream table says (the REST klines are numbers).
    for (const key of ['o', 'h', 'l', 'c', 'v']) expect(typeof after[key]).toBe('string');
    expect(new Decimal(after.c!).eq(price)).toBe(true);
    expect(new Decimal(after.v!).minus(String(before.v)).toFixed()).toBe(qty);
    expect(new Decimal(after.h!).gte(price)).toBe(true);
    expect(new Decimal(after.l!).lte(price)).toBe(true);
    expect(after.E).toBe(clock.now());
    client.close();
  });

  it('gives the same candles on the kline streams as the REST klines for the same trades', async () => {
    // A fresh minute, so the candles compared hold only this test's trades and the history.
    clock.advance(60_000 - (clock.now() % 60_000));
    const intervals = ['1m', '1h', '1d'];
    const streams = intervals.map((interval) => `${SYMBOL}@kline_${interval}`);
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({ event: 'subscribe', streams });
    await Promise.all(streams.map((stream) => client.data(stream)));

    // The stream's amounts are strings, the REST klines' numbers: the same digits either way.
    const asRow = (data: Record<string, number | string>) => [
      data.t,
      Number(data.o),
      Number(data.h),
      Number(data.l),
      Number(data.c),
      Number(data.v),
    ];
    const restCandle = async (interval: string, startTime: number) => {
      const response = await fetch(
        `${sandbox.baseUrl}/sapi/v1/klines?symbol=${SYMBOL}&interval=${interval}&startTime=${startTime}&limit=1`,
      );
      const rows = (await response.json()) as unknown[][];
      expect(rows).toHaveLength(1);
      for (const value of rows[0]!) expect(typeof value).toBe('number');
      return rows[0];
    };
    const compare = async () => {
      for (const [i, stream] of streams.entries()) {
        const data = (await client.data(stream)).data as Record<string, number>;
        expect(await restCandle(intervals[i]!, data.t!)).toEqual(asRow(data));
      }
    };

    await takeBestAsk('0.002');
    await takeBestAsk('0.004');
    clock.advance(5000);
    await compare();

    // Into the next minute: the 1m stream first sends the closed candle in its final state.
    await takeBestAsk('0.001');
    clock.advance(59_999 - (clock.now() % 60_000));
    await client.flush();
    clock.advance(1);
    const closed = (await client.data(streams[0]!)).data as Record<string, number>;
    expect(await restCandle('1m', closed.t!)).toEqual(asRow(closed));
    await client.flush();
    await takeBestAsk('0.003');
    clock.advance(5000);
    await compare();
    client.close();
  });

  it('sends changed depth levels every 3 s ("0" removes) and a keep-alive after 10 s', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({ event: 'subscribe', streams: [`${SYMBOL}@depth`] });
    const snapshot = (await client.data(`${SYMBOL}@depth`)).data as Record<string, unknown>;
    expect(Object.keys(snapshot).sort()).toEqual(['E', 'a', 'b', 's']);
    expect((snapshot.b as unknown[]).length).toBeGreaterThan(0);

    const price = await insideBid(sandbox, SYMBOL);
    const order = await signed(sandbox, parentKeys(sandbox), 'POST', '/sapi/v1/order', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      quantity: '0.5',
      price,
    });
    clock.advance(3000);
    const added = (await client.data(`${SYMBOL}@depth`)).data as Record<string, unknown>;
    expect(added).toEqual({ E: clock.now(), a: [], b: [[price, '0.5']], s: SYMBOL });

    await signed(sandbox, parentKeys(sandbox), 'DELETE', '/sapi/v1/order', {
      symbol: SYMBOL,
      orderId: String(order.id),
    });
    clock.advance(3000);
    const removed = (await client.data(`${SYMBOL}@depth`)).data as Record<string, unknown>;
    expect(removed).toEqual({ E: clock.now(), a: [], b: [[price, '0']], s: SYMBOL });

    // Quiet book: nothing until 10 s after the last message, then an empty keep-alive.
    clock.advance(9999);
    expect(await client.flush()).toEqual([]);
    clock.advance(1);
    expect((await client.data(`${SYMBOL}@depth`)).data).toEqual({
      E: clock.now(),
      a: [],
      b: [],
      s: SYMBOL,
    });
    client.close();
  });

  it('sends the top levels on <symbol>@depth5@100ms within 100 ms of a change, only when changed', async () => {
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({ event: 'subscribe', streams: [`${SYMBOL}@depth5@100ms`] });
    const first = (await client.data(`${SYMBOL}@depth5@100ms`)).data as {
      a: string[][];
      b: string[][];
    };
    expect(first.a.length).toBeLessThanOrEqual(5);
    expect(first.b.length).toBeLessThanOrEqual(5);
    clock.advance(500);
    expect(await client.flush()).toEqual([]);

    const price = await insideBid(sandbox, SYMBOL);
    await signed(sandbox, parentKeys(sandbox), 'POST', '/sapi/v1/order', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      quantity: '0.25',
      price,
    });
    clock.advance(100);
    const top = (await client.data(`${SYMBOL}@depth5@100ms`)).data as {
      a: string[][];
      b: string[][];
      s: string;
    };
    expect(top.s).toBe(SYMBOL);
    expect(top.b[0]).toEqual([price, '0.25']);
    expect(top.b.length).toBe(Math.min(5, first.b.length + 1));
    expect(top.a).toEqual(first.a);
    client.close();
  });
});

describe('sandbox streams: private streams', () => {
  let sandbox: TestSandbox;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    sandbox = await startSandbox({ world: 'demo', clock, rateLimits: false });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const PRIVATE = ['outboundAccountPosition', 'orderUpdate', 'ownTrade'];

  it('delivers orderUpdate, ownTrade and outboundAccountPosition with the interface keys', async () => {
    const maker = newTrader(sandbox);
    const taker = newTrader(sandbox);
    const makerClient = await StreamTestClient.connect(sandbox.streamUrl);
    const takerClient = await StreamTestClient.connect(sandbox.streamUrl);
    expect(
      await makerClient.request({
        event: 'subscribe',
        streams: PRIVATE,
        auth_key: await authKey(sandbox, maker.keys),
        id: 1,
      }),
    ).toEqual({ data: { streams: PRIVATE }, event: 'subscribed', id: 1 });
    await takerClient.request({
      event: 'subscribe',
      streams: PRIVATE,
      auth_key: await authKey(sandbox, taker.keys),
    });

    const price = await insideBid(sandbox, SYMBOL);
    const placed = await signed(sandbox, maker.keys, 'POST', '/sapi/v1/order', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      quantity: '0.4',
      price,
      clientOrderId: 'maker-order-1',
    });
    const opened = (await makerClient.data('orderUpdate')).data as Record<string, unknown>;
    expect(Object.keys(opened).sort()).toEqual([
      'E',
      'O',
      'S',
      'V',
      'X',
      'c',
      'i',
      'm',
      'o',
      'p',
      'q',
      's',
      'v',
      'z',
    ]);
    expect(opened).toMatchObject({
      S: 'buy',
      V: '0.4',
      X: 'wait',
      i: placed.id,
      c: 'maker-order-1',
      o: 'limit',
      p: price,
      q: '0.4',
      s: SYMBOL,
      v: '0',
      z: '0',
    });
    const locked = (await makerClient.data('outboundAccountPosition')).data as {
      B: Record<string, string>[];
      E: number;
    };
    expect(Object.keys(locked).sort()).toEqual(['B', 'E']);
    const usdt = locked.B.find((b) => b.a === 'usdt')!;
    expect(Object.keys(usdt).sort()).toEqual(['a', 'b', 'l']);
    expect(usdt.l).toBe(new Decimal(price).times('0.4').toFixed());

    await signed(sandbox, taker.keys, 'POST', '/sapi/v1/order', {
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      quantity: '0.1',
      price,
      clientOrderId: 'taker-order-1',
    });
    const makerFill = (await makerClient.data('ownTrade')).data as Record<string, unknown>;
    expect(Object.keys(makerFill).sort()).toEqual([
      'E',
      'S',
      'U',
      'a',
      'b',
      'c',
      'f',
      'm',
      'o',
      'p',
      'q',
      's',
      't',
      'w',
    ]);
    expect(makerFill).toMatchObject({
      S: 'buy',
      U: 'btc',
      b: placed.id,
      c: 'maker-order-1',
      f: '0.0001',
      m: true,
      o: placed.id,
      p: price,
      q: '0.1',
      s: SYMBOL,
      w: new Decimal(price).times('0.1').toFixed(),
    });
    const takerFill = (await takerClient.data('ownTrade')).data as Record<string, unknown>;
    expect(takerFill).toMatchObject({
      S: 'sell',
      U: 'usdt',
      m: false,
      c: 'taker-order-1',
      a: takerFill.o,
      t: makerFill.t,
    });
    expect(takerFill.f).toBe(new Decimal(price).times('0.1').times('0.002').toFixed());

    const partly = (await makerClient.data('orderUpdate')).data as Record<string, unknown>;
    expect(partly).toMatchObject({ X: 'wait', q: '0.3', z: '0.1', v: price, m: true });
    const takerDone = (
      await takerClient.next(
        (m) => m.stream === 'orderUpdate' && (m.data as { X: string }).X === 'done',
      )
    ).data as Record<string, unknown>;
    expect(takerDone).toMatchObject({ c: 'taker-order-1', X: 'done', q: '0', z: '0.1', v: price });
    const takerBalances = (await takerClient.data('outboundAccountPosition')).data as {
      B: { a: string }[];
    };
    expect(takerBalances.B.map((b) => b.a).sort()).toEqual(['btc', 'usdt']);
    makerClient.close();
    takerClient.close();
  });

  it('never delivers one account’s events to another, across many accounts and connections', async () => {
    const traders = Array.from({ length: 6 }, () => newTrader(sandbox));
    const keys = await Promise.all(traders.map((t) => authKey(sandbox, t.keys)));
    // Two connections per account, plus one public-only connection.
    const clients = await Promise.all(
      traders
        .flatMap((_, i) => [i, i])
        .map(async (i) => {
          const client = await StreamTestClient.connect(sandbox.streamUrl);
          await client.request({ event: 'subscribe', streams: PRIVATE, auth_key: keys[i] });
          return { client, trader: i };
        }),
    );
    const bystander = await StreamTestClient.connect(sandbox.streamUrl);
    await bystander.request({ event: 'subscribe', streams: [`${SYMBOL}@trades`] });

    // Each trader rests a bid inside the spread; then the next one sells into it.
    const orderOwner = new Map<number, number>();
    const base = new Decimal(await insideBid(sandbox, SYMBOL));
    for (let i = 0; i < traders.length; i++) {
      const order = await signed(sandbox, traders[i]!.keys, 'POST', '/sapi/v1/order', {
        symbol: SYMBOL,
        side: 'buy',
        type: 'limit',
        quantity: '0.2',
        price: base.toFixed(),
        clientOrderId: `iso-buy-${i}`,
      });
      orderOwner.set(order.id as number, i);
    }
    for (let i = 0; i < traders.length; i++) {
      const order = await signed(
        sandbox,
        traders[(i + 1) % traders.length]!.keys,
        'POST',
        '/sapi/v1/order',
        {
          symbol: SYMBOL,
          side: 'sell',
          type: 'limit',
          quantity: '0.2',
          price: base.toFixed(),
          clientOrderId: `iso-sell-${i}`,
        },
      );
      orderOwner.set(order.id as number, (i + 1) % traders.length);
    }
    for (const { client, trader } of clients) {
      const messages = await client.flush();
      const orderIds = messages
        .filter((m) => m.stream === 'orderUpdate')
        .map((m) => (m.data as { i: number }).i);
      const tradeOrderIds = messages
        .filter((m) => m.stream === 'ownTrade')
        .map((m) => (m.data as { o: number }).o);
      // Its own buy (placed, filled) and its own sell (placed... filled): 2 orders, 2 fills.
      expect(new Set(orderIds).size).toBe(2);
      expect(tradeOrderIds.length).toBe(2);
      for (const id of [...orderIds, ...tradeOrderIds]) expect(orderOwner.get(id)).toBe(trader);
      expect(messages.some((m) => m.stream === 'outboundAccountPosition')).toBe(true);
      client.close();
    }
    const publicTrades = (await bystander.flush()).filter((m) => m.stream === `${SYMBOL}@trades`);
    expect(publicTrades.flatMap((m) => (m.data as { trades: unknown[] }).trades).length).toBe(
      traders.length,
    );
    bystander.close();
  });

  it('keeps delivering after unsubscribing one private stream only for the others', async () => {
    const trader = newTrader(sandbox);
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({
      event: 'subscribe',
      streams: PRIVATE,
      auth_key: await authKey(sandbox, trader.keys),
    });
    expect(
      await client.request({ event: 'unsubscribe', streams: ['outboundAccountPosition'], id: 2 }),
    ).toEqual({
      data: { streams: ['outboundAccountPosition'] },
      event: 'unsubscribed',
      id: 2,
    });
    const price = await insideBid(sandbox, SYMBOL);
    await signed(sandbox, trader.keys, 'POST', '/sapi/v1/order', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      quantity: '0.01',
      price,
    });
    const streams = (await client.flush()).map((m) => m.stream);
    expect(streams).toEqual(['orderUpdate']);
    client.close();
  });

  it('delivers a deposit credit as outboundAccountPosition', async () => {
    const trader = newTrader(sandbox);
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    await client.request({
      event: 'subscribe',
      streams: ['outboundAccountPosition'],
      auth_key: await authKey(sandbox, trader.keys),
    });
    sandbox.admin.credit(trader.email, 'eth', '2.5');
    const update = (await client.data('outboundAccountPosition')).data as {
      B: Record<string, string>[];
      E: number;
    };
    expect(update).toEqual({ B: [{ a: 'eth', b: '2.5', l: '0' }], E: clock.now() });
    client.close();
  });

  it('refuses a private subscription once the auth_key has expired', async () => {
    const trader = newTrader(sandbox);
    const key = await authKey(sandbox, trader.keys);
    clock.advance(30 * 60_000);
    const client = await StreamTestClient.connect(sandbox.streamUrl);
    expect(
      await client.request({ event: 'subscribe', streams: ['orderUpdate'], auth_key: key, id: 3 }),
    ).toEqual({
      data: { code: 401, message: 'Invalid request: unauthorized access' },
      event: 'error',
      id: 3,
    });
    client.close();
  });
});

describe('sandbox streams: building blocks', () => {
  it('builds text frames that a WebSocket parser reads back, at every length encoding', () => {
    // ws's own frame parser (exported at runtime, not in its type declarations).
    const { Receiver } = createRequire(import.meta.url)('ws') as {
      Receiver: new (options: {
        isServer: boolean;
      }) => EventEmitter & { write(chunk: Buffer): void };
    };
    // 7-bit, 16-bit and 64-bit payload lengths, with multi-byte UTF-8.
    const texts = ['{"a":1}', 'é'.repeat(100), 'x'.repeat(70_000) + '€'];
    const received: string[] = [];
    const receiver = new Receiver({ isServer: false });
    receiver.on('message', (data: Buffer, isBinary: boolean) => {
      expect(isBinary).toBe(false);
      received.push(data.toString('utf8'));
    });
    for (const text of texts) receiver.write(textFrame(text));
    expect(received).toEqual(texts);
  });

  it('aligns kline intervals like the REST klines: minutes from the epoch, weeks on Monday, months on the 1st', () => {
    const time = Date.UTC(2026, 4, 14, 15, 37, 12); // a Thursday
    expect(candleBounds(parseKlineSpan('15m')!, time)).toEqual([
      Date.UTC(2026, 4, 14, 15, 30),
      Date.UTC(2026, 4, 14, 15, 45) - 1,
    ]);
    expect(candleBounds(parseKlineSpan('1w')!, time)).toEqual([
      Date.UTC(2026, 4, 11),
      Date.UTC(2026, 4, 18) - 1,
    ]);
    expect(candleBounds(parseKlineSpan('1M')!, time)).toEqual([
      Date.UTC(2026, 4, 1),
      Date.UTC(2026, 5, 1) - 1,
    ]);
    expect(candleBounds(parseKlineSpan('3M')!, time)).toEqual([
      Date.UTC(2026, 3, 1),
      Date.UTC(2026, 6, 1) - 1,
    ]);
    expect(parseKlineSpan('0m')).toBeUndefined();
    expect(parseKlineSpan('07m')).toBeUndefined();
    expect(parseKlineSpan('10000d')).toBeUndefined();
    expect(parseKlineSpan('1y')).toBeUndefined();
  });
});

/** A ManualClock that also tells how many timers are pending (to see what an idle server runs). */
class CountingClock implements Clock {
  readonly inner = new ManualClock(Date.UTC(2026, 0, 1));
  private readonly pending = new Set<number>();

  now(): number {
    return this.inner.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = this.inner.setTimeout(() => {
      this.pending.delete(handle.id);
      fn();
    }, ms);
    this.pending.add(handle.id);
    return handle;
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.pending.delete(handle.id);
    this.inner.clearTimeout(handle);
  }

  pendingTimers(): number {
    return this.pending.size;
  }
}

describe('sandbox streams: idle cost', () => {
  it('runs timers and engine listeners only for streams somebody subscribed to', async () => {
    const clock = new CountingClock();
    const events = new SandboxEvents();
    const ledger = new Ledger(clock, events);
    const engine = new MatchingEngine(clock, events, ledger, DEMO_MARKETS);
    const server = createServer((_req, res) => res.writeHead(404).end());
    const streams = attachStreamServer(server, '/ws', {
      clock,
      events,
      engine,
      authTokens: new AuthTokens(clock),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
    const listeners = () =>
      (['trade', 'order', 'balance', 'book'] as const).map((kind) => events.listenerCount(kind));
    try {
      expect(clock.pendingTimers()).toBe(0);
      expect(listeners()).toEqual([0, 0, 0, 0]);

      const client = await StreamTestClient.connect(url);
      // Only the connection's 30-minute life.
      expect(clock.pendingTimers()).toBe(1);
      expect(listeners()).toEqual([0, 0, 0, 0]);

      const all = [
        'btcusdt@trades',
        '!ticker@arr',
        'btcusdt@kline_1m',
        'btcusdt@depth',
        'btcusdt@depth5@100ms',
      ];
      await client.request({ event: 'subscribe', streams: all });
      // Life + ticker (1 s) + kline (5 s) + depth (3 s and its 10 s keep-alive); partial depth
      // waits for a book change.
      expect(clock.pendingTimers()).toBe(5);
      expect(listeners()).toEqual([1, 0, 0, 1]);

      await client.request({ event: 'unsubscribe', streams: all });
      expect(clock.pendingTimers()).toBe(1);
      expect(listeners()).toEqual([0, 0, 0, 0]);

      client.close();
      await client.closed;
      // The server sees the socket close a few event-loop turns after the client does.
      for (let turn = 0; turn < 1000 && streams.connectionCount() > 0; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(streams.connectionCount()).toBe(0);
      expect(clock.pendingTimers()).toBe(0);
    } finally {
      await streams.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
