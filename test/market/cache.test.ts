/**
 * The market cache against the sandbox: each answer is kept as it passes, and when the exchange
 * cannot be reached the last one kept is served instead of the error (the tickers from the prices
 * table). With nothing kept, the failure is the caller's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../electron/core/clock';
import { ExchangeError } from '../../electron/exchange';
import { createLogger } from '../../electron/log';
import { MarketCache } from '../../electron/market/cache';
import { SyncEngine } from '../../electron/sync/engine';
import { PROFILE, scenario, type Scenario } from '../sync/helpers';

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function setUp() {
  // The demo world's markets have traded, so they have candles and a book to keep.
  current = await scenario({ world: 'demo' });
  const s = current;
  const cache = new MarketCache({
    store: s.store,
    emit: s.emit,
    log: createLogger(() => undefined),
    clock: new SystemClock(),
  });
  const client = s.client();
  // Not started: no job runs, so the REST status is what the market reads tell it.
  const sync = new SyncEngine({ store: s.store, client, profileId: PROFILE, emit: s.emit });
  const session = { profile: { id: PROFILE }, client, sync };
  return { s, cache, session };
}

describe('MarketCache', () => {
  it('serves the last symbols, candles, book, recent trades and tickers kept once the exchange is gone', async () => {
    const { s, cache, session } = await setUp();
    const symbols = await cache.symbols(session);
    const klines = await cache.klines(session, {
      symbol: 'btcusdt',
      interval: '1h',
      limit: 20,
    });
    const depth = await cache.depth(session, { symbol: 'btcusdt', limit: 5 });
    const trades = await cache.trades(session, { symbol: 'btcusdt', limit: 10 });
    const tickers = await cache.tickers(session, 'usdt');
    expect(symbols.map((m) => m.symbol)).toContain('btcusdt');
    expect(klines.length).toBeGreaterThan(0);
    expect(depth.bids.length).toBeGreaterThan(0);
    expect(trades.length).toBeGreaterThan(2);
    expect(tickers.length).toBe(symbols.length);
    expect(s.events).toContainEqual({
      event: 'data.changed',
      payload: { profileId: PROFILE, kinds: ['prices'], answered: 'market.tickers' },
    });

    await s.sandbox.close();

    expect(await cache.symbols(session)).toEqual(symbols);
    // Fewer candles and levels than kept: the newest candles, the best levels.
    expect(await cache.klines(session, { symbol: 'btcusdt', interval: '1h', limit: 3 })).toEqual(
      klines.slice(-3),
    );
    expect(await cache.depth(session, { symbol: 'btcusdt', limit: 1 })).toEqual({
      ...depth,
      bids: depth.bids.slice(0, 1),
      asks: depth.asks.slice(0, 1),
    });
    // The newest of the recent trades kept, each with its own time.
    expect(await cache.trades(session, { symbol: 'btcusdt', limit: 2 })).toEqual(trades.slice(-2));
    await expect(cache.trades(session, { symbol: 'ethusdt', limit: 2 })).rejects.toMatchObject({
      kind: 'network',
    });
    const offline = await cache.tickers(session, 'usdt');
    const bySymbol = new Map(offline.map((t) => [t.symbol, t]));
    for (const ticker of tickers) {
      const kept = bySymbol.get(ticker.symbol);
      expect(kept?.lastPrice, ticker.symbol).toBe(ticker.lastPrice);
      expect(kept?.quoteVolumeValue, ticker.symbol).toBe(ticker.quoteVolumeValue);
    }
  });

  it("feeds the session's REST status: a read served from the cache says the exchange is offline", async () => {
    const { s, cache, session } = await setUp();
    expect(session.sync.restStatus().state).toBe('unknown');
    await cache.tickers(session, 'usdt');
    expect(session.sync.restStatus().state).toBe('ok');
    const candles = await cache.klines(session, { symbol: 'btcusdt', interval: '1h', limit: 5 });

    // The exchange fails the candles (a 5xx): the kept ones are served, and the status hears it.
    s.sandbox.admin.faults.inject({ path: '/sapi/v1/klines' }, { kind: 'error-before' }, 100);
    expect(await cache.klines(session, { symbol: 'btcusdt', interval: '1h', limit: 5 })).toEqual(
      candles,
    );
    expect(session.sync.restStatus()).toMatchObject({ state: 'offline' });
    expect(s.events).toContainEqual({
      event: 'data.changed',
      payload: { profileId: PROFILE, kinds: ['status'] },
    });
    s.sandbox.admin.faults.clear();
    // Another market read that the exchange answers: REST is back.
    await cache.depth(session, { symbol: 'btcusdt', limit: 5 });
    expect(session.sync.restStatus().state).toBe('ok');
    // A refusal is an answer too: the exchange is there.
    await expect(
      cache.klines(session, { symbol: 'nosuchpair', interval: '1h', limit: 5 }),
    ).rejects.toBeInstanceOf(ExchangeError);
    expect(session.sync.restStatus().state).toBe('ok');

    // Gone: the kept candles are served, and the status says offline, not reached.
    await s.sandbox.close();
    expect(await cache.klines(session, { symbol: 'btcusdt', interval: '1h', limit: 5 })).toEqual(
      candles,
    );
    expect(session.sync.restStatus()).toMatchObject({ state: 'offline' });
  });

  it('passes the failure on when nothing was kept, or when the exchange refused the request', async () => {
    const { s, cache, session } = await setUp();
    await cache.klines(session, { symbol: 'btcusdt', interval: '1h', limit: 5 });
    // A refusal is an answer: the kept candles of another market are no substitute.
    await expect(
      cache.klines(session, { symbol: 'nosuchpair', interval: '1h', limit: 5 }),
    ).rejects.toBeInstanceOf(ExchangeError);
    await s.sandbox.close();
    await expect(
      cache.klines(session, { symbol: 'btcusdt', interval: '1d', limit: 5 }),
    ).rejects.toMatchObject({ kind: 'network' });
    await expect(cache.tickers(session, 'usdt')).rejects.toMatchObject({ kind: 'network' });
  });
});
