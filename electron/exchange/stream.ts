/**
 * StreamClient: the exchange's combined WebSocket streams.
 *
 * - Streams are spread over as many connections as needed (at most 1024 per connection).
 * - Every control message (subscribe, unsubscribe, JSON ping, ws ping frame) goes through a
 *   per-connection queue that sends at most 5 a second; the exchange drops faster connections.
 * - Liveness: a JSON ping every 10 minutes keeps the 30-minute connection alive, a ws ping frame
 *   every 30 s with a 10 s deadline detects a dead socket, and each connection is replaced
 *   (make-before-break) shortly before its 30-minute life ends.
 * - A lost connection reconnects with jittered exponential back-off, resubscribes everything it
 *   carried, and then emits 'reconnected' so the app re-reads funds and open orders.
 * - The private-stream auth token is renewed before it expires and whenever the exchange answers
 *   401; private streams are then resubscribed with the new key.
 * A profile's session makes one client for all its streams, private and public, and shares it
 * among its parts through shared-stream.ts.
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { ExchangeError } from './errors';
import type { ConnectionState } from '../../shared/types';
import { PRIVATE_STREAMS } from '../../shared/market';
import { assertExchangeUrl } from './urls';
import {
  accountPositionEventSchema,
  depthEventSchema,
  klineEventSchema,
  orderUpdateEventSchema,
  ownTradeEventSchema,
  parseWire,
  tickersPayloadSchema,
  tradesPayloadSchema,
  type AccountPositionEvent,
  type DepthEvent,
  type KlineEvent,
  type OrderUpdateEvent,
  type OwnTradeEvent,
  type TickerEvent,
  type TradesPayload,
} from './wire';
import { fastCheckFor, UNSURE, type FastCheck } from './wire-fast';
import { Repeater, SystemClock, Timer, type Clock, type TimerHandle } from '../core/clock';
import { backoffDelay } from '../../shared/backoff';

export { PRIVATE_STREAMS };

export interface StreamTiming {
  /** JSON ping cadence (keeps the 30-minute connection alive). */
  pingIntervalMs: number;
  /** ws ping frame cadence for dead-connection detection. */
  heartbeatIntervalMs: number;
  /** No frame at all for this long after a heartbeat: the socket is dead. */
  heartbeatTimeoutMs: number;
  /** Replace the connection this long before its announced life ends. */
  rotateBeforeEndMs: number;
  /** Connection life when the exchange does not announce one. */
  defaultLifeMs: number;
  /** Control messages allowed per controlWindowMs on one connection. */
  controlPerWindow: number;
  controlWindowMs: number;
  /** Back-off: first delay and cap. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Renew the auth token this long before it expires (at least). */
  renewBeforeExpiryMs: number;
  /** Failed attempts in a row after which the state reads 'offline' (it keeps retrying). */
  offlineAfterAttempts: number;
  /** How long a subscribe/unsubscribe waits for its acknowledgement. */
  ackTimeoutMs: number;
}

export const DEFAULT_TIMING: StreamTiming = {
  pingIntervalMs: 10 * 60_000,
  heartbeatIntervalMs: 30_000,
  heartbeatTimeoutMs: 10_000,
  rotateBeforeEndMs: 2 * 60_000,
  defaultLifeMs: 30 * 60_000,
  controlPerWindow: 5,
  // A little over a second: "more than 5 a second" is counted by the exchange's clock, not ours.
  controlWindowMs: 1100,
  backoffBaseMs: 250,
  backoffMaxMs: 30_000,
  renewBeforeExpiryMs: 5 * 60_000,
  offlineAfterAttempts: 3,
  ackTimeoutMs: 15_000,
};

export const MAX_STREAMS_PER_CONNECTION = 1024;

/** What a data message is, from its stream name: a market's feed or the account's own. */
export type StreamKind = MarketStreamKind | 'account' | 'order' | 'ownTrade';
type MarketStreamKind = 'trades' | 'tickers' | 'kline' | 'depth';

export function streamKind(stream: string): StreamKind | undefined {
  if (stream === 'orderUpdate') return 'order';
  if (stream === 'ownTrade') return 'ownTrade';
  if (stream === 'outboundAccountPosition') return 'account';
  if (stream === '!ticker@arr') return 'tickers';
  if (stream.endsWith('@trades')) return 'trades';
  if (stream.includes('@kline_')) return 'kline';
  if (/@depth(\d+@100ms)?$/.test(stream)) return 'depth';
  return undefined;
}

