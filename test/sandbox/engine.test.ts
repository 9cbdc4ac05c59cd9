import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { MatchingEngine, type MarketConfig } from '../../electron/sandbox/engine';
import { SandboxError } from '../../electron/sandbox/errors';
import { SandboxEvents } from '../../electron/sandbox/events';
import { formatFixed, parseFixed } from '../../electron/sandbox/fixed';
import { Ledger } from '../../electron/sandbox/ledger';

const MARKET: MarketConfig = {
  symbol: 'btcusdt',
  baseAsset: 'btc',
  quoteAsset: 'usdt',
  tickSize: '0.01',
  minPrice: '0.01',
  baseAssetPrecision: 6,
  quoteAssetPrecision: 8,
};

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const events = new SandboxEvents();
  const ledger = new Ledger(clock, events);
  const engine = new MatchingEngine(clock, events, ledger, [MARKET]);
  const fund = (account: number, usdt: string, btc: string) => {
    ledger.credit(account, 'usdt', parseFixed(usdt)!);
    ledger.credit(account, 'btc', parseFixed(btc)!);
  };
  const bal = (account: number, asset: string) => {
    const b = ledger.balance(account, asset);
    return { free: formatFixed(b.free), locked: formatFixed(b.locked) };
  };
  return { clock, events, ledger, engine, fund, bal };
}

const limit = (side: 'buy' | 'sell', quantity: string, price: string, clientOrderId?: string) => ({
  symbol: 'btcusdt',
  side,
  type: 'limit' as const,
  quantity,
  price,
  ...(clientOrderId ? { clientOrderId } : {}),
});

