/**
 * The alerts of the active profile, kept running in the main process whether or not a window is
 * open: the engine fed by
 * - the all-market ticker stream (`!ticker@arr`), opened only while a price or portfolio alert
 *   needs prices; nothing is polled that this stream gives;
 * - what the private stream and sync tell the app (the session hands every event it emits to
 *   observe()): live balances, re-read funds, withdrawals;
 * - REST, for the time the stream was away: at start (since each market was last seen, even days
 *   before) and after every reconnect, the candles of that time are read and a line crossed in
 *   them fires once, though the price may be back now. Ticks that arrive while the candles are
 *   being read wait, so the evaluation sees every price in time order.
 * A firing is recorded as a notification (Activity), shown as a toast and, when the settings let
 * alerts through, as a desktop notification without amounts in privacy mode.
 */
import { inBackground } from '../core/background';
import { Decimal } from '../../shared/exact-decimal';
import { KLINE_INTERVAL_MS, KLINE_INTERVALS, type KlineInterval } from '../../shared/market';
import type { EventName, EventPayloads } from '../../shared/contract';
import type { ConnectionState, Settings } from '../../shared/types';
import type { Clock, TimerHandle } from '../core/clock';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { Notifier } from '../core/notifier';
import { DEFAULT_TIMINGS } from '../core/timings';
import type { ExchangeClient } from '../exchange/client';
import type { SharedStream, StreamUser } from '../exchange/shared-stream';
import type { TickerEvent } from '../exchange/wire';
import { notify, type NotifyDeps } from '../live/notify';
import type { AlertsRepository, Store } from '../store';
import { PriceBook, type PriceTicker } from '../pricing/price-book';
import { priceTickers } from '../sync/valuation';
import type { SyncStorePort } from '../sync/port';
import { storePort } from '../sync/store-port';
import {
  AlertEngine,
  WITHDRAWAL_MEMORY_MS,
  type AlertFiring,
  type GapCandle,
  type PriceTick,
} from './engine';
import type { MarketAssets } from './texts';

export const ALL_TICKERS_STREAM = '!ticker@arr';

/** Values seen are written at least this often (where a restart's re-read starts). */
const FLUSH_EVERY_MS = 30_000;
/** The portfolio's value is worked out at most this often while prices stream in. */
const PORTFOLIO_EVERY_MS = 250;
/** A gap re-read reads at most this many candles per market (the interface's page size). */
const GAP_CANDLES = 1000;
/** The trades read to cover a gap (the interface's largest page). */
const GAP_TRADES = 1000;
/** A balance moved outside trading: the withdraw history is read this long after. */
const WITHDRAWAL_HINT_MS = 2000;
const MINUTE_MS = 60_000;

export interface AlertSessionDeps {
  store: Store;
  /** Sync's port onto the store, built once in app.ts. Default: one onto `store`. */
  port?: SyncStorePort;
  profileId: string;
  /**
   * The profile's one stream client, shared with the live session and the market watch; the
   * alerts hold the ticker stream on it while they need prices.
   */
  streams: SharedStream;
  client: Pick<ExchangeClient, 'market'>;
  emit: Emit;
  clock: Clock;
  log: Logger;
  settings: () => Settings;
  notifier?: Notifier | undefined;
  /** Called with each firing after it is recorded and told (tests, benches). */
  onFired?: (firing: AlertFiring) => void;
  /**
   * Reads the withdraw history again. No stream carries withdrawals: while a withdrawal alert
   * waits on a pending one, and after a balance moved outside trading (a withdrawal taking its
   * funds), the history is read sooner than sync's own schedule would.
   */
  refreshWithdrawals?: () => Promise<void>;
  /** How often a pending withdrawal is read while an alert waits on it. Default: 30 s. */
  withdrawalWatchMs?: number;
}

export class AlertSession {
  readonly repository: AlertsRepository;
  readonly engine: AlertEngine;
  private readonly notifyDeps: NotifyDeps;
  private readonly stream: StreamUser;
  private closed = false;
  private flushTimer: TimerHandle | undefined;
  private portfolioTimer: TimerHandle | undefined;
  private withdrawalTimer: { handle: TimerHandle; at: number } | undefined;
  /** While set, the stream was away: ticks wait here (the latest per market) for the re-read. */
  private gap: { from: Map<string, number>; held: Map<string, PriceTick> } | null = null;
  private catchUp: Promise<void> = Promise.resolve();
  /** The latest ticker of each market from the stream, for the portfolio's value. */
  private readonly livePrices = new Map<string, PriceTicker>();

  private readonly port: SyncStorePort;