const SCHEMA_BY_KIND = {
  trades: tradesPayloadSchema,
  tickers: tickersPayloadSchema,
  kline: klineEventSchema,
  depth: depthEventSchema,
  account: accountPositionEventSchema,
  order: orderUpdateEventSchema,
  ownTrade: ownTradeEventSchema,
} as const;

/** Looked up once: the per-message path should not even pay for the WeakMap lookup. */
const FAST_CHECK_BY_KIND: Readonly<Record<StreamKind, FastCheck | undefined>> = {
  trades: fastCheckFor(tradesPayloadSchema),
  tickers: fastCheckFor(tickersPayloadSchema),
  kline: fastCheckFor(klineEventSchema),
  depth: fastCheckFor(depthEventSchema),
  account: fastCheckFor(accountPositionEventSchema),
  order: fastCheckFor(orderUpdateEventSchema),
  ownTrade: fastCheckFor(ownTradeEventSchema),
};

export interface StreamClientOptions {
  /** wss:, or plain ws: to this machine only (127.0.0.0/8, ::1, localhost). */
  streamUrl: string;
  authKeyProvider?: () => Promise<{ auth_key: string; timeout_duration: number }>;
  /** Every timer and the token's expiry run on it; tests pass a ManualClock. Default: system. */
  clock?: Clock;
  timing?: Partial<StreamTiming>;
  maxStreamsPerConnection?: number;
}

interface Pending {
  event: 'subscribe' | 'unsubscribe';
  streams: string[];
  private: boolean;
  authRetries: number;
  timer: TimerHandle;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Decodes one raw data message and hands it to `emit`; the same path the sockets use (the bench
 * feeds it directly). Returns false for a message that is not a data message.
 */
export function decodeDataMessage(
  raw: string,
  emit: (kind: StreamKind, payload: unknown, stream: string) => void,
  kindCache?: Map<string, StreamKind | undefined>,
): boolean {
  const message = JSON.parse(raw) as { stream?: unknown; data?: unknown } | null;
  if (typeof message !== 'object' || message === null || typeof message.stream !== 'string') {
    return false;
  }
  const stream = message.stream;
  let kind = kindCache?.get(stream);
  if (kind === undefined) {
    kind = streamKind(stream);
    if (kind === undefined) throw new Error(`Unknown stream "${stream}"`);
    kindCache?.set(stream, kind);
  }
  const check = FAST_CHECK_BY_KIND[kind];
  let payload = check === undefined ? UNSURE : check(message.data);
  // Only a payload the precompiled check cannot vouch for pays for zod (and for the label).
  if (payload === UNSURE) {
    payload = parseWire(SCHEMA_BY_KIND[kind], message.data, `${stream} payload`);
  }
  emit(kind, payload, stream);
  return true;
}

class Connection {
  ws: WebSocket | undefined;
  /** Streams this connection is responsible for (wanted). */
  readonly streams = new Set<string>();
  /** Streams the exchange has acknowledged on the current socket. */
  readonly acked = new Set<string>();
  readonly pending = new Map<number, Pending>();
  live = false;
  everLive = false;
  /** Called once when this connection first becomes live (a replacement taking over). */
  onLive: (() => void) | undefined;
  attempt = 0;
  closed = false;
  private readonly sentAt: number[] = [];
  private readonly queue: (() => void)[] = [];
  private readonly queueTimer: Timer;
  private readonly reconnectTimer: Timer;
  private readonly deadTimer: Timer;
  private readonly rotateTimer: Timer;
  private pinger: Repeater | undefined;
  private heartbeat: Repeater | undefined;

  constructor(
    readonly owner: StreamClient,
    readonly index: number,
  ) {
    const clock = owner.clock;
    this.queueTimer = new Timer(clock, () => this.pumpQueue());
    this.reconnectTimer = new Timer(clock, () => this.open());
    this.deadTimer = new Timer(clock, () => this.ws?.terminate());
    this.rotateTimer = new Timer(clock, () => owner.rotate(this));
  }

