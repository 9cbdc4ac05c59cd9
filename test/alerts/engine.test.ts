/**
 * The evaluation over a real record file, on a manual clock: each kind of alert fires on its
 * crossing and once per crossing; a repeating alert waits out its cool-down, a one-shot one rests;
 * a restart neither repeats a firing nor misses a crossing made while the app was closed (candles
 * re-read over REST cover the gap); withdrawals fire on a change of status.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertTiming } from '../../shared/alerts';
import { WITHDRAW_STATUS_CODES } from '../../shared/market';
import { engineWorld, tick, type EngineWorld } from './helpers';

const MINUTE = 60_000;
let world: EngineWorld;

beforeEach(() => {
  world = engineWorld();
});
afterEach(() => {
  expect(world.log.errors).toEqual([]);
  world.close();
});

const now = () => world.clock.now();
const feed = (price: string, symbol = 'btcusdt', open24h?: string) => {
  world.clock.advance(1000);
  world.engine.observeTickers([tick(symbol, price, now(), open24h)]);
};
/** A BTCUSDT price alert, one-shot unless `timing` says otherwise. */
const priceAlert = (direction: 'above' | 'below', threshold: string, timing?: AlertTiming) =>
  world.add({ kind: 'price', symbol: 'btcusdt', direction, threshold, ...timing });

describe('price alerts', () => {
  it('fire once when the price crosses the line, not for every price beyond it', () => {
    const id = priceAlert('above', '62000');
    feed('61000');
    feed('61999.99999999');
    expect(world.fired).toHaveLength(0);
    feed('62000');
    feed('62500');
    feed('63000');
    expect(world.fired).toHaveLength(1);
    expect(world.fired[0]!.alert.id).toBe(id);
    expect(world.fired[0]!.message.body).toBe('BTCUSDT is at 62,000, above 62,000');
    // A one-shot alert rests after firing: crossing again tells nothing.
    feed('61000');
    feed('62100');
    expect(world.fired).toHaveLength(1);
    const stored = world.repository.get('profile-1', id)!;
    expect(stored.firedCount).toBe(1);
    expect(stored.lastFiredAt).toBe(world.fired[0]!.at);
    expect(stored.state.spent).toBe(true);
  });

  it('treat the first price seen as where the alert starts, not as a crossing', () => {
    priceAlert('below', '60000');
    feed('59000');
    expect(world.fired).toHaveLength(0);
    feed('61000');
    feed('60000');
    expect(world.fired).toHaveLength(1);
  });

  it('repeat after the cool-down only, a crossing inside it being held', () => {
    priceAlert('above', '100', { repeat: true, cooldownMinutes: 5 });
    feed('99');
    feed('100');
    expect(world.fired).toHaveLength(1);
    feed('99');
    feed('101'); // 2 s after the first: inside the cool-down
    expect(world.fired).toHaveLength(1);
    world.clock.advance(5 * MINUTE);
    feed('101'); // same side: no new crossing
    expect(world.fired).toHaveLength(1);
    feed('99');
    feed('100.5');
    expect(world.fired).toHaveLength(2);
  });

  it('ignore a price older than one already evaluated', () => {
    priceAlert('above', '100');
    feed('99');
    const seenAt = now();
    feed('101');
    world.engine.observeTicker(tick('btcusdt', '99', seenAt - 500));
    feed('102');
    expect(world.fired).toHaveLength(1);
  });

  it('leave other markets alone', () => {
    priceAlert('above', '100');
    feed('99');
    feed('1000', 'ethusdt');
    expect(world.fired).toHaveLength(0);
  });
});