  constructor(private readonly deps: AlertSessionDeps) {
    this.repository = deps.store.alerts;
    this.port = deps.port ?? storePort(deps.store);
    this.notifyDeps = {
      store: deps.store,
      profileId: deps.profileId,
      emit: deps.emit,
      settings: deps.settings,
      now: () => deps.clock.now(),
      log: deps.log,
      notifier: deps.notifier,
    };
    this.engine = new AlertEngine({
      repository: this.repository,
      profileId: deps.profileId,
      clock: deps.clock,
      log: deps.log,
      onFire: (firing) => this.tell(firing),
      marketAssets: this.marketAssets,
    });
    this.stream = deps.streams.user('alerts');
    this.stream.on('tickers', (tickers) => this.onTickers(tickers));
    this.stream.on('state', (state) => this.onStreamState(state));
    this.stream.on('reconnected', () => {
      if (!this.closed)
        inBackground(
          this.closeGapAfterReading(this.engine.symbolsNeedingMinutes()),
          'alerts: reading the candles missed while reconnecting',
          this.deps.log.error,
        );
    });
  }

  /** Loads the alerts, reads what was missed since they last saw a price, and starts the stream. */
  start(): Promise<void> {
    this.engine.reload();
    this.scheduleFlush();
    this.observeStoredFunds();
    this.observeStoredWithdrawals();
    return this.follow(null);
  }

  /** The user created, edited, paused or deleted the alert `id`. */
  changed(id: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.engine.applyChange(id);
    this.observeStoredFunds();
    this.observeStoredWithdrawals();
    // A new portfolio alert starts from the value now, so the next price can cross (an open
    // ticker stream sends only what changes: waiting for it would make its first sight the
    // crossing itself).
    this.evaluatePortfolio();
    // Only the changed alert's market may need a re-read: one the stream already prices gave the
    // alert its last price at once, and the others' alerts saw nothing change.
    const record = this.repository.get(this.deps.profileId, id);
    const market =
      record && (record.kind === 'price' || record.kind === 'price-move') && !record.paused
        ? record.symbol
        : null;
    return this.follow({
      gapSymbols: market !== null && !this.engine.knowsPrice(market) ? [market] : [],
      minuteSymbols:
        market !== null && record?.kind === 'price-move' && record.window === '1h' ? [market] : [],
    });
  }

  /** Waits for the re-read in progress (tests). */
  settled(): Promise<void> {
    return this.catchUp;
  }

  /** Every event the profile's session emits passes here first. */
  observe<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    if (this.closed) return;
    try {
      if (event === 'live.batch') {
        const batch = payload as EventPayloads['live.batch'];
        if (batch.balances.length === 0) return;
        for (const balance of batch.balances) {
          this.engine.observeBalances([balance], balance.time);
        }
        this.schedulePortfolio();
        if (batch.orders.length === 0 && batch.trades.length === 0) {
          this.scheduleWithdrawalRead(WITHDRAWAL_HINT_MS);
        }
      } else if (event === 'data.changed') {
        const { kinds } = payload as EventPayloads['data.changed'];
        if (kinds.includes('funds')) {
          this.observeStoredFunds();
          this.schedulePortfolio();
        } else if (kinds.includes('prices') || kinds.includes('portfolio')) {
          this.schedulePortfolio();
        }
        if (kinds.includes('withdrawals')) this.observeStoredWithdrawals();
      }
    } catch (error) {
      this.deps.log.error(`alerts: could not evaluate a ${event} event`, error);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.deps.clock.clearTimeout(this.flushTimer);
    this.deps.clock.clearTimeout(this.portfolioTimer);
    this.deps.clock.clearTimeout(this.withdrawalTimer?.handle);
    this.engine.flush();
    await this.stream.release();
  }

  // ---- The ticker stream and its gaps ----------------------------------------------------------

  /**
   * Opens or closes the ticker stream as the alerts need it, re-reading what was missed: at start
   * (`only` null) for every watched market, after a change for the markets `only` names.
   */
  private follow(only: { gapSymbols: string[]; minuteSymbols: string[] } | null): Promise<void> {
    const symbols = this.engine.watchedSymbols();
    const needsPrices = symbols.length > 0 || this.engine.portfolioQuotes().length > 0;
    if (!needsPrices) {
      this.gap = null;
      return this.stream.unsubscribe([ALL_TICKERS_STREAM]);
    }
    const watched = new Set(symbols);
    const needingMinutes = new Set(this.engine.symbolsNeedingMinutes());
    // The time since each market was last seen.
    const from = new Map<string, number>();
    for (const symbol of only ? only.gapSymbols.filter((s) => watched.has(s)) : symbols) {
      const seen = this.engine.lastSeen(symbol);
      if (seen !== null) from.set(symbol, seen);
    }
    const minutes = only
      ? only.minuteSymbols.filter((s) => needingMinutes.has(s))
      : [...needingMinutes];
    if (from.size > 0 || minutes.length > 0 || only === null) this.openGap(from);
    if (!this.stream.holds(ALL_TICKERS_STREAM)) {
      this.stream.subscribe([ALL_TICKERS_STREAM]).catch((error: unknown) => {
        if (!this.closed) {
          this.deps.log.error('alerts: the ticker stream could not subscribe', error);
        }
      });
    }
    return this.closeGapAfterReading(minutes);
  }

