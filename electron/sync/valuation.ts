/**
 * What the funds are worth in the user's quote asset: total, 24h change, allocation, unpriced
 * assets, per-row prices, and the value history (recorded snapshots, plus "current holdings at
 * past prices" from klines for the time before the first snapshot). decimal.js only.
 */
import { Decimal } from '../../shared/exact-decimal';
import { assetKey, KLINE_INTERVAL_MS, type KlineInterval } from '../../shared/market';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { ExchangeClient, Kline } from '../exchange';
import type { KlineClose, Store } from '../store';
import type {
  FundsView,
  HistoryRange,
  PortfolioHistory,
  PortfolioSummary,
  ValuePoint,
} from '../../shared/types';
import type { SyncStorePort } from './port';
import { PriceBook, priceAlong, type PriceTicker } from './pricing';
import { storePort } from './store-port';

export { priceIn, PriceBook, type PriceTicker } from './pricing';

/** Funds are refreshed every 15 s; a view older than twice that is shown as stale. */
export const FUNDS_FRESHNESS_MS = 15_000;
/** Values in the quote asset keep this many decimals (quote assets have at most 8). */
const VALUE_PLACES = 8;
const SHARE_PLACES = 6;
const PERCENT_PLACES = 4;

type StoreLike = Store | SyncStorePort;

function portOf(store: StoreLike): SyncStorePort {
  return 'replaceFunds' in store ? store : storePort(store);
}

/** Splits 'btcusdt' into base/quote using the symbols table, or known asset names as a fallback. */
export function priceTickers(
  port: SyncStorePort,
  profileId: string,
  extraAssets: Iterable<string> = [],
): PriceTicker[] {
  const known = new Map(port.symbolAssets(profileId).map((s) => [s.symbol, s]));
  const assets = new Set<string>([...extraAssets].map(assetKey));
  for (const s of known.values()) {
    assets.add(s.baseAsset);
    assets.add(s.quoteAsset);
  }
  const tickers: PriceTicker[] = [];
  for (const row of port.prices(profileId)) {
    const pair = known.get(row.symbol) ?? splitSymbol(row.symbol, assets);
    if (!pair) continue;
    tickers.push({
      symbol: row.symbol,
      baseAsset: pair.baseAsset,
      quoteAsset: pair.quoteAsset,
      lastPrice: row.last,
      openPrice: row.open,
    });
  }
  return tickers;
}

function splitSymbol(
  symbol: string,
  assets: Set<string>,
): { baseAsset: string; quoteAsset: string } | null {
  for (const quote of assets) {
    if (symbol.length > quote.length && symbol.endsWith(quote)) {
      const base = symbol.slice(0, symbol.length - quote.length);
      if (assets.has(base)) return { baseAsset: base, quoteAsset: quote };
    }
  }
  return null;
}

interface ValuedFund {
  asset: string;
  free: string;
  locked: string;
  reservedFee: string | null;
  total: Decimal;
  price: Decimal | null;
  openPrice: Decimal | null;
  updatedAt: number;
}

function valueFunds(port: SyncStorePort, profileId: string, quoteAsset: string): ValuedFund[] {
  const funds = port.funds(profileId);
  const book = new PriceBook(
    priceTickers(port, profileId, [quoteAsset, ...funds.map((f) => f.asset)]),
  );
  return funds.map((fund) => ({
    asset: fund.asset,
    free: fund.free,
    locked: fund.locked,
    reservedFee: fund.reservedFee,
    total: parseDecimal(fund.free, `${fund.asset} free`).plus(fund.locked),
    price: book.price(quoteAsset, fund.asset, 'lastPrice'),
    openPrice: book.price(quoteAsset, fund.asset, 'openPrice'),
    updatedAt: fund.updatedAt,
  }));
}

function newestUpdate(funds: ValuedFund[]): number | null {
  return funds.length === 0 ? null : Math.max(...funds.map((f) => f.updatedAt));
}