  /** Opens the socket unless one is open, opening, or a reconnect is already scheduled. */
  ensureOpen(): void {
    if (!this.ws && !this.reconnectTimer.armed) this.open();
  }

  open(): void {
    if (this.closed) return;
    const ws = new WebSocket(this.owner.streamUrl);
    this.ws = ws;
    this.live = false;
    this.acked.clear();
    ws.on('open', () => {
      if (this.ws !== ws) return;
      this.startTimers();
      this.resubscribeAll();
    });
    ws.on('message', (data: WebSocket.RawData) => {
      if (this.ws !== ws) return;
      this.alive();
      this.owner.handleMessage(this, data.toString());
    });
    ws.on('pong', () => {
      if (this.ws === ws) this.alive();
    });
    ws.on('close', () => {
      if (this.ws === ws) this.lost();
    });
    ws.on('error', () => {
      // 'close' follows every 'error'; the reconnect is handled there.
    });
    this.owner.refreshState();
  }

  /** Sends a control message as soon as the 5-per-second budget allows. */
  sendControl(message: Record<string, unknown> | 'ping-frame'): void {
    this.queue.push(() => {
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) return;
      if (message === 'ping-frame') ws.ping();
      else ws.send(JSON.stringify(message));
    });
    this.pumpQueue();
  }

  private pumpQueue(): void {
    if (this.queueTimer.armed) return;
    const timing = this.owner.timing;
    for (;;) {
      const now = this.owner.clock.now();
      while (this.sentAt.length > 0 && this.sentAt[0]! <= now - timing.controlWindowMs) {
        this.sentAt.shift();
      }
      if (this.queue.length === 0) return;
      if (this.sentAt.length >= timing.controlPerWindow) {
        const wait = this.sentAt[0]! + timing.controlWindowMs - now;
        this.queueTimer.start(wait);
        return;
      }
      this.sentAt.push(now);
      this.queue.shift()!();
    }
  }

  private startTimers(): void {
    const timing = this.owner.timing;
    this.clearTimers();
    const clock = this.owner.clock;
    this.pinger = new Repeater(clock, timing.pingIntervalMs, () =>
      this.sendControl({ event: 'ping' }),
    );
    this.heartbeat = new Repeater(clock, timing.heartbeatIntervalMs, () => {
      this.sendControl('ping-frame');
      this.deadTimer.startIfIdle(timing.heartbeatTimeoutMs);
    });
    this.scheduleRotation(timing.defaultLifeMs);
  }

  /** The exchange announced the connection's life (connected: timeout_duration, seconds). */
  scheduleRotation(lifeMs: number): void {
    const timing = this.owner.timing;
    this.rotateTimer.start(Math.max(1000, lifeMs - timing.rotateBeforeEndMs));
  }

  private alive(): void {
    this.deadTimer.cancel();
  }

  private clearTimers(): void {
    this.pinger?.stop();
    this.heartbeat?.stop();
    this.pinger = this.heartbeat = undefined;
    this.deadTimer.cancel();
    this.rotateTimer.cancel();
    this.queueTimer.cancel();
    this.queue.length = 0;
  }

  private lost(): void {
    this.clearTimers();
    this.live = false;
    this.acked.clear();
    this.ws = undefined;
    this.owner.dropPending(this);
    if (this.closed) return;
    const timing = this.owner.timing;
    const delay = backoffDelay(this.attempt, {
      firstMs: timing.backoffBaseMs,
      maxMs: timing.backoffMaxMs,
      jitter: 'equal',
    });
    this.attempt++;
    this.owner.refreshState();
    this.reconnectTimer.start(delay);
  }

  /** Subscribes every stream this connection carries (after open or a replacement). */
  resubscribeAll(): void {
    const publicStreams = [...this.streams].filter((s) => !PRIVATE_STREAMS.has(s));
    const privateStreams = [...this.streams].filter((s) => PRIVATE_STREAMS.has(s));
    if (publicStreams.length > 0) this.owner.sendSubscribe(this, publicStreams, false);
    if (privateStreams.length > 0) this.owner.sendSubscribe(this, privateStreams, true);
    this.owner.checkLive(this);
  }

