import { expect, test } from '@playwright/test';
import { goTo, openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack({ simulation: true });
});
test.afterAll(async () => {
  await stack?.close();
});

test('a fill arrives live as a toast and in Activity', async ({ page }) => {
  await openWithSandboxProfile(page, stack, { screen: 'markets' });
  await expect(page.getByTestId('tickers-table')).toBeVisible();
  await screenshot(page, 'markets');

  await page.getByTestId('ticker-btcusdt').getByRole('link').click();
  await page.getByTestId('screen-symbol').waitFor();
  await expect(page.getByTestId('candle-chart')).toBeVisible();
  const asks = page.locator('[data-testid=depth-ladder] .ladder-row.ask .price');
  await expect(asks.first()).toBeVisible();
  await expect(page.getByTestId('recent-trades')).toBeVisible();
  await expect(page.getByTestId('symbol-ticker')).toBeVisible();
  await screenshot(page, 'symbol');

  // A buy at the best ask crosses the book and fills at once.
  const bestAsk = ((await asks.last().textContent()) ?? '').replace(/,/g, '');
  await page.getByTestId('order-side-buy').click();
  await page.getByTestId('order-price').fill(bestAsk);
  await page.getByTestId('order-quantity').fill('0.001');
  await page.getByTestId('order-review').click();
  await page.getByTestId('order-confirm-place').click();

  await expect(page.getByTestId('toast').filter({ hasText: /fill/i }).first()).toBeVisible({
    timeout: 20_000,
  });

  await goTo(page, 'activity');
  await expect(page.getByTestId('feed-trade').first()).toContainText('BTCUSDT');
  // The best ask may hold less than 0.001 BTC, so the order can fill in pieces, each told with
  // its own amount: a buy of BTC, whatever part of the order it was.
  const filled = page.getByTestId('notification-item').filter({ hasText: /filled/ });
  await expect(filled.filter({ hasText: /Buy 0\.\d+ BTC at [\d,.]+ USDT/ }).first()).toBeVisible();
  await screenshot(page, 'activity');

  // Privacy mode hides the amounts inside the notification texts too.
  await page.getByTestId('privacy-toggle').click();
  await expect(filled.filter({ hasText: 'Buy •••• BTC at •••• USDT' }).first()).toBeVisible();
  await expect(filled.filter({ hasText: '0.001' })).toHaveCount(0);
  await page.getByTestId('privacy-toggle').click();
});
