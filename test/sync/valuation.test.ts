import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExchangeClient, type Ticker } from '../../electron/exchange';
import { startSandbox } from '../../electron/sandbox';
import { openStore, type Store } from '../../electron/store';
import { storePort } from '../../electron/sync/store-port';
import {
  fundsView,
  portfolioHistory,
  portfolioSummary,
  takeValueSnapshot,
} from '../../electron/sync/valuation';

const PROFILE = 'p1';
const AT = Date.UTC(2026, 10, 22, 12, 0, 0);

function ticker(base: string, quote: string, last: string, open: string): Ticker {
  return {
    symbol: `${base}${quote}`,
    baseAsset: base,
    quoteAsset: quote,
    lastPrice: last,
    openPrice: open,
    highPrice: last,
    lowPrice: open,
    volume: '10',
    bidPrice: last,
    askPrice: last,
    at: AT,
  };
}

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spotfolio-valuation-'));
  store = openStore({ dataDir: dir }).store;
  store.profiles.create({
    id: PROFILE,
    name: 'Test',
    baseUrl: 'http://127.0.0.1:1',
    streamUrl: 'ws://127.0.0.1:1/ws',
    apiKeyMasked: 'abcd…wxyz',
    canTrade: false,
    canWithdraw: false,
    isDemo: false,
    createdAt: AT,
  });
  const port = storePort(store);
  port.transaction(() => {
    port.replaceTickers(
      PROFILE,
      [
        ticker('btc', 'usdt', '60000', '50000'), // direct
        ticker('usdt', 'try', '40', '40'), // inverse for try -> usdt
        ticker('eth', 'btc', '0.05', '0.05'), // bridged eth -> btc -> usdt
      ],
      AT,
    );
    port.replaceFunds(
      PROFILE,
      [
        { asset: 'usdt', free: '100.5', locked: '0' },
        { asset: 'btc', free: '0.1', locked: '0.05' },
        { asset: 'try', free: '1000', locked: '0' },
        { asset: 'eth', free: '2', locked: '0' },
        { asset: 'zzz', free: '7', locked: '0' },
        { asset: 'nil', free: '0', locked: '0' },
      ],
      AT,
    );
  });
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('portfolioSummary', () => {
  it('values direct, inverse and bridged holdings exactly, with the 24h change', () => {
    const summary = portfolioSummary(store, PROFILE, 'usdt');
    // usdt 100.5 + btc 0.15*60000=9000 + try 1000/40=25 + eth 2*0.05*60000=6000
    expect(summary.totalValue).toBe('15125.5');
    // 24h open: 100.5 + 0.15*50000=7500 + 25 + 2*0.05*50000=5000 = 12625.5
    expect(summary.change24hValue).toBe('2500');
    expect(summary.change24hPercent).toBe('19.8012');
    expect(summary.unpriced).toEqual(['zzz']);
    expect(summary.allocation.map((s) => [s.asset, s.value, s.share])).toEqual([
      ['btc', '9000', '0.595022'],
      ['eth', '6000', '0.396681'],
      ['usdt', '100.5', '0.006644'],
      ['try', '25', '0.001653'],
    ]);
    expect(summary.asOf).toBe(AT);
  });

  it('values in another quote asset through the inverse and bridge pairs', () => {
    const summary = portfolioSummary(store, PROFILE, 'try');
    // usdt, btc and try in usdt (9125.5) times 40; eth would need two bridges (eth-btc-usdt-try)
    expect(summary.totalValue).toBe('365020');
    expect(summary.unpriced).toEqual(['eth', 'zzz']);
  });
});

describe('fundsView', () => {
  it('gives price and value per row, null for unpriced, and stale past 2x freshness', () => {
    const view = fundsView(store, PROFILE, 'usdt', AT + 30_000);
    const btc = view.rows.find((r) => r.asset === 'btc')!;
    expect([btc.total, btc.price, btc.value]).toEqual(['0.15', '60000', '9000']);
    const zzz = view.rows.find((r) => r.asset === 'zzz')!;
    expect([zzz.price, zzz.value]).toEqual([null, null]);
    expect(view.stale).toBe(false);
    expect(fundsView(store, PROFILE, 'usdt', AT + 30_001).stale).toBe(true);
  });
});

describe('value snapshots', () => {
  it('records the total and per-asset values', () => {
    const port = storePort(store);
    port.transaction(() => takeValueSnapshot(port, PROFILE, 'usdt', AT));
    const [snapshot] = port.snapshots(PROFILE, 'usdt', AT - 1, AT + 1);
    expect(snapshot!.totalValue).toBe('15125.5');
    expect(snapshot!.assets.find((a) => a.asset === 'zzz')!.value).toBeNull();
  });
});