  /** Drops the socket without reconnecting; used on close() and after a replacement took over. */
  shutdown(): void {
    this.closed = true;
    this.clearTimers();
    this.reconnectTimer.cancel();
    this.owner.dropPending(this);
    const ws = this.ws;
    this.ws = undefined;
    this.live = false;
    if (ws) {
      ws.removeAllListeners('close');
      ws.on('error', () => undefined);
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else ws.close();
    }
  }

  /** A dead-silent socket: force the reconnect path. */
  kill(): void {
    this.ws?.terminate();
  }
}

type Listener = (...args: never[]) => void;

export class StreamClient extends EventEmitter {
  readonly streamUrl: string;
  readonly timing: StreamTiming;
  readonly clock: Clock;
  private readonly authKeyProvider: StreamClientOptions['authKeyProvider'];
  private readonly maxPerConnection: number;
  private connections: Connection[] = [];
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly unsubscribeWaiters = new Map<number, Waiter>();
  private readonly kindCache = new Map<string, StreamKind | undefined>();
  /** Made once, not a fresh closure per message. */
  private readonly emitDecoded = (kind: StreamKind, payload: unknown, stream: string): void =>
    this.dispatch(kind, payload, stream);
  private nextId = 1;
  private nextConnectionIndex = 0;
  private state: ConnectionState = 'offline';
  private closed = false;
  private token: { key: string; expiresAt: number } | undefined;
  private tokenRequest: Promise<string> | undefined;
  private readonly renewTimer: Timer;
  /** Private subscribes waiting to try again after the auth key could not be had. */
  private readonly authRetryTimers = new Set<TimerHandle>();
  /** The wait before the next renewal (set when a token arrives). */
  private renewLeadMs = 0;
  /** A connection was lost after being live and the client has not been live since. */
  private lostSinceLive = false;
  /** Malformed messages dropped (counted, never thrown into the socket handler). */
  malformedCount = 0;

  constructor(options: StreamClientOptions) {
    super();
    assertExchangeUrl(options.streamUrl, 'stream', 'streamUrl');
    this.streamUrl = options.streamUrl;
    this.authKeyProvider = options.authKeyProvider;
    this.clock = options.clock ?? new SystemClock();
    this.renewTimer = new Timer(this.clock, () => this.renew());
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.maxPerConnection = options.maxStreamsPerConnection ?? MAX_STREAMS_PER_CONNECTION;
    // Listeners of typed events are user code; the ws handlers must survive their throws.
    this.setMaxListeners(100);
  }

  override on(event: 'state', fn: (s: ConnectionState) => void): this;
  override on(event: 'trades', fn: (p: TradesPayload, stream: string) => void): this;
  override on(event: 'tickers', fn: (p: TickerEvent[], stream: string) => void): this;
  override on(event: 'kline', fn: (p: KlineEvent, stream: string) => void): this;
  override on(event: 'depth', fn: (p: DepthEvent, stream: string) => void): this;
  override on(event: 'account', fn: (p: AccountPositionEvent, stream: string) => void): this;
  override on(event: 'order', fn: (p: OrderUpdateEvent, stream: string) => void): this;
  override on(event: 'ownTrade', fn: (p: OwnTradeEvent, stream: string) => void): this;
  override on(event: 'reconnected', fn: () => void): this;
  override on(event: 'malformed', fn: (error: Error, raw: string) => void): this;
  override on(event: string, fn: Listener): this {
    return super.on(event, fn as (...args: unknown[]) => void);
  }

  get connectionState(): ConnectionState {
    return this.state;
  }

  /** Streams currently wanted, over all connections. */
  get subscriptions(): string[] {
    return this.connections.flatMap((c) => [...c.streams]);
  }

  /** Whether a connection carries `stream` (subscribed, or being subscribed). */
  carries(stream: string): boolean {
    return this.connections.some((c) => c.streams.has(stream));
  }

  /** How many sockets the streams are spread over. */
  get connectionCount(): number {
    return this.connections.length;
  }

