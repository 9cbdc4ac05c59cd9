import DecimalJs from 'decimal.js';
import { Decimal } from '../../shared/exact-decimal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { marketRules, reviewOrder, type ReviewedOrder } from '../../electron/orders/review';
import type { SymbolInfo } from '../../electron/exchange/wire';
import { startSandbox, type Sandbox } from '../../electron/sandbox';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import type { OrderReview, Settings } from '../../shared/types';
import { rendererDir, tempDir, testSecretStore, WireClient } from '../api/helpers';

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
const facts = (free: string, lastPrice: string | null = null, percent = '10') => ({
  free: new Decimal(free),
  lastPrice: lastPrice === null ? null : new Decimal(lastPrice),
  priceWarningPercent: new Decimal(percent),
});
const byCheck = (checks: ReturnType<typeof reviewOrder>) =>
  Object.fromEntries(checks.map((c) => [c.check, c]));

describe('order review', () => {
  it('refuses a buy beyond the free balance, with the numbers', () => {
    const checks = reviewOrder(buy('100', '50000'), marketRules(btcusdt), facts('100123.45678'));
    expect(checks.map((c) => c.check)).toEqual(['tick', 'step', 'limits', 'price', 'balance']);
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

/** "61250.5" -> "61,250.5": the figure as the review writes it, every digit kept. */
function grouped(value: Decimal): string {
  const [integer = '0', fraction] = value.toFixed().split('.');
  const digits = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${digits}.${fraction}` : digits;
}

/** |price − last| / last in percent, one decimal, half-even: computed here, not by the app. */
function percentFrom(price: Decimal, last: Decimal): string {
  return new Wide(price.toString())
    .minus(last.toString())
    .abs()
    .times(100)
    .div(last.toString())
    .toDecimalPlaces(1, DecimalJs.ROUND_HALF_EVEN)
    .toFixed(1);
}

/** decimal.js with room for the exact quotient's digits that matter here. */
const Wide = DecimalJs.clone({ precision: 100 });

describe('the price warning, against the sandbox', () => {
  let sandbox: Sandbox;
  let app: SpotfolioApp;
  let host: BrowserModeHost;
  let client: WireClient;
  let dir: ReturnType<typeof tempDir>;
  let last: Decimal;

  beforeAll(async () => {
    dir = tempDir();
    sandbox = await startSandbox({ seed: 11 });
    const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
    const key = parent.keys.find((k) => k.canTrade)!;
    // The sandbox's last BTCUSDT price over its own public endpoint, before the app's syncing
    // shares the request limit. Without the market simulation no trade moves it afterwards.
    const response = await fetch(`${sandbox.baseUrl}/sapi/v1/ticker/24hr?symbol=btcusdt`);
    last = new Decimal(((await response.json()) as { lastPrice: string }).lastPrice);
    app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets: testSecretStore().store,
      demo: 'off',
      log: () => undefined,
    });
    host = await startBrowserMode({ app, rendererDir: rendererDir(dir.path) });
    client = await WireClient.connect(host.port, host.token);
    await client.ok('profiles.add', {
      name: 'Main',
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
  });

  afterAll(async () => {
    client?.close();
    await host?.close();
    await app?.close();
    await sandbox?.close();
    dir?.remove();
  });

  const onTick = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const review = (side: 'buy' | 'sell', price: Decimal, quantity = '0.01') =>
    client.ok<OrderReview>('orders.test', {
      symbol: 'btcusdt',
      side,
      type: 'limit',
      quantity,
      price: price.toFixed(),
    });
  const priceCheck = (result: OrderReview) => result.checks.find((c) => c.check === 'price');

  it('warns on a buy far above the last price, with the distance and the cost at the last price', async () => {
    const price = onTick(last.times('1.47'));
    const result = await review('buy', price);
    expect(result.ok).toBe(true);
    expect(result.checks.map((c) => [c.check, c.status])).toEqual([
      ['tick', 'passed'],
      ['step', 'passed'],
      ['limits', 'passed'],
      ['price', 'warning'],
      ['balance', 'passed'],
      ['exchange', 'passed'],
    ]);
    expect(priceCheck(result)!.text).toBe(
      `Price ${grouped(price)} USDT is ${percentFrom(price, last)} % above the last price ` +
        `${grouped(last)} USDT, more than 10 %. At the last price this buy would cost ` +
        `${grouped(last.times('0.01'))} USDT (0.01 × ${grouped(last)}); at your price ` +
        `${grouped(price.times('0.01'))} USDT`,
    );
  });

  it('warns on a sell far below the last price, with what it would bring at the last price', async () => {
    const price = onTick(last.times('0.49'));
    const result = await review('sell', price, '0.002');
    expect(result.ok).toBe(true);
    expect(priceCheck(result)).toEqual({
      check: 'price',
      status: 'warning',
      text:
        `Price ${grouped(price)} USDT is ${percentFrom(price, last)} % below the last price ` +
        `${grouped(last)} USDT, more than 10 %. At the last price this sell would bring ` +
        `${grouped(last.times('0.002'))} USDT (0.002 × ${grouped(last)}); at your price ` +
        `${grouped(price.times('0.002'))} USDT`,
    });
  });

  it('passes a price within the distance, naming it', async () => {
    const price = onTick(last.times('0.95'));
    const result = await review('buy', price);
    expect(priceCheck(result)).toEqual({
      check: 'price',
      status: 'passed',
      text:
        `Price ${grouped(price)} USDT is ${percentFrom(price, last)} % below the last price ` +
        `${grouped(last)} USDT, within 10 %`,
    });
  });

  it('follows the distance set in Settings, and refuses a bad one naming the field', async () => {
    const settings = await client.ok<Settings>('settings.update', { priceWarningPercent: '50' });
    expect(settings.priceWarningPercent).toBe('50');
    const price = onTick(last.times('1.47'));
    expect(priceCheck(await review('buy', price))).toMatchObject({
      status: 'passed',
      text: expect.stringContaining(`% above the last price ${grouped(last)} USDT, within 50 %`),
    });
    await client.ok('settings.update', { priceWarningPercent: '2.5' });
    const near = onTick(last.times('0.97'));
    expect(priceCheck(await review('buy', near))).toMatchObject({
      status: 'warning',
      text: expect.stringContaining(
        `is ${percentFrom(near, last)} % below the last price ${grouped(last)} USDT, more than 2.5 %`,
      ),
    });
    for (const bad of ['ten', '0', '-5']) {
      const refused = await client.call('settings.update', { priceWarningPercent: bad });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          kind: 'invalid-input',
          field: 'priceWarningPercent',
          message: expect.stringContaining('Price warning distance'),
        },
      });
    }
    expect((await client.ok<Settings>('settings.get')).priceWarningPercent).toBe('2.5');
  });
});
