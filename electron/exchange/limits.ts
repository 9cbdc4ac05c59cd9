/**
 * Client-side pacing so the exchange never has to say 429 (and never gets a reason to say 418).
 *
 * One bucket per endpoint and API key (per IP for NONE endpoints, as the exchange counts them),
 * holding the interface's N tokens per period. A spent token comes back one full period after the
 * exchange ANSWERED the call that spent it, not continuously: the exchange counts in fixed windows,
 * and a continuously refilling bucket would allow 2N calls inside one fixed window (a burst of N
 * at its start plus N refilled during it). Returning tokens a period after the answer guarantees
 * that any N+1 calls reach the exchange more than a period apart, whatever the window alignment
 * or network delay. Calls beyond the budget wait in a FIFO queue instead of failing.
 */
import { SystemClock, type Clock, type TimerHandle } from '../core/clock';
export type EndpointName =
  | 'ping'
  | 'systemStatus'
  | 'time'
  | 'exchangeInfo'
  | 'tickers'
  | 'ticker'
  | 'klines'
  | 'depth'
  | 'trades'
  | 'historicalTrades'
  | 'placeOrder'
  | 'testOrder'
  | 'getOrder'
  | 'openOrders'
  | 'allOrders'
  | 'cancelOrder'
  | 'cancelAllOrders'
  | 'myTrades'
  | 'account'
  | 'funds'
  | 'coins'
  | 'withdraws'
  | 'depositAddress'
  | 'subTransfer'
  | 'subTransferHistory'
  | 'subAccounts'
  | 'createAuthToken';

export interface RateLimit {
  count: number;
  periodMs: number;
}

const PER_SECOND = (count: number): RateLimit => ({ count, periodMs: 1000 });
const PER_MINUTE = (count: number): RateLimit => ({ count, periodMs: 60_000 });

/** The interface's table; sub-account endpoints 1 per second (docs/exchange-notes.md). */
export const ENDPOINT_LIMITS: Readonly<Record<EndpointName, RateLimit>> = {
  ping: PER_SECOND(1),
  systemStatus: PER_SECOND(1),
  time: PER_SECOND(1),
  exchangeInfo: PER_SECOND(1),
  tickers: PER_SECOND(1),
  ticker: PER_SECOND(1),
  klines: PER_SECOND(1),
  trades: PER_SECOND(1),
  historicalTrades: PER_SECOND(1),
  openOrders: PER_SECOND(1),
  allOrders: PER_SECOND(1),
  cancelAllOrders: PER_SECOND(1),
  account: PER_SECOND(1),
  funds: PER_SECOND(1),
  createAuthToken: PER_SECOND(1),
  depth: PER_SECOND(2),
  testOrder: PER_SECOND(2),
  getOrder: PER_SECOND(2),
  myTrades: PER_SECOND(2),
  placeOrder: PER_SECOND(10),
  cancelOrder: PER_SECOND(10),
  coins: PER_MINUTE(5),
  withdraws: PER_MINUTE(5),
  depositAddress: PER_MINUTE(1),
  subTransfer: PER_SECOND(1),
  subTransferHistory: PER_SECOND(1),
  subAccounts: PER_SECOND(1),
};

/** Given back by acquire(): call it once the exchange answered (or the call failed). */
export type ReleaseToken = () => void;

interface Waiter {
  grant: (release: ReleaseToken) => void;
}

class Bucket {
  /** Times at which spent tokens become usable again (one per token spent and answered). */
  readonly returnsAt: number[] = [];
  inFlight = 0;
  readonly queue: Waiter[] = [];

  constructor(
    readonly limit: RateLimit,
    /** The API key (or 'ip') the bucket counts for. */
    readonly key: string,
  ) {}

  /** Records a token coming back at `at`, keeping returnsAt sorted. */
  addReturn(at: number): void {
    // Answers come in time order, so this is nearly always an append; no full sort per release.
    let i = this.returnsAt.length;
    while (i > 0 && this.returnsAt[i - 1]! > at) i--;
    this.returnsAt.splice(i, 0, at);
  }

  /** Tokens usable at `now` (spent tokens whose period has passed are dropped). */
  available(now: number): number {
    while (this.returnsAt.length > 0 && this.returnsAt[0]! <= now) this.returnsAt.shift();
    return this.limit.count - this.inFlight - this.returnsAt.length;
  }
}

export interface RateLimiterOptions {
  /** Time and timers; tests pass a ManualClock to run on virtual time. Default: the system clock. */
  clock?: Clock;
  /** Extra ms added to each period against millisecond rounding at either end. */
  marginMs?: number;
  limits?: Partial<Record<EndpointName, RateLimit>>;
}

export class RateLimiter {
  private readonly clock: Clock;
  private readonly marginMs: number;
  private readonly limits: Record<EndpointName, RateLimit>;
  private readonly buckets = new Map<string, Bucket>();
  /** Back-off after a 429 (per key) or 418 (everything), until this time. */
  private readonly pausedUntil = new Map<string, number>();
  private bannedUntil = 0;
  private timer: TimerHandle | undefined = undefined;
  private timerAt = Infinity;
  private closed = false;

  constructor(options: RateLimiterOptions = {}) {
    this.clock = options.clock ?? new SystemClock();
    this.marginMs = options.marginMs ?? 20;
    this.limits = { ...ENDPOINT_LIMITS, ...options.limits };
  }

