/**
 * The P&L card's ranges: an account's own trades spread over 400 days (placed at past times in
 * the sandbox, against the demo world's market maker); each range button (Day, Week, Month, Year,
 * All) shows that interval's realized P&L, fees, change in unrealized P&L and total change, equal
 * to a FIFO computed here from the sandbox's own trade records, its candles (the prices of the
 * time: at a trade's own time the last 1-minute candle finished by then, elsewhere the 12-hour
 * ones) and its tickers (now), in USDT and in BTC.
 */
import { expect, test } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import type { LedgerSummaryView } from '../../shared/ledger';
import { formatValue } from '../../shared/format';
import { HISTORY_SPAN_MS, type HistoryRange } from '../../shared/types';
import { ExchangeClient } from '../../electron/exchange';
import {
  closeAt,
  Exact,
  intervalFigures,
  quotient,
  TWELVE_HOURS_MS,
  type TradeRecord,
} from '../ledger/independent';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { goTo, openWithSandboxProfile, screenshot } from './support/stack';

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

const TRADER = 'pnl-ranges@example.test';
const OPENING = '250000';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RANGES: HistoryRange[] = ['day', 'week', 'month', 'year', 'all'];
/** The prices of the present: within this span of now the ledger takes today's (tickers). */
const PRESENT_MS = 60_000;

/** Trades far from every range's start, so each range holds a different set of them. */
const PLAN = [
  { ago: 400 * DAY, symbol: 'btcusdt', side: 'buy', quantity: '0.05' },
  { ago: 200 * DAY, symbol: 'ethusdt', side: 'buy', quantity: '1' },
  { ago: 100 * DAY, symbol: 'btcusdt', side: 'sell', quantity: '0.02' },
  { ago: 20 * DAY, symbol: 'ethusdt', side: 'buy', quantity: '0.3' },
  { ago: 3 * DAY, symbol: 'ethusdt', side: 'sell', quantity: '0.5' },
  { ago: 5 * HOUR, symbol: 'btcusdt', side: 'buy', quantity: '0.01' },
  { ago: 2 * HOUR, symbol: 'ethusdt', side: 'sell', quantity: '0.3' },
] as const;

