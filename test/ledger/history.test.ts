/**
 * The value history worked by hand: two trades, a withdrawal, a deposit of USDT and one of ETH
 * that the exchange does not list (inferred from the balance observations), valued at the closes
 * of 12-hour candles and, for the last minute, today's tickers. Every value below is worked out in
 * the comments; the history is built the way the app builds it (reconcile, the cost ledger, the
 * market prices), only the store is left out.
 */
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { KLINE_INTERVAL_MS, KLINE_INTERVALS } from '../../shared/market';
import { HISTORY_SPAN_MS } from '../../shared/types';
import {
  buildLedger,
  historyInterval,
  historyView,
  type KeptCandles,
  MarketPrices,
  reconcile,
  sortEntries,
  type BalanceSnapshot,
  type BuiltLedger,
  type LedgerEntry,
  type TradeEntry,
} from '../../electron/ledger';

const H = 3_600_000;
/** A multiple of 12 hours, so the candles open at T0 + 12 h × n. */
const T0 = Date.UTC(2024, 0, 1);
const NOW = T0 + 72 * H + 30 * 60_000;
const SUB = 'savings@example.test';

/** Closes of the 12-hour candles opening at T0 - 12 h, T0, T0 + 12 h, ... T0 + 60 h. */
const CLOSES: Record<string, string[]> = {
  btcusdt: ['40000', '42000', '44000', '41000', '45000', '47000', '48000'],
  ethusdt: ['2000', '2100', '2200', '2300', '2400', '2500', '2600'],
};

const trade = (
  fields: Pick<TradeEntry, 'id' | 'side' | 'qty' | 'price' | 'quoteQty' | 'time'> &
    Partial<TradeEntry>,
): TradeEntry => ({
  kind: 'trade',
  account: 'main',
  symbol: 'btcusdt',
  base: 'btc',
  quote: 'usdt',
  commission: '0',
  commissionAsset: 'btc',
  ...fields,
});

const TRADES: TradeEntry[] = [
  // 0.1 BTC for 4,000 USDT, the fee taken from the BTC received: 0.0999 BTC arrives.
  trade({
    id: '1',
    side: 'BUY',
    qty: '0.1',
    price: '40000',
    quoteQty: '4000',
    commission: '0.0001',
    time: T0 + H,
  }),
  // 0.05 BTC sold for 2,150 USDT, fee 2.15 USDT: 2,147.85 arrives.
  trade({
    id: '2',
    side: 'SELL',
    qty: '0.05',
    price: '43000',
    quoteQty: '2150',
    commission: '2.15',
    commissionAsset: 'usdt',
    time: T0 + 20 * H,
  }),
];

const OTHERS: LedgerEntry[] = [
  // 0.02 BTC withdrawn, fee 0.0005: 0.0205 leaves.
  {
    kind: 'withdrawal',
    id: 'w1',
    account: 'main',
    asset: 'btc',
    amount: '0.02',
    fee: '0.0005',
    status: 'success',
    time: T0 + 40 * H,
  },
];

/**
 * What the balances showed. At 30 h: 10,000 USDT came in (not in the records) - 4,000 + 2,147.85 =
 * 8,147.85 USDT, and 0.0999 - 0.05 = 0.0499 BTC. At 60 h: 0.0499 - 0.0205 = 0.0294 BTC and 1 ETH
 * that came in after 30 h. Now: the same. The sub-account showed 500 USDT at 30 h and now.
 */
const SNAPSHOTS: BalanceSnapshot[] = [
  {
    account: 'main',
    time: T0 + 30 * H,
    balances: { usdt: '8147.85', btc: '0.0499' },
    complete: true,
  },
  {
    account: 'main',
    time: T0 + 60 * H,
    balances: { usdt: '8147.85', btc: '0.0294', eth: '1' },
    complete: true,
  },
  {
    account: 'main',
    time: NOW,
    balances: { usdt: '8147.85', btc: '0.0294', eth: '1' },
    complete: true,
  },
  { account: SUB, time: T0 + 30 * H, balances: { usdt: '500' }, complete: true },
  { account: SUB, time: NOW, balances: { usdt: '500' }, complete: true },
];

const TICKERS = [
  { symbol: 'btcusdt', baseAsset: 'btc', quoteAsset: 'usdt', lastPrice: '50000', openPrice: '1' },
  { symbol: 'ethusdt', baseAsset: 'eth', quoteAsset: 'usdt', lastPrice: '3000', openPrice: '1' },
];