  /** Resolves when the exchange has acknowledged every stream. */
  async subscribe(streams: string[]): Promise<void> {
    this.assertOpen();
    const names = validateStreamNames(streams);
    if (names.some((s) => PRIVATE_STREAMS.has(s)) && !this.authKeyProvider) {
      throw new ExchangeError('invalid-input', 'Private streams need an authKeyProvider', {
        field: 'streams',
      });
    }
    const waits: Promise<void>[] = [];
    const byConnection = new Map<Connection, string[]>();
    for (const name of names) {
      const existing = this.connections.find((c) => c.streams.has(name));
      if (existing) {
        if (!existing.acked.has(name)) waits.push(this.waitFor(name));
        continue;
      }
      const connection = this.connectionWithRoom();
      connection.streams.add(name);
      waits.push(this.waitFor(name));
      byConnection.set(connection, [...(byConnection.get(connection) ?? []), name]);
    }
    for (const [connection, added] of byConnection) {
      if (!connection.ws) connection.ensureOpen();
      else if (connection.ws.readyState === WebSocket.OPEN) {
        const publicAdded = added.filter((s) => !PRIVATE_STREAMS.has(s));
        const privateAdded = added.filter((s) => PRIVATE_STREAMS.has(s));
        if (publicAdded.length > 0) this.sendSubscribe(connection, publicAdded, false);
        if (privateAdded.length > 0) this.sendSubscribe(connection, privateAdded, true);
      }
      // A connection still opening subscribes everything it carries once open. A live one stays
      // live while it adds streams: what it already carries keeps flowing.
    }
    this.refreshState();
    await Promise.all(waits);
  }

  /** Resolves when the exchange has acknowledged the unsubscribe (at once if not connected). */
  async unsubscribe(streams: string[]): Promise<void> {
    this.assertOpen();
    const names = validateStreamNames(streams);
    const waits: Promise<void>[] = [];
    for (const connection of this.connections) {
      const removed = names.filter((s) => connection.streams.has(s));
      if (removed.length === 0) continue;
      for (const s of removed) {
        connection.streams.delete(s);
        connection.acked.delete(s);
        this.rejectWaiters(s, new ExchangeError('invalid-input', `Stream ${s} was unsubscribed`));
      }
      if (connection.ws?.readyState === WebSocket.OPEN) {
        const id = this.nextId++;
        waits.push(
          new Promise<void>((resolve, reject) => {
            this.unsubscribeWaiters.set(id, { resolve, reject });
          }),
        );
        this.track(connection, id, 'unsubscribe', removed, false);
        connection.sendControl({ event: 'unsubscribe', streams: removed, id });
      }
    }
    // Connections left with nothing to carry are closed.
    for (const connection of this.connections.filter((c) => c.streams.size === 0)) {
      connection.shutdown();
    }
    this.connections = this.connections.filter((c) => c.streams.size > 0);
    this.refreshState();
    await Promise.all(waits);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.renewTimer.cancel();
    for (const timer of this.authRetryTimers) this.clock.clearTimeout(timer);
    this.authRetryTimers.clear();
    for (const connection of this.connections) connection.shutdown();
    this.connections = [];
    for (const name of [...this.waiters.keys()]) {
      this.rejectWaiters(name, new ExchangeError('network', 'The stream client was closed'));
    }
    for (const [, waiter] of this.unsubscribeWaiters) waiter.resolve();
    this.unsubscribeWaiters.clear();
    this.setState('offline');
  }

  // -------------------------------------------------------------------------------------------
  // internals used by Connection

  sendSubscribe(
    connection: Connection,
    streams: string[],
    isPrivate: boolean,
    authRetries = 0,
  ): void {
    const id = this.nextId++;
    this.track(connection, id, 'subscribe', streams, isPrivate, authRetries);
    if (!isPrivate) {
      connection.sendControl({ event: 'subscribe', streams, id });
      return;
    }
    this.authKey(authRetries > 0).then(
      (authKey) => {
        if (!connection.pending.has(id)) return;
        connection.sendControl({ event: 'subscribe', streams, auth_key: authKey, id });
      },
      (error: unknown) => {
        this.untrack(connection, id);
        const failure =
          error instanceof ExchangeError
            ? error
            : new ExchangeError('auth', `Could not get a stream auth key: ${String(error)}`);
        for (const s of streams) this.rejectWaiters(s, failure);
        // Keep trying while the streams are wanted: the exchange may be back later.
        const retry = this.clock.setTimeout(() => {
          this.authRetryTimers.delete(retry);
          if (!this.closed && connection.ws?.readyState === WebSocket.OPEN) {
            const still = streams.filter(
              (s) => connection.streams.has(s) && !connection.acked.has(s),
            );
            if (still.length > 0) this.sendSubscribe(connection, still, true, 1);
          }
        }, this.timing.backoffMaxMs / 6);
        this.authRetryTimers.add(retry);
      },
    );
  }

