/**
 * The alerts of the active profile, evaluated as values arrive: prices from the all-market ticker
 * stream (and, after a gap, candles read over REST), free balances from the private stream and
 * the funds sync keeps, the portfolio's value, withdrawal statuses. Each alert keeps the side of
 * its line it last saw and fires only when that side changes to the one it waits for (rules.ts).
 * A firing is written to the record before it is told, with the side and the time of the price
 * that made it, so a restart never tells it twice; sides seen since are written every half
 * minute and at close, and what a crash loses of them the next start's re-read sees again.
 *
 * The price path is the hot one: one map lookup per ticker, an exact comparison of decimal text
 * per alert of that market, and nothing written unless an alert fires.
 */
import { formatDecimal } from '../core/decimal';
import type { Clock } from '../core/clock';
import type { Logger } from '../core/logger';
import { assetKey, WITHDRAW_STATUS_CODES } from '../../shared/market';
import { MOVE_WINDOW_MS } from '../../shared/alerts';
import { MinutePrices } from './price-history';
import type { AlertObservation, AlertRecord, AlertSide, AlertsRepository } from '../store';
import {
  changePercent,
  lineSide,
  moveSide,
  rangeReaches,
  targetSide,
  verdict,
  type FiringState,
} from './rules';
import {
  lineMessage,
  moveMessage,
  withdrawalMessage,
  type AlertMessage,
  type MarketAssets,
} from './texts';

/** A fired alert, as the session tells it (notification, toast, Activity). */
export interface AlertFiring {
  alert: AlertRecord;
  message: AlertMessage;
  at: number;
}

export interface AlertEngineDeps {
  repository: AlertsRepository;
  profileId: string;
  clock: Clock;
  log: Logger;
  /** Called once per firing, after the firing is in the record. */
  onFire: (firing: AlertFiring) => void;
  marketAssets?: MarketAssets;
}

/** A ticker as the evaluation needs it (the stream's key letters). */
export interface PriceTick {
  /** Symbol. */
  s: string;
  /** Last price. */
  c: string;
  /** Open of the 24-hour window. */
  o: string;
  /** Event time. */
  E: number;
}

/** A candle read over REST to cover a gap: [open time, open, high, low, close, ...]. */
export type GapCandle = readonly [number, string, string, string, string, ...unknown[]];

/** Withdrawals a withdrawal alert remembers, by creation time (older ones no longer change). */
export const WITHDRAWAL_MEMORY_MS = 30 * 86_400_000;

/** 1-hour moves need the prices of the last hour, and a little more. */
const MINUTE_HISTORY_MS = MOVE_WINDOW_MS['1h'];

const MINUTE_MS = 60_000;

interface LiveAlert {
  record: AlertRecord;
  firing: FiringState;
  /** Its value or time changed since it was last written. */
  dirty: boolean;
}

interface MarketWatchers {
  /** Time of the newest price evaluated: an older one (a REST answer overtaken) is ignored. */
  lastAt: number;
  lastPrice: string | null;
  /** The open of the 24-hour window that came with the last price (null from a trade). */
  lastOpen24h: string | null;
  alerts: LiveAlert[];
  minutes: MinutePrices | null;
}

export class AlertEngine {
  private readonly alerts = new Map<number, LiveAlert>();
  private readonly markets = new Map<string, MarketWatchers>();
  private readonly balances = new Map<string, LiveAlert[]>();
  private portfolioAlerts: LiveAlert[] = [];
  private withdrawalAlerts: LiveAlert[] = [];
  private readonly assets: MarketAssets;

  constructor(private readonly deps: AlertEngineDeps) {
    this.assets = deps.marketAssets ?? (() => undefined);
  }

  /** Reads every alert of the profile from the record (at start). */
  reload(): void {
    this.flush();
    // What the markets' prices were stays known: a new alert starts from it at once.
    const kept = new Map(this.markets);
    this.alerts.clear();
    this.markets.clear();
    this.balances.clear();
    this.portfolioAlerts = [];
    this.withdrawalAlerts = [];
    for (const record of this.deps.repository.list(this.deps.profileId)) {
      if (record.paused || record.state.spent) continue;
      this.watch({ record, firing: firingOf(record), dirty: false }, kept);
    }
    for (const watchers of this.markets.values()) this.seeLastPrice(watchers, watchers.alerts);
  }