export function portfolioSummary(
  store: StoreLike,
  profileId: string,
  quoteAsset: string,
): PortfolioSummary {
  const funds = valueFunds(portOf(store), profileId, quoteAsset);
  let total = new Decimal(0);
  let openTotal = new Decimal(0);
  const unpriced: string[] = [];
  const valued: { asset: string; value: Decimal }[] = [];
  for (const fund of funds) {
    if (fund.total.isZero()) continue;
    if (!fund.price) {
      unpriced.push(fund.asset);
      continue;
    }
    const value = fund.total.mul(fund.price);
    total = total.plus(value);
    // Without a 24h open price the asset counts as unchanged rather than distorting the change.
    openTotal = openTotal.plus(fund.openPrice ? fund.total.mul(fund.openPrice) : value);
    valued.push({ asset: fund.asset, value });
  }
  const change = total.minus(openTotal);
  valued.sort((a, b) => b.value.comparedTo(a.value) || a.asset.localeCompare(b.asset));
  return {
    quoteAsset,
    totalValue: formatDecimal(total, VALUE_PLACES),
    change24hValue: formatDecimal(change, VALUE_PLACES),
    change24hPercent: openTotal.isZero()
      ? '0'
      : formatDecimal(change.div(openTotal).mul(100), PERCENT_PLACES),
    allocation: valued.map(({ asset, value }) => ({
      asset,
      value: formatDecimal(value, VALUE_PLACES),
      share: total.isZero() ? '0' : formatDecimal(value.div(total), SHARE_PLACES),
    })),
    unpriced: unpriced.sort(),
    asOf: newestUpdate(funds),
  };
}

export function fundsView(
  store: StoreLike,
  profileId: string,
  quoteAsset: string,
  now: number,
): FundsView {
  const funds = valueFunds(portOf(store), profileId, quoteAsset);
  const asOf = newestUpdate(funds);
  return {
    quoteAsset,
    rows: funds.map((fund) => ({
      asset: fund.asset,
      free: fund.free,
      locked: fund.locked,
      reservedFee: fund.reservedFee,
      total: formatDecimal(fund.total),
      price: fund.price ? formatDecimal(fund.price, VALUE_PLACES) : null,
      value: fund.price ? formatDecimal(fund.total.mul(fund.price), VALUE_PLACES) : null,
    })),
    asOf,
    stale: asOf === null || now - asOf > 2 * FUNDS_FRESHNESS_MS,
  };
}

/** The snapshot recorded every few minutes while the app runs. */
export function takeValueSnapshot(
  port: SyncStorePort,
  profileId: string,
  quoteAsset: string,
  now: number,
): void {
  const funds = valueFunds(port, profileId, quoteAsset).filter((f) => !f.total.isZero());
  if (funds.length === 0) return;
  // Funds arrive before the first prices on a new profile: a value of the quote asset alone would
  // be recorded as a fall (and, as the first snapshot, a cliff in every range). It waits for them.
  if (funds.some((f) => !f.price) && port.prices(profileId).length === 0) return;
  let total = new Decimal(0);
  for (const fund of funds) if (fund.price) total = total.plus(fund.total.mul(fund.price));
  port.addSnapshot(profileId, {
    takenAt: now,
    quoteAsset,
    totalValue: formatDecimal(total, VALUE_PLACES),
    assets: funds.map((fund) => ({
      asset: fund.asset,
      total: formatDecimal(fund.total),
      value: fund.price ? formatDecimal(fund.total.mul(fund.price), VALUE_PLACES) : null,
    })),
  });
}

const DAY_MS = 86_400_000;
/** The span each range shows and the kline interval that draws it in a few hundred points. */
export const HISTORY_RANGES: Record<HistoryRange, { spanMs: number; interval: KlineInterval }> = {
  day: { spanMs: DAY_MS, interval: '15m' },
  week: { spanMs: 7 * DAY_MS, interval: '1h' },
  month: { spanMs: 30 * DAY_MS, interval: '4h' },
  year: { spanMs: 365 * DAY_MS, interval: '1d' },
  all: { spanMs: 5 * 365 * DAY_MS, interval: '1w' },
};
const MAX_KLINES = 2000;

/**
 * The value history of a range, ending with the total value now (the summary's figure, so the
 * chart's last point and the total shown agree). Before the first snapshot ever taken the value
 * is an estimate: the holdings of that first snapshot (today's when there is none) at the closes
 * of past candles; starting from the first snapshot's holdings, the estimate meets the recorded
 * history without a step where the holdings changed. The answer says where the estimate ends.
 */
