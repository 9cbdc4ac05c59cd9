/** The market the order form opens on: one the user can pay for. */
import { describe, expect, it } from 'vitest';
import type { SymbolView } from '../../shared/types';
import { defaultOrderMarket } from '../../renderer/src/lib/order-text';

const market = (symbol: string, baseAsset: string, quoteAsset: string): SymbolView => ({
  symbol,
  baseAsset,
  quoteAsset,
  baseAssetPrecision: 8,
  quoteAssetPrecision: 8,
  tickSize: '0.01',
  minPrice: '0.01',
  orderTypes: ['limit'],
});
const MARKETS = [
  market('ethusdt', 'eth', 'usdt'),
  market('btcusdt', 'btc', 'usdt'),
  market('btcinr', 'btc', 'inr'),
  market('ethbtc', 'eth', 'btc'),
];

describe('defaultOrderMarket', () => {
  it('skips BTC/INR when no INR is free: the first market whose quote is free to spend', () => {
    const free = new Map([
      ['inr', '0'],
      ['usdt', '48250.75'],
      ['btc', '1.5'],
    ]);
    expect(defaultOrderMarket(MARKETS, free)).toBe('btcusdt');
  });

  it('takes a market to sell in when no quote asset is free, else the first by name', () => {
    expect(defaultOrderMarket(MARKETS, new Map([['eth', '0.000001']]))).toBe('ethbtc');
    expect(defaultOrderMarket(MARKETS, new Map())).toBe('btcinr');
    expect(defaultOrderMarket([], new Map())).toBe('');
  });
});
