/**
 * Order figures: privacy mode hides every amount of an order, its stop price too; a toast names
 * amounts with their units and separators, a fee only when one was charged, and error texts end
 * with one full stop.
 */
import { expect, test } from '@playwright/test';
import { openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('privacy hides the stop price; toasts carry units and read as sentences', async ({ page }) => {
  await openWithSandboxProfile(page, stack, { screen: 'orders' });
  // The demo's idle stop-limit: sell 1 ETH at 2,800 once the price reaches 2,850.
  const stopRow = page.locator('[data-testid^=open-order-]').filter({ hasText: 'Stop-limit' });
  await expect(stopRow).toContainText('2,850');

  await page.getByTestId('privacy-toggle').click();
  await expect(stopRow).toContainText('Stop-limit');
  await expect(stopRow).not.toContainText(/2,?850/);
  await expect(stopRow).not.toContainText(/2,?800/);
  await expect(page.getByTestId('open-orders')).not.toContainText(/@ \d/);
  await screenshot(page, 'orders-privacy');
  await page.getByTestId('privacy-toggle').click();

  // Canceled elsewhere or here, the notification's toast names the amounts with their units.
  await stopRow.getByTestId('cancel-order').click();
  const toast = page.getByTestId('toast').filter({ hasText: 'Order canceled' });
  await expect(toast).toContainText('Sell 1 ETH at 2,800 USDT');
  for (const text of await page.getByTestId('toast').allTextContents()) {
    expect(text).not.toContain('..');
    expect(text).not.toMatch(/fee 0 /);
  }
});