export async function portfolioHistory(
  store: StoreLike,
  client: ExchangeClient,
  profileId: string,
  quoteAsset: string,
  range: HistoryRange,
  now: number = Date.now(),
): Promise<PortfolioHistory> {
  const port = portOf(store);
  const { spanMs, interval } = HISTORY_RANGES[range];
  const stepMs = KLINE_INTERVAL_MS[interval];
  const from = now - spanMs;
  const snapshots = port.snapshots(profileId, quoteAsset, range === 'all' ? 0 : from, now);
  const points: ValuePoint[] = snapshots.map((s) => ({
    time: s.takenAt,
    value: s.totalValue,
    source: 'snapshot',
  }));
  const first = snapshots[0] ?? port.firstSnapshot(profileId, quoteAsset);
  const estimateEnd = first && first.takenAt <= now ? first.takenAt : now;
  let estimate: PortfolioHistory['estimate'] = null;
  if (estimateEnd > from) {
    const holdings = first
      ? first.assets.map((a) => ({ asset: a.asset, total: parseDecimal(a.total, a.asset) }))
      : currentHoldings(port, profileId);
    const backfill = await holdingsAtPastPrices(port, client, profileId, quoteAsset, holdings, {
      from,
      to: estimateEnd - 1,
      interval,
      stepMs,
      now,
    });
    if (backfill.length > 0) {
      points.unshift(...backfill);
      estimate = { until: estimateEnd, basis: first ? 'first-snapshot' : 'current-holdings' };
    }
  }
  const summary = portfolioSummary(port, profileId, quoteAsset);
  if (summary.asOf !== null) {
    points.push({
      time: Math.max(now, points.at(-1)?.time ?? now),
      value: summary.totalValue,
      source: 'current',
    });
  }
  return { quoteAsset, range, points, estimate };
}

function currentHoldings(port: SyncStorePort, profileId: string): Holding[] {
  return port.funds(profileId).map((f) => ({
    asset: f.asset,
    total: parseDecimal(f.free, `${f.asset} free`).plus(f.locked),
  }));
}

interface Holding {
  asset: string;
  total: Decimal;
}

/**
 * Amounts of assets valued in the quote asset at the cached prices (a sub-account's balances):
 * the total of those with a price path, and the assets without one, which the total leaves out.
 */
export function valueHoldings(
  store: StoreLike,
  profileId: string,
  quoteAsset: string,
  holdings: readonly { asset: string; amount: string }[],
): { value: string; unpriced: string[] } {
  const port = portOf(store);
  const book = new PriceBook(
    priceTickers(port, profileId, [quoteAsset, ...holdings.map((h) => h.asset)]),
  );
  let total = new Decimal(0);
  const unpriced: string[] = [];
  for (const holding of holdings) {
    const amount = parseDecimal(holding.amount, `${holding.asset} amount`);
    if (amount.isZero()) continue;
    const price = book.price(quoteAsset, holding.asset);
    if (price) total = total.plus(amount.mul(price));
    else unpriced.push(holding.asset);
  }
  return { value: formatDecimal(total, VALUE_PLACES), unpriced: unpriced.sort() };
}

/** The candles a history range is drawn from: open times in [from, to], one every stepMs. */
interface CandleWindow {
  from: number;
  to: number;
  interval: KlineInterval;
  stepMs: number;
  now: number;
}

