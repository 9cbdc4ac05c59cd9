/**
 * Figures reconcile: every money figure on Portfolio, Funds and Sub-accounts equals a computation
 * made here, in exact decimals, from the sandbox's own balances (its admin surface) and prices
 * (its public tickers), formatted the way the screens format, with the exact figure (the one
 * division of a price through an inverse pair or a bridge by the docs' rule, nothing else
 * rounded) in each computed value's tooltip and copy; in USDT and in BTC. The value
 * history ends on the total shown, its past points are the sandbox's own records replayed at its
 * own candles' closes, and it names the inferred entries it rests on.
 */
import Decimal from 'decimal.js';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { formatDateTime, formatPercent, formatPrice, formatValue } from '../../shared/format';
import { HISTORY_SPAN_MS, type HistoryRange } from '../../shared/types';
import {
  KLINE_INTERVAL_MS,
  KLINE_INTERVALS,
  withdrawStatusOf,
  type KlineInterval,
} from '../../shared/market';
import { ExchangeClient } from '../../electron/exchange';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { startAdminStack, type AdminStack, type PublicTicker } from './support/admin-stack';
import { goTo, openSandboxProfileAgain, screenshot, worldSeed } from './support/stack';

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

type PriceField = 'lastPrice' | 'openPrice';
const BRIDGES = ['usdt', 'btc', 'eth', 'usdc', 'busd'];
/** Room for every product of amounts here: sums and products never round. */
const Exact = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_EVEN });

/**
 * A quotient by the one rounding rule the docs state ("Amounts"): 40 significant digits and at
 * most 40 fraction digits, rounded half-even.
 */
function quotient(dividend: Decimal, divisor: Decimal): Decimal {
  const exact = new Exact(dividend).div(divisor);
  return exact.toDecimalPlaces(Math.min(40, 39 - exact.e), Decimal.ROUND_HALF_EVEN);
}

/**
 * One unit of `asset` in `quote` from the exchange's tickers: the pair itself, the inverse pair,
 * or through one bridge asset, the first that has a positive price (the rule the app states in
 * docs: direct, inverse, then usdt, btc, eth, usdc, busd); the pairs' prices multiplied and the
 * inverse pairs' divided into them at the end, once.
 */
function priceOf(
  tickers: PublicTicker[],
  quote: string,
  asset: string,
  field: PriceField,
): Decimal | null {
  const hop = (from: string, to: string): { price: Decimal; inverse: boolean } | null => {
    const direct = tickers.find((t) => t.baseAsset === from && t.quoteAsset === to);
    if (direct && new Exact(direct[field]).gt(0))
      return { price: new Exact(direct[field]), inverse: false };
    const inverse = tickers.find((t) => t.baseAsset === to && t.quoteAsset === from);
    if (inverse && new Exact(inverse[field]).gt(0))
      return { price: new Exact(inverse[field]), inverse: true };
    return null;
  };
  const along = (hops: { price: Decimal; inverse: boolean }[]): Decimal => {
    let numerator = new Exact(1);
    let denominator = new Exact(1);
    for (const h of hops) {
      if (h.inverse) denominator = denominator.times(h.price);
      else numerator = numerator.times(h.price);
    }
    return denominator.eq(1) ? numerator : quotient(numerator, denominator);
  };
  if (asset === quote) return new Exact(1);
  const one = hop(asset, quote);
  if (one) return along([one]);
  for (const bridge of BRIDGES) {
    if (bridge === asset || bridge === quote) continue;
    const first = hop(asset, bridge);
    const second = first && hop(bridge, quote);
    if (first && second) return along([first, second]);
  }
  return null;
}

interface Expected {
  total: Decimal;
  change: Decimal;
  open: Decimal;
  rows: Map<string, Decimal | null>;
  prices: Map<string, Decimal | null>;
  subs: Map<string, Decimal>;
}

