/**
 * Alerts in Chromium: each kind created from the UI (a price alert from a market page with its
 * last price filled in, a balance alert from an asset page with its free balance filled in, a
 * price move, the portfolio's value and a withdrawal's status from the Alerts page); then the
 * sandbox's market is moved across the line by two other accounts trading with each other (or a
 * balance credited, a withdrawal settled through the sandbox's admin), and the toast and the
 * Activity entry appear. The sandbox runs in the test (an empty world: every price is the test's
 * own trades), the app as a child in browser mode.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Decimal from 'decimal.js';
import { expect, test, type Page } from '@playwright/test';
import { ExchangeClient } from '../../electron/exchange/client';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import type { SpotfolioBridge } from '../../shared/contract';
import { formatAmountWithUnit } from '../../shared/format';
import { hourMove, tradeAgo } from '../alerts/past-trades';
import { startBrowserMode, type StartedChild } from './support/child';
import { goTo, openApp, screenshot } from './support/stack';

const HOLDER = 'holder@alerts.e2e';
const SELLER = 'seller@alerts.e2e';
const BUYER = 'buyer@alerts.e2e';

let sandbox: TestSandbox;
let app: StartedChild<string>;
let dataDir: string;
let holderKey: { apiKey: string; secretKey: string };
let seller: ExchangeClient;
let buyer: ExchangeClient;

/** Two other accounts trade 0.001 at `price`: the market's last price becomes `price`. */
async function trade(symbol: string, price: string): Promise<void> {
  const order = { symbol, type: 'limit' as const, quantity: '0.001', price };
  await seller.trading.placeOrder({ ...order, side: 'sell' });
  await buyer.trading.placeOrder({ ...order, side: 'buy' });
}

test.beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, world: 'empty', simulation: false, rateLimits: false });
  const account = (email: string) => {
    sandbox.admin.createAccount({ email });
    return sandbox.admin.createApiKey(email, { canTrade: true });
  };
  holderKey = account(HOLDER);
  sandbox.admin.credit(HOLDER, 'usdt', '1000');
  sandbox.admin.credit(HOLDER, 'btc', '0.5');
  for (const email of [SELLER, BUYER]) {
    sandbox.admin.createAccount({ email });
    sandbox.admin.credit(email, 'btc', '10');
    sandbox.admin.credit(email, 'eth', '10');
    sandbox.admin.credit(email, 'xrp', '100');
    sandbox.admin.credit(email, 'usdt', '100000');
  }
  const keys = {
    seller: sandbox.admin.createApiKey(SELLER, { canTrade: true }),
    buyer: sandbox.admin.createApiKey(BUYER, { canTrade: true }),
  };
  seller = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...keys.seller });
  buyer = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...keys.buyer });
  await trade('btcusdt', '100');
  await trade('ethusdt', '50');
  // XRP is quiet: a trade 65 minutes ago, then one now (before the app starts: the exchange's
  // clock is turned back for the first).
  await tradeAgo(sandbox, keys, 65, { symbol: 'xrpusdt', price: '1', quantity: '10' });
  await tradeAgo(sandbox, keys, 0, { symbol: 'xrpusdt', price: '1.0129', quantity: '10' });
  dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-e2e-alerts-'));
  app = await startBrowserMode(dataDir);
});