/** The holdings valued at each kline's close between from and to. */
async function holdingsAtPastPrices(
  port: SyncStorePort,
  client: ExchangeClient,
  profileId: string,
  quoteAsset: string,
  allHoldings: Holding[],
  window: CandleWindow,
): Promise<ValuePoint[]> {
  const holdings = allHoldings.filter((h) => !h.total.isZero());
  if (holdings.length === 0) return [];
  const book = new PriceBook(
    priceTickers(port, profileId, [quoteAsset, ...holdings.map((h) => h.asset)]),
  );
  const paths = holdings
    .map((h) => ({ ...h, hops: book.path(quoteAsset, h.asset) }))
    .filter((h): h is typeof h & { hops: NonNullable<typeof h.hops> } => h.hops !== null);
  const symbols = [...new Set(paths.flatMap((p) => p.hops.map((hop) => hop.symbol)))];
  const closes = new Map<string, Map<number, Decimal>>();
  for (const symbol of symbols) {
    const series = await finishedCloses(port, client, profileId, symbol, window);
    closes.set(
      symbol,
      new Map(series.map((c) => [c.openTime, parseDecimal(c.close, `${symbol} close`)])),
    );
  }
  const times = [...new Set([...closes.values()].flatMap((m) => [...m.keys()]))].sort(
    (a, b) => a - b,
  );
  if (symbols.length === 0) {
    // Only the quote asset itself is held: its value is constant.
    for (let t = window.from; t <= window.to; t += window.stepMs) times.push(t);
  }
  // Carry each pair's last close forward over times it has no candle for.
  const lastClose = new Map<string, Decimal>();
  const points: ValuePoint[] = [];
  for (const time of times) {
    for (const symbol of symbols) {
      const close = closes.get(symbol)?.get(time);
      if (close) lastClose.set(symbol, close);
    }
    let total = new Decimal(0);
    let complete = true;
    for (const holding of paths) {
      const price = priceAlong(holding.hops, (symbol) => lastClose.get(symbol) ?? null);
      if (!price) {
        complete = false;
        break;
      }
      total = total.plus(holding.total.mul(price));
    }
    // A point before every pair has a candle would understate the value; it is left out.
    if (complete)
      points.push({ time, value: formatDecimal(total, VALUE_PLACES), source: 'backfill' });
  }
  return points;
}

/**
 * The closes of the finished candles of `symbol` with open times in [from, to]: from the store,
 * fetching only what it has not seen yet. The candle still open is left out (its close is not
 * final, and a snapshot covers the present). When the exchange cannot be reached, what the store
 * has is used, so the chart still draws offline.
 */
async function finishedCloses(
  port: SyncStorePort,
  client: ExchangeClient,
  profileId: string,
  symbol: string,
  window: CandleWindow,
): Promise<KlineClose[]> {
  const series = { symbol, interval: window.interval };
  const stored = port.klineCloses(profileId, series, window.from, window.to);
  const covered = stored.covered;
  // Candles open on a grid (weekly ones on Mondays, not at the epoch's Thursday): its phase comes
  // from a stored candle. The newest finished candle opened one step before the current one; any
  // phase keeps that at most now - step, so an open candle is never stored.
  const { stepMs } = window;
  const phase = (stored.closes[0]?.openTime ?? 0) % stepMs;
  const currentOpen = Math.floor((window.now - phase) / stepMs) * stepMs + phase;
  const lastFinished = Math.min(window.to, currentOpen - stepMs);
  if (lastFinished < window.from) return [];
  if (covered && covered.from <= window.from && covered.to >= lastFinished) return stored.closes;

  // Continue after what is known when it reaches back far enough; otherwise fetch the window.
  const continues = covered !== null && covered.from <= window.from && covered.to >= window.from;
  const startTime = continues ? covered.to + 1 : window.from;
  const limit = Math.min(MAX_KLINES, Math.ceil((lastFinished - startTime) / stepMs) + 1);
  let klines: Kline[];
  try {
    klines = await client.market.klines({
      symbol,
      interval: window.interval,
      startTime,
      endTime: lastFinished,
      limit,
    });
  } catch {
    // Offline, rate-limited, a pair since delisted: the chart draws from what the store has.
    return stored.closes;
  }
  const fetched = klines
    .map((k) => ({ openTime: Number(k[0]), close: k[4] }))
    .filter((c) => c.openTime >= startTime && c.openTime <= lastFinished);
  // Every range's window fits one page (MAX_KLINES), so the whole span asked for is now known.
  // Older closes than the window are dropped: each interval serves one range, which moves forward.
  port.putKlineCloses(
    profileId,
    series,
    fetched,
    { from: window.from, to: lastFinished },
    window.now,
  );
  return port.klineCloses(profileId, series, window.from, window.to).closes;
}