describe('MatchingEngine', () => {
  it('crosses a buy with a resting sell at the maker price, fees in the received asset', () => {
    const { engine, fund, bal } = setup();
    fund(1, '0', '1');
    fund(2, '100000', '0');
    engine.placeOrder(1, limit('sell', '0.5', '60000'));
    expect(bal(1, 'btc')).toEqual({ free: '0.5', locked: '0.5' });
    const buy = engine.placeOrder(2, limit('buy', '0.5', '61000'));
    expect(buy).toMatchObject({ status: 'done', executedQty: '0.5' });
    // Buyer paid 30000 at the maker price; the excess lock (0.5 × 1000) was released.
    expect(bal(2, 'usdt')).toEqual({ free: '70000', locked: '0' });
    expect(bal(2, 'btc')).toEqual({ free: '0.499', locked: '0' }); // taker 0.2% of 0.5 btc
    expect(bal(1, 'usdt')).toEqual({ free: '29970', locked: '0' }); // maker 0.1% of 30000
    expect(bal(1, 'btc')).toEqual({ free: '0.5', locked: '0' });
    const [trade] = engine.myTrades(2, {});
    expect(trade).toMatchObject({
      price: '60000',
      qty: '0.5',
      quoteQty: '30000',
      fee: '0.001',
      feeCurrency: 'btc',
      side: 'buy',
      isBuyerMaker: false,
    });
    expect(engine.myTrades(1, {})[0]).toMatchObject({
      fee: '30',
      feeCurrency: 'usdt',
      side: 'sell',
    });
    expect(engine.recentTrades('btcusdt', 10)).toHaveLength(1);
    expect(engine.lastPrice('btcusdt')).toBe('60000');
  });

  it('fills partially and rests the remainder', () => {
    const { engine, fund, bal } = setup();
    fund(1, '0', '1');
    fund(2, '100000', '0');
    engine.placeOrder(1, limit('sell', '0.2', '60000'));
    const buy = engine.placeOrder(2, limit('buy', '0.5', '60000'));
    expect(buy).toMatchObject({ status: 'wait', executedQty: '0.2' });
    expect(engine.depth('btcusdt', 5)).toMatchObject({ bids: [['60000', '0.3']], asks: [] });
    expect(bal(2, 'usdt')).toEqual({ free: '70000', locked: '18000' });
  });

  it('honours price-time priority', () => {
    const { engine, fund } = setup();
    for (const id of [1, 2, 3]) fund(id, '0', '1');
    fund(9, '1000000', '0');
    const late = engine.placeOrder(1, limit('sell', '0.1', '60000'));
    const better = engine.placeOrder(2, limit('sell', '0.1', '59990'));
    const later = engine.placeOrder(3, limit('sell', '0.1', '60000'));
    engine.placeOrder(9, limit('buy', '0.15', '60000'));
    expect(engine.getOrder(2, { orderId: better.id }).status).toBe('done');
    expect(engine.getOrder(1, { orderId: late.id }).executedQty).toBe('0.05');
    expect(engine.getOrder(3, { orderId: later.id }).executedQty).toBe('0');
    expect(engine.depth('btcusdt', 5).asks).toEqual([['60000', '0.15']]);
  });

  it('keeps a stop_limit idle until the last price crosses its stopPrice, then trades it', () => {
    const { engine, fund } = setup();
    fund(1, '0', '2');
    fund(2, '1000000', '0');
    fund(3, '1000000', '0');
    const stop = engine.placeOrder(3, {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'stop_limit',
      quantity: '0.1',
      price: '61000',
      stopPrice: '60500',
    });
    expect(stop.status).toBe('idle');
    expect(stop.stopPrice).toBe('60500');
    engine.placeOrder(1, limit('sell', '0.1', '60000'));
    engine.placeOrder(2, limit('buy', '0.1', '60000'));
    expect(engine.getOrder(3, { orderId: stop.id }).status).toBe('idle');
    engine.placeOrder(1, limit('sell', '0.1', '60500'));
    engine.placeOrder(2, limit('buy', '0.1', '60500'));
    // Last = 60500 >= stopPrice: the stop became a limit buy at 61000 and rests (no asks left).
    expect(engine.getOrder(3, { orderId: stop.id }).status).toBe('wait');
    engine.placeOrder(1, limit('sell', '0.1', '60800'));
    expect(engine.getOrder(3, { orderId: stop.id })).toMatchObject({
      status: 'done',
      executedQty: '0.1',
    });
  });

  it('releases locks on cancel and cancel-all', () => {
    const { engine, fund, bal } = setup();
    fund(1, '10000', '1');
    const a = engine.placeOrder(1, limit('buy', '0.1', '50000'));
    engine.placeOrder(1, limit('sell', '0.3', '70000'));
    engine.placeOrder(1, {
      symbol: 'btcusdt',
      side: 'sell',
      type: 'stop_limit',
      quantity: '0.2',
      price: '40000',
      stopPrice: '41000',
    });
    expect(bal(1, 'usdt')).toEqual({ free: '5000', locked: '5000' });
    expect(bal(1, 'btc')).toEqual({ free: '0.5', locked: '0.5' });
    expect(engine.cancelOrder(1, 'btcusdt', { orderId: a.id }).status).toBe('cancel');
    expect(bal(1, 'usdt')).toEqual({ free: '10000', locked: '0' });
    const canceled = engine.cancelAll(1, 'btcusdt');
    expect(canceled.map((o) => o.status)).toEqual(['cancel', 'cancel']);
    expect(bal(1, 'btc')).toEqual({ free: '1', locked: '0' });
    expect(engine.openOrders(1)).toEqual([]);
    expect(() => engine.cancelOrder(1, 'btcusdt', { orderId: a.id })).toThrow(SandboxError);
  });

  it('refuses an order beyond the free balance with 2002 and no state change', () => {
    const { engine, fund, bal } = setup();
    fund(1, '100', '0');
    try {
      engine.placeOrder(1, limit('buy', '1', '60000'));
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 2002,
        httpStatus: 400,
        message: 'Not enough USDT balance to execute this order',
      });
    }
    expect(bal(1, 'usdt')).toEqual({ free: '100', locked: '0' });
    expect(engine.allOrders(1, { symbol: 'btcusdt' })).toEqual([]);
    expect(engine.depth('btcusdt', 5)).toMatchObject({ asks: [], bids: [] });
  });

  it('generates 32-hex clientOrderIds and refuses a duplicate open one', () => {
    const { engine, fund } = setup();
    fund(1, '100000', '0');
    expect(engine.placeOrder(1, limit('buy', '0.01', '100')).clientOrderId).toMatch(
      /^[0-9a-f]{32}$/,
    );
    engine.placeOrder(1, limit('buy', '0.01', '100', 'mine'));
    expect(() => engine.placeOrder(1, limit('buy', '0.01', '100', 'mine'))).toThrow(
      'Duplicate clientOrderId.',
    );
    engine.cancelOrder(1, 'btcusdt', { clientOrderId: 'mine' });
    expect(engine.placeOrder(1, limit('buy', '0.01', '100', 'mine')).status).toBe('wait');
  });

  it('emits order, trade, balance and book events', () => {
    const { engine, fund, events, ledger } = setup();
    const seen: string[] = [];
    events.on('order', (o) => seen.push(`order:${o.status}`));
    events.on('trade', () => seen.push('trade'));
    events.on('balance', (b) => seen.push(`balance:${b.accountId}`));
    events.on('book', () => seen.push('book'));
    fund(1, '0', '1');
    fund(2, '100000', '0');
    ledger.flush();
    seen.length = 0;
    engine.placeOrder(1, limit('sell', '0.1', '60000'));
    expect(seen).toEqual(['order:wait', 'book', 'balance:1']);
    seen.length = 0;
    engine.placeOrder(2, limit('buy', '0.1', '60000'));
    expect(seen).toEqual([
      'order:wait',
      'order:done',
      'order:done',
      'trade',
      'book',
      'balance:2',
      'balance:1',
    ]);
  });

  it('aggregates klines and the rolling 24h ticker from trades', () => {
    const { engine, fund, clock } = setup();
    fund(1, '0', '10');
    fund(2, '10000000', '0');
    const trade = (price: string) => {
      engine.placeOrder(1, limit('sell', '0.1', price));
      engine.placeOrder(2, limit('buy', '0.1', price));
    };
    trade('60000');
    clock.advance(30_000);
    trade('60100');
    clock.advance(60_000);
    trade('59900');
    const start = Date.UTC(2026, 0, 1);
    expect(engine.klines('btcusdt', { interval: '1m', limit: 10 })).toEqual([
      [start, '60000', '60100', '60000', '60100', '0.2'],
      [start + 60_000, '59900', '59900', '59900', '59900', '0.1'],
    ]);
    expect(engine.klines('btcusdt', { interval: '1h', limit: 10 })).toEqual([
      [start, '60000', '60100', '59900', '59900', '0.3'],
    ]);
    expect(
      engine.klines('btcusdt', { interval: '1m', limit: 10, startTime: start + 1 }),
    ).toHaveLength(1);
    expect(engine.klines('btcusdt', { interval: '1m', limit: 10, endTime: start })).toHaveLength(1);
    expect(engine.ticker('btcusdt')).toMatchObject({
      openPrice: '60000',
      highPrice: '60100',
      lowPrice: '59900',
      lastPrice: '59900',
      volume: '0.3',
    });
    clock.advance(86_400_000);
    expect(engine.ticker('btcusdt')).toMatchObject({ volume: '0', lastPrice: '59900' });
  });

  it('conserves every asset (balances + fees) and never goes negative on random flows', () => {
    const accounts = [1, 2, 3, 4];
    const action = fc.oneof(
      fc.record({
        kind: fc.constant('place' as const),
        account: fc.constantFrom(...accounts),
        side: fc.constantFrom('buy' as const, 'sell' as const),
        stop: fc.boolean(),
        priceTicks: fc.integer({ min: 5990000, max: 6010000 }),
        stopTicks: fc.integer({ min: 5990000, max: 6010000 }),
        qty: fc.integer({ min: 1, max: 300000 }),
      }),
      fc.record({
        kind: fc.constant('cancel' as const),
        account: fc.constantFrom(...accounts),
        pick: fc.nat(),
      }),
      fc.record({ kind: fc.constant('cancelAll' as const), account: fc.constantFrom(...accounts) }),
    );
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 120 }), (actions) => {
        const { engine, fund, ledger } = setup();
        for (const id of accounts) fund(id, '500000', '8');
        const total = (asset: string) =>
          accounts.reduce((sum, id) => {
            const b = ledger.balance(id, asset);
            if (b.free < 0n || b.locked < 0n) throw new Error(`negative ${asset} for ${id}`);
            return sum + b.free + b.locked;
          }, 0n) + (ledger.feesCollected.get(asset) ?? 0n);
        const expected = { usdt: total('usdt'), btc: total('btc') };
        for (const a of actions) {
          try {
            if (a.kind === 'place') {
              const price = formatFixed(BigInt(a.priceTicks) * 10n ** 16n);
              const quantity = formatFixed(BigInt(a.qty) * 10n ** 12n);
              if (a.stop) {
                engine.placeOrder(a.account, {
                  symbol: 'btcusdt',
                  side: a.side,
                  type: 'stop_limit',
                  quantity,
                  price,
                  stopPrice: formatFixed(BigInt(a.stopTicks) * 10n ** 16n),
                });
              } else {
                engine.placeOrder(a.account, {
                  symbol: 'btcusdt',
                  side: a.side,
                  type: 'limit',
                  quantity,
                  price,
                });
              }
            } else if (a.kind === 'cancel') {
              const open = engine.openOrders(a.account);
              const order = open[a.pick % Math.max(1, open.length)];
              if (order) engine.cancelOrder(a.account, 'btcusdt', { orderId: order.id });
            } else {
              engine.cancelAll(a.account, 'btcusdt');
            }
          } catch (error) {
            if (!(error instanceof SandboxError) || error.code !== 2002) throw error;
          }
          expect(total('usdt')).toBe(expected.usdt);
          expect(total('btc')).toBe(expected.btc);
        }
        // Locked balances equal what open orders still hold.
        for (const id of accounts) engine.cancelAll(id, 'btcusdt');
        for (const id of accounts) {
          expect(ledger.balance(id, 'usdt').locked).toBe(0n);
          expect(ledger.balance(id, 'btc').locked).toBe(0n);
        }
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
