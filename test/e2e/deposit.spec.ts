import { expect, test } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('fetches a deposit address and sees the same one offline', async ({ page }) => {
  await openWithSandboxProfile(page, stack, { screen: 'deposit' });

  // A coin with a network that needs a memo, to see the warning; it is picked once, as a user
  // would, so only one address is asked of the exchange.
  // The coin list arrives with the profile's first sync; the screen shows it once it is there.
  await expect(page.getByTestId('deposit-coin')).toBeVisible({ timeout: 20_000 });
  const choiceOf = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    const { coins } = await api.deposits.coins();
    const usable = coins.flatMap((c) =>
      c.networks
        .filter((n) => n.depositEnable)
        .map((n) => ({ coin: c.coin, network: n.network, memo: n.memoRequired })),
    );
    return usable.find((u) => u.memo) ?? usable[0];
  });
  expect(choiceOf).toBeDefined();
  const coinSelect = page.getByTestId('deposit-coin');
  await coinSelect.selectOption(choiceOf!.coin);
  const choice = page.getByTestId(`network-${choiceOf!.network}`);
  await choice.locator('input').check();

  const address = page.getByTestId('deposit-address');
  await expect(address).not.toBeEmpty({ timeout: 30_000 });
  const shown = await address.textContent();
  await expect(page.getByTestId('deposit-qr')).toBeVisible();
  if (choiceOf!.memo) await expect(page.getByTestId('memo-warning')).toBeVisible();
  // Networks with deposits off are listed, explained and cannot be picked.
  const disabled = page.locator('.network.disabled');
  if ((await disabled.count()) > 0) {
    await expect(disabled.first()).toContainText('Deposits are suspended');
    await expect(disabled.first().locator('input')).toBeDisabled();
  }
  await screenshot(page, 'deposit');

  const coin = await coinSelect.inputValue();
  const networkName = await choice.getAttribute('data-testid');

  await stack.stopSandbox();
  await page.reload();
  await page.getByTestId('screen-deposit').waitFor();
  await page.getByTestId('deposit-coin').selectOption(coin);
  await page.getByTestId(networkName!).locator('input').check();
  await expect(page.getByTestId('deposit-address')).toHaveText(shown!, { timeout: 20_000 });
  await expect(page.getByTestId('deposit-fetched')).toContainText('Saved address');
});