/** The ledger as service.ts builds it, from these inputs instead of a store. */
function built(): BuiltLedger {
  const known = [...TRADES, ...OTHERS];
  const inferred = reconcile(known, SNAPSHOTS);
  const entries = sortEntries([...known, ...inferred]);
  const closes = new Map(
    Object.entries(CLOSES).map(([symbol, list]) => [
      symbol,
      list.map((close, i) => ({ openTime: T0 + (i - 1) * 12 * H, close })),
    ]),
  );
  const prices = new MarketPrices(TICKERS, closes, NOW - 60_000);
  const ledger = buildLedger(entries, {
    method: 'fifo',
    reportingAsset: 'usdt',
    priceAt: prices.priceAt,
    unpricedCredits: 'missing-basis',
  });
  return {
    profileId: 'p',
    choice: { method: 'fifo', currency: 'usdt' },
    inputs: {
      trades: TRADES,
      others: OTHERS,
      snapshots: SNAPSHOTS,
      annotations: new Map(),
      annotationRows: [],
      subAccounts: [SUB],
      unseenSubAccounts: [SUB],
      unknownSymbols: [],
    },
    inferred,
    annotations: [],
    entries,
    ledger,
    prices,
    builtAt: NOW,
  };
}

/**
 * The main account's value from each time on (until the next row), by hand. The price at a time is
 * the close of the last candle finished by then (a candle opening at T finishes at T + 12 h).
 */
const MAIN_VALUES: [from: number, value: string][] = [
  // The 10,000 USDT deposit is placed at the buy that needed it: 6,000 USDT + 0.0999 BTC × 40,000.
  [T0 + H, '9996'],
  // The candle of T0 closed at 42,000: 6,000 + 4,195.8.
  [T0 + 12 * H, '10195.8'],
  // The sell: 8,147.85 USDT + 0.0499 × 42,000 (2,095.8).
  [T0 + 20 * H, '10243.65'],
  // 0.0499 × 44,000 = 2,195.6.
  [T0 + 24 * H, '10343.45'],
  // 0.0499 × 41,000 = 2,045.9.
  [T0 + 36 * H, '10193.75'],
  // The withdrawal: 0.0294 × 41,000 = 1,205.4.
  [T0 + 40 * H, '9353.25'],
  // 0.0294 × 45,000 = 1,323.
  [T0 + 48 * H, '9470.85'],
  // The ETH deposit is placed at the observation that showed it: + 1 × 2,500; 0.0294 × 47,000.
  [T0 + 60 * H, '12029.65'],
  // 0.0294 × 48,000 = 1,411.2; ETH 2,600.
  [T0 + 72 * H, '12159.05'],
  // The last minute is today's: 0.0294 × 50,000 = 1,470; ETH 3,000.
  [NOW - 60_000, '12617.85'],
];

function expectedAt(time: number, table: [number, string][]): string {
  let value = table[0]![1];
  for (const [from, at] of table) if (time >= from) value = at;
  return value;
}

