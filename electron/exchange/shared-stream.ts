/**
 * One profile's stream client, shared by every part that needs a stream: the live session's
 * private streams, the alerts' all-market tickers and the market watch's trades and book all go
 * over the same StreamClient, so over one connection (the interface lets a connection carry
 * public and private streams together, up to 1024; the client opens another only beyond that).
 *
 * - Each part is a `StreamUser`: it subscribes the streams it needs and hears only the messages of
 *   those streams, and the reconnects and state changes only while it holds a stream.
 * - A stream is held by reference count: a user's unsubscribe drops it from the connection only
 *   when no other user holds it still.
 * - The client reconnects once for everyone and resubscribes every stream held; its state is the
 *   profile's connection state, told once (the session listens to `onState`).
 * - `close()` releases every user and closes the client: its sockets and its timers on the clock.
 */
import { EventEmitter } from 'node:events';
import type { ConnectionState } from '../../shared/types';
import { ExchangeError } from './errors';
import { validateStreamNames, type StreamClient, type StreamKind } from './stream';
import type {
  AccountPositionEvent,
  DepthEvent,
  KlineEvent,
  OrderUpdateEvent,
  OwnTradeEvent,
  TickerEvent,
  TradesPayload,
} from './wire';

const DATA_EVENTS: readonly StreamKind[] = [
  'trades',
  'tickers',
  'kline',
  'depth',
  'account',
  'order',
  'ownTrade',
];

type Listener = (...args: never[]) => void;

export class SharedStream {
  private readonly holders = new Map<string, Set<StreamUser>>();
  private readonly users = new Set<StreamUser>();
  private closed = false;

  constructor(readonly client: StreamClient) {
    for (const kind of DATA_EVENTS) {
      client.on(kind as 'trades', (payload: unknown, stream: string) => {
        const holders = this.holders.get(stream);
        if (holders) for (const user of holders) user.deliver(kind, payload, stream);
      });
    }
    client.on('state', (state) => {
      for (const user of this.users) if (user.holdsAny) user.deliver('state', state);
    });
    client.on('reconnected', () => {
      for (const user of this.users) if (user.holdsAny) user.deliver('reconnected');
    });
  }

  /** A new user of the client, named for the log and the tests (`live`, `alerts`, `market`). */
  user(label: string): StreamUser {
    if (this.closed) throw new ExchangeError('invalid-input', 'The stream client is closed');
    const user = new StreamUser(this, label);
    this.users.add(user);
    return user;
  }

  /** The profile's connection state: every stream held is flowing ('live'), or not yet. */
  get connectionState(): ConnectionState {
    return this.client.connectionState;
  }

  /** The state's changes, told once whoever holds the streams. */
  onState(fn: (state: ConnectionState) => void): void {
    this.client.on('state', fn);
  }

  /** How many users hold `stream`. */
  holdersOf(stream: string): number {
    return this.holders.get(stream)?.size ?? 0;
  }

  isHeldBy(stream: string, user: StreamUser): boolean {
    return this.holders.get(stream)?.has(user) ?? false;
  }

  /** Every stream some user holds. */
  get held(): string[] {
    return [...this.holders.keys()];
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Releases every user and closes the client (a profile switch, the session's end). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const user of this.users) user.detach();
    this.users.clear();
    this.holders.clear();
    await this.client.close();
  }

  // ---- used by StreamUser -------------------------------------------------------------------

  /** `user` holds `names` from now on; resolves when the exchange has acknowledged them all. */
  hold(user: StreamUser, names: readonly string[]): Promise<void> {
    for (const name of names) {
      let holders = this.holders.get(name);
      if (!holders) this.holders.set(name, (holders = new Set()));
      holders.add(user);
    }
    return this.client.subscribe([...names]).catch((error: unknown) => {
      // Streams the exchange refused are carried no longer; nobody holds them any more. One the
      // client still carries (another subscribe of it is under way) stays held.
      for (const name of names) {
        if (!this.client.carries(name)) this.holders.get(name)?.delete(user);
        if (this.holders.get(name)?.size === 0) this.holders.delete(name);
      }
      throw error;
    });
  }

  /** `user` lets `names` go; those nobody else holds leave the connection. */
  letGo(user: StreamUser, names: readonly string[]): Promise<void> {
    const unheld: string[] = [];
    for (const name of names) {
      const holders = this.holders.get(name);
      if (!holders?.delete(user)) continue;
      if (holders.size === 0) {
        this.holders.delete(name);
        unheld.push(name);
      }
    }
    if (unheld.length === 0 || this.closed) return Promise.resolve();
    return this.client.unsubscribe(unheld);
  }

  forget(user: StreamUser): void {
    this.users.delete(user);
  }
}

/** One part's share of the profile's stream client: see SharedStream. */
export class StreamUser {
  private readonly events = new EventEmitter();
  private readonly streams = new Set<string>();
  private released = false;

