/**
 * Prices of the time for the ledger: the price of one asset in another at any moment, through a
 * direct market, its inverse or one bridge asset (as today's valuation finds them), from the
 * closes of finished 12-hour candles (fetched once and kept) and, for the present, the last
 * trade price of the 24-hour tickers.
 *
 * At a time T the price is the close of the last candle finished by T (the last price known
 * then); before the first candle kept, the first close; where a pair has no candle at all,
 * today's price (the path exists, its history could not be read).
 *
 * An entry's own time is priced finer (`entryPriceAt`): the close of the last 1-minute candle
 * finished by T, asked of the exchange for the entries' times only (`fetchEntryPrices`); where
 * the exchange has no 1-minute candle by T (none kept that far back, or no trade since it does),
 * the last 15-minute one, then hourly, then 4-hourly, and only then the 12-hour candles. An entry
 * of the present (a fill a moment ago) is priced so too; until its candle is fetched, at today's
 * price (and the ledger says it waits for it).
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

/** The candles an entry's time is priced at, finest first; the ledger's 12-hour ones after them. */
export const ENTRY_INTERVALS: readonly KlineInterval[] = ['1m', '15m', '1h', '4h'];
/** The most candles one klines call returns (the interface's bound). */
const KLINES_LIMIT = 2000;
/**
 * The fewest candles asked for at once: a market that trades rarely then answers many entries'
 * times in one call (its 200 last candles reach far back), one that trades every minute costs
 * 200 candles around an entry.
 */
const KLINES_AT_LEAST = 200;

/** Candles of one interval kept for entries' times, and the spans of open times known whole. */
export interface EntryLevel {
  intervalMs: number;
  /** Open times, ascending, and their closes. */
  opens: number[];
  closes: Decimal[];
  /** [from, to] of open times whose candles are all kept, ascending and apart. */
  spans: [number, number][];
}

/** Per symbol, its levels finest first (ENTRY_INTERVALS' order). */
export type EntryCandles = Map<string, EntryLevel[]>;

/** What the candles of one level say of time T: a close, none by T at all, or not known. */
type LevelAnswer = Decimal | 'none' | 'unknown';

function levelAnswer(level: EntryLevel, time: number): LevelAnswer {
  // A candle opening at `open` has finished by T when open + length <= T.
  const last = time - level.intervalMs;
  const span = spanAt(level.spans, last);
  if (!span) return 'unknown';
  const index = lastAtOrBefore(level.opens, last);
  if (index >= 0 && level.opens[index]! >= span[0]) return level.closes[index]!;
  return span[0] === 0 ? 'none' : 'unknown';
}

function spanAt(spans: readonly [number, number][], time: number): [number, number] | null {
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [from, to] = spans[middle]!;
    if (time < from) high = middle - 1;
    else if (time > to) low = middle + 1;
    else return spans[middle]!;
  }
  return null;
}