describe('historyView: the value history from the ledger, worked by hand', () => {
  it('values the main account at the prices of the time and ends on its total', () => {
    const view = historyView(built(), { from: NOW - 7 * 24 * H, at: NOW, account: 'main' });
    expect(view.currency).toBe('usdt');
    expect(view.account).toBe('main');
    expect(view.interval).toBe('12h');
    // The history starts at the first entry (the buy at T0 + 1 h, and the deposit it needed).
    expect(view.points[0]).toEqual({ time: T0 + H, value: '9996', onInferred: false });
    expect(view.points.at(-1)).toEqual({ time: NOW, value: '12617.85', onInferred: false });
    expect(view.points.length).toBeGreaterThan(200);
    for (const point of view.points) {
      expect(point.value, new Date(point.time).toISOString()).toBe(
        expectedAt(point.time, MAIN_VALUES),
      );
    }
    // Every segment of the table is drawn.
    const drawn = new Set(view.points.map((point) => point.value));
    for (const [, value] of MAIN_VALUES) expect(drawn).toContain(value);
  });

  it('marks where the history rests on an inferred entry, and names it', () => {
    const view = historyView(built(), { from: NOW - 7 * 24 * H, at: NOW, account: 'main' });
    // The ETH deposit happened somewhere after 30 h, by 60 h; before 60 h the history leaves it
    // out. The USDT deposit is placed at the first buy, where the history starts: no point drawn
    // depends on it.
    for (const point of view.points) {
      expect(point.onInferred, new Date(point.time).toISOString()).toBe(
        point.time > T0 + 30 * H && point.time < T0 + 60 * H,
      );
    }
    expect(view.inferred).toEqual({
      from: T0 + 30 * H,
      to: T0 + 60 * H,
      entries: 1,
      unlabelled: 1,
      assets: ['eth'],
    });
  });

  it('a shorter range starts at its own start, inside the inferred span', () => {
    const from = T0 + 45 * H;
    const view = historyView(built(), { from, at: NOW, account: 'main' });
    expect(view.points[0]).toEqual({ time: from, value: '9353.25', onInferred: true });
    expect(view.points.at(-1)!.value).toBe('12617.85');
    expect(view.inferred).toMatchObject({ from, to: T0 + 60 * H, entries: 1 });
    // A range after the ETH deposit rests on nothing inferred.
    const day = historyView(built(), { from: NOW - 12 * H, at: NOW, account: 'main' });
    expect(day.inferred).toBeNull();
    expect(day.points.every((point) => !point.onInferred)).toBe(true);
  });

  it('every account together adds the sub-account and its inferred credit', () => {
    const view = historyView(built(), { from: NOW - 7 * 24 * H, at: NOW });
    expect(view.account).toBeNull();
    // The sub-account's 500 USDT is placed at its first observation (30 h).
    expect(view.points.at(-1)!.value).toBe('13117.85');
    for (const point of view.points) {
      const main = new Decimal(expectedAt(point.time, MAIN_VALUES));
      const sub = point.time >= T0 + 30 * H ? 500 : 0;
      expect(point.value).toBe(main.plus(sub).toFixed());
    }
    // Before 30 h the sub-account's credit is not placed yet, after it the ETH deposit.
    expect(view.inferred).toEqual({
      from: T0 + H,
      to: T0 + 60 * H,
      entries: 2,
      unlabelled: 2,
      assets: ['eth', 'usdt'],
    });
  });

  it('says what it cannot answer yet: an unfinished import, candles not kept', () => {
    const running = {
      state: 'running' as const,
      symbolsDone: 1,
      symbolsTotal: 3,
      pages: 4,
      trades: 2,
      complete: false,
    };
    const importing = historyView(built(), {
      from: NOW - 7 * 24 * H,
      at: NOW,
      account: 'main',
      importProgress: running,
    });
    expect(importing.pending.import).toEqual({ ...running, storedTrades: 2 });
    const imported = historyView(built(), {
      from: NOW - 7 * 24 * H,
      at: NOW,
      account: 'main',
      importProgress: { ...running, state: 'done', complete: true },
    });
    expect(imported.pending).toEqual({ import: null, prices: [], finer: [] });

    // ETH's candles are not kept; BTC's are, from the candle before the first trade.
    const kept = { from: T0 - 12 * H, to: T0 + 60 * H };
    const fetching = historyView(built(), {
      from: NOW - 7 * 24 * H,
      at: NOW,
      account: 'main',
      coverage: (symbol) => (symbol === 'btcusdt' ? kept : null),
    });
    expect(fetching.pending.prices).toEqual(['ethusdt']);
    // BTC's kept from after the first buy: not far enough back either.
    const late = historyView(built(), {
      from: NOW - 7 * 24 * H,
      at: NOW,
      account: 'main',
      coverage: (symbol) => (symbol === 'btcusdt' ? { ...kept, from: T0 + 12 * H } : kept),
    });
    expect(late.pending.prices).toEqual(['btcusdt']);
    const all = historyView(built(), {
      from: NOW - 7 * 24 * H,
      at: NOW,
      account: 'main',
      coverage: () => kept,
    });
    expect(all.pending.prices).toEqual([]);
    // Held only within the last candle: today's price stands for it, no candle is waited for.
    const recent = historyView(built(), {
      from: NOW - 6 * H,
      at: NOW,
      account: 'main',
      coverage: () => null,
    });
    expect(recent.pending.prices).toEqual([]);
  });
});

/** 4-hour closes from the candle opening at T0 + 40 h to the one opening at T0 + 68 h. */
const FOUR_HOUR: Record<string, string[]> = {
  btcusdt: ['46000', '46500', '47000', '47500', '48000', '49000', '49500', '49800'],
  ethusdt: ['2400', '2400', '2400', '2400', '2450', '2550', '2650', '2700'],
};

function fourHour(covered: Record<string, { from: number; to: number } | null>): KeptCandles {
  return {
    interval: '4h',
    closes: (symbols) =>
      new Map(
        symbols.map((symbol) => [
          symbol,
          FOUR_HOUR[symbol]!.map((close, i) => ({ openTime: T0 + (40 + 4 * i) * H, close })),
        ]),
      ),
    coverage: (symbol) => covered[symbol] ?? null,
    tickers: TICKERS,
  };
}