async function expectedFigures(quote: string): Promise<Expected> {
  const tickers = await stack.tickers();
  const rows = new Map<string, Decimal | null>();
  const prices = new Map<string, Decimal | null>();
  let total = new Exact(0);
  let open = new Exact(0);
  for (const balance of stack.sandbox.admin.balances(stack.parent.email)) {
    const amount = new Exact(balance.free).plus(balance.locked);
    const price = priceOf(tickers, quote, balance.asset, 'lastPrice');
    rows.set(balance.asset, price ? amount.mul(price) : null);
    prices.set(balance.asset, price);
    if (!price || amount.isZero()) continue;
    total = total.plus(amount.mul(price));
    const openPrice = priceOf(tickers, quote, balance.asset, 'openPrice');
    open = open.plus(amount.mul(openPrice ?? price));
  }
  const subs = new Map<string, Decimal>();
  for (const sub of stack.subs) {
    let value = new Exact(0);
    for (const balance of stack.sandbox.admin.balances(sub.email)) {
      const price = priceOf(tickers, quote, balance.asset, 'lastPrice');
      if (price) value = value.plus(new Exact(balance.free).plus(balance.locked).mul(price));
    }
    subs.set(sub.email, value);
  }
  return { total, open, change: total.minus(open), rows, prices, subs };
}

const text = (value: Decimal, quote: string, options: { signed?: boolean } = {}) =>
  formatValue(value.toFixed(), quote, options);

/** The exact figure and its unit, as a tooltip and a copy give it: every digit, no grouping. */
const exactText = (value: Decimal, quote: string) => `${value.toFixed()} ${quote.toUpperCase()}`;

/** What a copy of `element` (selected whole, as a person selects it) puts on the clipboard. */
function copied(element: Locator): Promise<string> {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNode(node);
    const selection = document.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    const clipboardData = new DataTransfer();
    document.dispatchEvent(new ClipboardEvent('copy', { clipboardData, bubbles: true }));
    selection.removeAllRanges();
    return clipboardData.getData('text/plain');
  });
}

async function setQuote(page: Page, quote: string): Promise<void> {
  await page.evaluate(async (quoteAsset) => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    await api.settings.update({ quoteAsset });
  }, quote);
}

async function checkPortfolio(page: Page, quote: string): Promise<void> {
  await goTo(page, 'portfolio');
  // The app's prices refresh on their own schedule: the figures agree once both read the same.
  await expect(async () => {
    const expected = await expectedFigures(quote);
    const total = page.getByTestId('portfolio-total');
    await expect(total).toHaveText(text(expected.total, quote), { timeout: 1000 });
    // Rounded to the quote's precision on screen; exact to its last digit in the tooltip and in
    // a copy.
    await expect(total).toHaveAttribute('title', exactText(expected.total, quote), {
      timeout: 1000,
    });
    expect(await copied(total)).toBe(exactText(expected.total, quote));
    await expect(page.getByTestId('portfolio-change').locator('[data-exact]')).toHaveAttribute(
      'title',
      exactText(expected.change, quote),
      { timeout: 1000 },
    );
    const percent = expected.change.div(expected.open).mul(100).toDecimalPlaces(4);
    await expect(page.getByTestId('portfolio-change')).toHaveText(
      `${text(expected.change, quote, { signed: true })} (${formatPercent(percent.toFixed(), { signed: true })}) 24h`,
      { timeout: 1000 },
    );
    const legend = page.getByRole('list', { name: 'Allocation' }).locator('li:has(.legend-asset)');
    const count = await legend.count();
    expect(count).toBeGreaterThan(1);
    for (let i = 0; i < count; i++) {
      const item = legend.nth(i);
      const asset = ((await item.locator('.legend-asset').textContent()) ?? '').toLowerCase();
      const value = expected.rows.get(asset);
      expect(value, asset).toBeTruthy();
      const shown = item.locator('span.num').last();
      await expect(shown).toHaveText(text(value!, quote));
      await expect(shown).toHaveAttribute('title', exactText(value!, quote));
      expect(await copied(shown)).toBe(exactText(value!, quote));
    }
  }).toPass({ timeout: 30_000 });
  // The history's last point is the total shown, in the same currency: drawn once the ledger has
  // the trades and the prices of the time (a new currency can need candles of other markets).
  await expect(async () => {
    const expected = await expectedFigures(quote);
    const chart = page.getByTestId('history-chart');
    expect(await chart.getAttribute('data-currency', { timeout: 1000 })).toBe(quote);
    const last = await chart.getAttribute('data-last-value', { timeout: 1000 });
    expect(formatValue(last, quote)).toBe(text(expected.total, quote));
  }).toPass({ timeout: 90_000 });
  await expect(page.getByTestId('portfolio-scope')).toContainText('sub-accounts are not included');
}

