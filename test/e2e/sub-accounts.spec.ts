import Decimal from 'decimal.js';
import { expect, test, type Page } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { shownDecimal } from './support/exchange';
import { openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

async function mainFree(page: Page, asset: string): Promise<Decimal> {
  const free = await page.evaluate(async (asset) => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    const funds = await api.funds.refresh();
    return funds.rows.find((r) => r.asset === asset)?.free ?? '0';
  }, asset);
  return new Decimal(free);
}

test('moves funds to a sub-account and sees both balances change', async ({ page }) => {
  const sub = stack.subs[0];
  expect(sub).toBeDefined();
  await openWithSandboxProfile(page, stack, { screen: 'sub-accounts' });
  const card = page.getByTestId(`sub-${sub!.email}`);
  await expect(card).toBeVisible();
  const balance = card.getByTestId('sub-balance-usdt');
  const before =
    (await balance.count()) > 0
      ? shownDecimal(await balance.locator('td.num').textContent())
      : new Decimal(0);
  const mainBefore = await mainFree(page, 'usdt');

  // An amount above the free balance is stopped before anything is sent.
  await page.getByTestId('transfer-to').selectOption(sub!.email);
  await page.getByTestId('transfer-asset').selectOption('usdt');
  // The form checks against the main account's free balance once its funds have loaded.
  await expect(page.getByTestId('transfer-form')).not.toContainText('Free: —');
  await page.getByTestId('transfer-amount').fill(mainBefore.plus(1).toString());
  await page.getByTestId('transfer-review').click();
  await expect(page.getByTestId('transfer-amount-error')).toContainText(
    'more than the free balance',
  );

  await page.getByTestId('transfer-amount').fill('12.5');
  await page.getByTestId('transfer-review').click();
  await expect(page.getByTestId('transfer-confirm')).toContainText(sub!.email);
  await page.getByTestId('transfer-confirm-send').click();
  const outcome = page.getByTestId('transfer-outcome');
  await expect(outcome).toHaveAttribute('data-state', 'completed');
  await expect(outcome.getByTestId('transfer-leg')).toHaveCount(1);

  await expect(async () => {
    expect(
      shownDecimal(
        await card.getByTestId('sub-balance-usdt').locator('td.num').textContent(),
      ).toString(),
    ).toBe(before.plus('12.5').toString());
  }).toPass({ timeout: 15_000 });
  expect((await mainFree(page, 'usdt')).toString()).toBe(mainBefore.minus('12.5').toString());
  await expect(page.getByTestId('transfer-history')).toContainText(sub!.email);
  await screenshot(page, 'sub-accounts');
});