describe('across a restart', () => {
  it('does not fire again for a crossing already told', () => {
    priceAlert('above', '100', { repeat: true, cooldownMinutes: 1 });
    feed('99');
    feed('101');
    expect(world.fired).toHaveLength(1);
    world.restart();
    world.clock.advance(10 * MINUTE);
    feed('101.5');
    expect(world.fired).toHaveLength(1);
  });

  it('fires once for a crossing made while closed, from the candles of the gap', () => {
    priceAlert('above', '100');
    feed('99');
    const closedAt = now();
    world.restart();
    world.clock.advance(30 * MINUTE);
    // The price went over the line and came back while the app was closed.
    const start = Math.floor(closedAt / MINUTE) * MINUTE;
    const candles = [
      [start, '99', '99.5', '98', '99'],
      [start + MINUTE, '99', '100.2', '98.5', '99.1'],
      [start + 2 * MINUTE, '99.1', '101', '99', '99.2'],
      [start + 3 * MINUTE, '99.2', '99.4', '99', '99.3'],
    ] as const;
    expect(world.engine.lastSeen('btcusdt')).toBe(closedAt);
    world.engine.observeGap('btcusdt', candles, MINUTE, closedAt);
    expect(world.fired).toHaveLength(1);
    expect(world.fired[0]!.message.body).toContain('crossed while the stream was away');
    expect(world.fired[0]!.message.body).toContain('at 100.2');
    // Read twice (a second reconnect over the same time): still once.
    world.engine.observeGap('btcusdt', candles, MINUTE, closedAt);
    expect(world.fired).toHaveLength(1);
  });

  it('does not count prices of the candle it had already seen part of', () => {
    priceAlert('above', '100', { repeat: true, cooldownMinutes: 1 });
    feed('99');
    feed('100'); // fired
    feed('99.5');
    const seen = now();
    expect(world.fired).toHaveLength(1);
    world.clock.advance(10 * MINUTE);
    const start = Math.floor(seen / MINUTE) * MINUTE;
    // The candle holding `seen` reached 100 before it (the crossing already told); nothing after.
    world.engine.observeGap(
      'btcusdt',
      [
        [start, '99', '100', '99', '99.5'],
        [start + MINUTE, '99.5', '99.8', '99.1', '99.4'],
      ],
      MINUTE,
      seen,
    );
    expect(world.fired).toHaveLength(1);
  });
});

describe('price-move alerts', () => {
  it('measure 24 h against the ticker open, firing once per excursion', () => {
    world.add({
      kind: 'price-move',
      symbol: 'ethusdt',
      direction: 'either',
      threshold: '5',
      window: '24h',
      repeat: true,
      cooldownMinutes: 1,
    });
    feed('3100', 'ethusdt', '3000');
    feed('3149.99', 'ethusdt', '3000');
    expect(world.fired).toHaveLength(0);
    feed('3150', 'ethusdt', '3000');
    feed('3200', 'ethusdt', '3000');
    expect(world.fired).toHaveLength(1);
    expect(world.fired[0]!.message.body).toBe('ETHUSDT moved +5 % within 24h (now 3,150)');
    world.clock.advance(MINUTE);
    feed('3000', 'ethusdt', '3000');
    feed('2850', 'ethusdt', '3000');
    expect(world.fired).toHaveLength(2);
    expect(world.fired[1]!.message.body).toContain('moved -5 %');
  });

  it('measure 1 h against the price an hour before, from candles and the stream', () => {
    world.add({
      kind: 'price-move',
      symbol: 'btcusdt',
      direction: 'down',
      threshold: '2',
      window: '1h',
    });
    const hourAgo = Math.floor((now() - 61 * MINUTE) / MINUTE) * MINUTE;
    world.engine.seedMinutes(
      'btcusdt',
      Array.from(
        { length: 61 },
        (_, i) => [hourAgo + i * MINUTE, '100', '100', '100', '100'] as const,
      ),
    );
    feed('99');
    expect(world.fired).toHaveLength(0);
    feed('98.01');
    expect(world.fired).toHaveLength(0);
    feed('98');
    expect(world.fired).toHaveLength(1);
    expect(world.fired[0]!.message.body).toContain('moved -2 % within 1h');
  });

  it('start from the market price already seen when made, so the next price can cross', () => {
    priceAlert('above', '200');
    feed('110', 'btcusdt', '100');
    world.add({
      kind: 'price-move',
      symbol: 'btcusdt',
      direction: 'up',
      threshold: '20',
      window: '24h',
    });
    // One tick after the alert was made, already beyond its line: a crossing.
    feed('125', 'btcusdt', '100');
    expect(world.fired.map((f) => f.message.body)).toEqual([
      'BTCUSDT moved +25 % within 24h (now 125)',
    ]);
  });

  it('stay quiet without a price an hour old', () => {
    world.add({
      kind: 'price-move',
      symbol: 'btcusdt',
      direction: 'up',
      threshold: '1',
      window: '1h',
    });
    feed('100');
    feed('150');
    expect(world.fired).toHaveLength(0);
  });
});