async function checkFunds(page: Page, quote: string): Promise<void> {
  await goTo(page, 'funds');
  await expect(
    page.getByRole('columnheader', { name: `Value (${quote.toUpperCase()})` }),
  ).toBeVisible();
  await expect(async () => {
    const expected = await expectedFigures(quote);
    const rows = page.locator('[data-testid^=fund-row-]');
    const count = await rows.count();
    expect(count).toBe(expected.rows.size);
    for (const [asset, value] of expected.rows) {
      const row = page.getByTestId(`fund-row-${asset}`);
      await expect(row.getByTestId('fund-value')).toHaveText(
        value === null ? 'no price' : formatValue(value.toFixed(), quote, { withUnit: false }),
        { timeout: 1000 },
      );
      const price = expected.prices.get(asset);
      await expect(row.getByTestId('fund-price')).toHaveText(
        price ? formatPrice(price.toFixed(), quote, { withUnit: false }) : '—',
        { timeout: 1000 },
      );
    }
  }).toPass({ timeout: 30_000 });
}

async function checkSubAccounts(page: Page, quote: string): Promise<void> {
  await goTo(page, 'sub-accounts');
  await expect(async () => {
    const expected = await expectedFigures(quote);
    expect(expected.subs.size).toBeGreaterThan(0);
    for (const [email, value] of expected.subs) {
      const shown = page.getByTestId(`sub-${email}`).getByTestId('sub-value');
      await expect(shown).toHaveText(text(value, quote), { timeout: 1000 });
      await expect(shown).toHaveAttribute('title', exactText(value, quote), { timeout: 1000 });
    }
  }).toPass({ timeout: 30_000 });
}

test('figures reconcile with the exchange in USDT and in BTC', async ({ page }) => {
  test.setTimeout(180_000);
  await openSandboxProfileAgain(page, stack);
  for (const quote of ['usdt', 'btc']) {
    await setQuote(page, quote);
    await checkPortfolio(page, quote);
    if (quote === 'btc') await screenshot(page, 'portfolio-btc');
    await checkFunds(page, quote);
    await checkSubAccounts(page, quote);
  }
});

/** A balance change of the main account the exchange lists, in ledger order within its time. */
interface Movement {
  time: number;
  asset: string;
  delta: Decimal;
}

/**
 * The candles a range from `start` to `at` is valued at: the longest interval no longer than the
 * time between two of its 240 points, and the ledger's 12-hour ones where those are no longer.
 */
function intervalFor(start: number, at: number): KlineInterval {
  const between = (at - start) / 239;
  if (between >= KLINE_INTERVAL_MS['12h']) return '12h';
  const fitting = KLINE_INTERVALS.filter((interval) => KLINE_INTERVAL_MS[interval] <= between);
  return fitting.at(-1) ?? '1m';
}

/**
 * The parent's own records, read from the exchange with its read-only key: every trade (a buy
 * gains the base and pays the quote, the fee leaves in its currency), the withdrawals from
 * `since` on (the amount and its fee leave while pending or done; a failed or cancelled one moves
 * nothing), and
 * the transfers with its sub-accounts.
 */