  /**
   * Takes one alert's change from the record (created, edited, paused, resumed or removed)
   * without reading every alert again: a change costs the same beside 1,000 alerts as alone.
   */
  applyChange(id: number): void {
    const previous = this.alerts.get(id);
    // The record already holds what the user changed; what this copy saw since its last write
    // is of the alert as it was, and is not written over it.
    if (previous) this.unwatch(previous);
    const record = this.deps.repository.get(this.deps.profileId, id);
    if (!record || record.paused || record.state.spent) return;
    const live: LiveAlert = { record, firing: firingOf(record), dirty: false };
    this.watch(live, this.markets);
    if (record.kind === 'price' || record.kind === 'price-move') {
      this.seeLastPrice(this.markets.get(record.symbol)!, [live]);
    }
  }

  /** Puts an alert where the values it waits for arrive; `kept` has what markets knew before. */
  private watch(live: LiveAlert, kept: ReadonlyMap<string, MarketWatchers>): void {
    const record = live.record;
    this.alerts.set(record.id, live);
    switch (record.kind) {
      case 'price':
      case 'price-move': {
        let watchers = this.markets.get(record.symbol);
        if (!watchers) {
          const before = kept.get(record.symbol);
          watchers = {
            lastAt: before?.lastAt ?? -Infinity,
            lastPrice: before?.lastPrice ?? null,
            lastOpen24h: before?.lastOpen24h ?? null,
            alerts: [],
            minutes: null,
          };
          this.markets.set(record.symbol, watchers);
        }
        watchers.alerts.push(live);
        if (record.kind === 'price-move' && record.window === '1h') {
          watchers.minutes ??=
            kept.get(record.symbol)?.minutes ?? new MinutePrices(MINUTE_HISTORY_MS);
        }
        break;
      }
      case 'balance': {
        const key = assetKey(record.asset);
        const list = this.balances.get(key) ?? [];
        list.push(live);
        this.balances.set(key, list);
        break;
      }
      case 'portfolio':
        this.portfolioAlerts.push(live);
        break;
      case 'withdrawal':
        this.withdrawalAlerts.push(live);
        break;
    }
  }

  /** Takes an alert out of the evaluation; a market left without alerts is no longer watched. */
  private unwatch(live: LiveAlert): void {
    this.retire(live);
    const record = live.record;
    if (record.kind !== 'price' && record.kind !== 'price-move') return;
    const watchers = this.markets.get(record.symbol);
    if (!watchers) return;
    if (watchers.alerts.length === 0) this.markets.delete(record.symbol);
    else if (
      !watchers.alerts.some(
        (other) => other.record.kind === 'price-move' && other.record.window === '1h',
      )
    ) {
      watchers.minutes = null;
    }
  }

  /** A new or edited alert sees the market's last price now, so the next price can cross. */
  private seeLastPrice(watchers: MarketWatchers, alerts: readonly LiveAlert[]): void {
    if (watchers.lastPrice === null) return;
    const fresh = alerts.filter((live) => live.firing.lastSide === null);
    if (fresh.length === 0) return;
    this.evaluate(
      watchers,
      fresh,
      watchers.lastPrice,
      watchers.lastOpen24h,
      watchers.lastAt,
      false,
    );
  }

  /** Markets with an active price alert: what the streams and the gap re-read must cover. */
  watchedSymbols(): string[] {
    return [...this.markets.keys()];
  }

  /** Markets whose 1-hour move alerts need the last hour's prices. */
  symbolsNeedingMinutes(): string[] {
    return [...this.markets].filter(([, w]) => w.minutes !== null).map(([symbol]) => symbol);
  }

  /** The market's last price the alerts were evaluated against in this run, if any. */
  lastPrice(symbol: string): string | null {
    return this.markets.get(symbol)?.lastPrice ?? null;
  }

  /** Whether a price of the market has been evaluated in this run. */
  knowsPrice(symbol: string): boolean {
    return (this.markets.get(symbol)?.lastAt ?? -Infinity) > -Infinity;
  }

