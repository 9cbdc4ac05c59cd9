/**
 * A key without the trade permission (issue item 11) and the profile switcher in the top bar
 * (item 19). The read-only key of the sandbox's main account may read and withdraw but not trade
 * or move funds between sub-accounts: the app says so and disables the order form, Cancel,
 * Cancel all and the transfer form, with the reason, instead of failing at the end. The top bar
 * switches between profiles from the keyboard alone.
 */
import { expect, test, type Page } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { focusedElement } from './support/dialogs';
import { goTo, openApp, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

/**
 * Opens the app with two profiles of the main account, the trading key ("Sandbox", active) and
 * the read-only key ("Read-only"), adding whichever is not there yet.
 */
async function openWithTwoProfiles(page: Page): Promise<void> {
  await openApp(page, stack.url);
  const readOnly = stack.parent.keys.find((k) => !k.canTrade);
  const trading = stack.parent.keys.find((k) => k.canTrade);
  if (!readOnly || !trading) throw new Error('The sandbox world lacks a read-only or trading key');
  await page.evaluate(
    async ({ keys, baseUrl, streamUrl }) => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      for (const { name, key } of keys) {
        const known = (await api.profiles.list()).find((p) => p.name === name);
        const profile =
          known ??
          (await api.profiles.add({
            name,
            apiKey: key.apiKey,
            secretKey: key.secretKey,
            baseUrl,
            streamUrl,
          }));
        if (name === 'Sandbox') await api.profiles.activate({ id: profile.id });
      }
      const sandbox = (await api.profiles.list()).find((p) => p.name === 'Sandbox')!;
      await api.profiles.activate({ id: sandbox.id });
    },
    {
      keys: [
        { name: 'Sandbox', key: trading },
        { name: 'Read-only', key: readOnly },
      ],
      baseUrl: stack.world.baseUrl,
      streamUrl: stack.world.streamUrl,
    },
  );
  await page.reload();
  await expect(page.getByTestId('active-profile')).toHaveText('Sandbox');
}

test('the top bar switches profiles from the keyboard', async ({ page }) => {
  await openWithTwoProfiles(page);
  const switcher = page.getByTestId('profile-switcher');
  await expect(switcher).toContainText('Sandbox');
  await switcher.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByTestId('profile-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitemradio', { name: /Sandbox/ })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  // Escape closes the menu and leaves focus on the switcher.
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  expect(await focusedElement(page)).toContain('profile-switcher');

  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  expect(await focusedElement(page)).toContain('Sandbox');
  await page.keyboard.press('ArrowDown');
  expect(await focusedElement(page)).toContain('Read-only');
  await screenshot(page, 'profile-switcher');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('active-profile')).toHaveText('Read-only');
  await expect(menu).toHaveCount(0);
  expect(await focusedElement(page)).toContain('profile-switcher');

  // And back, with the arrow keys wrapping around (past the view of every profile together and
  // "Manage profiles").
  await page.keyboard.press('ArrowDown');
  expect(await focusedElement(page)).toContain('Read-only');
  await page.keyboard.press('ArrowDown');
  expect(await focusedElement(page)).toContain('All profiles together');
  await page.keyboard.press('ArrowDown');
  expect(await focusedElement(page)).toContain('Manage profiles');
  await page.keyboard.press('ArrowDown');
  expect(await focusedElement(page)).toContain('Sandbox');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('active-profile')).toHaveText('Sandbox');
});

test('a read-only key shows what it may do and disables what it may not', async ({ page }) => {
  await openWithTwoProfiles(page);
  await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    const readOnly = (await api.profiles.list()).find((p) => p.name === 'Read-only')!;
    await api.profiles.activate({ id: readOnly.id });
  });
  await page.reload();
  await expect(page.getByTestId('active-profile')).toHaveText('Read-only');

  await goTo(page, 'orders');
  const form = page.getByTestId('order-form');
  const notice = form.getByTestId('key-permissions');
  await expect(notice).toContainText('This key may read and withdraw');
  await expect(notice).toContainText('It may not trade or make sub-account transfers');
  await expect(page.getByTestId('order-review')).toBeDisabled();
  await expect(page.getByTestId('order-price')).toBeDisabled();
  await expect(page.getByTestId('order-quantity')).toBeDisabled();

  // The account's open orders are shown, their Cancel buttons disabled with the reason.
  const open = page.getByTestId('open-orders');
  await expect(open.locator('tr[data-testid^=open-order-]').first()).toBeVisible({
    timeout: 15_000,
  });
  for (const button of await open.getByTestId('cancel-order').all()) {
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('title', /may read but not trade/);
  }
  for (const button of await open.locator('[data-testid^=cancel-all-]').all()) {
    await expect(button).toBeDisabled();
  }
  await expect(page.getByTestId('orders-permission')).toContainText('may read but not trade');
  await screenshot(page, 'read-only-orders');

  await goTo(page, 'sub-accounts');
  const transfer = page.getByTestId('transfer-form');
  await expect(transfer.getByTestId('key-permissions')).toContainText(
    'It may not trade or make sub-account transfers',
  );
  await expect(page.getByTestId('transfer-review')).toBeDisabled();
  await expect(page.getByTestId('transfer-amount')).toBeDisabled();
});