async function parentMovements(exchange: ExchangeClient, since: number): Promise<Movement[]> {
  const trades: { id: number; changes: Movement[] }[] = [];
  for (const ticker of await stack.tickers()) {
    const records = await exchange.trading.myTrades({ symbol: ticker.symbol, limit: 1000 });
    for (const t of records) {
      const buy = t.side === 'buy';
      const changes = [
        { time: t.time, asset: ticker.baseAsset, delta: new Exact(t.qty).times(buy ? 1 : -1) },
        {
          time: t.time,
          asset: ticker.quoteAsset,
          delta: new Exact(t.quoteQty).times(buy ? -1 : 1),
        },
        { time: t.time, asset: t.feeCurrency.toLowerCase(), delta: new Exact(t.fee).negated() },
      ];
      trades.push({ id: Number(t.id), changes });
    }
  }
  trades.sort((a, b) => a.changes[0]!.time - b.changes[0]!.time || a.id - b.id);
  const others: Movement[] = [];
  for (const w of await exchange.withdrawHistory({ startTime: since, endTime: Date.now() })) {
    if (!['success', 'pending'].includes(withdrawStatusOf(Number(w.status)))) continue;
    others.push({
      time: Date.parse(`${w.createdAt.replace(' ', 'T')}Z`),
      asset: w.coin.toLowerCase(),
      delta: new Exact(w.amount).plus(w.transactionFee).negated(),
    });
  }
  const parent = stack.parent.email.toLowerCase();
  for (const t of await exchange.subAccounts.transferHistory()) {
    if (t.status.toLowerCase() !== 'success') continue;
    const sign = t.from.toLowerCase() === parent ? -1 : t.to.toLowerCase() === parent ? 1 : 0;
    if (sign !== 0)
      others.push({
        time: t.time,
        asset: t.asset.toLowerCase(),
        delta: new Exact(t.qty).times(sign),
      });
  }
  // By time; at the same time trades first, in the order the exchange numbers them.
  const ordered = [...trades.flatMap((t) => t.changes), ...others].map((m, i) => ({ m, i }));
  ordered.sort((a, b) => a.m.time - b.m.time || a.i - b.i);
  return ordered.map(({ m }) => m).filter((m) => !m.delta.isZero());
}

/** The close of the last candle of `symbol` finished by `time`, from the exchange. */
async function closeAt(
  exchange: ExchangeClient,
  symbol: string,
  time: number,
  interval: KlineInterval,
): Promise<Decimal> {
  const length = KLINE_INTERVAL_MS[interval];
  const candles = await exchange.market.klines({
    symbol,
    interval,
    startTime: time - 999 * length,
    endTime: time,
    limit: 1000,
  });
  const finished = candles.filter((k) => Number(k[0]) + length <= time);
  expect(finished.length, `${symbol} candles before ${time}`).toBeGreaterThan(0);
  return new Exact(String(finished.at(-1)![4]));
}

/**
 * The parent's value at `time` in USDT: today's balances less every listed movement after it, at
 * the close of the time of each asset's USDT market (or the inverse of USDT's market in it).
 */
async function valueAt(
  exchange: ExchangeClient,
  movements: Movement[],
  time: number,
  interval: KlineInterval,
): Promise<Decimal> {
  const held = new Map<string, Decimal>();
  for (const balance of stack.sandbox.admin.balances(stack.parent.email)) {
    held.set(balance.asset, new Exact(balance.free).plus(balance.locked));
  }
  for (const m of movements) {
    if (m.time > time) held.set(m.asset, (held.get(m.asset) ?? new Exact(0)).minus(m.delta));
  }
  const tickers = await stack.tickers();
  let value = new Exact(0);
  for (const [asset, quantity] of held) {
    if (quantity.isZero()) continue;
    expect(quantity.isNegative(), `${asset} held at ${time}`).toBe(false);
    if (asset === 'usdt') {
      value = value.plus(quantity);
    } else if (tickers.some((t) => t.symbol === `${asset}usdt`)) {
      value = value.plus(quantity.times(await closeAt(exchange, `${asset}usdt`, time, interval)));
    } else {
      value = value.plus(quantity.div(await closeAt(exchange, `usdt${asset}`, time, interval)));
    }
  }
  return value.toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN);
}

/**
 * Where the ledger must infer what the exchange does not list, per asset: replayed from nothing
 * before the first record, a credit of whatever the balance has beyond the records (or, more, the
 * deepest the replay falls below zero), placed at the first movement that needed it or else at the
 * first balance the app saw (after `opened`); and when that credit exceeds what the balance shows,
 * a debit of the rest, placed there too.
 */
