/**
 * The sandbox exchange's WebSocket side: combined public streams (trades, tickers, klines, depth,
 * partial depth) and private streams (outboundAccountPosition, orderUpdate, ownTrade) with the
 * interface's connection rules, served on one path of the sandbox's HTTP server. This file holds
 * the connections, their control messages and subscriptions; each feed lives in a file of its own.
 *
 * Timing comes only from the injected Clock, so a ManualClock drives lifetimes, rate windows and
 * every periodic stream in tests. A public feed (and its timer) exists only while somebody is
 * subscribed to it, so an idle server does no work. Every public message is serialized once and the
 * same string goes to every subscriber.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { isPrivateStream, type PrivateStream } from '../../../shared/market';
import type { Clock } from '../../core/clock';
import type { AuthTokens } from '../auth-tokens';
import type { MatchingEngine } from '../engine';
import type {
  SandboxBalanceEvent,
  SandboxEventMap,
  SandboxEvents,
  SandboxOrderSnapshot,
  SandboxTradeEvent,
} from '../events';
import { parseKlineSpan, type KlineSpan } from '../klines';
import { StreamConnection, textFrame } from './connection';
import { DepthFeed, PartialDepthFeed, type BookWatcher } from './depth';
import { FeedsBySymbol, type FeedContext, type PublicFeed } from './feed';
import { KlineFeed } from './klines';
import { balancePayload, orderUpdatePayload, ownTradePayload, PrivateSubscribers } from './private';
import { PublicTrades } from './public-trades';
import { TickerFeed } from './tickers';

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
  /** Each open connection's subscribed streams (public, then private), sorted. */
  streamsByConnection(): string[][];
}

/** Seconds a connection lives without a ping; sent as timeout_duration in connected/pong. */
export const CONNECTION_TIMEOUT_SECONDS = 1800;
/** More incoming messages than this within one second (by the clock) disconnects. */
export const MAX_MESSAGES_PER_SECOND = 5;
export const MAX_STREAMS_PER_CONNECTION = 1024;

/** A control message can name 1024 streams; nothing legitimate comes near this size. */
const MAX_INCOMING_BYTES = 256 * 1024;

const CLOSE_NORMAL = 1000;
const CLOSE_POLICY_VIOLATION = 1008;

type StreamSpec =
  | { kind: 'trades'; symbol: string }
  | { kind: 'tickers' }
  | { kind: 'kline'; symbol: string; span: KlineSpan }
  | { kind: 'depth'; symbol: string }
  | { kind: 'partialDepth'; symbol: string; levels: number }
  | { kind: 'private'; stream: PrivateStream };

/** The body of an error reply to a control message. */
interface ErrorReply {
  code: number;
  message: string;
}

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
} as const satisfies Record<string, ErrorReply>;

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
  const context: FeedContext = { clock, engine, broadcast };
  const klineFeeds = new FeedsBySymbol<KlineFeed>();
  const bookWatchers = new FeedsBySymbol<BookWatcher>();
  const publicTrades = new PublicTrades(context);
  const privateSubscribers = new PrivateSubscribers();
  let closed = false;

  // The engine's markets are fixed when it is built.
  const markets = new Map(engine.symbols().map((config) => [config.symbol, config]));

  function parseStream(name: string): StreamSpec | undefined {
    if (name === '!ticker@arr') return { kind: 'tickers' };
    if (isPrivateStream(name)) return { kind: 'private', stream: name };
    const at = name.indexOf('@');
    if (at <= 0) return undefined;
    const symbol = name.slice(0, at);
    if (!markets.has(symbol)) return undefined;
    const rest = name.slice(at + 1);
    if (rest === 'trades') return { kind: 'trades', symbol };
    if (rest === 'depth') return { kind: 'depth', symbol };
    const partial = /^depth(5|10|20)@100ms$/.exec(rest);
    if (partial) return { kind: 'partialDepth', symbol, levels: Number(partial[1]) };
    if (rest.startsWith('kline_')) {
      const span = parseKlineSpan(rest.slice('kline_'.length));
      if (span) return { kind: 'kline', symbol, span };
    }
    return undefined;
  }

  function createFeed(stream: string, spec: StreamSpec): PublicFeed {
    switch (spec.kind) {
      case 'trades':
        return publicTrades.feed(stream);
      case 'tickers':
        return new TickerFeed(context, stream);
      case 'kline':
        return new KlineFeed(context, klineFeeds, stream, spec.symbol, spec.span);
      case 'depth':
        return new DepthFeed(context, bookWatchers, stream, spec.symbol);
      case 'partialDepth':
        return new PartialDepthFeed(context, bookWatchers, stream, spec.symbol, spec.levels);
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

  // -- engine events ----------------------------------------------------------------------------

  const onTrade = (trade: SandboxTradeEvent): void => {
    publicTrades.onTrade(trade);
    const klines = klineFeeds.of(trade.symbol);
    if (klines) for (const feed of klines) feed.onTrade(trade.price, trade.qty, trade.time);
    privateSubscribers.send('ownTrade', trade.buyerAccountId, () => ownTradePayload(trade, true));
    privateSubscribers.send('ownTrade', trade.sellerAccountId, () => ownTradePayload(trade, false));
  };
  const onOrder = (order: SandboxOrderSnapshot): void => {
    privateSubscribers.send('orderUpdate', order.accountId, () =>
      orderUpdatePayload(order, markets.get(order.symbol), clock),
    );
  };
  const onBalance = (event: SandboxBalanceEvent): void => {
    privateSubscribers.send('outboundAccountPosition', event.accountId, () =>
      balancePayload(event),
    );
  };
  const onBook = (change: { symbol: string }): void => {
    const watchers = bookWatchers.of(change.symbol);
    if (watchers) for (const watcher of watchers) watcher.onBookChange();
  };
  /**
   * Listeners are attached only while some subscription needs them: the engine and ledger skip
   * building events nobody listens to, so an idle stream server costs them nothing.
   */
  const listening = { trade: false, order: false, balance: false, book: false };
  function syncListeners(): void {
    toggle(
      'trade',
      publicTrades.wanted || klineFeeds.size > 0 || privateSubscribers.wanted('ownTrade'),
      onTrade,
    );
    toggle('order', privateSubscribers.wanted('orderUpdate'), onOrder);
    toggle('balance', privateSubscribers.wanted('outboundAccountPosition'), onBalance);
    toggle('book', bookWatchers.size > 0, onBook);
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
    }
  }

  // -- control messages -------------------------------------------------------------------------

  function reply(connection: StreamConnection, message: object): void {
    connection.send(JSON.stringify(message));
  }

  function replyError(connection: StreamConnection, error: ErrorReply, id: number): void {
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
        privateSubscribers.add(connection, spec.stream, accountId!);
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
      if (spec.kind === 'private') privateSubscribers.remove(connection, spec.stream);
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
    for (const stream of [...connection.privateStreams.keys()]) {
      privateSubscribers.remove(connection, stream);
    }
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
    streamsByConnection: () =>
      [...connections].map((connection) =>
        [...connection.publicStreams, ...connection.privateStreams.keys()].sort(),
      ),
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
      publicTrades.clear();
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
