/**
 * Prices of the time for the ledger: the price of one asset in another at any moment, through a
 * direct market, its inverse or one bridge asset (as today's valuation finds them), from the
 * closes of finished 12-hour candles (fetched once and kept) and, for the present, the last
 * trade price of the 24-hour tickers.
 *
 * At a time T the price is the close of the last candle finished by T (the last price known
 * then); before the first candle kept, the first close; where a pair has no candle at all,
 * today's price (the path exists, its history could not be read).
 */
import { Decimal } from '../../shared/exact-decimal';
import type { KlineInterval } from '../../shared/market';
import { KLINE_INTERVAL_MS } from '../../shared/market';
import type { ExchangeClient } from '../exchange';
import type { Store } from '../store';
import { PriceBook, priceAlong, type PriceTicker } from '../pricing/price-book';
import { priceTickers } from '../sync/valuation';
import { storePort } from '../sync/store-port';
import type { PriceAt } from './cost-basis';

/** The ledger's candles; the value history's shorter ranges keep finer ones of their own. */
export const LEDGER_INTERVAL: KlineInterval = '12h';
const INTERVAL_MS = KLINE_INTERVAL_MS[LEDGER_INTERVAL];
const PAGE = 1000;

interface Series {
  /** Close times (open + interval), ascending. */
  times: number[];
  closes: Decimal[];
}

export class MarketPrices {
  private readonly book: PriceBook;
  private readonly last = new Map<string, Decimal>();
  private readonly series = new Map<string, Series>();
  /** Paths found per "asset/quote", so a hot loop does not search again. */
  private readonly paths = new Map<string, ReturnType<PriceBook['path']>>();

  constructor(
    tickers: readonly PriceTicker[],
    closes: Map<string, { openTime: number; close: string }[]>,
    /** From this time on, today's prices. */
    private readonly presentFrom: number,
    /** The candles' length: a close is known at open time + this. */
    intervalMs = INTERVAL_MS,
  ) {
    this.book = new PriceBook(tickers);
    for (const ticker of tickers) this.last.set(ticker.symbol, new Decimal(ticker.lastPrice));
    for (const [symbol, rows] of closes) {
      const sorted = [...rows].sort((a, b) => a.openTime - b.openTime);
      this.series.set(symbol, {
        times: sorted.map((row) => row.openTime + intervalMs),
        closes: sorted.map((row) => new Decimal(row.close)),
      });
    }
  }

  /** The market symbols that price `asset` in `quote`; null without a path. */
  path(asset: string, quote: string): { symbol: string; inverse: boolean }[] | null {
    const key = `${asset}/${quote}`;
    if (!this.paths.has(key)) this.paths.set(key, this.book.path(quote, asset));
    return this.paths.get(key) ?? null;
  }

  /** Today's price (last trade), or null without a path. */
  current(asset: string, quote: string): Decimal | null {
    return this.book.price(quote, asset);
  }

  /** The price 24 hours ago (the tickers' open), or null without a path. */
  open(asset: string, quote: string): Decimal | null {
    return this.book.price(quote, asset, 'openPrice');
  }

  readonly priceAt: PriceAt = (asset, quote, time) => {
    if (asset === quote) return new Decimal(1);
    if (time >= this.presentFrom) return this.current(asset, quote);
    const hops = this.path(asset, quote);
    if (!hops) return null;
    return priceAlong(
      hops,
      (symbol) => this.closeAt(symbol, time) ?? this.last.get(symbol) ?? null,
    );
  };

  private closeAt(symbol: string, time: number): Decimal | null {
    const series = this.series.get(symbol);
    if (!series || series.times.length === 0) return null;
    // The last close at or before `time` (binary search); before the first, the first.
    let low = 0;
    let high = series.times.length - 1;
    if (series.times[0]! > time) return series.closes[0]!;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (series.times[middle]! <= time) low = middle;
      else high = middle - 1;
    }
    return series.closes[low]!;
  }

  /** The symbols on the price path of each asset to the quote. */
  pathSymbols(assets: Iterable<string>, quote: string): string[] {
    const symbols = new Set<string>();
    for (const asset of assets) {
      if (asset === quote) continue;
      for (const hop of this.path(asset, quote) ?? []) symbols.add(hop.symbol);
    }
    return [...symbols].sort();
  }
}

/** Today's tickers of the profile, with each symbol's base and quote. */
export function tickersOf(
  store: Store,
  profileId: string,
  assets: Iterable<string>,
): PriceTicker[] {
  return priceTickers(storePort(store), profileId, assets);
}

/** The kept closes of each symbol (no network). */
export function keptCloses(
  store: Store,
  profileId: string,
  symbols: readonly string[],
  interval: KlineInterval = LEDGER_INTERVAL,
): Map<string, { openTime: number; close: string }[]> {
  const port = storePort(store);
  return new Map(
    symbols.map((symbol) => [
      symbol,
      port.klineCloses(profileId, { symbol, interval }, 0, Number.MAX_SAFE_INTEGER).closes,
    ]),
  );
}

/**
 * Fetches the finished candles of each symbol from `from` on that are not kept yet (1,000 a call,
 * at the client's pace) and keeps them. Offline or refused, the closes kept so far serve.
 */
export async function fetchCloses(
  store: Store,
  client: Pick<ExchangeClient, 'market'>,
  profileId: string,
  symbols: readonly string[],
  from: number,
  now: number,
  interval: KlineInterval = LEDGER_INTERVAL,
): Promise<void> {
  const port = storePort(store);
  const intervalMs = KLINE_INTERVAL_MS[interval];
  const start = Math.floor(from / intervalMs) * intervalMs - intervalMs;
  const lastFinished = Math.floor(now / intervalMs) * intervalMs - intervalMs;
  for (const symbol of symbols) {
    const series = { symbol, interval };
    const kept = port.klineCloses(profileId, series, 0, Number.MAX_SAFE_INTEGER);
    const covered = kept.covered;
    if (covered && covered.from <= start && covered.to >= lastFinished) continue;
    const fetchFrom = covered && covered.from <= start ? covered.to + 1 : start;
    const closes = [...kept.closes];
    try {
      for (let next = fetchFrom; next <= lastFinished;) {
        const klines = await client.market.klines({
          symbol,
          interval,
          startTime: next,
          endTime: lastFinished,
          limit: PAGE,
        });
        const page = klines
          .map((k) => ({ openTime: Number(k[0]), close: String(k[4]) }))
          .filter((c) => c.openTime >= next && c.openTime <= lastFinished);
        closes.push(...page);
        if (page.length < PAGE) break;
        next = Math.max(...page.map((c) => c.openTime)) + 1;
      }
    } catch {
      continue;
    }
    const unique = new Map(closes.map((c) => [c.openTime, c]));
    port.putKlineCloses(
      profileId,
      series,
      [...unique.values()],
      { from: Math.min(start, covered?.from ?? start), to: lastFinished },
      now,
    );
  }
}
