import { expect, test } from '@playwright/test';
import {
  goTo,
  openSandboxProfileAgain,
  screenshot,
  startStack,
  tradingKey,
  type Stack,
} from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('adds a sandbox API key, verified first, and sees its funds', async ({ page }) => {
  await page.goto(stack.url);
  await page.goto(`${stack.url.split('#')[0]}#/onboarding`);
  await expect(page.getByTestId('screen-onboarding')).toBeVisible();
  await screenshot(page, 'onboarding');

  // A wrong secret is refused by the exchange and nothing is saved.
  const key = tradingKey(stack);
  await page.getByTestId('profile-name').fill('Sandbox parent');
  await page.getByTestId('profile-apiKey').fill(key.apiKey);
  await page.getByTestId('profile-secretKey').fill('not-the-right-secret-at-all');
  await page.getByTestId('profile-baseUrl').fill(stack.world.baseUrl);
  await page.getByTestId('profile-streamUrl').fill(stack.world.streamUrl);
  await page.getByTestId('profile-submit').click();
  await expect(page.getByTestId('profile-error')).toHaveAttribute('data-kind', 'auth');

  await page.getByTestId('profile-secretKey').fill(key.secretKey);
  await page.getByTestId('profile-submit').click();
  const added = page.getByTestId('profile-added');
  await expect(added).toBeVisible();
  await expect(added.getByTestId('profile-capabilities')).toContainText(
    key.canTrade ? 'Can trade' : 'Cannot trade',
  );
  await page.getByTestId('onboarding-continue').click();
  await page.getByTestId('screen-portfolio').waitFor();

  // Make the new profile the active one when a demo profile was there first.
  await goTo(page, 'settings');
  const row = page.getByTestId('profile-Sandbox parent');
  if (await row.getByTestId('profile-activate').isVisible())
    await row.getByTestId('profile-activate').click();
  await expect(page.getByTestId('active-profile')).toHaveText('Sandbox parent');

  await goTo(page, 'portfolio');
  // The parent's funds are worth something once fetched (never a 0 shown before that).
  await expect(page.getByTestId('portfolio-total')).toContainText(/[1-9]/);

  await goTo(page, 'funds');
  const table = page.getByTestId('funds-table');
  await expect(table).toBeVisible();
  // The parent holds both assets of every market, usdt among them.
  await expect(page.getByTestId('fund-row-usdt').getByTestId('fund-free')).toContainText(/[1-9]/);
  await page.getByTestId('funds-search').fill('btc');
  await expect(page.getByTestId('fund-row-usdt')).toHaveCount(0);
  await expect(page.getByTestId('fund-row-btc')).toBeVisible();
  await page.getByTestId('funds-search').fill('');
  await screenshot(page, 'funds');
});

test('a removed profile is kept under Removed profiles and restored with its key', async ({
  page,
}) => {
  // The profile the test above added; a retry runs in a fresh worker and stack, and adds it.
  await openSandboxProfileAgain(page, stack, 'Sandbox parent');
  await goTo(page, 'settings');
  await page.getByTestId('profile-Sandbox parent').getByTestId('profile-remove').click();
  const confirm = page.getByTestId('profile-remove-confirm');
  await expect(confirm).toContainText('listed under Removed profiles');
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  // With no profile left the app opens its welcome screen, which lists the removed profile too.
  await expect(page.getByTestId('screen-onboarding')).toBeVisible();
  const removed = page.getByTestId('removed-profile-Sandbox parent');
  await expect(removed).toBeVisible();
  await removed.getByTestId('removed-restore').click();
  const key = tradingKey(stack);
  await removed.getByTestId('removed-apiKey').fill(key.apiKey);
  await removed.getByTestId('removed-secretKey').fill(key.secretKey);
  await screenshot(page, 'onboarding-removed-profiles');
  await removed.getByTestId('removed-save').click();
  await expect(page.getByTestId('active-profile')).toHaveText('Sandbox parent');
  await expect(page.getByTestId('removed-profiles')).toHaveCount(0);
  await goTo(page, 'settings');
  await expect(page.getByTestId('profile-Sandbox parent')).toBeVisible();
});