function inferredPlacements(
  movements: Movement[],
  opened: number,
): { asset: string; from: number; time: number }[] {
  const openedAt = Math.min(...movements.map((m) => m.time)) - 1;
  const balances = new Map(
    stack.sandbox.admin
      .balances(stack.parent.email)
      .map((b) => [b.asset, new Exact(b.free).plus(b.locked)]),
  );
  const assets = new Set([...balances.keys(), ...movements.map((m) => m.asset)]);
  const placements: { asset: string; from: number; time: number }[] = [];
  for (const asset of assets) {
    let running = new Exact(0);
    let lowest = new Exact(0);
    let shortAt: number | null = null;
    for (const m of movements.filter((candidate) => candidate.asset === asset)) {
      running = running.plus(m.delta);
      if (running.isNegative() && shortAt === null) shortAt = m.time;
      if (running.lt(lowest)) lowest = running;
    }
    const unexplained = (balances.get(asset) ?? new Exact(0)).minus(running);
    const credit = Exact.max(unexplained, lowest.negated());
    if (credit.gt(0)) placements.push({ asset, from: openedAt, time: shortAt ?? opened });
    if (credit.gt(unexplained)) placements.push({ asset, from: openedAt, time: opened });
  }
  return placements;
}

test('the value history ends on the total in every range and labels what is estimated', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const opened = Date.now();
  await openSandboxProfileAgain(page, stack);
  await setQuote(page, 'usdt');
  await goTo(page, 'portfolio');
  const total = page.getByTestId('portfolio-total');
  await expect(total).not.toBeEmpty();
  const chart = page.getByTestId('history-chart');
  const [key] = stack.parent.keys.filter((k) => !k.canTrade);
  const exchange = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key!, rateLimits: false });
  let noted = 0;
  try {
    for (const range of ['day', 'week', 'month', 'year', 'all'] as HistoryRange[]) {
      await page.getByTestId(`range-${range}`).click();
      // Drawn once the trade import and the candles are in; until then the card says so.
      await expect(chart).toHaveAttribute('aria-label', `Portfolio value over the ${range}`, {
        timeout: 90_000,
      });
      await expect(page.getByTestId('history-wait')).toHaveCount(0);
      // Each range at candles no coarser than its points are apart (fetched for it).
      let points: [number, string, 0 | 1][] = [];
      let interval: KlineInterval = '12h';
      await expect(async () => {
        const [pointsText, drawn] = await chart.evaluate((element) => [
          element.getAttribute('data-points'),
          element.getAttribute('data-interval') as KlineInterval,
        ]);
        points = JSON.parse(pointsText ?? '[]') as [number, string, 0 | 1][];
        interval = drawn;
        expect(points.length).toBeGreaterThan(1);
        expect(drawn).toBe(intervalFor(points[0]![0], points.at(-1)![0]));
      }).toPass({ timeout: 60_000 });
      expect(points.length).toBeGreaterThan(100);

      // The last point is now: the total computed here from the exchange's balances and tickers,
      // and the total the screen shows.
      const expected = await expectedFigures('usdt');
      const [lastTime, lastValue] = points.at(-1)!;
      expect(new Decimal(lastValue).eq(expected.total), `${range} ends on ${lastValue}`).toBe(true);
      expect(await chart.getAttribute('data-last-value')).toBe(lastValue);
      expect(formatValue(lastValue, 'usdt')).toBe(await total.textContent());
      expect(Math.abs(lastTime - Date.now())).toBeLessThan(120_000);

      // Points in the past: the holdings the exchange's own records give at that time, at the
      // closes of the time. The app reads withdrawals from where its history starts.
      const read = await page.evaluate(() =>
        (
          window as unknown as { spotfolio: SpotfolioBridge }
        ).spotfolio.withdrawals.backfillStatus(),
      );
      const since = read.coveredFrom;
      expect(since).not.toBeNull();
      // A range reaching back before them says the older withdrawals are not read.
      const unread = page.getByTestId('history-withdrawals');
      if (read.state !== 'done' && Date.now() - HISTORY_SPAN_MS[range] < since!) {
        await expect(unread).toContainText(
          `Withdrawals are read back to ${formatDateTime(since).slice(0, 10)} only`,
        );
      } else {
        await expect(unread).toHaveCount(0);
      }
      const movements = await parentMovements(exchange, since!);
      const settled = points.filter(([time, , onInferred]) => !onInferred && time < opened);
      expect(settled.length, `${range}: points resting on no inferred entry`).toBeGreaterThan(0);
      for (const [time, value] of [settled[0]!, settled[Math.floor(settled.length / 2)]!]) {
        const own = await valueAt(exchange, movements, time, interval as KlineInterval);
        expect(value, `${range} at ${new Date(time).toISOString()}`).toBe(own.toFixed());
      }

      // The note counts the inferred entries some drawn point depends on: one placed after it.
      const resting = inferredPlacements(movements, opened).filter((entry) =>
        points.some(([time]) => entry.from < time && time < entry.time),
      );
      const note = page.getByTestId('history-inferred');
      if (resting.length === 0) {
        await expect(note).toHaveCount(0);
        continue;
      }
      noted++;
      // A CI run under heavy load once saw 6 here against 5: the message says which were counted.
      const placed = resting.map((entry) => `${entry.asset} ${entry.from}..${entry.time}`);
      await expect(
        note,
        `${range}: computed here ${placed.join(', ')}; the note: ${await note.textContent()}`,
      ).toHaveAttribute('data-entries', String(resting.length));
      await expect(note).toContainText(
        `Rests on ${resting.length} inferred ${resting.length === 1 ? 'entry' : 'entries'} (deposits and other movements the exchange does not list`,
      );
      for (const asset of new Set(resting.map((entry) => entry.asset))) {
        await expect(note.getByRole('link', { name: asset.toUpperCase() })).toHaveAttribute(
          'href',
          `#/funds/${asset}`,
        );
      }
      // Each point inside an entry's span is marked as resting on it, and no other.
      for (const [time, , onInferred] of points) {
        const inside = resting.some((entry) => entry.from < time && time < entry.time);
        expect(onInferred === 1, `${range} at ${new Date(time).toISOString()}`).toBe(inside);
      }
    }
  } finally {
    await exchange.close();
  }
  // The demo world credits the parent with funds and pays for some of its trades without a record
  // the interface lists: the longer ranges rest on them.
  expect(noted).toBeGreaterThan(0);
  await screenshot(page, 'portfolio');

  // In INR, ending on the INR total shown (in lakh and crore), once its markets' candles are in.
  await setQuote(page, 'inr');
  const endsOnTotal = async () =>
    expect(async () => {
      const expected = await expectedFigures('inr');
      await expect(total).toHaveText(text(expected.total, 'inr'), { timeout: 1000 });
      const last = await chart.getAttribute('data-last-value', { timeout: 1000 });
      expect(new Decimal(last ?? 'NaN').eq(expected.total), `ends on ${last}`).toBe(true);
    }).toPass({ timeout: 30_000 });
  await expect(chart).toHaveAttribute('data-currency', 'inr', { timeout: 120_000 });
  await endsOnTotal();
  // A day in INR needs 5-minute candles never fetched for its markets: while the exchange
  // refuses them the day is drawn at the ledger's 12-hour closes (never today's prices in the
  // past), and at 5-minute closes once they come.
  stack.sandbox.admin.faults.inject({ path: '/sapi/v1/klines' }, { kind: 'error-before' }, 100_000);
  try {
    await page.getByTestId('range-day').click();
    await expect(chart).toHaveAttribute('aria-label', 'Portfolio value over the day');
    await expect(chart).toHaveAttribute('data-interval', '12h');
    await expect(page.getByTestId('history-wait')).toHaveCount(0);
    await endsOnTotal();
  } finally {
    stack.sandbox.admin.faults.clear();
  }
  await expect(chart).toHaveAttribute('data-interval', '5m', { timeout: 120_000 });
  await endsOnTotal();
  await setQuote(page, 'usdt');
});

