/**
 * Public market data through the active profile's client (tickers also refresh the cached prices
 * the valuation uses).
 *
 * When the exchange cannot be reached, the last answers are served from the cache instead (the
 * tickers from the prices table, the symbols, candles, book and recent trades from what was last
 * fetched), each
 * with the time it was fetched, so the screens show cached data with its age rather than nothing.
 * Those are kept as the exchange sent them (parsed by the wire schemas) among the store's exchange
 * answers, and checked by the same schemas when read back: a copy of another shape is no copy.
 */
import { z } from 'zod';
import type {
  DepthView,
  KlineView,
  PublicTradeView,
  SymbolView,
  TickerView,
} from '../../shared/types';
import type { Clock } from '../core/clock';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { ExchangeClient } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import type { InputOf } from '../exchange/inputs';
import {
  klineListSchema,
  orderBookSchema,
  publicTradeListSchema,
  symbolInfoSchema,
  type KlineInterval,
  type Ticker,
} from '../exchange/wire';
import type { AnswerKind, Store } from '../store';
import { PriceBook } from '../pricing/price-book';
import type { RestOutcomes } from '../sync/engine';
import type { SyncStorePort } from '../sync/port';
import { storePort } from '../sync/store-port';
import { toDepthView, toKlineView, toPublicTradeView, toSymbolView, toTickerView } from './views';

/** Failures after which the cached answer is worth showing: the exchange did not answer. */
const UNREACHABLE: ReadonlySet<ExchangeError['kind']> = new Set([
  'network',
  'server',
  'rate-limited',
  'banned',
  'unknown-outcome',
]);

function unreachable(error: unknown): boolean {
  return error instanceof ExchangeError && UNREACHABLE.has(error.kind);
}

/** A failure that is the exchange's answer (it has an HTTP status) or the exchange not answering. */
function reachedOrNot(error: unknown): boolean {
  return (
    error instanceof ExchangeError &&
    (error.status !== undefined || error.kind === 'network' || error.kind === 'unknown-outcome')
  );
}

/** A read of the exchange whose outcome, answered or not, the session's REST status hears of. */
async function reported<T>(sync: RestOutcomes, read: () => Promise<T>): Promise<T> {
  let answer: T;
  try {
    answer = await read();
  } catch (error) {
    // A refusal of the client's own checks was never sent: it says nothing about the exchange.
    if (reachedOrNot(error)) sync.restFailed(error);
    throw error;
  }
  sync.restAnswered();
  return answer;
}

/** The answers kept for the market screens; a version is raised whenever a shape changes. */
const ANSWERS = {
  symbols: { name: 'market.symbols', version: 1, schema: z.array(symbolInfoSchema) },
  /** Kept per `${symbol}.${interval}`. */
  klines: { name: 'market.klines', version: 1, schema: klineListSchema },
  /** Kept per symbol. */
  depth: { name: 'market.depth', version: 1, schema: orderBookSchema },
  /** Kept per symbol: the market's recent trades, each with its own time. */
  trades: { name: 'market.trades', version: 1, schema: publicTradeListSchema },
} as const satisfies Record<string, AnswerKind<unknown>>;

/** Each ticker's quote volume in the user's quote asset, so markets of different quotes compare. */
export function withQuoteVolumeValues(tickers: TickerView[], quoteAsset: string): TickerView[] {
  const book = new PriceBook(
    tickers.map((t) => ({
      symbol: t.symbol,
      baseAsset: t.baseAsset,
      quoteAsset: t.quoteAsset,
      lastPrice: t.lastPrice,
      openPrice: t.openPrice,
    })),
  );
  return tickers.map((ticker) => {
    const price = book.price(quoteAsset, ticker.quoteAsset);
    const volume = parseDecimal(ticker.quoteVolume, `${ticker.symbol} quote volume`);
    return { ...ticker, quoteVolumeValue: price ? formatDecimal(volume.times(price)) : null };
  });
}

/** The tickers as the cache last saw them (REST or the ticker stream), each with its time. */
function cachedTickers(store: Store, port: SyncStorePort, profileId: string): TickerView[] {
  const assets = new Map(port.symbolAssets(profileId).map((s) => [s.symbol, s]));
  const views: TickerView[] = [];
  for (const row of store.prices.list(profileId)) {
    const pair = assets.get(row.symbol);
    if (!pair) continue;
    const ticker: Ticker = {
      symbol: row.symbol,
      baseAsset: pair.baseAsset,
      quoteAsset: pair.quoteAsset,
      lastPrice: row.last,
      openPrice: row.open,
      highPrice: row.high,
      lowPrice: row.low,
      volume: row.volume,
      bidPrice: row.bid,
      askPrice: row.ask,
      at: row.at,
    };
    views.push(toTickerView(ticker));
  }
  return views;
}