  /** The oldest time a market's alerts last saw a price (where a gap re-read starts). */
  lastSeen(symbol: string): number | null {
    const watchers = this.markets.get(symbol);
    if (!watchers) return null;
    if (watchers.lastAt > -Infinity) return watchers.lastAt;
    let oldest: number | null = null;
    for (const live of watchers.alerts) {
      const seen = live.record.lastSeenAt;
      if (seen !== null && (oldest === null || seen < oldest)) oldest = seen;
    }
    return oldest;
  }

  balanceAssets(): string[] {
    return [...this.balances.keys()];
  }

  portfolioQuotes(): string[] {
    const quotes = new Set<string>();
    for (const { record } of this.portfolioAlerts) {
      if (record.kind === 'portfolio') quotes.add(assetKey(record.asset));
    }
    return [...quotes];
  }

  hasWithdrawalAlerts(): boolean {
    return this.withdrawalAlerts.length > 0;
  }

  /** Whether a withdrawal alert waits on a withdrawal that is still pending. */
  watchesPendingWithdrawal(): boolean {
    return this.withdrawalAlerts.some(({ record }) =>
      Object.values(record.state.withdrawals ?? {}).some(
        (status) => status === WITHDRAW_STATUS_CODES.pending,
      ),
    );
  }

  get activeCount(): number {
    return this.alerts.size;
  }

  // ---- Prices ----------------------------------------------------------------------------------

  /** One message of the all-market ticker stream. */
  observeTickers(tickers: readonly PriceTick[]): void {
    for (let i = 0; i < tickers.length; i++) {
      const tick = tickers[i]!;
      const watchers = this.markets.get(tick.s);
      if (watchers !== undefined) this.observePrice(watchers, tick.c, tick.o, tick.E, false);
    }
  }

  /** One price of one market (a REST ticker read after a gap, or a test). */
  observeTicker(tick: PriceTick): void {
    const watchers = this.markets.get(tick.s);
    if (watchers) this.observePrice(watchers, tick.c, tick.o, tick.E, false);
  }

  /**
   * 1-minute candles of the last hour (and the last one before it, the price the hour started
   * from when the market was quiet), so a 1-hour move alert measures from its first minute. The
   * market's latest price is then measured at once: a move that already happened is seen now,
   * not at the next trade.
   */
  seedMinutes(symbol: string, candles: readonly GapCandle[]): void {
    const watchers = this.markets.get(symbol);
    const minutes = watchers?.minutes;
    if (!watchers || !minutes) return;
    let newest: GapCandle | undefined;
    for (const candle of candles) {
      minutes.recordCandle(candle[0], candle[4]);
      if (newest === undefined || candle[0] > newest[0]) newest = candle;
    }
    const now = this.deps.clock.now();
    const price =
      newest !== undefined && watchers.lastAt < Math.min(newest[0] + MINUTE_MS - 1, now)
        ? newest[4]
        : watchers.lastPrice;
    if (price === null) return;
    const hourly = watchers.alerts.filter(
      (live) => live.record.kind === 'price-move' && live.record.window === '1h',
    );
    this.observeMoves(watchers, hourly, price, null, now);
  }

  /**
   * The market's trades over a time the stream was away, oldest first: each one a price seen at
   * its time, so a crossing in between fires (once) though the price may be back now.
   */
  observeGapTrades(
    symbol: string,
    trades: readonly { price: string; time: number }[],
    from: number,
  ): void {
    const watchers = this.markets.get(symbol);
    if (!watchers) return;
    for (const trade of trades) {
      if (trade.time <= from) continue;
      this.observePrice(watchers, trade.price, null, trade.time, true);
    }
  }