test('sub-account values follow the quote asset: BTC after switching in Settings', async ({
  page,
}) => {
  await openSandboxProfileAgain(page, stack);
  await setQuote(page, 'usdt');
  await checkSubAccounts(page, 'usdt');
  await goTo(page, 'settings');
  await page.getByTestId('quote-asset').selectOption('btc');
  await checkSubAccounts(page, 'btc');
  // Refresh reads the exchange again; the values stay in BTC.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await checkSubAccounts(page, 'btc');
  await screenshot(page, 'sub-accounts-btc');
});

/**
 * The value of every account of an exchange's parent (the parent and its sub-accounts), from the
 * exchange's own balances (its admin surface) and its own tickers.
 */
async function exchangeWorth(sandbox: TestSandbox, quote: string): Promise<Decimal> {
  const response = await fetch(`${sandbox.baseUrl}/sapi/v1/tickers/24hr`);
  const tickers = (await response.json()) as PublicTicker[];
  const accounts = sandbox.world.accounts.filter((a) => a.role === 'parent' || a.role === 'sub');
  let worth = new Exact(0);
  for (const account of accounts) {
    for (const balance of sandbox.admin.balances(account.email)) {
      const price = priceOf(tickers, quote, balance.asset, 'lastPrice');
      if (price) worth = worth.plus(new Exact(balance.free).plus(balance.locked).mul(price));
    }
  }
  return worth;
}