  constructor(
    private readonly shared: SharedStream,
    readonly label: string,
  ) {
    // The listeners are the user's own code, one per event; more would be a leak of the caller.
    this.events.setMaxListeners(20);
  }

  on(event: 'state', fn: (s: ConnectionState) => void): this;
  on(event: 'trades', fn: (p: TradesPayload, stream: string) => void): this;
  on(event: 'tickers', fn: (p: TickerEvent[], stream: string) => void): this;
  on(event: 'kline', fn: (p: KlineEvent, stream: string) => void): this;
  on(event: 'depth', fn: (p: DepthEvent, stream: string) => void): this;
  on(event: 'account', fn: (p: AccountPositionEvent, stream: string) => void): this;
  on(event: 'order', fn: (p: OrderUpdateEvent, stream: string) => void): this;
  on(event: 'ownTrade', fn: (p: OwnTradeEvent, stream: string) => void): this;
  /** The connection is back after a loss, with every stream held subscribed again. */
  on(event: 'reconnected', fn: () => void): this;
  on(event: string, fn: Listener): this {
    this.events.on(event, fn as (...args: unknown[]) => void);
    return this;
  }

  /** The profile's connection state (the same for every user). */
  get connectionState(): ConnectionState {
    return this.shared.connectionState;
  }

  /** The streams this user holds. */
  get held(): string[] {
    return [...this.streams];
  }

  holds(stream: string): boolean {
    return this.streams.has(stream);
  }

  get holdsAny(): boolean {
    return this.streams.size > 0;
  }

  /**
   * Holds `streams` (those held already stay held once) and resolves when the exchange has
   * acknowledged each; a stream the exchange refuses rejects it and is held no longer.
   */
  async subscribe(streams: string[]): Promise<void> {
    this.assertUsable();
    const names = validateStreamNames(streams);
    for (const name of names) this.streams.add(name);
    try {
      await this.shared.hold(this, names);
    } catch (error) {
      // What the exchange refused is held no longer (see SharedStream.hold).
      for (const name of names) if (!this.shared.isHeldBy(name, this)) this.streams.delete(name);
      throw error;
    }
  }

  /** Lets `streams` go; a stream another user holds stays on the connection for that user. */
  async unsubscribe(streams: string[]): Promise<void> {
    if (this.released || this.shared.isClosed) return;
    const held = validateStreamNames(streams).filter((name) => this.streams.has(name));
    for (const name of held) this.streams.delete(name);
    await this.shared.letGo(this, held);
  }

  /** Lets every stream go and stops listening: the user's part closes. */
  async release(): Promise<void> {
    if (this.released) return;
    const held = [...this.streams];
    this.detach();
    this.shared.forget(this);
    if (!this.shared.isClosed) await this.shared.letGo(this, held);
  }

  /** Hands one message of a held stream (or a state change) to this user's listeners. */
  deliver(event: string, ...args: unknown[]): void {
    if (!this.released) this.events.emit(event, ...args);
  }

  /** Stops at once: no listener hears anything more. */
  detach(): void {
    this.released = true;
    this.streams.clear();
    this.events.removeAllListeners();
  }

  private assertUsable(): void {
    if (this.released || this.shared.isClosed) {
      throw new ExchangeError('invalid-input', `The ${this.label} stream user was released`);
    }
  }
}
