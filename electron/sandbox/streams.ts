/**
 * The sandbox exchange's WebSocket side: combined public streams (trades, tickers, klines, depth,
 * partial depth) and private streams (outboundAccountPosition, orderUpdate, ownTrade) with the
 * interface's connection rules, served on one path of the sandbox's HTTP server.
 *
 * Timing comes only from the injected Clock, so a ManualClock drives lifetimes, rate windows and
 * every periodic stream in tests. A public feed (and its timer) exists only while somebody is
 * subscribed to it, so an idle server does no work. Every public message is serialized once and the
 * same string goes to every subscriber.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import Decimal from 'decimal.js';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { AuthTokens } from './auth-tokens';
import type { Clock, TimerHandle } from './clock';
import type { MatchingEngine } from './engine';
import type {
  SandboxBalanceEvent,
  SandboxEventMap,
  SandboxEvents,
  SandboxOrderSnapshot,
  SandboxTradeEvent,
} from './events';

export interface StreamServerDeps {
  clock: Clock;
  events: SandboxEvents;
  engine: MatchingEngine;
  authTokens: AuthTokens;
}

export interface StreamServer {
  close(): Promise<void>;
  dropAll(): void;
  connectionCount(): number;
}

/** Seconds a connection lives without a ping; sent as timeout_duration in connected/pong. */
export const CONNECTION_TIMEOUT_SECONDS = 1800;
/** More incoming messages than this within one second (by the clock) disconnects. */
export const MAX_MESSAGES_PER_SECOND = 5;
export const MAX_STREAMS_PER_CONNECTION = 1024;

const TICKER_INTERVAL_MS = 1000;
const KLINE_INTERVAL_MS = 5000;
const DEPTH_INTERVAL_MS = 3000;
const DEPTH_KEEPALIVE_MS = 10_000;
const PARTIAL_DEPTH_INTERVAL_MS = 100;
/** The full-depth stream follows this many levels per side (the largest REST depth limit). */
const FULL_DEPTH_LEVELS = 1000;
/** A control message can name 1024 streams; nothing legitimate comes near this size. */
const MAX_INCOMING_BYTES = 256 * 1024;
/** A client that lets this much pile up unread is dropped rather than buffered without bound. */
const SLOW_CONSUMER_BYTES = 16 * 1024 * 1024;

const CLOSE_NORMAL = 1000;
const CLOSE_POLICY_VIOLATION = 1008;

type PrivateStream = 'outboundAccountPosition' | 'orderUpdate' | 'ownTrade';
const PRIVATE_STREAMS: readonly PrivateStream[] = [
  'outboundAccountPosition',
  'orderUpdate',
  'ownTrade',
];

type StreamSpec =
  | { kind: 'trades'; symbol: string }
  | { kind: 'tickers' }
  | { kind: 'kline'; symbol: string; interval: KlineInterval }
  | { kind: 'depth'; symbol: string }
  | { kind: 'partialDepth'; symbol: string; levels: number }
  | { kind: 'private'; stream: PrivateStream };

const ERRORS = {
  streamsNotArray: { code: 400, message: 'Invalid request: streams must be an array' },
  unauthorized: { code: 401, message: 'Invalid request: unauthorized access' },
  unsupportedMethod: { code: 400, message: 'Invalid request: unsupported method' },
  unparseable: { code: 500, message: 'Invalid request: could not parse message' },
  badId: { code: 400, message: 'Invalid request: ID must be an unsigned integer' },
  badAuthKey: { code: 400, message: 'Invalid request: auth_key must be a string' },
  tooManyStreams: {
    code: 429,
    message: 'Too many request: max streams subscription limit reached',
  },
} as const;