describe('historyView: a shorter range at finer candles', () => {
  const from = T0 + 48 * H;
  const kept = { from: T0 + 44 * H, to: T0 + 68 * H };
  /** From each time on (by hand): 8,147.85 USDT + 0.0294 BTC (+ 1 ETH from 60 h) at 4-hour closes. */
  const VALUES: [number, string][] = [
    // The candle closing at 48 h: 0.0294 × 46,500 = 1,367.1.
    [from, '9514.95'],
    // 0.0294 × 47,000 = 1,381.8.
    [T0 + 52 * H, '9529.65'],
    // 0.0294 × 47,500 = 1,396.5.
    [T0 + 56 * H, '9544.35'],
    // The ETH deposit at 60 h, at the close of 60 h (2,450); 0.0294 × 48,000 = 1,411.2.
    [T0 + 60 * H, '12009.05'],
    // 0.0294 × 49,000 = 1,440.6; ETH 2,550.
    [T0 + 64 * H, '12138.45'],
    // 0.0294 × 49,500 = 1,455.3; ETH 2,650.
    [T0 + 68 * H, '12253.15'],
    // 0.0294 × 49,800 = 1,464.12; ETH 2,700.
    [T0 + 72 * H, '12311.97'],
    // Today's prices for the last minute.
    [NOW - 60_000, '12617.85'],
  ];

  it('values every point at the close of the last finished 4-hour candle', () => {
    const view = historyView(built(), {
      from,
      at: NOW,
      account: 'main',
      finer: fourHour({ btcusdt: kept, ethusdt: kept }),
    });
    expect(view.interval).toBe('4h');
    expect(view.pending).toEqual({ import: null, prices: [], finer: [] });
    expect(view.points[0]!.time).toBe(from);
    expect(view.points.at(-1)).toEqual({ time: NOW, value: '12617.85', onInferred: false });
    for (const point of view.points) {
      expect(point.value, new Date(point.time).toISOString()).toBe(expectedAt(point.time, VALUES));
    }
    const drawn = new Set(view.points.map((point) => point.value));
    for (const [, value] of VALUES) expect(drawn).toContain(value);
  });

  it("keeps to the ledger's candles until every market reaches back, and names what to fetch", () => {
    const partial = historyView(built(), {
      from,
      at: NOW,
      account: 'main',
      finer: fourHour({ btcusdt: kept, ethusdt: null }),
    });
    expect(partial.interval).toBe('12h');
    expect(partial.pending.finer).toEqual(['ethusdt']);
    for (const point of partial.points) {
      expect(point.value).toBe(expectedAt(point.time, MAIN_VALUES));
    }
    // Kept far enough back but not up to the last finished candle: drawn, and fetched again.
    const stale = historyView(built(), {
      from,
      at: NOW,
      account: 'main',
      finer: fourHour({ btcusdt: kept, ethusdt: { ...kept, to: T0 + 64 * H } }),
    });
    expect(stale.interval).toBe('4h');
    expect(stale.pending.finer).toEqual(['ethusdt']);
  });
});

describe('historyInterval: the candles no coarser than a range needs', () => {
  /** The history's points: 240 over its span, so this far apart. */
  const between = (span: number) => span / 239;
  const LEDGER_MS = 12 * H;

  it('takes the longest interval within the time between two points, the ledger’s beyond', () => {
    const chosen = Object.fromEntries(
      Object.entries(HISTORY_SPAN_MS).map(([range, span]) => [
        range,
        historyInterval(NOW - span, NOW),
      ]),
    );
    expect(chosen).toEqual({ day: '5m', week: '30m', month: '2h', year: null, all: null });
    // An "all" as short as its ledger: 20 days at 2-hour candles, 60 days at 6-hour ones.
    expect(historyInterval(NOW - 20 * 24 * H, NOW)).toBe('2h');
    expect(historyInterval(NOW - 60 * 24 * H, NOW)).toBe('6h');
    for (const span of [H, 24 * H, 7 * 24 * H, 30 * 24 * H, 100 * 24 * H, 365 * 24 * H]) {
      const interval = historyInterval(NOW - span, NOW);
      if (interval === null) {
        // The ledger's 12-hour candles are no coarser than the points are apart.
        expect(LEDGER_MS, `${span}`).toBeLessThanOrEqual(between(span));
        continue;
      }
      const length = KLINE_INTERVAL_MS[interval];
      expect(length, `${span}`).toBeLessThanOrEqual(Math.max(between(span), 60_000));
      // The next longer interval would be coarser than the points are apart.
      const next = KLINE_INTERVALS[KLINE_INTERVALS.indexOf(interval) + 1]!;
      expect(KLINE_INTERVAL_MS[next], `${span}`).toBeGreaterThan(between(span));
    }
  });
});
