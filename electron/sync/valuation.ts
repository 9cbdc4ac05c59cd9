/**
 * What the funds are worth in the user's quote asset: total, 24h change, allocation, unpriced
 * assets, per-row prices, and the value snapshots the ledger reads as balance observations (the
 * value history itself is the ledger's, electron/ledger/views.ts). Decimal only.
 */
import { Decimal, divide } from '../../shared/exact-decimal';
import { assetKey } from '../../shared/market';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Store } from '../store';
import {
  HISTORY_SPAN_MS,
  type FundsView,
  type HistoryRange,
  type PortfolioSummary,
} from '../../shared/types';
import type { SyncStorePort } from './port';
import { PriceBook, type PriceTicker } from '../pricing/price-book';
import { storePort } from './store-port';

export { priceIn, PriceBook, type PriceTicker } from '../pricing/price-book';

/** Funds are refreshed every 15 s; a view older than twice that is shown as stale. */
export const FUNDS_FRESHNESS_MS = 15_000;
/*
 * Values in the quote asset are exact (sums of products of amounts and prices, where a price
 * through an inverse pair or a bridge is divide()'s quotient): the screen rounds them to the quote
 * asset's precision and keeps them whole in its tooltip and copies (shared/format.ts). Only a
 * share and a percentage are divisions of their own, with the places stated here.
 */
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
    const value = fund.total.times(fund.price);
    total = total.plus(value);
    // Without a 24h open price the asset counts as unchanged rather than distorting the change.
    openTotal = openTotal.plus(fund.openPrice ? fund.total.times(fund.openPrice) : value);
    valued.push({ asset: fund.asset, value });
  }
  const change = total.minus(openTotal);
  valued.sort((a, b) => b.value.comparedTo(a.value) || a.asset.localeCompare(b.asset));
  return {
    quoteAsset,
    totalValue: formatDecimal(total),
    change24hValue: formatDecimal(change),
    change24hPercent: openTotal.isZero()
      ? '0'
      : formatDecimal(divide(change.times(100), openTotal, PERCENT_PLACES)),
    allocation: valued.map(({ asset, value }) => ({
      asset,
      value: formatDecimal(value),
      share: total.isZero() ? '0' : formatDecimal(divide(value, total, SHARE_PLACES)),
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
      // A price keeps its digits: 8 places would make INR in BTC (0.000000195716...) read 0.0000002.
      price: fund.price ? formatDecimal(fund.price) : null,
      // Exact: the screen rounds it to the quote's precision and keeps this in its tooltip.
      value: fund.price ? formatDecimal(fund.total.times(fund.price)) : null,
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
  for (const fund of funds) if (fund.price) total = total.plus(fund.total.times(fund.price));
  port.addSnapshot(profileId, {
    takenAt: now,
    quoteAsset,
    totalValue: formatDecimal(total),
    assets: funds.map((fund) => ({
      asset: fund.asset,
      total: formatDecimal(fund.total),
      // Exact: the screen rounds it to the quote's precision and keeps this in its tooltip.
      value: fund.price ? formatDecimal(fund.total.times(fund.price)) : null,
    })),
  });
}

/** The span each range of the value history and the P&L shows. */
export const HISTORY_RANGES = Object.fromEntries(
  Object.entries(HISTORY_SPAN_MS).map(([range, spanMs]) => [range, { spanMs }]),
) as Record<HistoryRange, { spanMs: number }>;

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
    if (price) total = total.plus(amount.times(price));
    else unpriced.push(holding.asset);
  }
  return { value: formatDecimal(total), unpriced: unpriced.sort() };
}