describe('balance and portfolio alerts', () => {
  it('fire on the free balance crossing, whatever case the asset is written in', () => {
    world.add({ kind: 'balance', asset: 'usdt', direction: 'below', threshold: '100' });
    world.engine.observeBalances([{ asset: 'USDT', free: '150' }], now());
    world.engine.observeBalances([{ asset: 'USDT', free: '100.5' }], now() + 1);
    expect(world.fired).toHaveLength(0);
    world.engine.observeBalances([{ asset: 'USDT', free: '99.99999999' }], now() + 2);
    expect(world.fired).toHaveLength(1);
    expect(world.fired[0]!.message.body).toBe('Free USDT is 99.99999999 USDT, below 100 USDT');
  });

  it('count an asset gone from a full read as zero', () => {
    world.add({ kind: 'balance', asset: 'btc', direction: 'below', threshold: '0.1' });
    world.engine.observeBalances([{ asset: 'btc', free: '1' }], now());
    world.engine.observeMissingBalances(new Set(['usdt']), now() + 1);
    expect(world.fired).toHaveLength(1);
  });

  it('fire on the portfolio value crossing its line in its quote asset only', () => {
    world.add({ kind: 'portfolio', asset: 'usdt', direction: 'above', threshold: '10000' });
    world.engine.observePortfolio('usdt', '9999.5', now());
    world.engine.observePortfolio('btc', '20000', now() + 1);
    world.engine.observePortfolio('usdt', '10000.00000001', now() + 2);
    expect(world.fired).toHaveLength(1);
    expect(world.fired[0]!.message.title).toBe('Portfolio alert: value above the line');
  });
});

describe('withdrawal alerts', () => {
  const withdrawal = (id: string, status: number, coin = 'btc') => ({
    id,
    coin,
    amount: '0.5',
    status,
    createdAt: now() - MINUTE,
  });
  const { pending, success, failed } = WITHDRAW_STATUS_CODES;

  it('remember at first, then fire on each change of status, across a restart', () => {
    world.add({ kind: 'withdrawal', asset: 'btc' });
    world.engine.observeWithdrawals([withdrawal('w1', pending), withdrawal('w2', success)], now());
    expect(world.fired).toHaveLength(0);
    // What it remembers is in the record: a restart does not take the statuses as news.
    world.restart();
    world.engine.observeWithdrawals([withdrawal('w1', pending), withdrawal('w2', success)], now());
    expect(world.fired).toHaveLength(0);
    world.engine.observeWithdrawals([withdrawal('w1', success), withdrawal('w2', success)], now());
    expect(world.fired).toHaveLength(1);
    expect(world.fired[0]!.message.body).toBe('Withdrawal of 0.5 BTC: pending → success');
  });

  it('fire for a new withdrawal that settled unseen, and ignore other assets', () => {
    world.add({ kind: 'withdrawal', asset: null, repeat: true, cooldownMinutes: 1 });
    world.engine.observeWithdrawals([], now());
    world.clock.advance(MINUTE);
    world.engine.observeWithdrawals(
      [withdrawal('w3', failed, 'eth'), withdrawal('w4', pending)],
      now(),
    );
    expect(world.fired.map((f) => f.message.body)).toEqual([
      'Withdrawal of 0.5 ETH: not seen → failed',
    ]);
  });
});

describe('pausing and one-shot rest', () => {
  it('leaves paused and fired one-shot alerts out of the evaluation', () => {
    const id = priceAlert('above', '100');
    world.repository.setPaused('profile-1', id, true, now());
    world.engine.applyChange(id);
    feed('99');
    feed('101');
    expect(world.fired).toHaveLength(0);
    expect(world.engine.activeCount).toBe(0);
  });
});
