import { expect, test } from '@playwright/test';
import { goTo, openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('switches to dark mode and privacy mode, and both persist', async ({ page }) => {
  await openWithSandboxProfile(page, stack);
  await goTo(page, 'settings');
  await expect(page.getByTestId('profiles')).toContainText('Sandbox');
  await screenshot(page, 'settings');

  await page.getByTestId('theme-dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await goTo(page, 'portfolio');
  await expect(page.getByTestId('portfolio-total')).toContainText(/\d/);
  await screenshot(page, 'dark-mode');

  await goTo(page, 'settings');
  await page.getByTestId('privacy-mode').check();
  await goTo(page, 'portfolio');
  await expect(page.getByTestId('portfolio-total')).toHaveText('••••');
  await goTo(page, 'funds');
  await expect(page.getByTestId('fund-row-usdt').getByTestId('fund-free')).toHaveText('••••');

  // Settings live in the app, not the page: a reload keeps both.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('fund-row-usdt').getByTestId('fund-free')).toHaveText('••••');
  await goTo(page, 'portfolio');
  await screenshot(page, 'privacy-mode');

  await page.getByTestId('privacy-toggle').click();
  await expect(page.getByTestId('portfolio-total')).toContainText(/\d/);
});