  private onStreamState(state: ConnectionState): void {
    if (this.closed || state === 'live' || state === 'connecting') return;
    // The stream is away: from here on, ticks wait for the re-read of the time it was gone.
    const from = new Map<string, number>();
    for (const symbol of this.engine.watchedSymbols()) {
      const seen = this.engine.lastSeen(symbol);
      if (seen !== null) from.set(symbol, seen);
    }
    this.openGap(from);
  }

  private openGap(from: Map<string, number>): void {
    if (this.gap) {
      for (const [symbol, at] of from) {
        const known = this.gap.from.get(symbol);
        if (known === undefined || at < known) this.gap.from.set(symbol, at);
      }
      return;
    }
    this.gap = { from, held: new Map() };
  }

  /** The stream's messages: evaluated at once, or held while a gap is being re-read. */
  onTickers(tickers: readonly TickerEvent[]): void {
    if (this.closed) return;
    if (this.gap) {
      for (const tick of tickers) this.gap.held.set(tick.s, tick);
    } else {
      this.engine.observeTickers(tickers);
    }
    if (this.engine.portfolioQuotes().length > 0) {
      for (const tick of tickers) {
        this.livePrices.set(tick.s, {
          symbol: tick.s,
          baseAsset: tick.u.toLowerCase(),
          quoteAsset: tick.U.toLowerCase(),
          lastPrice: tick.c,
          openPrice: tick.o,
        });
      }
      this.schedulePortfolio();
    }
  }

  /** Reads the candles of the open gap and the last hour for 1-hour moves, then lets ticks through. */
  private closeGapAfterReading(minuteSymbols: string[]): Promise<void> {
    const run = async () => {
      const gap = this.gap;
      if (!gap) return;
      const now = this.deps.clock.now();
      const reads: Promise<void>[] = [];
      for (const symbol of minuteSymbols) {
        reads.push(this.lastHour(symbol, now).then((c) => this.engine.seedMinutes(symbol, c)));
      }
      await Promise.all(
        reads.map((read) => read.catch((error: unknown) => this.readFailed(error))),
      );
      for (const [symbol, from] of gap.from) {
        if (this.closed) return;
        try {
          // The market's recent trades, when they reach back to the gap's start: every price.
          const trades = await this.deps.client.market.trades({ symbol, limit: GAP_TRADES });
          trades.sort((a, b) => a.time - b.time || a.id - b.id);
          if (trades.length < GAP_TRADES || (trades[0] && trades[0].time <= from)) {
            this.engine.observeGapTrades(symbol, trades, from);
            continue;
          }
          // Too many trades since: candles, whose ranges still show a line crossed.
          const interval = intervalFor(now - from);
          const candles = await this.candles(symbol, interval, from, now);
          this.engine.observeGap(symbol, candles, KLINE_INTERVAL_MS[interval], from);
        } catch (error) {
          this.readFailed(error);
        }
      }
      if (this.gap !== gap || this.closed) return;
      this.gap = null;
      this.engine.observeTickers([...gap.held.values()]);
      this.engine.flush();
    };
    this.catchUp = this.catchUp.then(run, run);
    return this.catchUp;
  }

  /**
   * The 1-minute candles of the last hour and a little more. A minute without trades has no
   * candle, so when none is as old as the hour's start (a quiet market), the last candle before
   * it is read too: its close is the price the hour started from.
   */
  private async lastHour(symbol: string, now: number): Promise<GapCandle[]> {
    const from = now - KLINE_INTERVAL_MS['1h'] - 2 * MINUTE_MS;
    const recent = await this.candles(symbol, '1m', from, now);
    const first = recent[0];
    if (first !== undefined && first[0] <= from + MINUTE_MS) return recent;
    const before = await this.deps.client.market.klines({
      symbol,
      interval: '1m',
      endTime: Math.max(0, Math.floor(from) - 1),
      limit: 1,
    });
    return [...before, ...recent];
  }

  private async candles(symbol: string, interval: KlineInterval, from: number, to: number) {
    return this.deps.client.market.klines({
      symbol,
      interval,
      startTime: Math.max(0, Math.floor(from)),
      endTime: Math.floor(to),
      limit: GAP_CANDLES,
    });
  }

  private readFailed(error: unknown): void {
    if (!this.closed) {
      this.deps.log.warn(`alerts: could not re-read prices over REST: ${String(error)}`);
    }
  }

  // ---- Balances, value, withdrawals ------------------------------------------------------------

