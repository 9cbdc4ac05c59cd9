/**
 * The ledger against the sandbox: after a seeded history of trades (the app's own sync imports
 * them over real HTTP into a real SQLite file), the tax report's figures and the P&L figures equal
 * an independent FIFO computation in this test from the sandbox's own trade records.
 */
import { readFileSync } from 'node:fs';
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LedgerService,
  LEDGER_INTERVAL,
  summaryView,
  netWorthView,
  writeTaxReport,
} from '../../electron/ledger';
import { KLINE_INTERVAL_MS, type KlineInterval } from '../../shared/market';
import { quotient } from './independent';
import type { OwnTrade } from '../../electron/exchange';
import { SeededRandom } from '../../electron/sandbox/random';
import { PARENT, PROFILE, scenario, syncLedgerReads, type Scenario } from '../sync/helpers';
import { takeTrade, tradingClient } from '../sync/own-trades';

const COUNTERPARTY = 'counterparty@example.test';
const SYMBOLS = ['btcusdt', 'ethusdt'] as const;
const BASE: Record<(typeof SYMBOLS)[number], string> = { btcusdt: 'btc', ethusdt: 'eth' };

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** 60 seeded trades on two markets: buys, and sells of part of what is held. */
async function seededHistory(): Promise<Scenario> {
  const s = (current = await scenario({ seed: 14 }));
  const trader = tradingClient(s.sandbox, s.sandbox.admin.createApiKey(PARENT, { canTrade: true }));
  s.sandbox.admin.createAccount({ email: COUNTERPARTY });
  const counterparty = tradingClient(
    s.sandbox,
    s.sandbox.admin.createApiKey(COUNTERPARTY, { canTrade: true }),
  );
  s.sandbox.admin.credit(PARENT, 'usdt', '5000000');
  for (const asset of ['btc', 'eth', 'usdt']) s.sandbox.admin.credit(COUNTERPARTY, asset, '100000');
  const random = new SeededRandom(14);
  const held = { btcusdt: 0, ethusdt: 0 };
  for (let i = 0; i < 60; i++) {
    const symbol = SYMBOLS[random.int(0, 1)]!;
    const base = symbol === 'btcusdt' ? 60000 : 3000;
    const price = (base * (0.8 + random.next() * 0.4)).toFixed(2);
    const sell = held[symbol] > 0.5 && random.next() < 0.45;
    const qty = sell
      ? (held[symbol] * random.next() * 0.8).toFixed(4)
      : (random.int(1, 40) / 100).toFixed(2);
    if (Number(qty) <= 0) continue;
    await takeTrade(trader, counterparty, { symbol, side: sell ? 'sell' : 'buy', qty, price });
    // The taker pays 0.2 % in what it receives: a buy nets a little less of the base.
    held[symbol] += sell ? -Number(qty) : Number(qty) * 0.998;
  }
  await Promise.all([trader.close(), counterparty.close()]);
  return s;
}

/** Exact for any product and for the 18-place shares of a split (the ledger's stated rule). */
const Exact = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_EVEN });

/**
 * FIFO over the sandbox's records alone: a buy's lot is the base received net of its fee, at the
 * quote paid; a sell's proceeds are the quote received net of its fee; a lot split in part keeps
 * the rest of its cost, the part taken costs its share rounded half-even to 18 places.
 */
function independentFifo(trades: OwnTrade[]) {
  const lots = new Map<string, { qty: Decimal; cost: Decimal }[]>();
  let proceeds = new Exact(0);
  let cost = new Exact(0);
  let rows = 0;
  const ordered = [...trades].sort((a, b) => a.time - b.time || a.id - b.id);
  for (const trade of ordered) {
    const queue = lots.get(trade.symbol) ?? [];
    lots.set(trade.symbol, queue);
    const qty = new Exact(trade.qty);
    const fee = new Exact(trade.fee);
    if (trade.side === 'buy') {
      expect(trade.feeCurrency).toBe(BASE[trade.symbol as (typeof SYMBOLS)[number]]);
      queue.push({ qty: qty.minus(fee), cost: new Exact(trade.quoteQty) });
      continue;
    }
    expect(trade.feeCurrency).toBe('usdt');
    proceeds = proceeds.plus(new Exact(trade.quoteQty).minus(fee));
    let left = qty;
    while (left.gt(0)) {
      const lot = queue[0]!;
      const taken = Exact.min(lot.qty, left);
      const whole = taken.eq(lot.qty);
      const part = whole ? lot.cost : lot.cost.times(taken).div(lot.qty).toDecimalPlaces(18);
      cost = cost.plus(part);
      rows++;
      lot.qty = lot.qty.minus(taken);
      lot.cost = lot.cost.minus(part);
      if (whole) queue.shift();
      left = left.minus(taken);
    }
  }
  return { proceeds, cost, gain: proceeds.minus(cost), rows, lots };
}