  /**
   * Candles covering a time the stream was away (a reconnect, or the app closed): a line alert
   * whose line lies within a candle's range crossed it then, even if the price is back now. It
   * fires once however many candles crossed; the price after the gap sets the side it ends on.
   * The candle that began before `from` also holds prices the alert saw: only its close counts.
   */
  observeGap(
    symbol: string,
    candles: readonly GapCandle[],
    intervalMs: number,
    from: number,
  ): void {
    const watchers = this.markets.get(symbol);
    if (!watchers || candles.length === 0) return;
    const now = this.deps.clock.now();
    const fresh = candles.filter((c) => c[0] + intervalMs > Math.max(from, watchers.lastAt));
    if (fresh.length === 0) return;
    for (const live of watchers.alerts) {
      const record = live.record;
      if (record.kind !== 'price' || live.firing.lastSide === null) continue;
      let side: AlertSide = live.firing.lastSide;
      let reached: string | null = null;
      for (const candle of fresh) {
        const [openTime, , high, low, close] = candle;
        if (
          openTime >= from &&
          side !== live.firing.target &&
          rangeReaches(record.direction, low, high, record.threshold)
        ) {
          reached ??= record.direction === 'above' ? high : low;
        }
        side = lineSide(record.direction, close, record.threshold);
      }
      const last = fresh[fresh.length - 1]!;
      const seenAt = Math.min(last[0] + intervalMs - 1, now);
      if (reached !== null) {
        const state = { ...live.firing, lastSide: oppositeOf(live.firing.target) };
        if (verdict(state, live.firing.target, now) === 'fire') {
          this.fire(live, side, last[4], seenAt, lineMessage(record, reached, this.assets, true));
          continue;
        }
      }
      this.see(live, side, last[4], seenAt);
    }
    for (const candle of fresh) {
      const close = candle[4];
      const at = Math.min(candle[0] + intervalMs - 1, now);
      watchers.minutes?.record(at, close);
      if (intervalMs === MINUTE_MS) this.observeMoves(watchers, watchers.alerts, close, null, at);
    }
    const last = fresh[fresh.length - 1]!;
    watchers.lastAt = Math.max(watchers.lastAt, Math.min(last[0] + intervalMs - 1, now));
    watchers.lastPrice = last[4];
  }

  private observePrice(
    watchers: MarketWatchers,
    price: string,
    open24h: string | null,
    at: number,
    missedWhileAway: boolean,
  ): void {
    if (at < watchers.lastAt) return;
    watchers.lastAt = at;
    watchers.lastPrice = price;
    watchers.lastOpen24h = open24h;
    watchers.minutes?.record(at, price);
    this.evaluate(watchers, watchers.alerts, price, open24h, at, missedWhileAway);
  }

  /** A market's price against the given alerts of it. */
  private evaluate(
    watchers: MarketWatchers,
    alerts: readonly LiveAlert[],
    price: string,
    open24h: string | null,
    at: number,
    missedWhileAway: boolean,
  ): void {
    for (let i = 0; i < alerts.length; i++) {
      const live = alerts[i]!;
      const record = live.record;
      if (record.kind === 'price') {
        const side = lineSide(record.direction, price, record.threshold);
        this.decide(live, side, price, at, () =>
          lineMessage(record, price, this.assets, missedWhileAway),
        );
      }
    }
    this.observeMoves(watchers, alerts, price, open24h, at);
  }

  private observeMoves(
    watchers: MarketWatchers,
    alerts: readonly LiveAlert[],
    price: string,
    open24h: string | null,
    at: number,
  ): void {
    for (const live of alerts) {
      const record = live.record;
      if (record.kind !== 'price-move') continue;
      const reference =
        record.window === '24h'
          ? open24h
          : (watchers.minutes?.priceBefore(at, MOVE_WINDOW_MS['1h']) ?? null);
      if (reference === null) continue;
      const change = changePercent(price, reference);
      if (change === null) continue;
      const side = moveSide(record.direction, change, record.threshold);
      const changeText = formatDecimal(change, 2);
      const message = () => moveMessage(record, changeText, price, this.assets);
      // A move is measured over its window, not from when the alert was made: one already
      // beyond at the first sight has happened, and is told (a line's first sight only sets
      // the side the alert was made on).
      if (live.firing.lastSide === null && side === live.firing.target) {
        this.fire(live, side, changeText, at, message());
        continue;
      }
      this.decide(live, side, changeText, at, message);
    }
  }

  // ---- Balances and value ----------------------------------------------------------------------

