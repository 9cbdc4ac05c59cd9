/**
 * Balance changes made outside trading come as one toast per set of assets, replaced rather than
 * stacked; toasts sit in a corner stack of at most three that covers no control; and the
 * notification settings govern toasts as well as desktop notifications, as Settings says.
 */
import { expect, test, type Page } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { goTo, openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

/** Moves 1 USDT from the main account to a sub-account: a balance change made outside trading. */
async function transfer(page: Page, fromEmail: string, toEmail: string): Promise<void> {
  await page.evaluate(
    async ({ fromEmail, toEmail }) => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      await api.subAccounts.transfer({ asset: 'usdt', amount: '1', fromEmail, toEmail });
    },
    { fromEmail, toEmail },
  );
}

function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test('balance toasts are coalesced, stay out of the way, and obey the settings', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openWithSandboxProfile(page, stack);
  await goTo(page, 'sub-accounts');
  const sub = stack.subs[0]!;
  const balanceToasts = page.getByTestId('toast').filter({ hasText: 'Balance changed' });

  // Five changes of the main account's USDT within a few seconds: one toast, replaced in place.
  let most = 0;
  for (let i = 0; i < 5; i++) {
    await transfer(page, stack.parent.email, sub.email);
    await page.waitForTimeout(700);
    most = Math.max(most, await balanceToasts.count());
    expect(await page.getByTestId('toast').count()).toBeLessThanOrEqual(3);
  }
  await expect(balanceToasts).toHaveCount(1, { timeout: 10_000 });
  expect(most).toBeLessThanOrEqual(1);
  // The toast shows the latest balance: the one the exchange holds now.
  const usdt = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    const funds = await api.funds.refresh();
    const row = funds.rows.find((r) => r.asset === 'usdt');
    return row ? { free: row.free, locked: row.locked } : null;
  });
  expect(usdt).not.toBeNull();
  await expect(balanceToasts.first()).toContainText('USDT balance', { timeout: 10_000 });

  // No toast lies over a control of the screen.
  const toastBoxes = await page
    .getByTestId('toast')
    .evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as DOMRect));
  const controlBoxes = await page
    .locator('main button, main a[href], main input, main select')
    .evaluateAll((nodes) =>
      nodes
        .map((node) => node.getBoundingClientRect().toJSON() as DOMRect)
        .filter((box) => box.width > 0 && box.height > 0),
    );
  expect(toastBoxes.length).toBeGreaterThan(0);
  for (const toast of toastBoxes) {
    for (const control of controlBoxes) expect(overlaps(toast, control)).toBe(false);
  }
  await screenshot(page, 'toasts');

  // Settings say that the switches govern toasts too; "Balance changes" off silences them.
  await goTo(page, 'settings');
  await expect(page.getByTestId('notify-explainer')).toContainText(/toast/i);
  await expect(page.getByTestId('notify-explainer')).toContainText(/desktop/i);
  // The switch follows the saved setting, so it turns off once the main process has stored it.
  await page.getByTestId('notify-balances').click();
  await expect(page.getByTestId('notify-balances')).not.toBeChecked();
  // The toasts shown before go by themselves.
  await expect(balanceToasts).toHaveCount(0, { timeout: 15_000 });
  await transfer(page, stack.parent.email, sub.email);
  await page.waitForTimeout(7_000);
  await expect(balanceToasts).toHaveCount(0);
  // Recorded all the same: the Activity screen lists it.
  await goTo(page, 'activity');
  await expect(
    page.getByTestId('notification-item').filter({ hasText: 'Balance changed' }).first(),
  ).toBeVisible();
});
