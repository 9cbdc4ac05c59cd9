import { describe, expect, it } from 'vitest';
import { PriceBook, priceIn, type PriceTicker } from '../../electron/pricing/price-book';

const ticker = (base: string, quote: string, last: string, open = last): PriceTicker => ({
  symbol: `${base}${quote}`,
  baseAsset: base,
  quoteAsset: quote,
  lastPrice: last,
  openPrice: open,
});

const tickers = [
  ticker('btc', 'usdt', '65000.12'),
  ticker('eth', 'btc', '0.0512'),
  ticker('usdt', 'eur', '0.92'),
  ticker('sol', 'eth', '0.05', '0.04'),
  ticker('dead', 'usdt', '0'),
];

describe('priceIn', () => {
  it('uses the direct pair', () => {
    expect(priceIn('usdt', 'btc', tickers)!.toFixed()).toBe('65000.12');
  });

  it('inverts the inverse pair exactly', () => {
    // 1 / 0.92 = 25/23, by the one rule of a division (shared/exact-decimal.ts): 40 significant
    // digits, half-even, not a float. Its digits are 25 * 10^39 / 23 in integers.
    const digits = (25n * 10n ** 40n) / 23n;
    const rest = (25n * 10n ** 40n) % 23n;
    const expected = (
      digits / 10n +
      (digits % 10n > 5n || (digits % 10n === 5n && (rest > 0n || (digits / 10n) % 2n === 1n))
        ? 1n
        : 0n)
    ).toString();
    expect(priceIn('usdt', 'eur', tickers)!.toFixed()).toBe(`1.${expected.slice(1)}`);
    // An inverse price carries 40 significant digits: a round trip is exact far past any digit
    // shown.
    expect(priceIn('btc', 'usdt', tickers)!.times('65000.12').toDecimalPlaces(30).toFixed()).toBe(
      '1',
    );
  });

  it('goes through a bridge asset (usdt, btc)', () => {
    // eth -> btc -> usdt: 0.0512 * 65000.12
    expect(priceIn('usdt', 'eth', tickers)!.toFixed()).toBe('3328.006144');
    // btc -> usdt -> eur: 65000.12 * 0.92
    expect(priceIn('eur', 'btc', tickers)!.toFixed()).toBe('59800.1104');
  });

  it('is 1 for the quote asset itself and null without a path or a positive price', () => {
    expect(priceIn('usdt', 'usdt', tickers)!.toFixed()).toBe('1');
    expect(priceIn('usdt', 'xyz', tickers)).toBeNull();
    expect(priceIn('usdt', 'dead', tickers)).toBeNull();
    expect(priceIn('usdt', 'sol', tickers)).toBeNull(); // sol/eth, eth has no one-hop usdt pair
  });

  it('reads open prices for the 24h change and reports the path', () => {
    const book = new PriceBook(tickers);
    expect(book.price('eth', 'sol', 'openPrice')!.toFixed()).toBe('0.04');
    expect(book.path('eur', 'btc')).toEqual([
      { symbol: 'btcusdt', inverse: false },
      { symbol: 'usdteur', inverse: false },
    ]);
    expect(book.path('usdt', 'eur')).toEqual([{ symbol: 'usdteur', inverse: true }]);
  });
});