  /** Free balances (the private stream, or a full read of the account). */
  observeBalances(balances: readonly { asset: string; free: string }[], at: number): void {
    for (const balance of balances) {
      const alerts = this.balances.get(assetKey(balance.asset));
      if (!alerts) continue;
      for (const live of alerts) {
        const record = live.record;
        if (record.kind !== 'balance') continue;
        if (record.lastSeenAt !== null && at < record.lastSeenAt) continue;
        const side = lineSide(record.direction, balance.free, record.threshold);
        this.decide(live, side, balance.free, at, () =>
          lineMessage(record, balance.free, this.assets, false),
        );
      }
    }
  }

  /**
   * Assets the account no longer lists hold nothing: a free balance that went to zero may simply
   * disappear from a full read.
   */
  observeMissingBalances(listed: ReadonlySet<string>, at: number): void {
    const missing = [...this.balances.keys()].filter((asset) => !listed.has(asset));
    this.observeBalances(
      missing.map((asset) => ({ asset, free: '0' })),
      at,
    );
  }

  /** The portfolio's total value in a quote asset. */
  observePortfolio(quoteAsset: string, value: string, at: number): void {
    for (const live of this.portfolioAlerts) {
      const record = live.record;
      if (record.kind !== 'portfolio' || assetKey(record.asset) !== assetKey(quoteAsset)) continue;
      if (record.lastSeenAt !== null && at < record.lastSeenAt) continue;
      const side = lineSide(record.direction, value, record.threshold);
      this.decide(live, side, value, at, () => lineMessage(record, value, this.assets, false));
    }
  }

  // ---- Withdrawals -----------------------------------------------------------------------------

  /**
   * The withdrawals the cache holds now (created in the last WITHDRAWAL_MEMORY_MS). A status that
   * differs from the one last seen fires; so does a withdrawal first seen already settled after
   * the alert was made (its pending step happened while nobody looked). The first look of a new
   * alert only remembers.
   */
  observeWithdrawals(
    rows: readonly {
      id: string;
      coin: string;
      amount: string;
      status: number;
      createdAt: number;
    }[],
    at: number,
  ): void {
    const now = this.deps.clock.now();
    for (const live of this.withdrawalAlerts) {
      const record = live.record;
      if (record.kind !== 'withdrawal') continue;
      const known = record.state.withdrawals;
      const next: Record<string, number> = {};
      const changes: { row: (typeof rows)[number]; previous: number | undefined }[] = [];
      for (const row of rows) {
        if (record.asset !== null && assetKey(row.coin) !== assetKey(record.asset)) continue;
        if (row.createdAt < now - WITHDRAWAL_MEMORY_MS) continue;
        next[row.id] = row.status;
        if (known === undefined) continue;
        const previous = known[row.id];
        if (previous === undefined) {
          const settled = row.status !== WITHDRAW_STATUS_CODES.pending;
          if (settled && row.createdAt >= record.updatedAt) changes.push({ row, previous });
        } else if (previous !== row.status) {
          changes.push({ row, previous });
        }
      }
      // Remembered withdrawals the read left out (older than its window) stay remembered.
      for (const [id, status] of Object.entries(known ?? {})) if (!(id in next)) next[id] = status;
      const state = { ...record.state, withdrawals: next };
      if (changes.length === 0) {
        if (known === undefined || Object.keys(next).length !== Object.keys(known).length) {
          record.state = state;
          this.persist(live, record.lastSide, record.lastValue, at);
        }
        continue;
      }
      record.state = state;
      for (const change of changes) {
        const message = withdrawalMessage(change.row, change.previous);
        if (live.firing.spent) break;
        this.fireNow(live, null, null, at, message);
      }
    }
  }

  // ---- Recording -------------------------------------------------------------------------------

  /** Writes the values seen since the last write (a restart's gap re-read starts from them). */
  flush(): void {
    const dirty = [...this.alerts.values()].filter((live) => live.dirty);
    if (dirty.length === 0) return;
    try {
      this.deps.repository.transaction(() => {
        for (const live of dirty) {
          this.deps.repository.observe(live.record.id, observationOf(live.record));
          live.dirty = false;
        }
      });
    } catch (error) {
      this.deps.log.error('alerts: could not record what was seen', error);
    }
  }

  private decide(
    live: LiveAlert,
    side: AlertSide,
    value: string,
    at: number,
    message: () => AlertMessage,
  ): void {
    const now = this.deps.clock.now();
    const outcome = verdict(live.firing, side, now);
    if (outcome === 'fire') this.fire(live, side, value, at, message());
    else this.see(live, side, value, at);
  }