test('each P&L range shows the figures of its interval, in USDT and BTC', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  stack.sandbox.admin.createAccount({ email: TRADER });
  const key = stack.sandbox.admin.createApiKey(TRADER, { canTrade: true });
  stack.sandbox.admin.credit(TRADER, 'usdt', OPENING);
  const exchange = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key, rateLimits: false });
  try {
    const placedAt = Date.now();
    for (const step of PLAN) {
      const book = await exchange.market.depth({ symbol: step.symbol, limit: 20 });
      // A limit as deep as the quantity needs: filled at once against the maker's orders.
      let covered = new Exact(0);
      const levels = step.side === 'buy' ? book.asks : book.bids;
      const level = levels.find(([, qty]) =>
        (covered = covered.plus(String(qty))).gte(step.quantity),
      );
      if (!level) throw new Error(`The ${step.symbol} book cannot fill ${step.quantity}`);
      stack.sandbox.admin.placeOrderAt(TRADER, placedAt - step.ago, {
        symbol: step.symbol,
        side: step.side,
        quantity: step.quantity,
        price: String(level[0]),
      });
    }
    const trades: TradeRecord[] = [];
    for (const symbol of ['btcusdt', 'ethusdt']) {
      trades.push(...(await exchange.trading.myTrades({ symbol, limit: 1000 })));
    }
    expect(trades.length).toBeGreaterThanOrEqual(PLAN.length);
    expect(new Set(trades.map((trade) => Math.floor((placedAt - trade.time) / HOUR))).size).toBe(
      PLAN.length,
    );

    // The candles the ledger keeps: 12-hour ones from the one before its first entry's.
    const first = Math.min(...trades.map((trade) => trade.time));
    const start = Math.floor(first / TWELVE_HOURS_MS) * TWELVE_HOURS_MS - TWELVE_HOURS_MS;
    const candles = new Map<string, [number, string][]>();
    for (const symbol of ['btcusdt', 'ethusdt', 'ethbtc']) {
      const rows: [number, string][] = [];
      for (let next = start; ;) {
        const page = await exchange.market.klines({
          symbol,
          interval: '12h',
          startTime: next,
          endTime: Date.now(),
          limit: 1000,
        });
        rows.push(...page.map((k): [number, string] => [Number(k[0]), String(k[4])]));
        if (page.length < 1000) break;
        next = Number(page.at(-1)![0]) + 1;
      }
      candles.set(symbol, rows);
    }
    // At each trade's own time, the close of the finest candle finished by then (1-minute, else
    // 15-minute, hourly, 4-hourly); none before the market's first trade.
    const entryCloses = new Map<string, Exact>();
    for (const time of new Set(trades.map((trade) => trade.time))) {
      for (const symbol of ['btcusdt', 'ethusdt', 'ethbtc']) {
        for (const [interval, length] of [
          ['1m', 60_000],
          ['15m', 15 * 60_000],
          ['1h', HOUR],
          ['4h', 4 * HOUR],
        ] as const) {
          const [last] = await exchange.market.klines({
            symbol,
            interval,
            endTime: time - length,
            limit: 1,
          });
          if (!last) continue;
          entryCloses.set(`${symbol}@${time}`, new Exact(String(last[4])));
          break;
        }
      }
    }
    const tickers = await stack.tickers();
    const last = (symbol: string) =>
      new Exact(tickers.find((ticker) => ticker.symbol === symbol)!.lastPrice);

    /** The price of `asset` in `cash` at `time` by the ledger's stated rule, as of `now`. */
    const priceIn = (cash: string, now: number) => (asset: string, time: number) => {
      if (asset === cash) return new Exact(1);
      const lastFinished = Math.floor(now / TWELVE_HOURS_MS) * TWELVE_HOURS_MS - TWELVE_HOURS_MS;
      const of = (symbol: string) =>
        time >= now - PRESENT_MS
          ? last(symbol)
          : (entryCloses.get(`${symbol}@${time}`) ??
            closeAt(
              candles.get(symbol)!.filter(([openTime]) => openTime <= lastFinished),
              time,
            ) ??
            last(symbol));
      if (cash === 'usdt') return of(`${asset}usdt`);
      // In BTC: USDT through the inverse of BTCUSDT (one division), ETH on ETHBTC.
      return asset === 'usdt' ? quotient(new Exact(1), of('btcusdt')) : of(`${asset}btc`);
    };
    const expected = (cash: string, range: HistoryRange) => {
      const now = Date.now();
      return intervalFigures(
        { cash, price: priceIn(cash, now), opening: new Exact(OPENING), trades },
        now - HISTORY_SPAN_MS[range],
        now,
      );
    };

    await openWithSandboxProfile(page, stack, { name: 'Ranges', key });
    await goTo(page, 'portfolio');
    const card = page.getByTestId('pnl-card');
    await expect(card.getByTestId('ledger-import-progress')).toContainText('own trades imported', {
      timeout: 60_000,
    });

    const summaryOf = (range: HistoryRange) =>
      page.evaluate(
        (range) =>
          (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio.ledger.summary({
            range,
          }),
        range,
      ) as Promise<LedgerSummaryView>;

    const seen = new Map<string, string>();
    for (const cash of ['usdt', 'btc']) {
      if (cash !== 'usdt') {
        await page.evaluate(
          (quoteAsset) =>
            (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio.settings.update({
              quoteAsset,
            }),
          cash,
        );
        await page.reload();
        await goTo(page, 'portfolio');
      }
      await expect(card.getByTestId('pnl-method')).toContainText(`in ${cash.toUpperCase()}`);
      for (const range of RANGES) {
        await card.getByTestId(`pnl-range-${range}`).click();
        // The candles arrive in the background; until then the card says it is computing. Each
        // try computes the interval anew from the records, as of the moment asked.
        await expect(async () => {
          const want = expected(cash, range);
          const view = await summaryOf(range);
          expect(view.currency).toBe(cash);
          expect(
            view.range && {
              realizedPnl: view.range.realizedPnl,
              feesPaid: view.range.feesPaid,
              unrealizedChange: view.range.unrealizedChange,
              pnl: view.range.pnl,
            },
          ).toEqual(want);
          for (const [testId, value, signed] of [
            ['pnl-realized', want.realizedPnl, true],
            ['pnl-fees', want.feesPaid, false],
            ['pnl-unrealized-change', want.unrealizedChange, true],
            ['pnl-range', want.pnl, true],
          ] as const) {
            expect(await card.getByTestId(testId).textContent(), `${cash} ${range} ${testId}`).toBe(
              formatValue(value, cash, { signed }),
            );
          }
          seen.set(`${cash} ${range}`, JSON.stringify(want));
        }).toPass({ timeout: 60_000 });
      }
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `pnl-ranges-${cash}`);
    }
    // The ranges hold different trades, so no two show the same figures.
    for (const cash of ['usdt', 'btc']) {
      const figures = RANGES.map((range) => seen.get(`${cash} ${range}`));
      expect(new Set(figures).size, cash).toBe(RANGES.length);
    }
  } finally {
    await exchange.close();
  }
});
