import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { FundRow, TickerView } from '../../shared/types';
import {
  compareDecimal,
  hideSmall,
  searchFunds,
  sortFunds,
  tickerRows,
} from '../../renderer/src/lib/sorting';

const fund = (asset: string, free: string, value: string | null): FundRow => ({
  asset,
  free,
  locked: '0',
  reservedFee: null,
  total: free,
  price: value === null ? null : '1',
  value,
});

const rows = [
  fund('btc', '0.5', '30000.5'),
  fund('eth', '10', '25000'),
  fund('doge', '100', '9.99'),
  fund('xyz', '5', null),
];

describe('compareDecimal', () => {
  it('compares decimal strings exactly and puts unknowns last', () => {
    expect(compareDecimal('0.30000000000000001', '0.3', 'asc')).toBe(1);
    expect(compareDecimal('2', '10', 'asc')).toBe(-1);
    expect(compareDecimal('2', '10', 'desc')).toBe(1);
    expect(compareDecimal(null, '1', 'asc')).toBe(1);
    expect(compareDecimal(null, '1', 'desc')).toBe(1);
  });
});

describe('funds table', () => {
  it('sorts by value, unpriced last in both directions', () => {
    expect(sortFunds(rows, 'value', 'desc').map((r) => r.asset)).toEqual([
      'btc',
      'eth',
      'doge',
      'xyz',
    ]);
    expect(sortFunds(rows, 'value', 'asc').map((r) => r.asset)).toEqual([
      'doge',
      'eth',
      'btc',
      'xyz',
    ]);
  });

  it('sorts by asset name and by free amount numerically', () => {
    expect(sortFunds(rows, 'asset', 'asc').map((r) => r.asset)).toEqual([
      'btc',
      'doge',
      'eth',
      'xyz',
    ]);
    expect(sortFunds(rows, 'free', 'desc').map((r) => r.asset)).toEqual([
      'doge',
      'eth',
      'xyz',
      'btc',
    ]);
  });

  it('searches by asset, ignoring case and spaces', () => {
    expect(searchFunds(rows, ' ET ').map((r) => r.asset)).toEqual(['eth']);
    expect(searchFunds(rows, '')).toHaveLength(4);
  });

  it('hides balances worth less than the threshold but keeps unpriced ones', () => {
    expect(hideSmall(rows, '10').map((r) => r.asset)).toEqual(['btc', 'eth', 'xyz']);
  });
});

describe('tickerRows', () => {
  const ticker = (
    symbol: string,
    base: string,
    open: string,
    last: string,
    volume: string,
  ): TickerView => ({
    symbol,
    baseAsset: base,
    quoteAsset: 'usdt',
    lastPrice: last,
    openPrice: open,
    highPrice: last,
    lowPrice: open,
    volume,
    quoteVolume: new Decimal(volume).mul(last).toString(),
    quoteVolumeEstimated: true,
    quoteVolumeValue: new Decimal(volume).mul(last).toString(),
    bidPrice: last,
    askPrice: last,
    at: 0,
  });
  const tickers = [
    ticker('btcusdt', 'btc', '100', '110', '5'),
    ticker('ethusdt', 'eth', '100', '90', '50'),
    ticker('newusdt', 'new', '0', '1', '1'),
  ];

  it('adds the 24h change and sorts by it', () => {
    const sorted = tickerRows(tickers, '', 'change', 'desc');
    expect(sorted.map((t) => [t.symbol, t.change])).toEqual([
      ['btcusdt', '10'],
      ['ethusdt', '-10'],
      ['newusdt', null],
    ]);
  });

  it('sorts the volume by its value in the quote asset, not by base units', () => {
    const markets = [
      ticker('btcusdt', 'btc', '60000', '60000', '5.2'),
      { ...ticker('xrpbtc', 'xrp', '0.00001', '0.00001', '333980'), quoteAsset: 'btc' },
    ];
    // 333,980 XRP is 3.3398 BTC, about 200,000 USDT: less than 5.2 BTC at 60,000 (312,000 USDT).
    markets[1]!.quoteVolume = '3.3398';
    markets[1]!.quoteVolumeValue = '200388';
    expect(tickerRows(markets, '', 'volume', 'desc').map((t) => t.symbol)).toEqual([
      'btcusdt',
      'xrpbtc',
    ]);
    const unpriced = { ...markets[1]!, quoteVolumeValue: null };
    expect(tickerRows([unpriced, markets[0]!], '', 'volume', 'asc').map((t) => t.symbol)).toEqual([
      'btcusdt',
      'xrpbtc',
    ]);
  });

  it('searches "BTC/USDT" style names', () => {
    expect(tickerRows(tickers, 'BTC/USDT', 'symbol', 'asc').map((t) => t.symbol)).toEqual([
      'btcusdt',
    ]);
    expect(tickerRows(tickers, 'eth', 'volume', 'desc').map((t) => t.symbol)).toEqual(['ethusdt']);
  });
});
