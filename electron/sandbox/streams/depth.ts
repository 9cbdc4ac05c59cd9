/**
 * The order-book streams: `<symbol>@depth` (every level, as changes) and
 * `<symbol>@depth<5|10|20>@100ms` (the top levels, whole).
 */
import { Decimal } from '../../../shared/exact-decimal';
import type { TimerHandle } from '../../core/clock';
import { dataMessage } from './connection';
import type { FeedContext, FeedsBySymbol, PublicFeed } from './feed';

const DEPTH_INTERVAL_MS = 3000;
const DEPTH_KEEPALIVE_MS = 10_000;
const PARTIAL_DEPTH_INTERVAL_MS = 100;
/** The full-depth stream follows this many levels per side (the largest REST depth limit). */
const FULL_DEPTH_LEVELS = 1000;

/** A depth message (the interface's key letters); levels are [price, quantity]. */
interface DepthPayload {
  E: number;
  a: [string, string][];
  b: [string, string][];
  s: string;
}

/** A feed that wants to hear of every change of its symbol's book. */
export interface BookWatcher {
  onBookChange(): void;
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
export class DepthFeed implements PublicFeed, BookWatcher {
  private diffTimer: TimerHandle | undefined;
  private keepAliveTimer: TimerHandle | undefined;
  private asks = new Map<string, string>();
  private bids = new Map<string, string>();
  private dirty = false;

  constructor(
    private readonly context: FeedContext,
    private readonly watchers: FeedsBySymbol<BookWatcher>,
    private readonly stream: string,
    private readonly symbol: string,
  ) {}

  start(): void {
    const book = this.context.engine.depth(this.symbol, FULL_DEPTH_LEVELS);
    this.asks = levelsOf(book.asks);
    this.bids = levelsOf(book.bids);
    this.watchers.add(this.symbol, this);
    this.scheduleDiff();
    this.scheduleKeepAlive();
  }

  stop(): void {
    this.context.clock.clearTimeout(this.diffTimer);
    this.context.clock.clearTimeout(this.keepAliveTimer);
    this.watchers.remove(this.symbol, this);
  }

  snapshot(): string {
    const book = this.context.engine.depth(this.symbol, FULL_DEPTH_LEVELS);
    return dataMessage(this.stream, {
      E: this.context.clock.now(),
      a: book.asks,
      b: book.bids,
      s: this.symbol,
    } satisfies DepthPayload);
  }

  onBookChange(): void {
    this.dirty = true;
  }

  private scheduleDiff(): void {
    this.diffTimer = this.context.clock.setTimeout(() => this.sendChanges(), DEPTH_INTERVAL_MS);
  }

  private scheduleKeepAlive(): void {
    const { clock } = this.context;
    clock.clearTimeout(this.keepAliveTimer);
    this.keepAliveTimer = clock.setTimeout(() => this.sendKeepAlive(), DEPTH_KEEPALIVE_MS);
  }

  private sendChanges(): void {
    this.scheduleDiff();
    if (!this.dirty) return;
    this.dirty = false;
    const book = this.context.engine.depth(this.symbol, FULL_DEPTH_LEVELS);
    const asks = levelsOf(book.asks);
    const bids = levelsOf(book.bids);
    const payload: DepthPayload = {
      E: this.context.clock.now(),
      a: changedLevels(this.asks, asks, true),
      b: changedLevels(this.bids, bids, false),
      s: this.symbol,
    };
    this.asks = asks;
    this.bids = bids;
    if (payload.a.length === 0 && payload.b.length === 0) return;
    this.context.broadcast(this.stream, dataMessage(this.stream, payload));
    this.scheduleKeepAlive();
  }

  private sendKeepAlive(): void {
    const payload: DepthPayload = { E: this.context.clock.now(), a: [], b: [], s: this.symbol };
    this.context.broadcast(this.stream, dataMessage(this.stream, payload));
    this.scheduleKeepAlive();
  }
}

/**
 * The top N levels per side, at most every 100 ms and only when they changed. Driven by book
 * events (a quiet book runs no timer): the first change arms a 100 ms timer, which sends the top
 * levels if they differ from the last ones sent.
 */
export class PartialDepthFeed implements PublicFeed, BookWatcher {
  private timer: TimerHandle | undefined;
  private lastSentKey = '';

  constructor(
    private readonly context: FeedContext,
    private readonly watchers: FeedsBySymbol<BookWatcher>,
    private readonly stream: string,
    private readonly symbol: string,
    private readonly levels: number,
  ) {}

  start(): void {
    this.lastSentKey = this.topKey();
    this.watchers.add(this.symbol, this);
  }

  stop(): void {
    this.context.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.watchers.remove(this.symbol, this);
  }

  snapshot(): string {
    const book = this.context.engine.depth(this.symbol, this.levels);
    return dataMessage(this.stream, this.payload(book.asks, book.bids));
  }

  onBookChange(): void {
    if (this.timer) return;
    this.timer = this.context.clock.setTimeout(() => this.flush(), PARTIAL_DEPTH_INTERVAL_MS);
  }

  private topKey(): string {
    const book = this.context.engine.depth(this.symbol, this.levels);
    return JSON.stringify([book.asks, book.bids]);
  }

  private payload(asks: [string, string][], bids: [string, string][]): DepthPayload {
    return { E: this.context.clock.now(), a: asks, b: bids, s: this.symbol };
  }

  private flush(): void {
    this.timer = undefined;
    const book = this.context.engine.depth(this.symbol, this.levels);
    const key = JSON.stringify([book.asks, book.bids]);
    if (key === this.lastSentKey) return;
    this.lastSentKey = key;
    this.context.broadcast(
      this.stream,
      dataMessage(this.stream, this.payload(book.asks, book.bids)),
    );
  }
}
