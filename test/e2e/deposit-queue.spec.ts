/**
 * Deposit addresses are limited to one request a minute. A second coin asked for within the
 * minute says that it is queued and when it will run (a countdown from the pacer's own next
 * slot), can be canceled, and addresses fetched before are served at once meanwhile.
 */
import { expect, test, type Page } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

interface Choice {
  coin: string;
  network: string;
}

async function pick(page: Page, choice: Choice): Promise<void> {
  await page.getByTestId('deposit-coin').selectOption(choice.coin);
  const option = page.getByTestId(`network-${choice.network}`).locator('input');
  if (!(await option.isChecked())) await option.check();
}

test('a second address within the minute is queued with a countdown and can be canceled', async ({
  page,
}) => {
  await openWithSandboxProfile(page, stack, { screen: 'deposit' });
  await expect(page.getByTestId('deposit-coin')).toBeVisible({ timeout: 20_000 });
  // Two coins, each with a network that takes deposits.
  const [first, second] = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    const { coins } = await api.deposits.coins();
    return coins
      .map((c) => ({ coin: c.coin, network: c.networks.find((n) => n.depositEnable)?.network }))
      .filter((c): c is Choice => c.network !== undefined)
      .slice(0, 2);
  });
  expect(second).toBeDefined();

  await pick(page, first!);
  const address = page.getByTestId('deposit-address');
  await expect(address).not.toBeEmpty({ timeout: 30_000 });
  const firstAddress = (await address.textContent())!;
  const firstFetchedAt = await page.evaluate(async (choice) => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    return (await api.deposits.address(choice)).fetchedAt;
  }, first!);

  // The second coin waits for the next slot, and the screen says so with the time left.
  await pick(page, second!);
  const queued = page.getByTestId('deposit-queued');
  await expect(queued).toBeVisible({ timeout: 5_000 });
  await expect(queued).toContainText(/runs in \d+ s/);
  const pending = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    return api.deposits.pending();
  });
  expect(pending).toEqual([
    expect.objectContaining({ coin: second!.coin, network: second!.network, state: 'queued' }),
  ]);
  const startsAt = pending[0]!.startsAt!;
  // The slot frees one minute after the first request was answered.
  expect(startsAt - firstFetchedAt).toBeGreaterThanOrEqual(59_000);
  expect(startsAt - firstFetchedAt).toBeLessThanOrEqual(62_000);
  const shownSeconds = Number(await queued.getAttribute('data-seconds'));
  expect(Math.abs(shownSeconds - (startsAt - Date.now()) / 1000)).toBeLessThanOrEqual(2.5);

  // An address fetched before is served at once from the cache while the other one waits.
  await pick(page, first!);
  await expect(address).toHaveText(firstAddress, { timeout: 2_000 });
  await pick(page, second!);
  await expect(queued).toBeVisible({ timeout: 2_000 });
  await screenshot(page, 'deposit-queued');

  // Canceled: it leaves the queue (so it never reaches the exchange) and the screen says so.
  await queued.getByTestId('deposit-cancel').click();
  await expect(page.getByTestId('deposit-canceled')).toBeVisible();
  const after = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    return api.deposits.pending();
  });
  expect(after).toEqual([]);
  // The screen kept nothing of the queue either.
  await expect(page.getByTestId('deposit-queued')).toHaveCount(0);
});