  private observeStoredFunds(): void {
    const assets = this.engine.balanceAssets();
    if (assets.length === 0) return;
    const { rows } = this.deps.store.funds.list(this.deps.profileId);
    for (const row of rows) this.engine.observeBalances([row], row.updatedAt);
    if (rows.length > 0) {
      const newest = Math.max(...rows.map((row) => row.updatedAt));
      this.engine.observeMissingBalances(
        new Set(rows.map((row) => row.asset.toLowerCase())),
        newest,
      );
    }
  }

  private observeStoredWithdrawals(): void {
    if (!this.engine.hasWithdrawalAlerts()) return;
    const now = this.deps.clock.now();
    const { rows } = this.deps.store.withdraws.page(this.deps.profileId, {
      from: now - WITHDRAWAL_MEMORY_MS,
      limit: 1000,
    });
    this.engine.observeWithdrawals(rows, now);
    if (this.engine.watchesPendingWithdrawal())
      this.scheduleWithdrawalRead(this.deps.withdrawalWatchMs ?? DEFAULT_TIMINGS.withdrawalWatchMs);
  }

  /** Reads the withdraw history after `ms` (or sooner, if a read is due earlier already). */
  private scheduleWithdrawalRead(ms: number): void {
    const refresh = this.deps.refreshWithdrawals;
    if (!refresh || this.closed || !this.engine.hasWithdrawalAlerts()) return;
    const at = this.deps.clock.now() + ms;
    if (this.withdrawalTimer && this.withdrawalTimer.at <= at) return;
    this.deps.clock.clearTimeout(this.withdrawalTimer?.handle);
    const handle = this.deps.clock.setTimeout(() => {
      this.withdrawalTimer = undefined;
      if (this.closed) return;
      refresh().catch((error: unknown) => {
        if (!this.closed)
          this.deps.log.warn(`alerts: could not read withdrawals: ${String(error)}`);
      });
    }, ms);
    this.withdrawalTimer = { handle, at };
  }

  private schedulePortfolio(): void {
    if (this.portfolioTimer || this.closed || this.engine.portfolioQuotes().length === 0) return;
    this.portfolioTimer = this.deps.clock.setTimeout(() => {
      this.portfolioTimer = undefined;
      this.evaluatePortfolio();
    }, PORTFOLIO_EVERY_MS);
  }

  /** The value of every fund at the latest prices (the stream's over the cached ones). */
  evaluatePortfolio(): void {
    const quotes = this.engine.portfolioQuotes();
    if (quotes.length === 0 || this.closed) return;
    try {
      const { profileId, store } = this.deps;
      const { rows } = store.funds.list(profileId);
      const tickers = new Map<string, PriceTicker>();
      for (const ticker of priceTickers(this.port, profileId, [
        ...quotes,
        ...rows.map((r) => r.asset),
      ])) {
        tickers.set(ticker.symbol, ticker);
      }
      for (const [symbol, ticker] of this.livePrices) tickers.set(symbol, ticker);
      const book = new PriceBook(tickers.values());
      const at = this.deps.clock.now();
      for (const quote of quotes) {
        let total = new Decimal(0);
        let priced = false;
        for (const row of rows) {
          const amount = parseDecimal(row.free, `${row.asset} free`).plus(row.locked);
          if (amount.isZero()) continue;
          const price = book.price(quote, row.asset);
          if (!price) continue;
          total = total.plus(amount.times(price));
          priced = true;
        }
        // Exact, as the Portfolio total: the screen rounds it to the quote's precision.
        if (priced) this.engine.observePortfolio(quote, formatDecimal(total), at);
      }
    } catch (error) {
      this.deps.log.error("alerts: could not work out the portfolio's value", error);
    }
  }

  // ---- Telling ---------------------------------------------------------------------------------

  private tell(firing: AlertFiring): void {
    notify(this.notifyDeps, 'alert', firing.message.title, firing.message.body, {
      group: `alert:${firing.alert.id}`,
    });
    this.deps.emit('data.changed', { profileId: this.deps.profileId, kinds: ['alerts'] });
    this.deps.onFired?.(firing);
  }

  private readonly marketAssets: MarketAssets = (symbol) =>
    this.port.symbolAssets(this.deps.profileId).find((s) => s.symbol === symbol);

  private scheduleFlush(): void {
    this.flushTimer = this.deps.clock.setTimeout(() => {
      this.engine.flush();
      if (!this.closed) this.scheduleFlush();
    }, FLUSH_EVERY_MS);
  }
}

/** The shortest candle interval that covers `spanMs` in one page. */
export function intervalFor(spanMs: number): KlineInterval {
  for (const interval of KLINE_INTERVALS) {
    if (spanMs / KLINE_INTERVAL_MS[interval] <= GAP_CANDLES) return interval;
  }
  return '1w';
}
