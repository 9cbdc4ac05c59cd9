import { expect, test } from '@playwright/test';
import Decimal from 'decimal.js';
import type { SpotfolioBridge } from '../../shared/contract';
import { goTo, openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('checks, places and cancels a limit order', async ({ page }) => {
  await openWithSandboxProfile(page, stack);
  const market = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    const [tickers, symbols] = await Promise.all([api.market.tickers(), api.market.symbols()]);
    const ticker = tickers.find((t) => t.symbol === 'btcusdt') ?? tickers[0]!;
    return { ticker, symbol: symbols.find((s) => s.symbol === ticker.symbol)! };
  });
  // Half the last price, on the tick grid: rests in the book without filling.
  const tick = new Decimal(market.symbol.tickSize);
  const price = new Decimal(market.ticker.lastPrice)
    .div(2)
    .div(tick)
    .floor()
    .times(tick)
    .toString();

  await goTo(page, 'orders');
  await page.getByTestId('order-symbol').selectOption(market.ticker.symbol);
  await page.getByTestId('order-side-buy').click();
  await page.getByTestId('order-price').fill(price);

  // The exchange's test endpoint rejects a price off the tick grid; nothing is placed.
  await page.getByTestId('order-price').fill(new Decimal(price).plus(tick.div(2)).toString());
  await page.getByTestId('order-quantity').fill('0.001');
  await page.getByTestId('order-review').click();
  await expect(page.getByTestId('order-test-error')).toContainText('tick');
  await expect(page.getByTestId('order-confirm')).toHaveCount(0);

  await page.getByTestId('order-price').fill(price);
  await page.getByTestId('order-quantity').fill('0.001');
  await page.getByTestId('order-review').click();
  await expect(page.getByTestId('order-confirm')).toContainText(price);
  await page.getByTestId('order-confirm-place').click();

  const open = page.getByTestId('open-orders');
  const row = open.locator('tr[data-testid^=open-order-]').first();
  await expect(row).toBeVisible({ timeout: 15_000 });
  await screenshot(page, 'orders');
  const before = await open.locator('tr[data-testid^=open-order-]').count();
  await row.getByTestId('cancel-order').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Order canceled' })).toBeVisible();
  await expect(async () => {
    const after = await page.locator('tr[data-testid^=open-order-]').count();
    expect(after).toBeLessThan(before);
  }).toPass({ timeout: 15_000 });
});
