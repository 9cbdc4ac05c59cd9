/**
 * market.*: public market data through the active profile's client (tickers also refresh the
 * cached prices the valuation uses), and the live trades/depth of the symbol on screen.
 *
 * When the exchange cannot be reached, the last answers are served from the cache instead (the
 * tickers from the prices table, the symbols, candles and book from what was last fetched), each
 * with the time it was fetched, so the screens show cached data with its age rather than nothing.
 */
import type { DepthView, KlineView, SymbolView, TickerView } from '../../shared/types';
import { ExchangeError } from '../exchange/errors';
import type { Ticker } from '../exchange/wire';
import type { JsonValue } from '../store/types';
import { PriceBook } from '../sync/pricing';
import { storePort } from '../sync/store-port';
import type { ApiContext, HandlerGroup } from './context';
import { formatDecimal, parseDecimal } from '../core/decimal';
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
function cachedTickers(ctx: ApiContext, profileId: string): TickerView[] {
  const assets = new Map(
    storePort(ctx.store)
      .symbolAssets(profileId)
      .map((s) => [s.symbol, s]),
  );
  const views: TickerView[] = [];
  for (const row of ctx.store.prices.list(profileId)) {
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

function cached<T>(ctx: ApiContext, profileId: string, key: string): T | null {
  const row = ctx.store.syncState.get<JsonValue>(profileId, key);
  return row ? (row.cursor as unknown as T) : null;
}

function remember(ctx: ApiContext, profileId: string, key: string, value: unknown): void {
  try {
    ctx.store.syncState.set(profileId, key, value as JsonValue, ctx.now());
  } catch (error) {
    // The answer is on its way to the screen either way; only the offline copy is missing.
    ctx.log.warn(
      `could not cache ${key}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The exchange's answer, remembered under `key`; when the exchange cannot be reached, the last
 * answer remembered (if there is one) instead of the error.
 */
async function orCached<T>(
  ctx: ApiContext,
  profileId: string,
  key: string,
  fetch: () => Promise<T>,
): Promise<T> {
  try {
    const fresh = await fetch();
    remember(ctx, profileId, key, fresh);
    return fresh;
  } catch (error) {
    const last = unreachable(error) ? cached<T>(ctx, profileId, key) : null;
    if (last === null) throw error;
    return last;
  }
}

export function marketHandlers(ctx: ApiContext) {
  return {
    'market.symbols': async () => {
      const { profile, client } = ctx.session.require();
      return orCached<SymbolView[]>(ctx, profile.id, cacheKeys.symbols, async () => {
        const info = await client.general.exchangeInfo();
        return info.symbols.map(toSymbolView);
      });
    },
    'market.tickers': async () => {
      const { profile, client } = ctx.session.require();
      const quoteAsset = ctx.settings().quoteAsset;
      try {
        const tickers = await client.market.tickers();
        // With each market's assets, which price paths, texts and the offline copy need.
        storePort(ctx.store).replaceTickers(profile.id, tickers, ctx.now());
        ctx.emit('data.changed', { profileId: profile.id, kinds: ['prices'] });
        return withQuoteVolumeValues(tickers.map(toTickerView), quoteAsset);
      } catch (error) {
        const last = unreachable(error) ? cachedTickers(ctx, profile.id) : [];
        if (last.length === 0) throw error;
        return withQuoteVolumeValues(last, quoteAsset);
      }
    },
    'market.klines': async ({ symbol, interval, limit }) => {
      const { profile, client } = ctx.session.require();
      const key = cacheKeys.klines(symbol, interval);
      const candles = await orCached<KlineView[]>(ctx, profile.id, key, async () => {
        const klines = await client.market.klines({ symbol, interval, limit });
        return klines.map(toKlineView);
      });
      return candles.slice(-limit);
    },
    'market.depth': async ({ symbol, limit }) => {
      const { profile, client } = ctx.session.require();
      const book = await orCached<DepthView>(ctx, profile.id, cacheKeys.depth(symbol), async () =>
        toDepthView(symbol, await client.market.depth({ symbol, limit })),
      );
      return { ...book, bids: book.bids.slice(0, limit), asks: book.asks.slice(0, limit) };
    },
    'market.trades': async ({ symbol, limit }) => {
      const trades = await ctx.session.require().client.market.trades({ symbol, limit });
      return trades.map(toPublicTradeView);
    },
    'market.watch': async ({ symbol }) => {
      const { profile } = ctx.session.require();
      await ctx.market.watch(profile.streamUrl, symbol);
      return { symbol };
    },
    'market.unwatch': async () => {
      await ctx.market.unwatch();
      return { symbol: null };
    },
  } satisfies HandlerGroup<'market'>;
}