  handleMessage(connection: Connection, raw: string): void {
    try {
      if (raw.charCodeAt(0) === 123 /* { */ && raw.includes('"stream"')) {
        if (decodeDataMessage(raw, this.emitDecoded, this.kindCache)) return;
      }
      this.handleControl(connection, JSON.parse(raw) as Record<string, unknown>);
    } catch (error) {
      this.malformedCount++;
      this.emit('malformed', error instanceof Error ? error : new Error(String(error)), raw);
    }
  }

  /**
   * The same dispatch the sockets use; the bench calls it through decodeDataMessage. Every event
   * names its stream, so a client shared by several users (shared-stream.ts) hands each message
   * to those holding that stream.
   */
  dispatch(kind: StreamKind, payload: unknown, stream: string): void {
    this.emit(kind, payload, stream);
  }

  /** Bench/test entry: decode one raw message exactly as if it came from a socket. */
  feedRaw(raw: string): void {
    if (!decodeDataMessage(raw, this.emitDecoded, this.kindCache)) {
      throw new Error('Not a data message');
    }
  }

  checkLive(connection: Connection): void {
    if (!connection.ws || connection.ws.readyState !== WebSocket.OPEN) return;
    for (const s of connection.streams) if (!connection.acked.has(s)) return;
    if (connection.live) return;
    connection.live = true;
    connection.attempt = 0;
    connection.everLive = true;
    const onLive = connection.onLive;
    connection.onLive = undefined;
    onLive?.();
    this.refreshState();
  }

  /** Replaces a connection near the end of its life: the new one subscribes, then the old goes. */
  rotate(old: Connection): void {
    if (this.closed || !this.connections.includes(old)) return;
    const replacement = new Connection(this, this.nextConnectionIndex++);
    for (const s of old.streams) replacement.streams.add(s);
    replacement.everLive = false;
    const index = this.connections.indexOf(old);
    const swap = (): void => {
      if (this.closed || !this.connections.includes(old)) {
        replacement.shutdown();
        return;
      }
      // Streams added to the old connection meanwhile move over too.
      const missing = [...old.streams].filter((s) => !replacement.streams.has(s));
      this.connections[index] = replacement;
      old.shutdown();
      if (missing.length > 0) {
        for (const s of missing) replacement.streams.add(s);
        const publicMissing = missing.filter((s) => !PRIVATE_STREAMS.has(s));
        const privateMissing = missing.filter((s) => PRIVATE_STREAMS.has(s));
        if (publicMissing.length > 0) this.sendSubscribe(replacement, publicMissing, false);
        if (privateMissing.length > 0) this.sendSubscribe(replacement, privateMissing, true);
      }
      this.refreshState();
    };
    replacement.onLive = swap;
    replacement.open();
  }

  refreshState(): void {
    if (this.closed) return this.setState('offline');
    if (this.connections.length === 0) return this.setState('offline');
    if (this.connections.every((c) => c.live)) return this.setState('live');
    if (this.connections.some((c) => c.attempt >= this.timing.offlineAfterAttempts)) {
      return this.setState('offline');
    }
    if (this.connections.some((c) => c.everLive && !c.live)) return this.setState('reconnecting');
    this.setState('connecting');
  }

  /**
   * A socket went away with control messages unanswered. Subscribes are re-sent by the next
   * socket; an unsubscribe is complete anyway, since the next socket will not carry the stream.
   */
  dropPending(connection: Connection): void {
    for (const [id, pending] of connection.pending) {
      this.clock.clearTimeout(pending.timer);
      if (pending.event === 'unsubscribe') {
        this.unsubscribeWaiters.get(id)?.resolve();
        this.unsubscribeWaiters.delete(id);
      }
    }
    connection.pending.clear();
  }

  // -------------------------------------------------------------------------------------------

