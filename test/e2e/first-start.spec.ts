/**
 * A fresh install offers the choice: try the demo, or add one's own exchange key. Wherever the
 * demo is shown, "Add your exchange key" stays in view, and the Demo profile in Settings says
 * what happens to it when Spotfolio restarts.
 */
import { expect, test } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { goTo, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

const screens = [
  'portfolio',
  'funds',
  'withdrawals',
  'deposit',
  'sub-accounts',
  'orders',
  'markets',
  'activity',
  'settings',
];

test('the first start offers the demo or an own key, and the way to a key stays in view', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(stack.url);
  // Nothing was started behind the user's back: the choice is on screen.
  await expect(page.getByTestId('screen-onboarding')).toBeVisible({ timeout: 20_000 });
  const status = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    return api.app.status();
  });
  expect(status).toMatchObject({ activeProfileId: null, demo: false });
  await expect(page.getByTestId('enter-demo')).toHaveText(/Try the demo/);
  await expect(page.getByTestId('profile-form')).toContainText('Add your exchange key');
  await screenshot(page, 'first-start');

  await page.getByTestId('enter-demo').click();
  await expect(page.getByTestId('demo-badge')).toBeVisible({ timeout: 30_000 });
  for (const screen of screens) {
    await goTo(page, screen);
    await expect(page.getByTestId('add-own-key')).toBeVisible();
  }

  // Settings lists the demo and says what a restart does to it.
  await expect(page.getByTestId('profile-Demo')).toContainText(/starts afresh/i);

  await page.getByTestId('add-own-key').click();
  await expect(page.getByTestId('screen-onboarding')).toBeVisible();
  await expect(page.getByTestId('profile-form')).toBeVisible();
  await expect(page.getByTestId('screen-onboarding')).toContainText(/demo/i);
});
