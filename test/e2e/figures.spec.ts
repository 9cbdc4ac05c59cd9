/**
 * Figures reconcile: every money figure on Portfolio, Funds and Sub-accounts equals a computation
 * made here, in exact decimals, from the sandbox's own balances (its admin surface) and prices
 * (its public tickers), formatted the way the screens format; in USDT and in BTC. The value
 * history ends on the total shown.
 */
import Decimal from 'decimal.js';
import { expect, test, type Page } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { formatPercent, formatValue } from '../../shared/format';
import { startAdminStack, type AdminStack, type PublicTicker } from './support/admin-stack';
import { goTo, openWithSandboxProfile, screenshot } from './support/stack';

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

type PriceField = 'lastPrice' | 'openPrice';
const BRIDGES = ['usdt', 'btc', 'eth', 'usdc', 'busd'];

/**
 * One unit of `asset` in `quote` from the exchange's tickers: the pair itself, the inverse pair,
 * or through one bridge asset, the first that has a positive price (the rule the app states in
 * docs: direct, inverse, then usdt, btc, eth, usdc, busd).
 */
function priceOf(
  tickers: PublicTicker[],
  quote: string,
  asset: string,
  field: PriceField,
): Decimal | null {
  const hop = (from: string, to: string): Decimal | null => {
    const direct = tickers.find((t) => t.baseAsset === from && t.quoteAsset === to);
    if (direct && new Decimal(direct[field]).gt(0)) return new Decimal(direct[field]);
    const inverse = tickers.find((t) => t.baseAsset === to && t.quoteAsset === from);
    if (inverse && new Decimal(inverse[field]).gt(0))
      return new Decimal(1).div(new Decimal(inverse[field]));
    return null;
  };
  if (asset === quote) return new Decimal(1);
  const one = hop(asset, quote);
  if (one) return one;
  for (const bridge of BRIDGES) {
    if (bridge === asset || bridge === quote) continue;
    const first = hop(asset, bridge);
    const second = first && hop(bridge, quote);
    if (first && second) return first.mul(second);
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
  let total = new Decimal(0);
  let open = new Decimal(0);
  for (const balance of stack.sandbox.admin.balances(stack.parent.email)) {
    const amount = new Decimal(balance.free).plus(balance.locked);
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
    let value = new Decimal(0);
    for (const balance of stack.sandbox.admin.balances(sub.email)) {
      const price = priceOf(tickers, quote, balance.asset, 'lastPrice');
      if (price) value = value.plus(new Decimal(balance.free).plus(balance.locked).mul(price));
    }
    subs.set(sub.email, value);
  }
  return { total, open, change: total.minus(open), rows, prices, subs };
}

const text = (value: Decimal, quote: string, options: { signed?: boolean } = {}) =>
  formatValue(value.toFixed(), quote, options);

/** Opens the app on the sandbox profile, adding it the first time. */
async function openProfile(page: Page): Promise<void> {
  await page.goto(stack.url);
  await page.waitForFunction(() => 'spotfolio' in window);
  const profiles = await page.evaluate(() =>
    (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio.profiles.list(),
  );
  if (profiles.some((p) => p.active && !p.isDemo)) {
    await page.getByTestId('screen-portfolio').waitFor();
    return;
  }
  await openWithSandboxProfile(page, stack);
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
    await expect(page.getByTestId('portfolio-total')).toHaveText(text(expected.total, quote), {
      timeout: 1000,
    });
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
      await expect(item.locator('span.num').last()).toHaveText(text(value!, quote));
    }
    // The history's last point is the total shown.
    const chart = page.getByTestId('history-chart');
    const last = await chart.getAttribute('data-last-value', { timeout: 1000 });
    expect(formatValue(last, quote)).toBe(text(expected.total, quote));
  }).toPass({ timeout: 30_000 });
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
        price ? formatValue(price.toFixed(), quote, { withUnit: false }) : '—',
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
      await expect(page.getByTestId(`sub-${email}`).getByTestId('sub-value')).toHaveText(
        text(value, quote),
        { timeout: 1000 },
      );
    }
  }).toPass({ timeout: 30_000 });
}

test('figures reconcile with the exchange in USDT and in BTC', async ({ page }) => {
  test.setTimeout(180_000);
  await openProfile(page);
  for (const quote of ['usdt', 'btc']) {
    await setQuote(page, quote);
    await checkPortfolio(page, quote);
    if (quote === 'btc') await screenshot(page, 'portfolio-btc');
    await checkFunds(page, quote);
    await checkSubAccounts(page, quote);
  }
});

test('the value history ends on the total in every range and labels what is estimated', async ({
  page,
}) => {
  await openProfile(page);
  await setQuote(page, 'usdt');
  await goTo(page, 'portfolio');
  const total = page.getByTestId('portfolio-total');
  await expect(total).not.toBeEmpty();
  const chart = page.getByTestId('history-chart');
  for (const range of ['day', 'week', 'month', 'year', 'all']) {
    await page.getByTestId(`range-${range}`).click();
    await expect(chart).toHaveAttribute('aria-label', `Portfolio value over the ${range}`, {
      timeout: 30_000,
    });
    await expect(async () => {
      const last = await chart.getAttribute('data-last-value', { timeout: 1000 });
      expect(formatValue(last, 'usdt')).toBe(await total.textContent());
    }).toPass({ timeout: 15_000 });
    // A new profile's history before its first recorded value is an estimate, and says so.
    await expect(page.getByTestId('history-estimate')).toContainText('Estimated before');
    await expect(page.getByTestId('history-estimate')).toContainText('at past prices');
  }
  await screenshot(page, 'portfolio');
});

test('sub-account values follow the quote asset: BTC after switching in Settings', async ({
  page,
}) => {
  await openProfile(page);
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
