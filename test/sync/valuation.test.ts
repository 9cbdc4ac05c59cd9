import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import DecimalJs from 'decimal.js';
import type { Ticker } from '../../electron/exchange';
import { openStore, type Store } from '../../electron/store';
import { storePort } from '../../electron/sync/store-port';
import { fundsView, portfolioSummary, takeValueSnapshot } from '../../electron/sync/valuation';

const PROFILE = 'p1';
/** Products and sums exact here (decimal.js rounds to 20 digits by default). */
const Decimal = DecimalJs.clone({ precision: 200 });
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

  it('keeps every digit of a value through an inverse pair: only the division rounds', () => {
    const summary = portfolioSummary(store, PROFILE, 'btc');
    // One USDT in BTC is 1 / 60000 by divide()'s rule: 40 significant digits but at most 40
    // fraction digits, half-even.
    const usdtInBtc = '0.0000166666666666666666666666666666666667';
    // TRY in BTC: 1 / (40 × 60000), one division along the path.
    const tryInBtc = '0.0000004166666666666666666666666666666667';
    const usdt = new Decimal('100.5').mul(usdtInBtc);
    const tryValue = new Decimal('1000').mul(tryInBtc);
    // btc 0.15 + eth 2 × 0.05 = 0.1, both exact.
    const total = usdt.plus(tryValue).plus('0.25');
    expect(summary.totalValue).toBe(total.toFixed());
    expect(summary.totalValue.split('.')[1]!.length).toBeGreaterThan(8);
    const allocation = new Map(summary.allocation.map((s) => [s.asset, s.value]));
    expect(allocation.get('usdt')).toBe(usdt.toFixed());
    expect(allocation.get('try')).toBe(tryValue.toFixed());
    expect(allocation.get('btc')).toBe('0.15');
    // The 24h change, exact too: at the open one USDT is 1 / 50000 BTC.
    const open = new Decimal('100.5')
      .mul('0.00002')
      .plus(new Decimal('1000').mul('0.0000005'))
      .plus('0.25');
    expect(summary.change24hValue).toBe(total.minus(open).toFixed());
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