/** The seeded history with what the ledger reads synced into the store, each job without error. */
async function syncedHistory() {
  const s = await seededHistory();
  return { s, ...(await syncLedgerReads(s)) };
}

describe('the ledger against the sandbox', () => {
  it('says what its figures still wait for: the past prices until fetched, an unfinished import', async () => {
    const { s, client, sync } = await syncedHistory();
    const service = new LedgerService(s.store);
    const choice = { method: 'fifo', currency: 'usdt' } as const;
    const before = service.ledger(PROFILE, choice);
    expect(service.candlesLacking(before)).toEqual([...SYMBOLS]);
    const done = { ...sync.tradeImportProgress(), complete: true };
    expect(
      summaryView(before, { at: Date.now(), importProgress: done, pricesLacking: [...SYMBOLS] })
        .computing,
    ).toEqual({ trades: false, prices: [...SYMBOLS], progress: null });

    await service.fetchPrices(PROFILE, client, choice);
    const after = service.ledger(PROFILE, choice);
    expect(service.candlesLacking(after)).toEqual([]);
    expect(summaryView(after, { at: Date.now(), importProgress: done }).computing).toBeNull();
    const unfinished = { ...done, complete: false };
    expect(summaryView(after, { at: Date.now(), importProgress: unfinished }).computing).toEqual({
      trades: true,
      prices: [],
      progress: null,
    });
  });

  it('reports the figures an independent FIFO computes from the sandbox’s own records', async () => {
    const { s, client, sync } = await syncedHistory();
    const records: OwnTrade[] = [];
    for (const symbol of SYMBOLS)
      records.push(...(await client.trading.myTrades({ symbol, limit: 1000 })));
    expect(records.length).toBeGreaterThan(40);
    const expected = independentFifo(records);

    const service = new LedgerService(s.store);
    const built = service.ledger(PROFILE, { method: 'fifo', currency: 'usdt' });
    const year = new Date().getUTCFullYear();
    const report = writeTaxReport(s.store, built, { year, longTermAfterDays: 365 });
    const csv = readFileSync(report.path, 'utf8').trim().split(/\r?\n/);
    expect(csv[0]).toBe(
      'Description,Asset,Quantity,Date Acquired,Date Sold,Proceeds,Cost Basis,Gain or Loss,Holding Days,Method,Currency',
    );
    const rows = csv.slice(1).map((line) => line.split(','));
    expect(rows).toHaveLength(expected.rows);
    const column = (index: number) =>
      rows.reduce((sum, row) => sum.plus(row[index]!), new Exact(0));
    expect(column(5).toFixed()).toBe(expected.proceeds.toFixed());
    expect(column(6).toFixed()).toBe(expected.cost.toFixed());
    expect(column(7).toFixed()).toBe(expected.gain.toFixed());
    expect(report.summary?.total.gain).toBe(expected.gain.toFixed());
    expect(report.summary?.shortTerm.rows).toBe(expected.rows);

    // The P&L figures: realized as above; unrealized at the sandbox's last prices.
    const summary = summaryView(built, { at: Date.now(), importProgress: null });
    expect(summary.totals.realizedPnl).toBe(expected.gain.toFixed());
    let unrealized = new Exact(0);
    for (const symbol of SYMBOLS) {
      const ticker = await client.market.ticker({ symbol });
      for (const lot of expected.lots.get(symbol) ?? []) {
        unrealized = unrealized.plus(lot.qty.times(ticker.lastPrice).minus(lot.cost));
      }
    }
    expect(summary.totals.unrealizedPnl).toBe(unrealized.toFixed());
    // Holdings replayed from the ledger equal the sandbox's balances, and so does the net worth.
    const balances = s.sandbox.admin.balances(PARENT);
    for (const row of summary.assets) {
      const balance = balances.find((b) => b.asset === row.asset);
      const total = balance ? new Exact(balance.free).plus(balance.locked) : new Exact(0);
      expect(row.quantity, row.asset).toBe(total.toFixed());
    }
    const worth = netWorthView(built, Date.now());
    expect(worth.total).toBe(summary.totals.value);
    expect(worth.accounts.map((a) => a.account)).toEqual(['main']);
    await sync.stop();
  });

  it('values an entry at the finest candle of its time: 1-minute, else the finest kept that far back', async () => {
    const HOUR = 3_600_000;
    // The exchange serves 1-minute candles for the last day only; 15-minute ones further back.
    const s = (current = await scenario({ world: 'demo', klineReach: { '1m': 24 * HOUR } }));
    const trader = s.sandbox.admin.createApiKey(PARENT, { canTrade: true });
    const exchange = tradingClient(s.sandbox, trader);
    const now = Date.now();
    // Coins that arrive without a record and are sold whole: the ledger infers their credit at
    // the sale that needs them, valued at the price of that time. Each sale falls between two
    // candles' closes (the demo world trades every 10 minutes in its last 3 days).
    // Ten hours into a 12-hour candle, so the finer candle's close is many trades later.
    const tenHoursIn = (ago: number) =>
      Math.floor((now - ago) / (12 * HOUR)) * 12 * HOUR + 10 * HOUR + 95_000;
    const plan = [
      { symbol: 'xrpusdt', base: 'xrp', at: tenHoursIn(12 * HOUR), quantity: '1000' },
      { symbol: 'solusdt', base: 'sol', at: tenHoursIn(48 * HOUR), quantity: '20' },
      // A sale of a moment ago: the 1-minute candle before it, not today's price.
      { symbol: 'ethusdt', base: 'eth', at: now - 5_000, quantity: '2' },
    ];
    for (const step of plan) {
      s.sandbox.admin.credit(PARENT, step.base, step.quantity);
      const book = await exchange.market.depth({ symbol: step.symbol, limit: 20 });
      s.sandbox.admin.placeOrderAt(PARENT, step.at, {
        symbol: step.symbol,
        side: 'sell',
        quantity: step.quantity,
        price: String(book.bids.at(-1)![0]),
      });
    }
    const { client, sync } = await syncLedgerReads(s);
    const trades: OwnTrade[] = [];
    for (const step of plan) {
      trades.push(...(await exchange.trading.myTrades({ symbol: step.symbol, limit: 1000 })));
    }
    // Filled at once against the book (a fill per level), at the time each was placed.
    expect([...new Set(trades.map((trade) => trade.time))].sort()).toEqual(
      plan.map((step) => step.at).sort(),
    );

    /** The close of the last candle of `interval` finished by `time`, from the exchange. */
    const closeAt = async (symbol: string, interval: KlineInterval, time: number) => {
      const length = KLINE_INTERVAL_MS[interval];
      const candles = await exchange.market.klines({
        symbol,
        interval,
        startTime: time - 1999 * length,
        endTime: time,
        limit: 2000,
      });
      const finished = candles.filter((k) => Number(k[0]) + length <= time);
      return finished.length === 0 ? null : new Exact(String(finished.at(-1)![4]));
    };
    // The interval each sale's time is priced at: 1-minute within the exchange's day of them.
    const intervalOf = (time: number): KlineInterval => (time > now - 24 * HOUR ? '1m' : '15m');
    expect(await closeAt('solusdt', '1m', plan[1]!.at)).toBeNull();

    const service = new LedgerService(s.store);
    for (const cash of ['usdt', 'btc']) {
      const choice = { method: 'fifo', currency: cash } as const;
      const before = service.ledger(PROFILE, choice);
      expect(service.candlesLacking(before).length, cash).toBeGreaterThan(0);
      // The markets' times to look up, and how far the fetch has come, told as it goes.
      const times = service.entryTimes(before);
      const wanted = [...times.values()].reduce((sum, times) => sum + new Set(times).size, 0);
      expect(wanted, cash).toBeGreaterThan(0);
      const told: { done: number; total: number }[] = [];
      const calls = s.sandbox.admin.faults.count({ path: '/sapi/v1/klines' });
      await service.fetchPrices(PROFILE, client, choice, (progress) => told.push(progress));
      expect(told.at(-1), cash).toEqual({ done: wanted, total: wanted });
      expect(told.every((p, i) => i === 0 || p.done >= told[i - 1]!.done)).toBe(true);
      // Only around the entries' times: a call per market and interval here, no year of candles.
      expect(s.sandbox.admin.faults.count({ path: '/sapi/v1/klines' }) - calls).toBeLessThanOrEqual(
        // The 12-hour candles (and the one before their start) of each market, then its levels.
        2 * before.prices.pathSymbols(['xrp', 'sol', 'usdt'], cash).length + 4 * times.size,
      );
      const built = service.ledger(PROFILE, choice);
      expect(service.candlesLacking(built), cash).toEqual([]);
      const summary = summaryView(built, { at: Date.now(), importProgress: null });
      for (const step of plan) {
        const interval = intervalOf(step.at);
        const base = (await closeAt(step.symbol, interval, step.at))!;
        // Finer than the ledger's 12-hour candles (or, a moment ago, today's price) would be.
        const coarse =
          step.at > now - 60_000
            ? new Exact((await exchange.market.ticker({ symbol: step.symbol })).lastPrice)
            : (await closeAt(step.symbol, LEDGER_INTERVAL, step.at))!;
        expect(base.eq(coarse), `${step.symbol} ${interval}`).toBe(false);
        // In BTC through USDT: the product of the direct pairs over the inverse ones, one division.
        const btc = (await closeAt('btcusdt', interval, step.at))!;
        // ETH has a market of its own in BTC (ethbtc); XRP and SOL go through USDT.
        const baseIn =
          cash === 'usdt'
            ? base
            : step.base === 'eth'
              ? (await closeAt('ethbtc', interval, step.at))!
              : quotient(base, btc);
        const usdtIn = cash === 'usdt' ? new Exact(1) : quotient(new Exact(1), btc);
        // Proceeds: the USDT received less its fee, at the sale's time; cost: the inferred
        // credit, all of it sold, at its estimated value then.
        let proceeds = new Exact(0);
        for (const fill of trades.filter((trade) => trade.symbol === step.symbol)) {
          expect(fill.feeCurrency).toBe('usdt');
          proceeds = proceeds.plus(new Exact(fill.quoteQty).minus(fill.fee).times(usdtIn));
        }
        const cost = new Exact(step.quantity).times(baseIn);
        const row = summary.assets.find((asset) => asset.asset === step.base)!;
        expect(row.quantity).toBe('0');
        expect(row.realizedPnl, `${cash} ${step.base}`).toBe(proceeds.minus(cost).toFixed());
      }
    }
    // A buy made now (USDT from the sales above) is waited for, its 1-minute candle fetched.
    const choice = { method: 'fifo', currency: 'btc' } as const;
    expect(service.candlesLacking(service.ledger(PROFILE, choice))).toEqual([]);
    const book = await exchange.market.depth({ symbol: 'xrpusdt', limit: 20 });
    s.sandbox.admin.placeOrderAt(PARENT, Date.now() - 2_000, {
      symbol: 'xrpusdt',
      side: 'buy',
      quantity: '100',
      price: String(book.asks.at(-1)![0]),
    });
    await sync.refresh('trades', { force: true });
    expect(service.candlesLacking(service.ledger(PROFILE, choice))).toContain('btcusdt');
    await service.fetchPrices(PROFILE, client, choice);
    expect(service.candlesLacking(service.ledger(PROFILE, choice))).toEqual([]);
    await Promise.all([exchange.close(), sync.stop()]);
  });
});
