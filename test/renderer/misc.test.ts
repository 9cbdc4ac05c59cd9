import { describe, expect, it } from 'vitest';
import type { ActivityItem, OrderUpdate } from '../../shared/types';
import { parseRoute, routeHash } from '../../renderer/src/lib/router';
import { candleDomain, priceToY, toCandles } from '../../renderer/src/lib/candles';
import { ladder, spread } from '../../renderer/src/lib/depth';
import { mergeFeed } from '../../renderer/src/lib/feed';
import { dateInputToMs } from '../../renderer/src/lib/dates';
import { errorInfo } from '../../renderer/src/lib/bridge';

describe('hash routes', () => {
  it('parses screens and symbol pages, defaulting to the portfolio', () => {
    expect(parseRoute('#/funds')).toEqual({ screen: 'funds' });
    expect(parseRoute('#/markets/BTCUSDT')).toEqual({ screen: 'markets', symbol: 'btcusdt' });
    expect(parseRoute('#/markets/bad-symbol!')).toEqual({ screen: 'markets' });
    expect(parseRoute('')).toEqual({ screen: 'portfolio' });
    expect(parseRoute('#/nowhere')).toEqual({ screen: 'portfolio' });
    expect(parseRoute('#/settings/profile/p-1_a')).toEqual({
      screen: 'settings',
      profile: 'p-1_a',
    });
    expect(parseRoute('#/settings/profile/bad id!')).toEqual({ screen: 'settings' });
    expect(parseRoute('#/portfolio/all')).toEqual({ screen: 'portfolio', all: true });
  });

  it('round-trips', () => {
    for (const route of [
      { screen: 'withdrawals' as const },
      { screen: 'markets' as const, symbol: 'ethbtc' },
      { screen: 'settings' as const, profile: 'abc-123' },
      { screen: 'portfolio' as const, all: true as const },
    ]) {
      expect(parseRoute(routeHash(route))).toEqual(route);
    }
  });
});

describe('candles', () => {
  const candles = toCandles([
    { time: 1, open: '10', high: '12', low: '9', close: '11', volume: '1' },
    { time: 2, open: '11', high: '11.5', low: '8', close: '8.5', volume: '1' },
  ]);

  it('marks rising and falling candles and spans low..high', () => {
    expect(candles.map((c) => [c.rising, c.range])).toEqual([
      [true, [9, 12]],
      [false, [8, 11.5]],
    ]);
  });

  it('maps a price to a pixel inside the bar', () => {
    expect(priceToY(12, 12, 9, 100, 30)).toBe(100);
    expect(priceToY(9, 12, 9, 100, 30)).toBe(130);
    expect(priceToY(10.5, 12, 9, 100, 30)).toBe(115);
    expect(priceToY(5, 5, 5, 100, 30)).toBe(115);
  });

  it('pads the domain around the lows and highs', () => {
    const [low, high] = candleDomain(candles);
    expect(low).toBeLessThan(8);
    expect(high).toBeGreaterThan(12);
    expect(candleDomain([])).toEqual([0, 1]);
  });
});

describe('depth ladder', () => {
  it('accumulates sizes and scales bars to the deepest level', () => {
    const rows = ladder(
      [
        ['100', '1'],
        ['99', '3'],
      ],
      10,
    );
    expect(rows.map((r) => [r.cumulative, r.fill])).toEqual([
      ['1', 0.25],
      ['4', 1],
    ]);
    expect(spread([['100', '1']], [['100.5', '2']])).toBe('0.5');
    expect(spread([], [['1', '1']])).toBeNull();
  });
});

describe('mergeFeed', () => {
  const order = (orderId: number, status: OrderUpdate['status'], time: number): ActivityItem => ({
    kind: 'order',
    time,
    order: {
      orderId,
      clientOrderId: `c${orderId}`,
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      status,
      price: '1',
      origQty: '1',
      executedQty: '0',
      time,
    },
  });

  it('puts the newest first and drops repeats of the same event', () => {
    const merged = mergeFeed(
      [order(1, 'wait', 10)],
      [order(1, 'wait', 10), order(1, 'cancel', 20), order(2, 'wait', 15)],
    );
    expect(merged.map((i) => i.time)).toEqual([20, 15, 10]);
  });

  it('keeps at most the limit', () => {
    const many = Array.from({ length: 10 }, (_, i) => order(i, 'wait', i));
    expect(mergeFeed([], many, 3).map((i) => i.time)).toEqual([9, 8, 7]);
  });
});

describe('date filters', () => {
  it('turns a date input into the local start or end of that day', () => {
    expect(dateInputToMs('2026-11-01', false)).toBe(new Date(2026, 10, 1).getTime());
    expect(dateInputToMs('2026-11-01', true)).toBe(new Date(2026, 10, 2).getTime() - 1);
    expect(dateInputToMs('', false)).toBeUndefined();
    expect(dateInputToMs('11/01/2026', false)).toBeUndefined();
  });
});

describe('errorInfo', () => {
  it('reads a bridge error and says what to do', () => {
    const info = errorInfo({
      kind: 'insufficient-balance',
      message: 'Account has insufficient balance',
      field: 'amount',
    });
    expect(info.kind).toBe('insufficient-balance');
    expect(info.field).toBe('amount');
    expect(info.advice).toMatch(/Lower the amount/);
  });

  it('treats anything else as unknown', () => {
    expect(errorInfo('boom')).toMatchObject({ kind: 'unknown', message: 'boom' });
    expect(errorInfo({ kind: 'weird', message: 'x' }).kind).toBe('unknown');
  });
});