  /**
   * Waits for a token of `endpoint` under `key` ('ip' for NONE endpoints). Resolves with the
   * function that gives the token back once the exchange has answered.
   */
  acquire(endpoint: EndpointName, key: string): Promise<ReleaseToken> {
    if (this.closed) return Promise.reject(new Error('The rate limiter is closed'));
    const bucket = this.bucket(endpoint, key);
    return new Promise<ReleaseToken>((resolve) => {
      bucket.queue.push({ grant: resolve });
      this.drain();
    });
  }

  /** After a 429: nothing for this key is sent for `ms` (the exchange puts the key in back-off). */
  pauseKey(key: string, ms: number): void {
    const until = this.clock.now() + ms;
    this.pausedUntil.set(key, Math.max(this.pausedUntil.get(key) ?? 0, until));
    this.drain();
  }

  /** After a 418 the IP is banned: nothing is sent at all until it ends. */
  pauseAll(ms: number): void {
    this.bannedUntil = Math.max(this.bannedUntil, this.clock.now() + ms);
    this.drain();
  }

  /** How long a call to `endpoint` under `key` would wait in the queue if made now. */
  queueWaitMs(endpoint: EndpointName, key: string): number {
    const now = this.clock.now();
    const bucket = this.bucket(endpoint, key);
    const paused = Math.max(0, this.blockedUntil(key) - now);
    const free = bucket.available(now);
    const position = bucket.queue.length;
    if (position < free) return paused;
    // Tokens come back one period after each answer; in-flight ones are assumed answered now.
    const period = bucket.limit.periodMs + this.marginMs;
    const returns = [
      ...bucket.returnsAt,
      ...Array.from({ length: bucket.inFlight }, () => now + period),
    ].sort((a, b) => a - b);
    const beyond = position - Math.max(0, free);
    const round = Math.floor(beyond / bucket.limit.count);
    const index = beyond % bucket.limit.count;
    const base = returns[index] ?? now;
    return Math.max(paused, base + round * period - now);
  }

  /** The longest queue wait over every endpoint and key in use (for the status bar). */
  maxQueueWaitMs(): number {
    let worst = 0;
    for (const [id, bucket] of this.buckets) {
      if (bucket.queue.length === 0) continue;
      const [endpoint, key] = splitBucketId(id);
      worst = Math.max(worst, this.queueWaitMs(endpoint, key));
    }
    return worst;
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private bucket(endpoint: EndpointName, key: string): Bucket {
    const id = `${endpoint}\u0000${key}`;
    let bucket = this.buckets.get(id);
    if (!bucket) {
      bucket = new Bucket(this.limits[endpoint], key);
      this.buckets.set(id, bucket);
    }
    return bucket;
  }

  private blockedUntil(key: string): number {
    return Math.max(this.bannedUntil, this.pausedUntil.get(key) ?? 0);
  }

  /** Grants every waiter that may go now, then arms one timer for the earliest next chance. */
  private drain(): void {
    if (this.closed) return;
    const now = this.clock.now();
    let nextAt = Infinity;
    for (const bucket of this.buckets.values()) {
      if (bucket.queue.length === 0) continue;
      const blocked = this.blockedUntil(bucket.key);
      if (blocked > now) {
        nextAt = Math.min(nextAt, blocked);
        continue;
      }
      while (bucket.queue.length > 0 && bucket.available(now) > 0) {
        const waiter = bucket.queue.shift()!;
        bucket.inFlight++;
        waiter.grant(this.releaseFor(bucket));
      }
      if (bucket.queue.length > 0 && bucket.returnsAt.length > 0) {
        nextAt = Math.min(nextAt, bucket.returnsAt[0]!);
      }
    }
    this.arm(nextAt);
  }

  private releaseFor(bucket: Bucket): ReleaseToken {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      bucket.inFlight--;
      bucket.addReturn(this.clock.now() + bucket.limit.periodMs + this.marginMs);
      this.drain();
    };
  }

  private arm(at: number): void {
    if (at === Infinity) return;
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.drain();
      },
      Math.max(0, at - this.clock.now()),
    );
  }
}

function splitBucketId(id: string): [EndpointName, string] {
  const at = id.indexOf('\u0000');
  return [id.slice(0, at) as EndpointName, id.slice(at + 1)];
}

/**
 * The rate limiters of every exchange the app talks to, one per origin. The exchange counts per
 * key (and per IP), not per client, so every client of one exchange must pace through the same
 * limiter: a key verified while its profile's client runs, or a profile switched away from and
 * back, would otherwise each start with full buckets and together send more than the exchange
 * allows (a 429, then a 418 ban). Built once where the app's services are built (app.ts) and
 * handed to whatever makes clients; no module keeps one of its own.
 */
export class ExchangeLimiters {
  private readonly byOrigin = new Map<string, RateLimiter>();

  constructor(private readonly options: RateLimiterOptions = {}) {}

  /** The limiter of the exchange at `baseUrl` (by its origin), made at its first use. */
  for(baseUrl: string): RateLimiter {
    const origin = new URL(baseUrl).origin;
    let limiter = this.byOrigin.get(origin);
    if (!limiter) {
      limiter = new RateLimiter(this.options);
      this.byOrigin.set(origin, limiter);
    }
    return limiter;
  }

  /** Stops every limiter's timer; a call that waits for a token after this is refused. */
  close(): void {
    for (const limiter of this.byOrigin.values()) limiter.close();
  }
}
