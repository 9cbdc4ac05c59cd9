/**
 * Public market data through the active profile's client (tickers also refresh the cached prices
 * the valuation uses).
 *
 * When the exchange cannot be reached, the last answers are served from the cache instead (the
 * tickers from the prices table, the symbols, candles and book from what was last fetched), each
 * with the time it was fetched, so the screens show cached data with its age rather than nothing.
 */
import type { DepthView, KlineView, SymbolView, TickerView } from '../../shared/types';
import type { Clock } from '../core/clock';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { ExchangeClient } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import type { InputOf } from '../exchange/inputs';
import type { KlineInterval, Ticker } from '../exchange/wire';
import type { Store } from '../store';
import type { JsonValue } from '../store/types';
import { PriceBook } from '../sync/pricing';
import { storePort } from '../sync/store-port';
import { toDepthView, toKlineView, toSymbolView, toTickerView } from './views';

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

const cacheKeys = {
  symbols: 'market.symbols',
  klines: (symbol: string, interval: string) => `market.klines.${symbol}.${interval}`,
  depth: (symbol: string) => `market.depth.${symbol}`,
};

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
    return { ...ticker, quoteVolumeValue: price ? formatDecimal(volume.mul(price), 8) : null };
  });
}

/** The tickers as the cache last saw them (REST or the ticker stream), each with its time. */
function cachedTickers(store: Store, profileId: string): TickerView[] {
  const assets = new Map(
    storePort(store)
      .symbolAssets(profileId)
      .map((s) => [s.symbol, s]),
  );
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

/** The profile whose market data is asked for, and the client that asks for it. */
export interface MarketSession {
  readonly profile: { readonly id: string };
  readonly client: ExchangeClient;
}

export interface MarketCacheDeps {
  store: Store;
  emit: Emit;
  log: Logger;
  clock: Clock;
}

export class MarketCache {
  constructor(private readonly deps: MarketCacheDeps) {}

  symbols({ profile, client }: MarketSession): Promise<SymbolView[]> {
    return this.orCached(profile.id, cacheKeys.symbols, async () => {
      const info = await client.general.exchangeInfo();
      return info.symbols.map(toSymbolView);
    });
  }

  /** Every ticker, with its quote volume in `quoteAsset`; a fresh read also refreshes prices. */
  async tickers({ profile, client }: MarketSession, quoteAsset: string): Promise<TickerView[]> {
    const { store, emit, clock } = this.deps;
    try {
      const tickers = await client.market.tickers();
      // With each market's assets, which price paths, texts and the offline copy need.
      storePort(store).replaceTickers(profile.id, tickers, clock.now());
      emit('data.changed', { profileId: profile.id, kinds: ['prices'] });
      return withQuoteVolumeValues(tickers.map(toTickerView), quoteAsset);
    } catch (error) {
      const last = unreachable(error) ? cachedTickers(store, profile.id) : [];
      if (last.length === 0) throw error;
      return withQuoteVolumeValues(last, quoteAsset);
    }
  }

  async klines(
    { profile, client }: MarketSession,
    query: { symbol: string; interval: KlineInterval; limit: number },
  ): Promise<KlineView[]> {
    const key = cacheKeys.klines(query.symbol, query.interval);
    const candles = await this.orCached<KlineView[]>(profile.id, key, async () => {
      const klines = await client.market.klines(query);
      return klines.map(toKlineView);
    });
    return candles.slice(-query.limit);
  }

  async depth(
    { profile, client }: MarketSession,
    { symbol, limit }: { symbol: string; limit: NonNullable<InputOf<'depth'>['limit']> },
  ): Promise<DepthView> {
    const book = await this.orCached<DepthView>(profile.id, cacheKeys.depth(symbol), async () =>
      toDepthView(symbol, await client.market.depth({ symbol, limit })),
    );
    return { ...book, bids: book.bids.slice(0, limit), asks: book.asks.slice(0, limit) };
  }

  private cached<T>(profileId: string, key: string): T | null {
    const row = this.deps.store.syncState.get<JsonValue>(profileId, key);
    return row ? (row.cursor as unknown as T) : null;
  }

  private remember(profileId: string, key: string, value: unknown): void {
    try {
      this.deps.store.syncState.set(profileId, key, value as JsonValue, this.deps.clock.now());
    } catch (error) {
      // The answer is on its way to the screen either way; only the offline copy is missing.
      this.deps.log.warn(
        `could not cache ${key}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * The exchange's answer, remembered under `key`; when the exchange cannot be reached, the last
   * answer remembered (if there is one) instead of the error.
   */
  private async orCached<T>(profileId: string, key: string, fetch: () => Promise<T>): Promise<T> {
    try {
      const fresh = await fetch();
      this.remember(profileId, key, fresh);
      return fresh;
    } catch (error) {
      const last = unreachable(error) ? this.cached<T>(profileId, key) : null;
      if (last === null) throw error;
      return last;
    }
  }
}
