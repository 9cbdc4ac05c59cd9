/**
 * Nothing on screen claims more than is true: before any profile there is no connection badge;
 * a plain http: address to another machine is refused in Spotfolio's words (not "the exchange
 * rejected the request"); with the exchange stopped, an offline failure is said once, and the
 * symbol page shows the chart, book and trades it kept with their age, or says it kept none.
 */
import { expect, test } from '@playwright/test';
import Decimal from 'decimal.js';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { fromExchange, grouped } from './support/exchange';
import { goTo, openWithSandboxProfile } from './support/stack';

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('no badge before a profile, and a local refusal said in Spotfolio words', async ({ page }) => {
  await page.goto(stack.url);
  await expect(page.getByTestId('screen-onboarding')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('profile-form')).toBeVisible();
  await expect(page.getByTestId('connection-state')).toHaveCount(0);

  const form = page.getByTestId('profile-form');
  await form.getByTestId('profile-name').fill('Elsewhere');
  await form.getByTestId('profile-apiKey').fill('a'.repeat(64));
  await form.getByTestId('profile-secretKey').fill('b'.repeat(64));
  await form.getByTestId('profile-baseUrl').fill('http://example.com');
  await form.getByTestId('profile-streamUrl').fill('wss://example.com/ws');
  await form.getByTestId('profile-submit').click();
  const refusal = form.locator('.field-error');
  await expect(refusal).toContainText('Spotfolio refuses this address, nothing was sent');
  await expect(refusal).toContainText('http://example.com');
  await expect(page.getByText('rejected the request', { exact: false })).toHaveCount(0);
  await expect(page.getByTestId('connection-state')).toHaveCount(0);
});

test('offline, the symbol page shows what it kept with its age, or says it kept none', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openWithSandboxProfile(page, stack);
  // Seen once while the exchange answers: BTC/USDT's candles, book and trades are kept.
  await goTo(page, 'markets');
  await page.getByTestId('ticker-btcusdt').getByRole('link').click();
  await expect(page.getByTestId('candle-chart')).toBeVisible();
  await expect(page.getByTestId('depth-ladder').getByRole('row').first()).toBeVisible();
  const trades = page.getByTestId('recent-trades').locator('tbody tr');
  await expect(trades.first()).toBeVisible();
  const shownTrades = await trades.count();
  // The exchange's own newest trade of the market, as the page shows it, before it stops.
  const newest = await fromExchange(async () => {
    const response = await fetch(`${stack.sandbox.baseUrl}/sapi/v1/trades?symbol=btcusdt&limit=1`);
    return ((await response.json()) as { price: string }[])[0]!;
  });
  await expect(page.getByTestId('connection-state')).toHaveAttribute('data-kind', 'live');

  await stack.stopSandbox();
  try {
    const badge = page.getByTestId('connection-state');
    await expect(badge).not.toHaveAttribute('data-kind', 'live', { timeout: 60_000 });
    await page.reload();
    await page.getByTestId('screen-symbol').waitFor();
    await expect(page.getByTestId('candle-chart')).toBeVisible();
    await expect(page.getByTestId('candles-age')).toContainText('as last received');
    await expect(page.getByTestId('depth-age')).toContainText('Last received');
    await expect(trades).toHaveCount(shownTrades);
    await expect(page.getByTestId('trades-age')).toContainText('Trades as last received');
    await expect(trades.first().locator('td').first()).toHaveText(
      grouped(new Decimal(newest.price)),
    );
    await expect(page.getByText('No trades yet')).toHaveCount(0);
    await expect(page.getByTestId('connection-state')).not.toContainText('Live');

    // A market never shown: nothing kept, and said so, not "No trades yet".
    await page.goto(`${stack.url.split('#')[0]}#/markets/ethbtc`);
    await page.getByTestId('screen-symbol').waitFor();
    await expect(page.getByTestId('candles-none')).toContainText('No chart kept for this market');
    await expect(page.getByTestId('depth-none')).toContainText(
      'No order book kept for this market',
    );
    await expect(page.getByTestId('trades-none')).toContainText('No trades kept for this market');
    await expect(page.getByText('No trades yet')).toHaveCount(0);
    // Said once: no "could not be reached. … cannot be reached." anywhere.
    await expect(page.getByText('could not be reached', { exact: false })).toHaveCount(0);

    // Activity's feed does not claim to be live.
    await goTo(page, 'activity');
    await expect(page.getByTestId('feed-state')).not.toHaveAttribute('data-state', 'live');
  } finally {
    await stack.restartSandbox();
  }
  await expect(page.getByTestId('feed-state')).toHaveAttribute('data-state', 'live', {
    timeout: 60_000,
  });
});
