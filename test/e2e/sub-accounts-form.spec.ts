/**
 * The transfer form offers only what the source account holds (with its free amount), forgets
 * the last outcome once the form changes, and its toast never lies over the transfer history.
 */
import Decimal from 'decimal.js';
import { expect, test, type Locator } from '@playwright/test';
import { formatAmount } from '../../shared/format';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { openWithSandboxProfile, screenshot } from './support/stack';

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

async function options(select: Locator): Promise<string[]> {
  return (await select.locator('option').allTextContents()).map((t) => t.trim());
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of box `a` inside box `b`, or null when none is. */
function clip(a: Box, b: Box): Box | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const width = Math.min(a.x + a.width, b.x + b.width) - x;
  const height = Math.min(a.y + a.height, b.y + b.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : null;
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test('the transfer form offers what the source holds and forgets an old outcome', async ({
  page,
}) => {
  await openWithSandboxProfile(page, stack, { screen: 'sub-accounts' });
  const form = page.getByTestId('transfer-form');
  const asset = page.getByTestId('transfer-asset');
  await expect(form).not.toContainText('Free: —');

  // From the main account: each coin it holds free, with that amount, and nothing else.
  const heldByMain = stack.sandbox.admin
    .balances(stack.parent.email)
    .filter((b) => new Decimal(b.free).gt(0))
    .sort((a, b) => a.asset.localeCompare(b.asset));
  await expect(async () => {
    const shown = await options(asset);
    expect(shown.map((o) => o.split(' ')[0])).toEqual(heldByMain.map((b) => b.asset.toUpperCase()));
    for (const [i, balance] of heldByMain.entries()) {
      expect(shown[i]).toContain(`(${formatAmount(balance.free, { precision: 8 }).split('.')[0]}`);
    }
  }).toPass({ timeout: 15_000 });

  // From a sub-account: only its own coins.
  const sub = stack.subs[1]!;
  await page.getByTestId('transfer-from').selectOption(sub.email);
  await page.getByTestId('transfer-to').selectOption('main');
  const heldBySub = stack.sandbox.admin
    .balances(sub.email)
    .filter((b) => new Decimal(b.free).plus(b.locked).gt(0))
    .map((b) => b.asset.toUpperCase())
    .sort();
  await expect
    .poll(async () => (await options(asset)).map((o) => o.split(' ')[0]))
    .toEqual(heldBySub);

  // A completed transfer's panel goes once the form changes.
  await page.getByTestId('transfer-from').selectOption('main');
  await page.getByTestId('transfer-to').selectOption(stack.subs[0]!.email);
  await asset.selectOption('usdt');
  await page.getByTestId('transfer-amount').fill('3');
  await page.getByTestId('transfer-review').click();
  await page.getByTestId('transfer-confirm-send').click();
  await expect(page.getByTestId('transfer-outcome')).toHaveAttribute('data-state', 'completed');

  // The toast that announces it keeps clear of the history.
  const toast = page.getByTestId('toast').filter({ hasText: 'Transfer completed' });
  await expect(toast).toBeVisible();
  // What of the history is visible (the part inside the scrolling content): a history taller
  // than the window reaches below the content's edge, where the toast row is, without showing
  // there. Measured again until the layout settles, since a toast arriving reflows the content.
  const history = page.getByTestId('transfer-history');
  await expect(async () => {
    await history.scrollIntoViewIfNeeded();
    const [toastBox, historyBox, contentBox] = await Promise.all([
      toast.boundingBox(),
      history.boundingBox(),
      page.locator('main#main').boundingBox(),
    ]);
    expect(toastBox && historyBox && contentBox).toBeTruthy();
    const visibleHistory = clip(historyBox!, contentBox!);
    expect(visibleHistory && overlap(toastBox!, visibleHistory)).toBeFalsy();
  }).toPass({ timeout: 10_000 });
  await screenshot(page, 'sub-accounts');

  await page.getByTestId('transfer-amount').fill('4');
  await expect(page.getByTestId('transfer-outcome')).toHaveCount(0);
});