interface WireError {
  code: number;
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Kline intervals: any <number><m|h|d|w|M>, candles aligned like the REST klines (UTC; weeks
// start on Monday; months on the 1st).

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday; the first Monday is four days later. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

export interface KlineInterval {
  name: string;
  count: number;
  unit: 'm' | 'h' | 'd' | 'w' | 'M';
}

/** Up to 9999 units: beyond that a candle would outlast any date the clock can represent. */
const INTERVAL_PATTERN = /^([1-9]\d{0,3})([mhdwM])$/;

export function parseKlineInterval(name: string): KlineInterval | undefined {
  const match = INTERVAL_PATTERN.exec(name);
  if (!match) return undefined;
  return { name, count: Number(match[1]), unit: match[2] as KlineInterval['unit'] };
}

/** [start, end] (inclusive, ms) of the candle of `interval` that contains `time`. */
export function klineBounds(interval: KlineInterval, time: number): [number, number] {
  if (interval.unit === 'M') {
    const date = new Date(time);
    const monthIndex = (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
    const first = Math.floor(monthIndex / interval.count) * interval.count;
    const start = Date.UTC(1970 + Math.floor(first / 12), first % 12, 1);
    const next = first + interval.count;
    return [start, Date.UTC(1970 + Math.floor(next / 12), next % 12, 1) - 1];
  }
  const unitMs =
    interval.unit === 'm'
      ? MINUTE_MS
      : interval.unit === 'h'
        ? 60 * MINUTE_MS
        : interval.unit === 'd'
          ? DAY_MS
          : WEEK_MS;
  const span = unitMs * interval.count;
  const origin = interval.unit === 'w' ? FIRST_MONDAY_MS : 0;
  const start = Math.floor((time - origin) / span) * span + origin;
  return [start, start + span - 1];
}

// ---------------------------------------------------------------------------------------------
// Stream payloads (the interface's key letters).

interface TradePayloadItem {
  E: number;
  S: 'buy' | 'sell';
  a: number;
  b: number;
  m: boolean;
  p: string;
  q: string;
  s: string;
  t: number;
}

interface TickerPayload {
  E: number;
  T: 'SPOT';
  U: string;
  a: string;
  b: string;
  c: string;
  h: string;
  l: string;
  o: string;
  q: string;
  s: string;
  u: string;
}

interface KlinePayload {
  E: number;
  s: string;
  t: number;
  T: number;
  i: string;
  o: string;
  c: string;
  h: string;
  l: string;
  v: string;
}

interface DepthPayload {
  E: number;
  a: [string, string][];
  b: [string, string][];
  s: string;
}

function dataMessage(stream: string, data: unknown): string {
  return JSON.stringify({ data, stream });
}

/** a - b in the engine's shortest decimal form ("0.5", "0"; never an exponent). */
function subtractDecimal(a: string, b: string): string {
  return new Decimal(a).minus(b).toFixed();
}

/** Missing ticker prices (a market without trades or without one side) go out as "0". */
function decimalOrZero(value: string | undefined | null): string {
  return value === undefined || value === null || value === '' ? '0' : value;
}

// ---------------------------------------------------------------------------------------------

class StreamConnection {
  readonly publicStreams = new Set<string>();
  /** Private stream -> the account whose auth_key subscribed it on this connection. */
  readonly privateStreams = new Map<PrivateStream, number>();
  lifeTimer: TimerHandle | undefined;
  /** Clock times of the incoming messages of the last second (for the 5-per-second rule). */
  recentMessages: number[] = [];
  disposed = false;

  constructor(
    readonly ws: WebSocket,
    /** The upgraded TCP socket under `ws`, for frames built once for many connections. */
    private readonly socket: Duplex,
  ) {}

  streamCount(): number {
    return this.publicStreams.size + this.privateStreams.size;
  }

  private writable(): boolean {
    if (this.disposed || this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > SLOW_CONSUMER_BYTES) {
      this.ws.terminate();
      return false;
    }
    return true;
  }

  send(text: string): void {
    if (this.writable()) this.ws.send(text);
  }

  /**
   * A complete text frame built once for every subscriber (see textFrame), written straight to
   * the socket. Safe beside ws's own sends: without per-message deflate, ws writes each of its
   * frames synchronously and whole, so frames never interleave; and nothing is written once ws
   * has started closing (readyState is no longer OPEN).
   */
  sendFrame(frame: Buffer): void {
    if (this.writable()) this.socket.write(frame);
  }
}

/**
 * An unmasked, unfragmented RFC 6455 text frame (what a server sends) around `text`: the
 * serialization, UTF-8 encoding and framing of a message happen once, whatever the number of
 * subscribers.
 */
export function textFrame(text: string): Buffer {
  const payloadLength = Buffer.byteLength(text);
  const headerLength = payloadLength < 126 ? 2 : payloadLength <= 0xffff ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + payloadLength);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (headerLength === 2) {
    frame[1] = payloadLength;
  } else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(payloadLength, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(payloadLength), 2);
  }
  frame.write(text, headerLength, 'utf8');
  return frame;
}

/** A public stream's producer; exists while the stream has at least one subscriber. */
interface PublicFeed {
  start(): void;
  stop(): void;
  /** The message a new subscriber gets at once (current state), if the stream has one. */
  snapshot(): string | undefined;
}

export function attachStreamServer(
  server: Server,
  path: string,
  deps: StreamServerDeps,
): StreamServer {
  const { clock, events, engine, authTokens } = deps;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_INCOMING_BYTES,
    perMessageDeflate: false,
  });
  const connections = new Set<StreamConnection>();
  const publicSubscribers = new Map<string, Set<StreamConnection>>();
  const feeds = new Map<string, PublicFeed>();
  const klineFeedsBySymbol = new Map<string, Set<KlineFeed>>();
  const depthFeedsBySymbol = new Map<string, Set<DepthFeed | PartialDepthFeed>>();
  const privateSubscribers = new Map<PrivateStream, Map<number, Set<StreamConnection>>>(
    PRIVATE_STREAMS.map((stream) => [stream, new Map()]),
  );
  let closed = false;
  /** How many `<symbol>@trades` streams have subscribers. */
  let tradeStreams = 0;

  // -- markets ----------------------------------------------------------------------------------

  // The engine's markets are fixed when it is built.
  const markets = new Map(engine.symbols().map((config) => [config.symbol, config]));
  const market = (symbol: string) => markets.get(symbol);

  // -- stream names -----------------------------------------------------------------------------

  function parseStream(name: string): StreamSpec | undefined {
    if (name === '!ticker@arr') return { kind: 'tickers' };
    if ((PRIVATE_STREAMS as readonly string[]).includes(name)) {
      return { kind: 'private', stream: name as PrivateStream };
    }
    const at = name.indexOf('@');
    if (at <= 0) return undefined;
    const symbol = name.slice(0, at);
    if (!market(symbol)) return undefined;
    const rest = name.slice(at + 1);
    if (rest === 'trades') return { kind: 'trades', symbol };
    if (rest === 'depth') return { kind: 'depth', symbol };
    const partial = /^depth(5|10|20)@100ms$/.exec(rest);
    if (partial) return { kind: 'partialDepth', symbol, levels: Number(partial[1]) };
    if (rest.startsWith('kline_')) {
      const interval = parseKlineInterval(rest.slice('kline_'.length));
      if (interval) return { kind: 'kline', symbol, interval };
    }
    return undefined;
  }

  function createFeed(stream: string, spec: StreamSpec): PublicFeed {
    switch (spec.kind) {
      case 'trades':
        // Trades are pushed from the trade events; nothing to run or snapshot.
        return {
          start: () => void tradeStreams++,
          stop: () => void tradeStreams--,
          snapshot: () => undefined,
        };
      case 'tickers':
        return new TickerFeed(stream);
      case 'kline':
        return new KlineFeed(stream, spec.symbol, spec.interval);
      case 'depth':
        return new DepthFeed(stream, spec.symbol);
      case 'partialDepth':
        return new PartialDepthFeed(stream, spec.symbol, spec.levels);
      case 'private':
        throw new Error(`${stream} is a private stream, not a public feed`);
    }
  }

  function broadcast(stream: string, text: string): void {
    const subscribers = publicSubscribers.get(stream);
    if (!subscribers) return;
    const frame = textFrame(text);
    for (const connection of subscribers) connection.sendFrame(frame);
  }

  // -- public feeds -----------------------------------------------------------------------------

  function tickerPayload(): TickerPayload[] {
    const now = clock.now();
    return engine.tickers().map((ticker) => ({
      E: now,
      T: 'SPOT',
      U: ticker.quoteAsset,
      a: decimalOrZero(ticker.askPrice),
      b: decimalOrZero(ticker.bidPrice),
      c: decimalOrZero(ticker.lastPrice),
      h: decimalOrZero(ticker.highPrice),
      l: decimalOrZero(ticker.lowPrice),
      o: decimalOrZero(ticker.openPrice),
      q: decimalOrZero(ticker.volume),
      s: ticker.symbol,
      u: ticker.baseAsset,
    }));
  }

  /** Every second, the tickers whose content changed (the 24h window moves even without trades). */
  class TickerFeed implements PublicFeed {
    private timer: TimerHandle | undefined;
    /** symbol -> the last sent ticker without its event time. */
    private readonly lastSent = new Map<string, string>();

    constructor(private readonly stream: string) {}

    start(): void {
      for (const ticker of tickerPayload()) this.lastSent.set(ticker.s, contentKey(ticker));
      this.schedule();
    }

    stop(): void {
      clock.clearTimeout(this.timer);
      this.timer = undefined;
    }

    snapshot(): string {
      return dataMessage(this.stream, tickerPayload());
    }

    private schedule(): void {
      this.timer = clock.setTimeout(() => this.tick(), TICKER_INTERVAL_MS);
    }

    private tick(): void {
      const changed = tickerPayload().filter((ticker) => {
        const key = contentKey(ticker);
        if (this.lastSent.get(ticker.s) === key) return false;
        this.lastSent.set(ticker.s, key);
        return true;
      });
      if (changed.length > 0) broadcast(this.stream, dataMessage(this.stream, changed));
      this.schedule();
    }
  }

  function contentKey(ticker: TickerPayload): string {
    return JSON.stringify({ ...ticker, E: 0 });
  }

  interface Candle {
    start: number;
    end: number;
    open: string;
    high: Decimal;
    low: Decimal;
    close: string;
    volume: Decimal;
  }

  /**
   * Candles of one symbol and interval, aggregated from trades: seeded at start from the engine's
   * 1m klines of the current candle's span, then updated from every trade event. Every 5 seconds
   * it sends the candles closed since the last send (their final state) and the current one (an
   * empty current candle shows the last close with volume 0).
   */
  class KlineFeed implements PublicFeed {
    private timer: TimerHandle | undefined;
    private current: Candle | undefined;
    private readonly closedUnsent: Candle[] = [];
    private lastClose: string | undefined;

    constructor(
      private readonly stream: string,
      private readonly symbol: string,
      private readonly interval: KlineInterval,
    ) {}

    start(): void {
      this.seed();
      let set = klineFeedsBySymbol.get(this.symbol);
      if (!set) klineFeedsBySymbol.set(this.symbol, (set = new Set()));
      set.add(this);
      this.schedule();
    }

    stop(): void {
      clock.clearTimeout(this.timer);
      this.timer = undefined;
      klineFeedsBySymbol.get(this.symbol)?.delete(this);
      if (klineFeedsBySymbol.get(this.symbol)?.size === 0) klineFeedsBySymbol.delete(this.symbol);
    }

    snapshot(): string | undefined {
      const candle = this.currentCandle(clock.now());
      return candle && dataMessage(this.stream, this.payload(candle));
    }

    onTrade(price: string, qty: string, time: number): void {
      const [start, end] = klineBounds(this.interval, time);
      const candle = this.current;
      if (candle && candle.start === start) {
        const p = new Decimal(price);
        if (p.gt(candle.high)) candle.high = p;
        if (p.lt(candle.low)) candle.low = p;
        candle.close = price;
        candle.volume = candle.volume.plus(qty);
        return;
      }
      // A trade older than the current candle (clock moved back) cannot reopen it; ignore it.
      if (candle && candle.start > start) return;
      if (candle) {
        this.closedUnsent.push(candle);
        this.lastClose = candle.close;
      }
      const p = new Decimal(price);
      this.current = {
        start,
        end,
        open: price,
        high: p,
        low: p,
        close: price,
        volume: new Decimal(qty),
      };
    }

    private seed(): void {
      const now = clock.now();
      const [start, end] = klineBounds(this.interval, now);
      this.lastClose = engine.lastPrice(this.symbol);
      // The engine's 1m candles tile any interval exactly (every interval is whole minutes).
      let from = start;
      let candle: Candle | undefined;
      while (from <= now) {
        const rows = engine.klines(this.symbol, {
          interval: '1m',
          limit: 2000,
          startTime: from,
          endTime: now,
        });
        for (const row of rows) {
          const [openTime, open, high, low, close, volume] = row.map(String) as string[];
          if (new Decimal(volume ?? '0').isZero()) continue;
          if (!candle) {
            candle = {
              start,
              end,
              open: open!,
              high: new Decimal(high!),
              low: new Decimal(low!),
              close: close!,
              volume: new Decimal(volume!),
            };
          } else {
            if (new Decimal(high!).gt(candle.high)) candle.high = new Decimal(high!);
            if (new Decimal(low!).lt(candle.low)) candle.low = new Decimal(low!);
            candle.close = close!;
            candle.volume = candle.volume.plus(volume!);
          }
          from = Math.max(from, Number(openTime) + MINUTE_MS);
        }
        if (rows.length < 2000) break;
      }
      this.current = candle;
    }

    private currentCandle(now: number): Candle | undefined {
      const [start, end] = klineBounds(this.interval, now);
      if (this.current && this.current.start === start) return this.current;
      if (this.current) {
        this.closedUnsent.push(this.current);
        this.lastClose = this.current.close;
        this.current = undefined;
      }
      if (this.lastClose === undefined) return undefined;
      const last = new Decimal(this.lastClose);
      return {
        start,
        end,
        open: this.lastClose,
        high: last,
        low: last,
        close: this.lastClose,
        volume: new Decimal(0),
      };
    }

    private payload(candle: Candle): KlinePayload {
      return {
        E: clock.now(),
        s: this.symbol,
        t: candle.start,
        T: candle.end,
        i: this.interval.name,
        o: candle.open,
        c: candle.close,
        h: candle.high.toFixed(),
        l: candle.low.toFixed(),
        v: candle.volume.toFixed(),
      };
    }

    private schedule(): void {
      this.timer = clock.setTimeout(() => this.tick(), KLINE_INTERVAL_MS);
    }

    private tick(): void {
      const current = this.currentCandle(clock.now());
      for (const candle of this.closedUnsent.splice(0)) {
        broadcast(this.stream, dataMessage(this.stream, this.payload(candle)));
      }
      if (current) broadcast(this.stream, dataMessage(this.stream, this.payload(current)));
      this.schedule();
    }
  }

  function levelsOf(rows: [string, string][]): Map<string, string> {
    return new Map(rows.map(([price, qty]) => [price, qty]));
  }

  function changedLevels(
    before: Map<string, string>,
    after: Map<string, string>,
    ascending: boolean,
  ): [string, string][] {
    const changes: [string, string][] = [];
    for (const [price, qty] of after) if (before.get(price) !== qty) changes.push([price, qty]);
    for (const price of before.keys()) if (!after.has(price)) changes.push([price, '0']);
    changes.sort(([a], [b]) => {
      const order = new Decimal(a).comparedTo(b);
      return ascending ? order : -order;
    });
    return changes;
  }

  /**
   * Full depth as changes: every 3 seconds the levels that changed since the last send (quantity
   * "0" removes a level), or an empty keep-alive when nothing changed for 10 seconds. A new
   * subscriber first gets every current level, so it can build the book without a REST snapshot.
   */
  class DepthFeed implements PublicFeed {
    private diffTimer: TimerHandle | undefined;
    private keepAliveTimer: TimerHandle | undefined;
    private asks = new Map<string, string>();
    private bids = new Map<string, string>();
    private dirty = false;

    constructor(
      private readonly stream: string,
      private readonly symbol: string,
    ) {}

    start(): void {
      const book = engine.depth(this.symbol, FULL_DEPTH_LEVELS);
      this.asks = levelsOf(book.asks);
      this.bids = levelsOf(book.bids);
      addDepthFeed(this.symbol, this);
      this.scheduleDiff();
      this.scheduleKeepAlive();
    }

    stop(): void {
      clock.clearTimeout(this.diffTimer);
      clock.clearTimeout(this.keepAliveTimer);
      removeDepthFeed(this.symbol, this);
    }

    snapshot(): string {
      const book = engine.depth(this.symbol, FULL_DEPTH_LEVELS);
      return dataMessage(this.stream, {
        E: clock.now(),
        a: book.asks,
        b: book.bids,
        s: this.symbol,
      } satisfies DepthPayload);
    }

    onBookChange(): void {
      this.dirty = true;
    }

    private scheduleDiff(): void {
      this.diffTimer = clock.setTimeout(() => this.sendChanges(), DEPTH_INTERVAL_MS);
    }

    private scheduleKeepAlive(): void {
      clock.clearTimeout(this.keepAliveTimer);
      this.keepAliveTimer = clock.setTimeout(() => this.sendKeepAlive(), DEPTH_KEEPALIVE_MS);
    }

    private sendChanges(): void {
      this.scheduleDiff();
      if (!this.dirty) return;
      this.dirty = false;
      const book = engine.depth(this.symbol, FULL_DEPTH_LEVELS);
      const asks = levelsOf(book.asks);
      const bids = levelsOf(book.bids);
      const payload: DepthPayload = {
        E: clock.now(),
        a: changedLevels(this.asks, asks, true),
        b: changedLevels(this.bids, bids, false),
        s: this.symbol,
      };
      this.asks = asks;
      this.bids = bids;
      if (payload.a.length === 0 && payload.b.length === 0) return;
      broadcast(this.stream, dataMessage(this.stream, payload));
      this.scheduleKeepAlive();
    }

    private sendKeepAlive(): void {
      const payload: DepthPayload = { E: clock.now(), a: [], b: [], s: this.symbol };
      broadcast(this.stream, dataMessage(this.stream, payload));
      this.scheduleKeepAlive();
    }
  }

  /**
   * The top N levels per side, at most every 100 ms and only when they changed. Driven by book
   * events (a quiet book runs no timer): the first change arms a 100 ms timer, which sends the top
   * levels if they differ from the last ones sent.
   */
  class PartialDepthFeed implements PublicFeed {
    private timer: TimerHandle | undefined;
    private lastSentKey = '';

    constructor(
      private readonly stream: string,
      private readonly symbol: string,
      private readonly levels: number,
    ) {}

    start(): void {
      this.lastSentKey = this.topKey();
      addDepthFeed(this.symbol, this);
    }

    stop(): void {
      clock.clearTimeout(this.timer);
      this.timer = undefined;
      removeDepthFeed(this.symbol, this);
    }

    snapshot(): string {
      const book = engine.depth(this.symbol, this.levels);
      return dataMessage(this.stream, this.payload(book.asks, book.bids));
    }

    onBookChange(): void {
      if (this.timer) return;
      this.timer = clock.setTimeout(() => this.flush(), PARTIAL_DEPTH_INTERVAL_MS);
    }

    private topKey(): string {
      const book = engine.depth(this.symbol, this.levels);
      return JSON.stringify([book.asks, book.bids]);
    }

    private payload(asks: [string, string][], bids: [string, string][]): DepthPayload {
      return { E: clock.now(), a: asks, b: bids, s: this.symbol };
    }

    private flush(): void {
      this.timer = undefined;
      const book = engine.depth(this.symbol, this.levels);
      const key = JSON.stringify([book.asks, book.bids]);
      if (key === this.lastSentKey) return;
      this.lastSentKey = key;
      broadcast(this.stream, dataMessage(this.stream, this.payload(book.asks, book.bids)));
    }
  }

  function addDepthFeed(symbol: string, feed: DepthFeed | PartialDepthFeed): void {
    let set = depthFeedsBySymbol.get(symbol);
    if (!set) depthFeedsBySymbol.set(symbol, (set = new Set()));
    set.add(feed);
  }

  function removeDepthFeed(symbol: string, feed: DepthFeed | PartialDepthFeed): void {
    const set = depthFeedsBySymbol.get(symbol);
    set?.delete(feed);
    if (set?.size === 0) depthFeedsBySymbol.delete(symbol);
  }

  // -- trades: one message per symbol for the trades of one engine operation -------------------

  const pendingTrades = new Map<string, TradePayloadItem[]>();
  let pendingTradesTime: number | undefined;
  let tradeFlushQueued = false;

  function queuePublicTrade(trade: SandboxTradeEvent): void {
    const stream = `${trade.symbol}@trades`;
    if (!publicSubscribers.has(stream)) return;
    // Trades of another moment belong to another operation (a ManualClock runs many operations
    // in one synchronous advance): they go out as their own message.
    if (pendingTradesTime !== undefined && pendingTradesTime !== trade.time) flushTrades();
    pendingTradesTime = trade.time;
    let batch = pendingTrades.get(stream);
    if (!batch) pendingTrades.set(stream, (batch = []));
    batch.push({
      E: trade.time,
      // The taker's side: a buyer-maker trade was taken by a seller.
      S: trade.isBuyerMaker ? 'sell' : 'buy',
      a: trade.buyOrderId,
      b: trade.sellOrderId,
      m: trade.isBuyerMaker,
      p: trade.price,
      q: trade.qty,
      s: trade.symbol,
      t: trade.id,
    });
    if (!tradeFlushQueued) {
      tradeFlushQueued = true;
      // One placeOrder can match many makers; they go out together once it has returned.
      queueMicrotask(flushTrades);
    }
  }

  function flushTrades(): void {
    tradeFlushQueued = false;
    pendingTradesTime = undefined;
    for (const [stream, trades] of pendingTrades) {
      broadcast(stream, dataMessage(stream, { trades }));
    }
    pendingTrades.clear();
  }

  // -- private streams --------------------------------------------------------------------------

  function sendPrivate(stream: PrivateStream, accountId: number, payload: () => unknown): void {
    const subscribers = privateSubscribers.get(stream)?.get(accountId);
    if (!subscribers || subscribers.size === 0) return;
    const frame = textFrame(dataMessage(stream, payload()));
    for (const connection of subscribers) connection.sendFrame(frame);
  }

  /**
   * orderUpdate. Where the interface is vague: q ("balance volume") is the remaining quantity
   * origQty - executedQty; v is the average fill price executedQuoteQty / executedQty at the
   * market's quote precision ("0" before any fill); z the filled quantity; m whether the order's
   * fills so far were as maker; O the order's updatedTime and E the time the event was sent.
   */
  function orderUpdatePayload(order: SandboxOrderSnapshot) {
    const executed = new Decimal(order.executedQty);
    const precision = market(order.symbol)?.quoteAssetPrecision ?? 8;
    return {
      E: clock.now(),
      O: order.updatedTime,
      S: order.side,
      V: order.origQty,
      X: order.status,
      i: order.id,
      c: order.clientOrderId,
      m: order.isMaker,
      o: order.type,
      p: order.price,
      q: subtractDecimal(order.origQty, order.executedQty),
      s: order.symbol,
      v: executed.isZero()
        ? '0'
        : new Decimal(order.executedQuoteQty)
            .div(executed)
            .toDecimalPlaces(precision, Decimal.ROUND_HALF_UP)
            .toFixed(),
      z: order.executedQty,
    };
  }

  /**
   * ownTrade, from the receiving account's point of view: S its side, o/c its order, f/U its fee,
   * m whether it was the maker. a and b are the seller's and buyer's ORDER ids (as in the trades
   * stream; account ids of a counterparty are never disclosed). w ("funds") is the quote amount
   * price x quantity of the trade.
   */
  function ownTradePayload(trade: SandboxTradeEvent, asBuyer: boolean) {
    return {
      E: trade.time,
      S: asBuyer ? 'buy' : 'sell',
      U: asBuyer ? trade.buyerFeeCurrency : trade.sellerFeeCurrency,
      a: trade.sellOrderId,
      b: trade.buyOrderId,
      f: asBuyer ? trade.buyerFee : trade.sellerFee,
      m: asBuyer ? trade.isBuyerMaker : !trade.isBuyerMaker,
      o: asBuyer ? trade.buyOrderId : trade.sellOrderId,
      c: asBuyer ? trade.buyerClientOrderId : trade.sellerClientOrderId,
      p: trade.price,
      q: trade.qty,
      s: trade.symbol,
      t: trade.id,
      w: trade.quoteQty,
    };
  }

  function balancePayload(event: SandboxBalanceEvent) {
    return {
      B: event.balances.map((balance) => ({
        a: balance.asset,
        b: balance.free,
        l: balance.locked,
      })),
      E: event.time,
    };
  }

  // -- engine events ----------------------------------------------------------------------------

  const onTrade = (trade: SandboxTradeEvent): void => {
    queuePublicTrade(trade);
    const klines = klineFeedsBySymbol.get(trade.symbol);
    if (klines) for (const feed of klines) feed.onTrade(trade.price, trade.qty, trade.time);
    sendPrivate('ownTrade', trade.buyerAccountId, () => ownTradePayload(trade, true));
    sendPrivate('ownTrade', trade.sellerAccountId, () => ownTradePayload(trade, false));
  };
  const onOrder = (order: SandboxOrderSnapshot): void => {
    sendPrivate('orderUpdate', order.accountId, () => orderUpdatePayload(order));
  };
  const onBalance = (event: SandboxBalanceEvent): void => {
    sendPrivate('outboundAccountPosition', event.accountId, () => balancePayload(event));
  };
  const onBook = (change: { symbol: string }): void => {
    const depthFeeds = depthFeedsBySymbol.get(change.symbol);
    if (depthFeeds) for (const feed of depthFeeds) feed.onBookChange();
  };
  /**
   * Listeners are attached only while some subscription needs them: the engine and ledger skip
   * building events nobody listens to, so an idle stream server costs them nothing.
   */
  const listening = { trade: false, order: false, balance: false, book: false };
  function syncListeners(): void {
    const privateWanted = (stream: PrivateStream) => privateSubscribers.get(stream)!.size > 0;
    const wanted = {
      trade: tradeStreams > 0 || klineFeedsBySymbol.size > 0 || privateWanted('ownTrade'),
      order: privateWanted('orderUpdate'),
      balance: privateWanted('outboundAccountPosition'),
      book: depthFeedsBySymbol.size > 0,
    };
    toggle('trade', wanted.trade, onTrade);
    toggle('order', wanted.order, onOrder);
    toggle('balance', wanted.balance, onBalance);
    toggle('book', wanted.book, onBook);
  }
  function toggle<K extends keyof typeof listening>(
    kind: K,
    wanted: boolean,
    listener: (...args: SandboxEventMap[K]) => void,
  ): void {
    if (wanted === listening[kind]) return;
    listening[kind] = wanted;
    if (wanted) events.on(kind, listener as never);
    else events.off(kind, listener as never);
  }

  // -- subscriptions ----------------------------------------------------------------------------

  function addPublic(connection: StreamConnection, stream: string, spec: StreamSpec): void {
    if (connection.publicStreams.has(stream)) return;
    connection.publicStreams.add(stream);
    let subscribers = publicSubscribers.get(stream);
    if (!subscribers) {
      publicSubscribers.set(stream, (subscribers = new Set()));
      const feed = createFeed(stream, spec);
      feeds.set(stream, feed);
      feed.start();
    }
    subscribers.add(connection);
  }

  function removePublic(connection: StreamConnection, stream: string): void {
    if (!connection.publicStreams.delete(stream)) return;
    const subscribers = publicSubscribers.get(stream);
    subscribers?.delete(connection);
    if (subscribers && subscribers.size === 0) {
      publicSubscribers.delete(stream);
      feeds.get(stream)?.stop();
      feeds.delete(stream);
      pendingTrades.delete(stream);
    }
  }

  function addPrivate(
    connection: StreamConnection,
    stream: PrivateStream,
    accountId: number,
  ): void {
    removePrivate(connection, stream);
    connection.privateStreams.set(stream, accountId);
    const byAccount = privateSubscribers.get(stream)!;
    let subscribers = byAccount.get(accountId);
    if (!subscribers) byAccount.set(accountId, (subscribers = new Set()));
    subscribers.add(connection);
  }

  function removePrivate(connection: StreamConnection, stream: PrivateStream): void {
    const accountId = connection.privateStreams.get(stream);
    if (accountId === undefined) return;
    connection.privateStreams.delete(stream);
    const byAccount = privateSubscribers.get(stream)!;
    const subscribers = byAccount.get(accountId);
    subscribers?.delete(connection);
    if (subscribers && subscribers.size === 0) byAccount.delete(accountId);
  }

  // -- control messages -------------------------------------------------------------------------

  function reply(connection: StreamConnection, message: object): void {
    connection.send(JSON.stringify(message));
  }

  function replyError(connection: StreamConnection, error: WireError, id: number): void {
    reply(connection, { data: { code: error.code, message: error.message }, event: 'error', id });
  }

  function handleMessage(connection: StreamConnection, raw: RawData, isBinary: boolean): void {
    let message: unknown;
    try {
      if (isBinary) throw new Error('binary frame');
      message = JSON.parse(rawToString(raw));
    } catch {
      replyError(connection, ERRORS.unparseable, 0);
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      replyError(connection, ERRORS.unparseable, 0);
      return;
    }
    const fields = message as Record<string, unknown>;
    const rawId = fields.id;
    if (rawId !== undefined && rawId !== null && !isUnsignedInteger(rawId)) {
      replyError(connection, ERRORS.badId, 0);
      return;
    }
    const id = typeof rawId === 'number' ? rawId : 0;
    switch (fields.event) {
      case 'ping':
        startLife(connection);
        reply(connection, {
          data: { timeout_duration: CONNECTION_TIMEOUT_SECONDS },
          event: 'pong',
          id,
        });
        return;
      case 'subscribe':
        subscribe(connection, fields, id);
        return;
      case 'unsubscribe':
        unsubscribe(connection, fields, id);
        return;
      default:
        replyError(connection, ERRORS.unsupportedMethod, id);
    }
  }

  /** Validates the stream list of a (un)subscribe; answers the error and returns undefined if bad. */
  function requestedStreams(
    connection: StreamConnection,
    fields: Record<string, unknown>,
    id: number,
  ): { name: string; spec: StreamSpec }[] | undefined {
    if (!Array.isArray(fields.streams)) {
      replyError(connection, ERRORS.streamsNotArray, id);
      return undefined;
    }
    if (fields.auth_key !== undefined && typeof fields.auth_key !== 'string') {
      replyError(connection, ERRORS.badAuthKey, id);
      return undefined;
    }
    const seen = new Set<string>();
    const streams: { name: string; spec: StreamSpec }[] = [];
    for (const entry of fields.streams as unknown[]) {
      const name = typeof entry === 'string' ? entry : JSON.stringify(entry);
      const spec = typeof entry === 'string' ? parseStream(entry) : undefined;
      if (!spec) {
        replyError(
          connection,
          { code: 400, message: `Invalid request: unknown stream ${name}` },
          id,
        );
        return undefined;
      }
      if (seen.has(name)) continue;
      seen.add(name);
      streams.push({ name, spec });
    }
    return streams;
  }

  /** All or nothing: a request with any bad stream, key or excess subscribes none of them. */
  function subscribe(
    connection: StreamConnection,
    fields: Record<string, unknown>,
    id: number,
  ): void {
    const streams = requestedStreams(connection, fields, id);
    if (!streams) return;
    let accountId: number | undefined;
    if (streams.some(({ spec }) => spec.kind === 'private')) {
      accountId =
        typeof fields.auth_key === 'string' ? authTokens.accountFor(fields.auth_key) : undefined;
      if (accountId === undefined) {
        replyError(connection, ERRORS.unauthorized, id);
        return;
      }
    }
    const added = streams.filter(({ name, spec }) =>
      spec.kind === 'private'
        ? !connection.privateStreams.has(spec.stream)
        : !connection.publicStreams.has(name),
    ).length;
    if (connection.streamCount() + added > MAX_STREAMS_PER_CONNECTION) {
      replyError(connection, ERRORS.tooManyStreams, id);
      return;
    }
    const fresh: string[] = [];
    for (const { name, spec } of streams) {
      if (spec.kind === 'private') {
        addPrivate(connection, spec.stream, accountId!);
      } else if (!connection.publicStreams.has(name)) {
        addPublic(connection, name, spec);
        fresh.push(name);
      }
    }
    syncListeners();
    reply(connection, {
      data: { streams: streams.map(({ name }) => name) },
      event: 'subscribed',
      id,
    });
    // The current state of snapshot streams (tickers, klines, depth) right after the reply.
    for (const name of fresh) {
      const snapshot = feeds.get(name)?.snapshot();
      if (snapshot) connection.send(snapshot);
    }
  }

  function unsubscribe(
    connection: StreamConnection,
    fields: Record<string, unknown>,
    id: number,
  ): void {
    const streams = requestedStreams(connection, fields, id);
    if (!streams) return;
    for (const { name, spec } of streams) {
      if (spec.kind === 'private') removePrivate(connection, spec.stream);
      else removePublic(connection, name);
    }
    syncListeners();
    reply(connection, {
      data: { streams: streams.map(({ name }) => name) },
      event: 'unsubscribed',
      id,
    });
  }

  // -- connections ------------------------------------------------------------------------------

  function startLife(connection: StreamConnection): void {
    clock.clearTimeout(connection.lifeTimer);
    connection.lifeTimer = clock.setTimeout(() => {
      connection.ws.close(CLOSE_NORMAL, 'Connection lifetime of 30 minutes reached');
      dispose(connection);
    }, CONNECTION_TIMEOUT_SECONDS * 1000);
  }

  /** Counts one incoming message; returns false (and disconnects) beyond 5 in one second. */
  function withinRate(connection: StreamConnection): boolean {
    if (connection.disposed) return false;
    const now = clock.now();
    connection.recentMessages = connection.recentMessages.filter((time) => time > now - 1000);
    connection.recentMessages.push(now);
    if (connection.recentMessages.length <= MAX_MESSAGES_PER_SECOND) return true;
    connection.ws.close(CLOSE_POLICY_VIOLATION, 'Too many messages per second');
    dispose(connection);
    return false;
  }

  /** Forgets a connection's subscriptions and timers (its socket is closed by the caller). */
  function dispose(connection: StreamConnection): void {
    if (connection.disposed) return;
    for (const stream of [...connection.publicStreams]) removePublic(connection, stream);
    for (const stream of [...connection.privateStreams.keys()]) removePrivate(connection, stream);
    clock.clearTimeout(connection.lifeTimer);
    connection.disposed = true;
    connections.delete(connection);
    syncListeners();
  }

  function onConnection(ws: WebSocket, socket: Duplex): void {
    const connection = new StreamConnection(ws, socket);
    connections.add(connection);
    startLife(connection);
    ws.on('message', (raw, isBinary) => {
      if (withinRate(connection)) handleMessage(connection, raw, isBinary);
    });
    ws.on('ping', () => void withinRate(connection));
    ws.on('pong', () => void withinRate(connection));
    ws.on('close', () => dispose(connection));
    // A socket error is followed by 'close'; the listener keeps it from being thrown.
    ws.on('error', () => dispose(connection));
    reply(connection, {
      data: { timeout_duration: CONNECTION_TIMEOUT_SECONDS },
      event: 'connected',
    });
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const pathname = new URL(request.url ?? '/', 'http://sandbox').pathname;
    if (pathname !== path || closed) {
      // Other upgrade handlers may own other paths; only answer when nobody else listens.
      if (server.listenerCount('upgrade') === 1 || closed) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => onConnection(ws, socket));
  };
  server.on('upgrade', onUpgrade);

  function dropAll(): void {
    for (const connection of [...connections]) {
      connection.ws.terminate();
      dispose(connection);
    }
  }

  return {
    dropAll,
    connectionCount: () => connections.size,
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      server.off('upgrade', onUpgrade);
      toggle('trade', false, onTrade);
      toggle('order', false, onOrder);
      toggle('balance', false, onBalance);
      toggle('book', false, onBook);
      dropAll();
      for (const feed of feeds.values()) feed.stop();
      feeds.clear();
      publicSubscribers.clear();
      pendingTrades.clear();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function isUnsignedInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function rawToString(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  if (raw instanceof ArrayBuffer) return Buffer.from(raw).toString('utf8');
  return raw.toString('utf8');
}
