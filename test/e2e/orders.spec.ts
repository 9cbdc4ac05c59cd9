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

  // The account may have resting orders of its own already: ours is the one that is new.
  const openIds = () =>
    page.evaluate(async () => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      return (await api.orders.open({})).rows.map((order) => order.id);
    });
  const before = new Set(await openIds());
  await page.getByTestId('order-price').fill(price);
  await page.getByTestId('order-quantity').fill('0.001');
  await page.getByTestId('order-review').click();
  await expect(page.getByTestId('order-confirm')).toContainText(price);
  await page.getByTestId('order-confirm-place').click();

  let placed: number | undefined;
  await expect
    .poll(async () => (placed = (await openIds()).find((id) => !before.has(id))), {
      timeout: 15_000,
    })
    .toBeDefined();
  const row = page.getByTestId('open-orders').getByTestId(`open-order-${placed}`);
  await expect(row).toBeVisible({ timeout: 15_000 });
  await screenshot(page, 'orders');
  await row.getByTestId('cancel-order').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Order canceled' })).toBeVisible();
  await expect(row).toHaveCount(0, { timeout: 15_000 });
  expect(await openIds()).not.toContain(placed);
});