test.afterAll(async () => {
  await app?.stop();
  await seller?.close();
  await buyer?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function open(page: Page): Promise<void> {
  await openApp(page, app.value);
  await page.evaluate(
    async ({ key, baseUrl, streamUrl }) => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      if ((await api.profiles.list()).some((p) => p.active)) return;
      const profile = await api.profiles.add({ name: 'Holder', ...key, baseUrl, streamUrl });
      await api.profiles.activate({ id: profile.id });
    },
    { key: holderKey, baseUrl: sandbox.baseUrl, streamUrl: sandbox.streamUrl },
  );
  await page.reload();
  await page.getByTestId('active-profile').filter({ hasText: 'Holder' }).waitFor();
}

/** The toast of a fired alert, and the same alert's entry in Activity. */
async function expectToldAbout(page: Page, title: string, body: string | RegExp): Promise<void> {
  await expect(page.getByTestId('toast').filter({ hasText: title }).first()).toBeVisible({
    timeout: 45_000,
  });
  await goTo(page, 'activity');
  const entry = page.getByTestId('notification-item').filter({ hasText: title }).first();
  await expect(entry).toBeVisible();
  await expect(entry).toContainText(body);
}

async function newAlert(page: Page): Promise<void> {
  await goTo(page, 'alerts');
  await page.getByTestId('new-alert').click();
  await expect(page.getByTestId('alert-form')).toBeVisible();
}

async function submitAlert(page: Page): Promise<void> {
  await page.getByTestId('alert-submit').click();
  await expect(page.getByTestId('alert-form')).toBeHidden();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Alert created' }).first(),
  ).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test('a price alert from the market page fires when the market crosses its line', async ({
  page,
}) => {
  await open(page);
  await goTo(page, 'markets');
  await page.getByTestId('ticker-btcusdt').getByRole('link').click();
  await page.getByTestId('screen-symbol').waitFor();
  await page.getByTestId('market-create-alert').click();
  // The market's last price is filled in.
  await expect(page.getByTestId('alert-threshold')).toHaveValue('100');
  await expect(page.getByTestId('alert-symbol')).toHaveValue('btcusdt');
  // A price that is not a positive decimal is refused, naming the field.
  await page.getByTestId('alert-threshold').fill('1,10');
  await page.getByTestId('alert-submit').click();
  await expect(page.getByTestId('alert-error-threshold')).toHaveText(
    'The price must be a positive decimal like 12.5.',
  );
  await page.getByTestId('alert-threshold').fill('110');
  await submitAlert(page);

  await trade('btcusdt', '111');
  await expectToldAbout(
    page,
    'Price alert: BTCUSDT above the line',
    'BTCUSDT is at 111 USDT, above 110 USDT',
  );

  await goTo(page, 'alerts');
  const row = page.getByTestId('alert-row').filter({ hasText: 'BTCUSDT above 110' });
  await expect(row.getByTestId('alert-status')).toHaveText('Fired (resume to arm again)');
  await expect(row.getByTestId('alert-last-fired')).not.toHaveText('Never');
  await expect(row.getByTestId('alert-last-value')).toHaveText('111');
});

test('a duplicate and an unknown market are refused with clear errors', async ({ page }) => {
  await open(page);
  await newAlert(page);
  await page.getByTestId('alert-symbol').fill('btcusdt');
  await page.getByTestId('alert-threshold').fill('110.0');
  await page.getByTestId('alert-submit').click();
  await expect(page.getByTestId('alert-error-threshold')).toHaveText(
    'You already have this alert: BTCUSDT above 110',
  );
  await page.getByTestId('alert-symbol').fill('nosuchusdt');
  await page.getByTestId('alert-threshold').fill('5');
  await page.getByTestId('alert-submit').click();
  await expect(page.getByTestId('alert-error-symbol')).toHaveText(
    'NOSUCHUSDT is not a market of this exchange',
  );
  await page.keyboard.press('Escape');
});

test('a price-move alert fires on a move of its percentage within 24 h', async ({ page }) => {
  await open(page);
  await newAlert(page);
  await page.getByTestId('alert-kind').selectOption('price-move');
  await page.getByTestId('alert-symbol').fill('ethusdt');
  await page.getByTestId('alert-move-direction').selectOption('up');
  await page.getByTestId('alert-percent').fill('20');
  await page.getByTestId('alert-window').selectOption('24h');
  await submitAlert(page);

  await trade('ethusdt', '55');
  await trade('ethusdt', '61');
  await expectToldAbout(
    page,
    'Price alert: ETHUSDT moved 20 % or more',
    'ETHUSDT moved +22 % within 24h',
  );
});

test('a new 1-hour move alert knows the last hour: a move already made fires at once', async ({
  page,
}) => {
  const move = await hourMove(sandbox, 'xrpusdt');
  expect(move).toEqual({ change: '+1.29', price: '1.0129' });
  await open(page);
  for (const percent of ['2', '1']) {
    await newAlert(page);
    await page.getByTestId('alert-kind').selectOption('price-move');
    await page.getByTestId('alert-symbol').fill('xrpusdt');
    await page.getByTestId('alert-move-direction').selectOption('up');
    await page.getByTestId('alert-percent').fill(percent);
    await page.getByTestId('alert-window').selectOption('1h');
    await submitAlert(page);
  }
  await expectToldAbout(
    page,
    'Price alert: XRPUSDT moved 1 % or more',
    `XRPUSDT moved ${move.change} % within 1h (now ${move.price} USDT)`,
  );
  await goTo(page, 'alerts');
  // The one whose line is further has measured the same hour, and waits.
  const waiting = page
    .getByTestId('alert-row')
    .filter({ hasText: 'XRPUSDT' })
    .filter({
      has: page.getByTestId('alert-status').filter({ hasText: 'Waiting' }),
    });
  await expect(waiting.getByTestId('alert-last-value')).toHaveText(`${move.change} %`);
  await expect(waiting.getByTestId('alert-last-fired')).toHaveText('Never');
  const fired = page
    .getByTestId('alert-row')
    .filter({ hasText: 'XRPUSDT' })
    .filter({
      has: page.getByTestId('alert-status').filter({ hasText: 'Fired' }),
    });
  await expect(fired.getByTestId('alert-last-value')).toHaveText(`${move.change} %`);
});

test('a balance alert from the asset page fires when the free balance crosses its amount', async ({
  page,
}) => {
  await open(page);
  await page.evaluate(() => {
    window.location.hash = '#/funds/usdt';
  });
  await page.getByTestId('screen-asset').waitFor();
  await page.getByTestId('asset-create-alert').click();
  // The free balance, as the exchange holds it, is filled in.
  const free = sandbox.admin.balances(HOLDER).find((b) => b.asset === 'usdt')!.free;
  await expect(page.getByTestId('alert-threshold')).toHaveValue(new Decimal(free).toFixed());
  await expect(page.getByTestId('alert-asset')).toHaveValue('usdt');
  await page.getByTestId('alert-direction').selectOption('above');
  const line = new Decimal(free).plus(50).toFixed();
  await page.getByTestId('alert-threshold').fill(line);
  await submitAlert(page);

  sandbox.admin.credit(HOLDER, 'usdt', '60.25');
  const now = new Decimal(free).plus('60.25').toFixed();
  await expectToldAbout(
    page,
    'Balance alert: USDT above the line',
    `Free USDT is ${formatAmountWithUnit(now, 'usdt')}, above ${formatAmountWithUnit(line, 'usdt')}`,
  );
});

test('a portfolio alert fires when the total value crosses its line', async ({ page }) => {
  await open(page);
  // The value now, from the exchange's own balances and last prices (BTC at 111, ETH at 61).
  const prices: Record<string, string> = { usdt: '1', btc: '111', eth: '61' };
  const total = sandbox.admin
    .balances(HOLDER)
    .reduce(
      (sum, b) => sum.plus(new Decimal(b.free).plus(b.locked).times(prices[b.asset] ?? '0')),
      new Decimal(0),
    );
  await newAlert(page);
  await page.getByTestId('alert-kind').selectOption('portfolio');
  await expect(page.getByTestId('alert-quoteAsset')).toHaveValue('usdt');
  await page.getByTestId('alert-direction').selectOption('above');
  await page.getByTestId('alert-threshold').fill(total.plus(30).toFixed());
  await submitAlert(page);

  // The market moves the value across: BTC from 111 to 200 adds 0.5 x 89 = 44.5 USDT.
  await trade('btcusdt', '200');
  await expectToldAbout(page, 'Portfolio alert: value above the line', 'The portfolio is worth');
});

test('a withdrawal alert fires when a withdrawal changes status', async ({ page }) => {
  test.setTimeout(120_000);
  await open(page);
  await newAlert(page);
  await page.getByTestId('alert-kind').selectOption('withdrawal');
  await page.getByTestId('alert-asset').fill('btc');
  await submitAlert(page);

  const { id } = sandbox.admin.requestWithdrawal(HOLDER, {
    coin: 'btc',
    network: 'BTC',
    amount: '0.01',
    address: 'bc1qalertsjourney',
  });
  // The app sees it pending (the balance it took tells it to look), then settled.
  await expect
    .poll(
      () =>
        page.evaluate(async (withdrawalId) => {
          const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
          const { rows } = await api.withdrawals.list({ filter: { coin: 'btc' } });
          return rows.find((row) => row.id === withdrawalId)?.status ?? null;
        }, id),
      { timeout: 30_000 },
    )
    .not.toBeNull();
  sandbox.admin.settleWithdrawal(id, 'success');
  await expectToldAbout(page, 'Withdrawal success', 'Withdrawal of 0.01 BTC: pending → success');
  await goTo(page, 'alerts');
  await expect(page.getByTestId('alerts-table')).toBeVisible();
  await screenshot(page, 'alerts');
});