describe('history at current holdings and past prices', () => {
  it('fetches each finished candle once, then draws from the store, offline too', async () => {
    const sandbox = await startSandbox({ world: 'demo', rateLimits: false });
    const client = new ExchangeClient({
      baseUrl: sandbox.baseUrl,
      rateLimits: false,
      timeoutMs: 2000,
    });
    const klineCalls: string[] = [];
    const klines = client.market.klines.bind(client.market);
    client.market.klines = (params) => {
      klineCalls.push(params.symbol);
      return klines(params);
    };
    try {
      const port = storePort(store);
      port.replaceFunds(PROFILE, [{ asset: 'btc', free: '2', locked: '0' }], AT);
      // Ten minutes into an hour, so a minute later is still the same hourly candle.
      const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 50 * 60_000;
      const first = await portfolioHistory(store, client, PROFILE, 'usdt', 'week', now);
      expect(klineCalls).toEqual(['btcusdt']);
      // No snapshot yet: the hourly candles of the week, the one still open left out, are an
      // estimate at today's holdings; the last point is the total now.
      const estimated = first.points.slice(0, -1);
      expect(estimated.length).toBeGreaterThan(70); // three days of hourly candles, daily before
      expect(estimated.every((p) => p.source === 'backfill')).toBe(true);
      expect(estimated.at(-1)!.time).toBeLessThanOrEqual(now - 3_600_000);
      expect(first.points.at(-1)).toEqual({
        time: now,
        value: portfolioSummary(store, PROFILE, 'usdt').totalValue,
        source: 'current',
      });
      expect(first.estimate).toEqual({ until: now, basis: 'current-holdings' });

      // Again, a minute later: every finished candle is known, nothing is asked.
      const again = await portfolioHistory(store, client, PROFILE, 'usdt', 'week', now + 60_000);
      expect(klineCalls).toHaveLength(1);
      expect(again.points.slice(0, -1)).toEqual(
        estimated.filter((p) => p.time >= now + 60_000 - 7 * 86_400_000),
      );

      // An hour on, only the candle that closed meanwhile is asked for.
      await portfolioHistory(store, client, PROFILE, 'usdt', 'week', now + 3_600_000);
      expect(klineCalls).toHaveLength(2);

      // The exchange out of reach: the chart still draws from the store.
      await sandbox.close();
      const offline = await portfolioHistory(
        store,
        client,
        PROFILE,
        'usdt',
        'week',
        now + 7_200_000,
      );
      expect(offline.points.length).toBeGreaterThan(70);
      expect(klineCalls).toHaveLength(3);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });

  it('ends every range on the total now, and estimates from the first snapshot without a step', async () => {
    const sandbox = await startSandbox({ world: 'demo', rateLimits: false });
    const client = new ExchangeClient({
      baseUrl: sandbox.baseUrl,
      rateLimits: false,
      timeoutMs: 2000,
    });
    try {
      const port = storePort(store);
      const now = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 50 * 60_000;
      // Two days ago 1 BTC was held (the first snapshot); today 2 BTC are.
      const firstAt = now - 2 * 86_400_000;
      port.addSnapshot(PROFILE, {
        takenAt: firstAt,
        quoteAsset: 'usdt',
        totalValue: '60000',
        assets: [{ asset: 'btc', total: '1', value: '60000' }],
      });
      port.addSnapshot(PROFILE, {
        takenAt: now - 86_400_000,
        quoteAsset: 'usdt',
        totalValue: '61000',
        assets: [{ asset: 'btc', total: '1', value: '61000' }],
      });
      port.replaceFunds(PROFILE, [{ asset: 'btc', free: '2', locked: '0' }], AT);
      const total = portfolioSummary(store, PROFILE, 'usdt').totalValue;
      for (const range of ['day', 'week', 'month', 'year', 'all'] as const) {
        const history = await portfolioHistory(store, client, PROFILE, 'usdt', range, now);
        expect(history.points.at(-1), range).toEqual({
          time: now,
          value: total,
          source: 'current',
        });
      }
      const week = await portfolioHistory(store, client, PROFILE, 'usdt', 'week', now);
      expect(week.estimate).toEqual({ until: firstAt, basis: 'first-snapshot' });
      const estimated = week.points.filter((p) => p.source === 'backfill');
      expect(estimated.length).toBeGreaterThan(0);
      expect(estimated.every((p) => p.time < firstAt)).toBe(true);
      // The estimate holds the first snapshot's 1 BTC, not today's 2: its values are one BTC's
      // price (the sandbox's BTC trades near 60,000), so it meets the snapshot of 60,000.
      const lastEstimate = Number(estimated.at(-1)!.value);
      expect(lastEstimate).toBeGreaterThan(30_000);
      expect(lastEstimate).toBeLessThan(90_000);
      // The day range lies after the first snapshot: nothing in it is an estimate.
      const day = await portfolioHistory(store, client, PROFILE, 'usdt', 'day', now);
      expect(day.estimate).toBeNull();
      expect(day.points.map((p) => p.source)).toEqual(['snapshot', 'current']);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});

describe('a snapshot before the first prices', () => {
  it('is not taken: a value of the quote asset alone would read as a fall', () => {
    const port = storePort(store);
    store.profiles.create({
      id: 'fresh',
      name: 'Fresh',
      baseUrl: 'http://127.0.0.1:1',
      streamUrl: 'ws://127.0.0.1:1/ws',
      apiKeyMasked: 'abcd…wxyz',
      canTrade: false,
      canWithdraw: false,
      isDemo: false,
      createdAt: AT,
    });
    port.replaceFunds(
      'fresh',
      [
        { asset: 'usdt', free: '100', locked: '0' },
        { asset: 'btc', free: '1', locked: '0' },
      ],
      AT,
    );
    port.transaction(() => takeValueSnapshot(port, 'fresh', 'usdt', AT));
    expect(port.snapshots('fresh', 'usdt', 0, AT + 1)).toEqual([]);
    port.replaceTickers('fresh', [ticker('btc', 'usdt', '60000', '50000')], AT);
    port.transaction(() => takeValueSnapshot(port, 'fresh', 'usdt', AT + 1));
    expect(port.snapshots('fresh', 'usdt', 0, AT + 1).map((s) => s.totalValue)).toEqual(['60100']);
  });
});