/** The index of the last value at or before `time` in an ascending list; -1 when none. */
function lastAtOrBefore(values: readonly number[], time: number): number {
  let low = 0;
  let high = values.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (values[middle]! <= time) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Spans merged: ascending, overlapping or touching ones joined. */
export function mergeSpans(spans: readonly [number, number][]): [number, number][] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

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
    /** Finer candles for entries' own times (entryPriceAt). */
    private readonly entryCandles: EntryCandles = new Map(),
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

  /**
   * The price at an entry's own time: as priceAt, with each market's price the close of the
   * finest candle finished by then that the exchange gave for it (see the file's comment).
   */
  readonly entryPriceAt: PriceAt = (asset, quote, time) => {
    if (asset === quote) return new Decimal(1);
    const hops = this.path(asset, quote);
    if (!hops) return null;
    // In the present too: the last 1-minute candle finished by then is final at once, today's
    // price (until it is fetched) would change.
    const present = time >= this.presentFrom;
    return priceAlong(
      hops,
      (symbol) =>
        this.entryCloseAt(symbol, time) ??
        (present ? null : this.closeAt(symbol, time)) ??
        this.last.get(symbol) ??
        null,
    );
  };

  /** Whether the finer candles answer for `symbol` at `time` (a close, or none by then at all). */
  entryAnswered(symbol: string, time: number): boolean {
    const levels = this.entryCandles.get(symbol);
    if (!levels) return false;
    for (const level of levels) {
      const answer = levelAnswer(level, time);
      if (answer === 'unknown') return false;
      if (answer !== 'none') return true;
    }
    return true;
  }

  private entryCloseAt(symbol: string, time: number): Decimal | null {
    for (const level of this.entryCandles.get(symbol) ?? []) {
      const answer = levelAnswer(level, time);
      if (answer === 'unknown') return null;
      if (answer !== 'none') return answer;
    }
    return null;
  }

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

  /** The symbols on the price path of `asset` in `quote`. */
  symbolsOf(asset: string, quote: string): string[] {
    return asset === quote ? [] : (this.path(asset, quote) ?? []).map((hop) => hop.symbol);
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
 * Fetches the finished candles of each symbol from `from` on that are not kept yet (at the
 * client's pace) and keeps them, with the last one before `from` where no candle opens at the
 * start (a quiet market: the price there is an older candle's). A span of up to 2,000 candles is
 * one call for the newest ones, which reach back past the start by themselves when the market is
 * quiet; a longer one goes 1,000 a call from the start. Offline or refused, the closes kept so far
 * serve. Whether any candles were kept.
 */
export async function fetchCloses(
  store: Store,
  client: Pick<ExchangeClient, 'market'>,
  profileId: string,
  symbols: readonly string[],
  from: number,
  now: number,
  interval: KlineInterval = LEDGER_INTERVAL,
): Promise<boolean> {
  let stored = false;
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
    // Open times from here on are all kept.
    let coverFrom = start;
    const count = Math.floor((lastFinished - start) / intervalMs) + 1;
    const oneCall = fetchFrom === start && count <= KLINES_LIMIT;
    try {
      if (oneCall) {
        const klines = await client.market.klines({
          symbol,
          interval,
          endTime: lastFinished,
          limit: count,
        });
        const page = klines
          .map((k) => ({ openTime: Number(k[0]), close: String(k[4]) }))
          .filter((c) => c.openTime <= lastFinished);
        closes.push(...page);
        // As many as asked: all kept from the oldest (before the start where it was quiet).
        const oldest = Math.min(...page.map((c) => c.openTime));
        if (klines.length >= count && oldest < start) coverFrom = oldest;
      }
      for (let next = fetchFrom; next <= lastFinished && !oneCall;) {
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
      // No candle at the start (no trade then): the price there is the last candle's before it.
      if (fetchFrom === start && !oneCall && !closes.some((c) => c.openTime === start)) {
        const [before] = await client.market.klines({
          symbol,
          interval,
          endTime: start - 1,
          limit: 1,
        });
        if (before && Number(before[0]) < start) {
          closes.push({ openTime: Number(before[0]), close: String(before[4]) });
          coverFrom = Number(before[0]);
        }
      }
    } catch {
      continue;
    }
    const unique = new Map(closes.map((c) => [c.openTime, c]));
    port.putKlineCloses(
      profileId,
      series,
      [...unique.values()],
      { from: Math.min(coverFrom, covered?.from ?? coverFrom), to: lastFinished },
      now,
    );
    stored = true;
  }
  return stored;
}

/** The candles kept for entries' times, per symbol, every level (no network). */
export function keptEntryCandles(
  store: Store,
  profileId: string,
  symbols: readonly string[],
): EntryCandles {
  const port = storePort(store);
  return new Map(
    symbols.map((symbol) => [
      symbol,
      ENTRY_INTERVALS.map((interval) => {
        const kept = port.entryCloses(profileId, { symbol, interval });
        return {
          intervalMs: KLINE_INTERVAL_MS[interval],
          opens: kept.closes.map((row) => row.openTime),
          closes: kept.closes.map((row) => new Decimal(row.close)),
          spans: kept.spans,
        };
      }),
    ]),
  );
}

/** Progress of a fetch of entries' prices: markets' times looked up of those to look up. */
export interface EntryPriceProgress {
  done: number;
  total: number;
}

/**
 * Asks the exchange for the candles that price each entry's time (`wanted`: per symbol, the
 * times its price is needed at) and keeps them, with the spans they cover. Per symbol and level,
 * one call answers every time back to its oldest candle: the newest candles that finished by the
 * latest time still unanswered, as many as the times within reach need (at most 2,000), so a
 * quiet market costs one call and a busy one a call per cluster of entries, never a whole year of
 * 1-minute candles. Times the exchange has no candle of a level for go on to the next level.
 * Calls go at the client's pace. Offline or refused, what is kept so far serves.
 */
export async function fetchEntryPrices(
  store: Store,
  client: Pick<ExchangeClient, 'market'>,
  profileId: string,
  wanted: ReadonlyMap<string, readonly number[]>,
  now: number,
  onProgress: (progress: EntryPriceProgress) => void = () => {},
): Promise<void> {
  const port = storePort(store);
  const unique = new Map(
    [...wanted].map(([symbol, times]) => [symbol, [...new Set(times)].sort((a, b) => b - a)]),
  );
  const total = [...unique.values()].reduce((sum, times) => sum + times.length, 0);
  let done = 0;
  const kept = keptEntryCandles(store, profileId, [...unique.keys()]);
  for (const [symbol, times] of unique) {
    const levels = kept.get(symbol)!;
    const before = done;
    // Times no level so far has a candle for: the next level looks them up (latest first).
    let open = times;
    try {
      for (let index = 0; index < ENTRY_INTERVALS.length && open.length > 0; index++) {
        const interval = ENTRY_INTERVALS[index]!;
        const level = levels[index]!;
        const length = level.intervalMs;
        const none: number[] = [];
        /** Settles the times this level answers now; the rest are still to ask. */
        const unsettled = (list: number[]) =>
          list.filter((time) => {
            const answer = levelAnswer(level, time);
            if (answer === 'unknown') return true;
            if (answer === 'none') none.push(time);
            else done++;
            return false;
          });
        let pending = unsettled(open);
        while (pending.length > 0) {
          const latest = pending[0]!;
          const end = latest - length;
          if (end < 0) {
            none.push(...pending);
            break;
          }
          // The times within one call's reach, and as many candles as they can need (a market
          // with a candle every minute); fewer trades make the same candles reach further back.
          const oldest = pending
            .filter((time) => latest - time <= (KLINES_LIMIT - 1) * length)
            .at(-1)!;
          const limit = Math.min(
            KLINES_LIMIT,
            Math.max(KLINES_AT_LEAST, Math.floor((latest - oldest) / length) + 1),
          );
          const klines = await client.market.klines({ symbol, interval, endTime: end, limit });
          const page = klines
            .map((k) => ({ openTime: Number(k[0]), close: String(k[4]) }))
            .filter((c) => c.openTime <= end)
            .sort((a, b) => a.openTime - b.openTime);
          // Fewer than asked: the exchange has none of this interval before them.
          const from = klines.length < limit || page.length === 0 ? 0 : page[0]!.openTime;
          level.spans = mergeSpans([...level.spans, [from, end]]);
          const closes = new Map(level.opens.map((openTime, i) => [openTime, level.closes[i]!]));
          for (const row of page) closes.set(row.openTime, new Decimal(row.close));
          level.opens = [...closes.keys()].sort((a, b) => a - b);
          level.closes = level.opens.map((openTime) => closes.get(openTime)!);
          port.putEntryCloses(profileId, { symbol, interval }, page, level.spans, now);
          pending = unsettled(pending);
          onProgress({ done, total });
        }
        open = none.sort((a, b) => b - a);
      }
    } catch {
      // Offline or refused: the 12-hour candles price what is left, and a later look asks again.
    }
    // What no finer level has a candle for is priced at the ledger's 12-hour candles.
    done = before + times.length;
    onProgress({ done, total });
  }
}
