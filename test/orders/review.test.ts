import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { marketRules, reviewOrder, type ReviewedOrder } from '../../electron/orders/review';
import type { SymbolInfo } from '../../electron/exchange/wire';

/** BTCUSDT as the sandbox lists it: a price filter only, 6 decimals of quantity. */
const btcusdt: SymbolInfo = {
  symbol: 'btcusdt',
  status: 'trading',
  baseAsset: 'btc',
  quoteAsset: 'usdt',
  baseAssetPrecision: 6,
  quoteAssetPrecision: 8,
  orderTypes: ['limit', 'stop_limit'],
  isSpotTradingAllowed: true,
  filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.01', tickSize: '0.01' }],
};

/** A deployment that lists every limit (a zero maxPrice meaning "none"). */
const listedEverything: SymbolInfo = {
  ...btcusdt,
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '1', maxPrice: '0', tickSize: '0.5' },
    { filterType: 'LOT_SIZE', minQty: '0.01', maxQty: '50', stepSize: '0.01' },
    { filterType: 'MIN_NOTIONAL', minNotional: '10' },
  ],
};

const buy = (quantity: string, price: string): ReviewedOrder => ({
  side: 'buy',
  type: 'limit',
  quantity,
  price,
});
const facts = (free: string, lastPrice: string | null = null) => ({
  free: new Decimal(free),
  lastPrice: lastPrice === null ? null : new Decimal(lastPrice),
});
const byCheck = (checks: ReturnType<typeof reviewOrder>) =>
  Object.fromEntries(checks.map((c) => [c.check, c]));

describe('order review', () => {
  it('refuses a buy beyond the free balance, with the numbers', () => {
    const checks = reviewOrder(buy('100', '50000'), marketRules(btcusdt), facts('100123.45678'));
    expect(checks.map((c) => c.check)).toEqual(['tick', 'step', 'limits', 'balance']);
    expect(byCheck(checks).balance).toEqual({
      check: 'balance',
      status: 'failed',
      text:
        'Not enough USDT: this buy needs 5,000,000 USDT (100 × 50,000) and 100,123.45678 USDT ' +
        'is free, 4,899,876.54322 USDT short',
    });
    expect(checks.filter((c) => c.status === 'failed')).toHaveLength(1);
  });

  it('passes an affordable buy and names the fee taken from what it receives', () => {
    const checks = byCheck(reviewOrder(buy('0.01', '50000'), marketRules(btcusdt), facts('500')));
    expect(checks.balance).toEqual({
      check: 'balance',
      status: 'passed',
      text:
        'Needs 500 USDT (0.01 × 50,000); 500 USDT is free. The fee, at most 0.00002 BTC ' +
        '(0.2 %), is taken from the BTC received',
    });
    expect(checks.tick).toMatchObject({ status: 'passed' });
    expect(checks.tick!.text).toContain('tick size 0.01 USDT');
    expect(checks.step).toEqual({
      check: 'step',
      status: 'passed',
      text: 'Quantity 0.01 BTC on the step 0.000001',
    });
    expect(checks.limits).toEqual({
      check: 'limits',
      status: 'passed',
      text:
        "Within the market's limits: price at least 0.01, no maximum USDT; quantity at least " +
        '0.000001, no maximum BTC',
    });
  });

  it('a sell pays with the base asset', () => {
    const order: ReviewedOrder = { side: 'sell', type: 'limit', quantity: '2', price: '60000' };
    expect(byCheck(reviewOrder(order, marketRules(btcusdt), facts('1.85'))).balance).toEqual({
      check: 'balance',
      status: 'failed',
      text: 'Not enough BTC: this sell needs 2 BTC and 1.85 BTC is free, 0.15 BTC short',
    });
  });

  it('refuses a stop on the wrong side of the last price, and at it', () => {
    const rules = marketRules(btcusdt);
    const stop = (side: 'buy' | 'sell', stopPrice: string) =>
      byCheck(
        reviewOrder(
          { side, type: 'stop_limit', quantity: '0.01', price: '60000', stopPrice },
          rules,
          facts('1000000', '61250'),
        ),
      ).stop;
    expect(stop('sell', '62000')).toEqual({
      check: 'stop',
      status: 'failed',
      text:
        'A sell stop must be below the last price 61,250 USDT; 62,000 is above it, so the order ' +
        'would trigger at once',
    });
    expect(stop('buy', '60000')).toMatchObject({ status: 'failed' });
    expect(stop('buy', '60000')!.text).toContain('60,000 is below it');
    expect(stop('sell', '61250')!.text).toContain('61,250 is at it');
    expect(stop('sell', '60000')).toEqual({
      check: 'stop',
      status: 'passed',
      text:
        'Stop 60,000 USDT is below the last price 61,250: the order goes to the book when the ' +
        'price falls to it',
    });
    expect(stop('buy', '62000')).toMatchObject({ status: 'passed' });
  });

  it('without a last price the stop cannot be judged and the order is refused', () => {
    const checks = reviewOrder(
      { side: 'sell', type: 'stop_limit', quantity: '0.01', price: '1', stopPrice: '1' },
      marketRules(btcusdt),
      facts('1'),
    );
    expect(byCheck(checks).stop).toMatchObject({ status: 'failed' });
  });

  it('checks the tick, the step and every limit the exchange lists', () => {
    const rules = marketRules(listedEverything);
    expect(rules.maxPrice).toBeNull();
    const review = (order: ReviewedOrder) => byCheck(reviewOrder(order, rules, facts('1000000')));
    expect(review(buy('1', '100.25')).tick).toEqual({
      check: 'tick',
      status: 'failed',
      text: 'Price 100.25 is not a multiple of the tick size 0.5 USDT',
    });
    expect(review(buy('1.005', '100')).step).toEqual({
      check: 'step',
      status: 'failed',
      text: 'Quantity 1.005 BTC is not a multiple of the step 0.01',
    });
    expect(review(buy('51', '100')).limits).toEqual({
      check: 'limits',
      status: 'failed',
      text: 'The quantity 51 is above the maximum 50',
    });
    expect(review(buy('0.05', '100')).limits).toEqual({
      check: 'limits',
      status: 'failed',
      text: 'The total 5 USDT is below the minimum 10',
    });
    expect(review(buy('1', '0.5')).limits!.text).toBe(
      'The price 0.5 is below the minimum 1; the total 0.5 USDT is below the minimum 10',
    );
    expect(review(buy('1', '100')).limits).toMatchObject({ status: 'passed' });
  });
});