/**
 * The profile whose market data is asked for, the client that asks for it, and the session's
 * REST status (sync's), which each read's outcome feeds: a market screen read over REST while
 * the stream is down says as much about the exchange as a sync job does.
 */
export interface MarketSession {
  readonly profile: { readonly id: string };
  readonly client: ExchangeClient;
  readonly sync: RestOutcomes;
}

export interface MarketCacheDeps {
  store: Store;
  /** Sync's port onto the store, built once in app.ts. Default: one onto `store`. */
  port?: SyncStorePort;
  emit: Emit;
  log: Logger;
  clock: Clock;
}

export class MarketCache {
  private readonly port: SyncStorePort;

  constructor(private readonly deps: MarketCacheDeps) {
    this.port = deps.port ?? storePort(deps.store);
  }

  symbols({ profile, client, sync }: MarketSession): Promise<SymbolView[]> {
    return this.orCached(
      { profile, sync },
      ANSWERS.symbols,
      '',
      async () => (await client.general.exchangeInfo()).symbols,
      (symbols) => symbols.map(toSymbolView),
    );
  }

  /** Every ticker, with its quote volume in `quoteAsset`; a fresh read also refreshes prices. */
  async tickers(
    { profile, client, sync }: MarketSession,
    quoteAsset: string,
  ): Promise<TickerView[]> {
    const { store, emit, clock } = this.deps;
    try {
      const tickers = await reported(sync, () => client.market.tickers({ takeKept: true }));
      // With each market's assets, which price paths, texts and the offline copy need.
      this.port.replaceTickers(profile.id, tickers, clock.now());
      // Other answers valued at these prices are stale; this one is the new prices themselves.
      emit('data.changed', {
        profileId: profile.id,
        kinds: ['prices'],
        answered: 'market.tickers',
      });
      return withQuoteVolumeValues(tickers.map(toTickerView), quoteAsset);
    } catch (error) {
      const last = unreachable(error) ? cachedTickers(store, this.port, profile.id) : [];
      if (last.length === 0) throw error;
      return withQuoteVolumeValues(last, quoteAsset);
    }
  }

  async klines(
    { profile, client, sync }: MarketSession,
    query: { symbol: string; interval: KlineInterval; limit: number },
  ): Promise<KlineView[]> {
    const candles = await this.orCached(
      { profile, sync },
      ANSWERS.klines,
      `${query.symbol}.${query.interval}`,
      () => client.market.klines(query),
      (klines): KlineView[] => klines.map(toKlineView),
    );
    return candles.slice(-query.limit);
  }

  async depth(
    { profile, client, sync }: MarketSession,
    { symbol, limit }: { symbol: string; limit: NonNullable<InputOf<'depth'>['limit']> },
  ): Promise<DepthView> {
    const book: DepthView = await this.orCached(
      { profile, sync },
      ANSWERS.depth,
      symbol,
      () => client.market.depth({ symbol, limit }),
      (answer) => toDepthView(symbol, answer),
    );
    return { ...book, bids: book.bids.slice(0, limit), asks: book.asks.slice(0, limit) };
  }

  async trades(
    { profile, client, sync }: MarketSession,
    { symbol, limit }: { symbol: string; limit: NonNullable<InputOf<'trades'>['limit']> },
  ): Promise<PublicTradeView[]> {
    const trades = await this.orCached(
      { profile, sync },
      ANSWERS.trades,
      symbol,
      () => client.market.trades({ symbol, limit }),
      (answer) => answer.map(toPublicTradeView),
    );
    return trades.slice(-limit);
  }

  private remember<W>(profileId: string, kind: AnswerKind<W>, key: string, answer: W): void {
    try {
      this.deps.store.answers.put(profileId, kind, answer, this.deps.clock.now(), key);
    } catch (error) {
      // The answer is on its way to the screen either way; only the offline copy is missing.
      this.deps.log.warn(
        `could not cache ${kind.name} ${key}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * The exchange's answer as `view` shows it, kept under `key`; when the exchange cannot be
   * reached, the last answer kept (if there is one, of this version and shape) instead of the
   * error.
   */
  private async orCached<W, V>(
    { profile, sync }: Pick<MarketSession, 'profile' | 'sync'>,
    kind: AnswerKind<W>,
    key: string,
    fetch: () => Promise<W>,
    view: (answer: W) => V,
  ): Promise<V> {
    const profileId = profile.id;
    try {
      const fresh = await reported(sync, fetch);
      this.remember(profileId, kind, key, fresh);
      return view(fresh);
    } catch (error) {
      const last = unreachable(error) ? this.deps.store.answers.get(profileId, kind, key) : null;
      if (last === null) throw error;
      return view(last.answer);
    }
  }
}