  /**
   * Notes a value. A balance, value or status side is written at once when it changes; a price
   * side waits for the next flush: prices can be read again (the re-read at the next start
   * replays every trade since the side was last written), balances cannot.
   */
  private see(live: LiveAlert, side: AlertSide, value: string, at: number): void {
    const record = live.record;
    record.lastValue = value;
    record.lastSeenAt = at;
    const changed = side !== live.firing.lastSide;
    live.firing.lastSide = side;
    record.lastSide = side;
    if (changed && record.kind !== 'price' && record.kind !== 'price-move') {
      this.persist(live, side, value, at);
    } else {
      live.dirty = true;
    }
  }

  private persist(live: LiveAlert, side: AlertSide | null, value: string | null, at: number): void {
    const record = live.record;
    record.lastSide = side;
    record.lastValue = value;
    record.lastSeenAt = at;
    try {
      this.deps.repository.observe(record.id, observationOf(record));
      live.dirty = false;
    } catch (error) {
      live.dirty = true;
      this.deps.log.error(`alerts: could not record alert ${record.id}`, error);
    }
  }

  private fire(
    live: LiveAlert,
    side: AlertSide,
    value: string,
    at: number,
    message: AlertMessage,
  ): void {
    live.firing.lastSide = side;
    this.fireNow(live, side, value, at, message);
  }

  private fireNow(
    live: LiveAlert,
    side: AlertSide | null,
    value: string | null,
    at: number,
    message: AlertMessage,
  ): void {
    const record = live.record;
    const now = this.deps.clock.now();
    record.lastSide = side;
    record.lastValue = value;
    record.lastSeenAt = at;
    record.lastFiredAt = now;
    record.firedCount += 1;
    live.firing.lastFiredAt = now;
    if (!record.repeat) {
      record.state = { ...record.state, spent: true };
      live.firing.spent = true;
    }
    try {
      this.deps.repository.fired(record.id, now, observationOf(record));
      live.dirty = false;
    } catch (error) {
      this.deps.log.error(`alerts: could not record that alert ${record.id} fired`, error);
    }
    if (live.firing.spent) this.retire(live);
    try {
      this.deps.onFire({ alert: { ...record }, message, at: now });
    } catch (error) {
      this.deps.log.error(`alerts: could not tell that alert ${record.id} fired`, error);
    }
  }

  /** A spent one-shot alert leaves the evaluation until it is resumed or edited. */
  private retire(live: LiveAlert): void {
    const record = live.record;
    this.alerts.delete(record.id);
    if (record.kind === 'price' || record.kind === 'price-move') {
      const watchers = this.markets.get(record.symbol);
      if (watchers) watchers.alerts = watchers.alerts.filter((other) => other !== live);
    } else if (record.kind === 'balance') {
      const key = assetKey(record.asset);
      const list = (this.balances.get(key) ?? []).filter((other) => other !== live);
      if (list.length > 0) this.balances.set(key, list);
      else this.balances.delete(key);
    } else if (record.kind === 'portfolio') {
      this.portfolioAlerts = this.portfolioAlerts.filter((other) => other !== live);
    } else {
      this.withdrawalAlerts = this.withdrawalAlerts.filter((other) => other !== live);
    }
  }
}

function firingOf(record: AlertRecord): FiringState {
  return {
    target: record.kind === 'withdrawal' ? 'beyond' : targetSide(record.direction),
    lastSide: record.lastSide,
    repeat: record.repeat,
    cooldownMs: record.cooldownMinutes * MINUTE_MS,
    lastFiredAt: record.lastFiredAt,
    spent: record.state.spent === true,
  };
}

function observationOf(record: AlertRecord): AlertObservation {
  return {
    lastSide: record.lastSide,
    lastValue: record.lastValue,
    lastSeenAt: record.lastSeenAt,
    state: record.state,
  };
}

function oppositeOf(side: AlertSide): AlertSide {
  switch (side) {
    case 'above':
      return 'below';
    case 'below':
      return 'above';
    case 'beyond':
      return 'within';
    case 'within':
      return 'beyond';
  }
}
