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
  await openWithSandboxProfile(page, stack, { screen: 'settings' });
  await expect(page.getByTestId('profiles')).toContainText('Sandbox');
  await screenshot(page, 'settings');

  await page.getByTestId('theme-dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await goTo(page, 'portfolio');
  await expect(page.getByTestId('portfolio-total')).toContainText(/\d/);
  await screenshot(page, 'dark-mode');

  // A chart that takes focus says what it is.
  const focusableCharts = page.locator('svg[tabindex="0"]');
  await expect(focusableCharts.first()).toBeVisible();
  for (const chart of await focusableCharts.all()) await expect(chart).toHaveAccessibleName(/\w/);

  await goTo(page, 'settings');
  await page.getByTestId('privacy-mode').check();
  await goTo(page, 'portfolio');
  await expect(page.getByTestId('portfolio-total')).toHaveText('••••');
  // A hidden P&L tells its sign by no colour: no hidden amount is drawn in the gain or loss colour.
  await expect(page.getByTestId('pnl-realized')).toHaveText('••••', { timeout: 30_000 });
  const colouredHidden = await page.evaluate(() => {
    const colourOf = (className: string) => {
      const probe = document.createElement('span');
      probe.className = className;
      document.body.append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour;
    };
    const signColours = new Set([colourOf('up'), colourOf('down')]);
    const hidden = [...document.querySelectorAll<HTMLElement>('[data-private]')];
    return {
      hidden: hidden.length,
      coloured: hidden
        .filter((element) => signColours.has(getComputedStyle(element).color))
        .map((element) => element.closest('[data-testid]')?.getAttribute('data-testid')),
    };
  });
  expect(colouredHidden.hidden).toBeGreaterThan(3);
  expect(colouredHidden.coloured).toEqual([]);
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