  private handleControl(connection: Connection, message: Record<string, unknown>): void {
    const event = message.event;
    const id = typeof message.id === 'number' ? message.id : undefined;
    const data = (message.data ?? {}) as Record<string, unknown>;
    if (event === 'connected') {
      // The life counts from the connection's start; a pong does not move the replacement.
      const seconds = data.timeout_duration;
      if (typeof seconds === 'number' && seconds > 0) connection.scheduleRotation(seconds * 1000);
      return;
    }
    if (event === 'pong') return;
    if (event === 'subscribed' || event === 'unsubscribed') {
      const pending = id !== undefined ? connection.pending.get(id) : undefined;
      const listed = Array.isArray(data.streams) ? (data.streams as unknown[]).map(String) : [];
      const streams = pending?.streams ?? listed;
      if (id !== undefined) this.untrack(connection, id);
      if (event === 'subscribed') {
        for (const s of streams) {
          if (!connection.streams.has(s)) continue;
          connection.acked.add(s);
          this.resolveWaiters(s);
        }
        this.checkLive(connection);
      } else if (id !== undefined) {
        this.unsubscribeWaiters.get(id)?.resolve();
        this.unsubscribeWaiters.delete(id);
      }
      return;
    }
    if (event === 'error') {
      const code = typeof data.code === 'number' ? data.code : 0;
      const text = typeof data.message === 'string' ? data.message : 'stream error';
      const pending = id !== undefined ? connection.pending.get(id) : undefined;
      if (id !== undefined) this.untrack(connection, id);
      if (code === 401) {
        this.onUnauthorized(connection, pending);
        return;
      }
      if (pending) {
        const kind = code === 429 ? 'rate-limited' : code >= 500 ? 'server' : 'invalid-input';
        const failure = new ExchangeError(kind, `Stream ${pending.event} failed: ${text}`, {
          code,
          exchangeMessage: text,
        });
        if (pending.event === 'subscribe') {
          // The exchange refused these streams; stop carrying them so the connection can be live.
          for (const s of pending.streams) {
            connection.streams.delete(s);
            this.rejectWaiters(s, failure);
          }
          this.checkLive(connection);
        } else {
          this.unsubscribeWaiters.get(id!)?.reject(failure);
          this.unsubscribeWaiters.delete(id!);
        }
      }
    }
  }

  /** A 401: the auth key expired or was refused. Get a fresh one and resubscribe private streams. */
  private onUnauthorized(connection: Connection, pending: Pending | undefined): void {
    const streams =
      pending?.streams ?? [...connection.streams].filter((s) => PRIVATE_STREAMS.has(s));
    const retries = (pending?.authRetries ?? 0) + 1;
    this.token = undefined;
    if (retries > 3) {
      const failure = new ExchangeError(
        'auth',
        'The exchange refused the stream auth key repeatedly',
      );
      for (const s of streams) {
        connection.streams.delete(s);
        this.rejectWaiters(s, failure);
      }
      this.checkLive(connection);
      return;
    }
    // Streams that were flowing have stopped: the connection is not live until they are back.
    const wereFlowing = streams.some((s) => connection.acked.has(s));
    for (const s of streams) connection.acked.delete(s);
    if (streams.length > 0) {
      if (wereFlowing) {
        connection.live = false;
        this.refreshState();
      }
      this.sendSubscribe(connection, streams, true, retries);
    }
  }

  /**
   * The auth key for private subscribes, fetched when missing, near expiry or forced. A renewal
   * (timer) that brings a different key resubscribes the private streams with it; a subscribe
   * that asked for a fresh key after a 401 sends it itself.
   */
  private async authKey(forceNew: boolean, renewal = false): Promise<string> {
    if (!forceNew && this.token && this.token.expiresAt - this.clock.now() > 5000)
      return this.token.key;
    if (!this.tokenRequest) {
      this.tokenRequest = (async () => {
        const provider = this.authKeyProvider!;
        const token = await provider();
        const lifeMs = Math.max(1, token.timeout_duration) * 1000;
        const previous = this.token?.key;
        this.token = { key: token.auth_key, expiresAt: this.clock.now() + lifeMs };
        this.scheduleRenewal(lifeMs);
        if (renewal && previous !== undefined && previous !== token.auth_key) {
          this.resubscribePrivate();
        }
        return token.auth_key;
      })().finally(() => {
        this.tokenRequest = undefined;
      });
    }
    return this.tokenRequest;
  }

