/** Sorting and searching of tables, on decimal strings (never floats). */
import { Decimal } from '../../../shared/exact-decimal';
import type { FundRow, TickerView } from '../../../shared/types';
import { percentChange } from '../../../shared/format';

export type SortDir = 'asc' | 'desc';

/** Compares two decimal strings; null (unknown) sorts after every number in either direction. */
export function compareDecimal(a: string | null, b: string | null, dir: SortDir): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const order = new Decimal(a).comparedTo(new Decimal(b));
  return dir === 'asc' ? order : -order;
}

export function compareText(a: string, b: string, dir: SortDir): number {
  const order = a.localeCompare(b);
  return dir === 'asc' ? order : -order;
}

export type FundSortField = 'asset' | 'free' | 'locked' | 'reservedFee' | 'total' | 'value';

export function sortFunds(rows: FundRow[], field: FundSortField, dir: SortDir): FundRow[] {
  const sorted = [...rows];
  sorted.sort((a, b) => {
    const primary =
      field === 'asset'
        ? compareText(a.asset, b.asset, dir)
        : compareDecimal(a[field], b[field], dir);
    return primary !== 0 ? primary : a.asset.localeCompare(b.asset);
  });
  return sorted;
}

/** Case-insensitive substring match on the asset. */
export function searchFunds(rows: FundRow[], query: string): FundRow[] {
  const needle = query.trim().toLowerCase();
  return needle ? rows.filter((row) => row.asset.toLowerCase().includes(needle)) : rows;
}

/** Rows whose value is known and below the threshold are "small"; unpriced rows are kept. */
export function hideSmall(rows: FundRow[], threshold: string): FundRow[] {
  const limit = new Decimal(threshold || '0');
  return rows.filter((row) => row.value === null || new Decimal(row.value).gte(limit));
}

export interface TickerRow extends TickerView {
  /** 24h change in percent, or null when the open price is zero. */
  change: string | null;
}

/** 'volume' is the 24h quote volume in the user's quote asset: base units do not compare. */
export type TickerSortField = 'symbol' | 'lastPrice' | 'change' | 'volume';

export function tickerRows(
  tickers: TickerView[],
  query: string,
  field: TickerSortField,
  dir: SortDir,
): TickerRow[] {
  const needle = query.trim().toLowerCase().replace('/', '');
  const rows = tickers
    .filter((t) => !needle || t.symbol.includes(needle) || t.baseAsset.includes(needle))
    .map((t) => ({ ...t, change: percentChange(t.openPrice, t.lastPrice) }));
  rows.sort((a, b) => {
    const primary =
      field === 'symbol'
        ? compareText(a.symbol, b.symbol, dir)
        : field === 'volume'
          ? compareDecimal(a.quoteVolumeValue, b.quoteVolumeValue, dir)
          : compareDecimal(a[field], b[field], dir);
    return primary !== 0 ? primary : a.symbol.localeCompare(b.symbol);
  });
  return rows;
}