test('every profile together: the net worth is the sum of both exchanges’ own, in USDT and in BTC', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // A second exchange of its own (another seed: other keys), its parent's key a second profile.
  const other = await startSandbox({
    port: 0,
    seed: worldSeed() + 500,
    simulation: false,
    rateLimits: false,
  });
  try {
    // Its parent takes the best offer of BTC: a last price of its own, so each profile is valued
    // at its own exchange's prices.
    const mover = other.world.accounts.find((a) => a.role === 'parent')!;
    other.admin.placeOrderAt(mover.email, Date.now(), {
      symbol: 'btcusdt',
      side: 'buy',
      quantity: '0.01',
      price: '70000',
    });
    await openSandboxProfileAgain(page, stack);
    const key = mover.keys[0]!;
    // The second profile is read once while active (its funds and sub-accounts), then the first
    // is active again: the second's figures are those its cache keeps.
    await page.evaluate(
      async ({ key, baseUrl, streamUrl, subs }) => {
        const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
        const first = (await api.profiles.list()).find((p) => p.active)!;
        const second = await api.profiles.add({
          name: 'Second exchange',
          apiKey: key.apiKey,
          secretKey: key.secretKey,
          baseUrl,
          streamUrl,
        });
        await api.profiles.activate({ id: second.id });
        for (let i = 0; i < 600; i++) {
          const worth = await api.ledger.netWorth({}).catch(() => null);
          if (worth && worth.accounts.length === 1 + subs) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await api.profiles.activate({ id: first.id });
      },
      {
        key: { apiKey: key.apiKey, secretKey: key.secretKey },
        baseUrl: other.baseUrl,
        streamUrl: other.streamUrl,
        subs: other.world.accounts.filter((a) => a.role === 'sub').length,
      },
    );
    await page.getByTestId('active-profile').filter({ hasText: 'Sandbox' }).waitFor();
    for (const quote of ['usdt', 'btc']) {
      await setQuote(page, quote);
      await page.getByTestId('profile-switcher').click();
      await page.getByTestId('profile-menu-all').click();
      await page.getByTestId('screen-portfolio-all').waitFor();
      await expect(async () => {
        const first = await exchangeWorth(stack.sandbox, quote);
        const second = await exchangeWorth(other, quote);
        const total = first.plus(second);
        const shown = page.getByTestId('all-net-worth');
        await expect(shown).toHaveText(text(total, quote), { timeout: 1000 });
        await expect(shown).toHaveAttribute('title', exactText(total, quote), { timeout: 1000 });
        const rows = page.locator('[data-testid^=all-profile-value-]');
        await expect(rows).toHaveCount(2, { timeout: 1000 });
        const values = await rows.evaluateAll((nodes) =>
          nodes.map((node) => node.getAttribute('data-exact')),
        );
        expect(values.sort()).toEqual([first.toFixed(), second.toFixed()].sort());
      }).toPass({ timeout: 60_000 });
      await expect(page.getByTestId('all-includes')).toContainText('2 profiles');
      await expect(page.getByTestId('all-left-out')).toHaveCount(0);
    }
    await screenshot(page, 'portfolio-all-profiles');
    await setQuote(page, 'usdt');
  } finally {
    await other.close();
  }
});