  private scheduleRenewal(lifeMs: number): void {
    this.renewLeadMs = Math.min(this.timing.renewBeforeExpiryMs, lifeMs / 5);
    this.renewTimer.start(Math.max(1000, lifeMs - this.renewLeadMs));
  }

  private renew(): void {
    if (this.closed) return;
    const hasPrivate = this.connections.some((c) =>
      [...c.streams].some((s) => PRIVATE_STREAMS.has(s)),
    );
    if (!hasPrivate) return;
    const lead = this.renewLeadMs;
    this.authKey(true, true).catch(() => {
      // Renewal failed (exchange unreachable): try again shortly; a 401 also triggers it.
      this.scheduleRenewal(Math.max(10_000, lead));
    });
  }

  /** A new auth key replaces the old one: private subscriptions are renewed with it. */
  private resubscribePrivate(): void {
    for (const connection of this.connections) {
      const privateStreams = [...connection.streams].filter((s) => PRIVATE_STREAMS.has(s));
      if (privateStreams.length > 0 && connection.ws?.readyState === WebSocket.OPEN) {
        this.sendSubscribe(connection, privateStreams, true);
      }
    }
  }

  private connectionWithRoom(): Connection {
    const open = this.connections.find((c) => c.streams.size < this.maxPerConnection);
    if (open) return open;
    const connection = new Connection(this, this.nextConnectionIndex++);
    this.connections.push(connection);
    return connection;
  }

  private track(
    connection: Connection,
    id: number,
    event: 'subscribe' | 'unsubscribe',
    streams: string[],
    isPrivate: boolean,
    authRetries = 0,
  ): void {
    const timer = this.clock.setTimeout(() => {
      // No acknowledgement: treat the socket as broken; the reconnect resubscribes everything.
      if (connection.pending.has(id)) connection.kill();
    }, this.timing.ackTimeoutMs);
    connection.pending.set(id, { event, streams, private: isPrivate, authRetries, timer });
  }

  private untrack(connection: Connection, id: number): void {
    const pending = connection.pending.get(id);
    if (pending) this.clock.clearTimeout(pending.timer);
    connection.pending.delete(id);
  }

  private waitFor(stream: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const list = this.waiters.get(stream) ?? [];
      list.push({ resolve, reject });
      this.waiters.set(stream, list);
    });
  }

  private resolveWaiters(stream: string): void {
    const list = this.waiters.get(stream);
    if (!list) return;
    this.waiters.delete(stream);
    for (const waiter of list) waiter.resolve();
  }

  private rejectWaiters(stream: string, error: Error): void {
    const list = this.waiters.get(stream);
    if (!list) return;
    this.waiters.delete(stream);
    for (const waiter of list) waiter.reject(error);
  }

  private setState(next: ConnectionState): void {
    if (next === this.state) return;
    const previous = this.state;
    this.state = next;
    this.emit('state', next);
    // Back to live after a loss (every stream resubscribed): the app re-reads what it may have
    // missed. A first connection that failed first is one too: its users read over REST when
    // they started, and what happened while it could not connect was missed all the same.
    if (next === 'live' && (previous === 'reconnecting' || this.lostSinceLive)) {
      this.lostSinceLive = false;
      this.emit('reconnected');
    }
    if (next === 'reconnecting' || next === 'offline') this.lostSinceLive = !this.closed;
  }

  private assertOpen(): void {
    if (this.closed) throw new ExchangeError('invalid-input', 'The stream client is closed');
  }
}

/** The distinct names of `streams`, each checked to be a stream name (else invalid-input). */
export function validateStreamNames(streams: unknown): string[] {
  if (!Array.isArray(streams)) {
    throw new ExchangeError('invalid-input', 'Invalid input: streams must be an array of names', {
      field: 'streams',
    });
  }
  const names = new Set<string>();
  streams.forEach((s, i) => {
    if (typeof s !== 'string' || !/^[!A-Za-z0-9@_]+$/.test(s)) {
      throw new ExchangeError('invalid-input', `Invalid input: streams.${i} is not a stream name`, {
        field: `streams.${i}`,
      });
    }
    names.add(s);
  });
  return [...names];
}
