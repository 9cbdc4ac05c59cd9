/**
 * At 1024 x 700, and in dialogs, nothing is clipped and nothing overlaps, as the boxes the
 * browser laid out say: Funds keeps every column it shows inside its card (Unrealized P&L
 * included) and a row opens to show the columns it leaves out; the transfer form's Amount has
 * room to type; Withdrawals shows Address and TxID whole with their copy buttons; the Reports dialog shows its labels whole and its buttons apart; the toast row
 * paints nothing beside its toasts; Ctrl+Shift+L locks in browser mode.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { sharedStack } from './support/exchange';
import { goTo, openWithSandboxProfile, screenshot } from './support/stack';

const shared = sharedStack();

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'laid out').not.toBeNull();
  return found!;
}

/** `inner` lies wholly inside `outer` (a pixel of rounding allowed). */
function inside(inner: Box, outer: Box): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Each element's text fits its own box: nothing cut off or hidden under overflow. */
async function expectWhole(locators: Locator): Promise<void> {
  const cut = await locators.evaluateAll((nodes) =>
    nodes.filter((node) => node.scrollWidth > node.clientWidth + 1).map((node) => node.textContent),
  );
  expect(cut).toEqual([]);
}

async function open(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1024, height: 700 });
  await openWithSandboxProfile(page, shared.stack);
}

test('Funds shows every column it keeps inside its card, and a row opens to show the rest', async ({
  page,
}) => {
  await open(page);
  await goTo(page, 'funds');
  const table = page.getByTestId('funds-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  // Measured once the table has settled: rows and their figures arrive after the first row, and
  // the columns take their widths from them. An overlap that lasts fails after the timeout.
  const wrap = page.locator('.table-wrap').filter({ has: table });
  await expect(async () => {
    const card = await box(wrap);
    const headers = table.locator('thead th:visible');
    const labels = await headers.allInnerTexts();
    for (const wanted of [
      'Asset',
      'Free',
      'Total',
      'Value (USDT)',
      'Price',
      '24h',
      'Unrealized P&L',
    ])
      expect(labels.map((l) => l.replace(/[▲▼]/g, '').trim())).toContain(wanted);
    const boxes: Box[] = [];
    for (const header of await headers.all()) boxes.push(await box(header));
    for (const [i, header] of boxes.entries()) {
      expect(inside(header, card), labels[i]).toBe(true);
      for (const other of boxes.slice(i + 1))
        expect(overlaps(header, other), labels[i]).toBe(false);
    }
  }).toPass({ timeout: 10_000 });
  const card = await box(wrap);
  // The table does not scroll sideways: nothing lies beyond the card's right edge.
  expect(await wrap.evaluate((node) => node.scrollWidth <= node.clientWidth + 1)).toBe(true);
  await expectWhole(table.locator('thead th:visible'));

  // The columns left out are one click away, in the row itself.
  const first = table.locator('tbody tr[data-testid^="fund-row-"]').first();
  await first.getByTestId('fund-expand').click();
  const details = table.getByTestId('fund-details');
  await expect(details).toBeVisible();
  await expect(details).toContainText('Locked');
  await expect(details).toContainText('Reserved fee');
  await expect(details).toContainText('Avg cost');
  expect(inside(await box(details), card)).toBe(true);
  // Opening a row does not open the asset's page.
  await expect(page.getByTestId('screen-funds')).toBeVisible();
  await screenshot(page, 'funds-small');
});

test('the transfer form leaves room to type an amount', async ({ page }) => {
  await open(page);
  await goTo(page, 'sub-accounts');
  const amount = page.getByTestId('transfer-amount');
  const asset = page.getByTestId('transfer-asset');
  await expect(amount).toBeVisible();
  const amountBox = await box(amount);
  expect(amountBox.width).toBeGreaterThanOrEqual(120);
  expect(overlaps(amountBox, await box(asset))).toBe(false);
  const form = await box(page.locator('form').filter({ has: amount }));
  expect(inside(amountBox, form)).toBe(true);
  expect(inside(await box(asset), form)).toBe(true);
});

test('the Reports dialog shows its labels whole and its buttons apart', async ({ page }) => {
  await open(page);
  await goTo(page, 'portfolio');
  await page.getByTestId('open-reports').click();
  const dialog = page.getByTestId('reports-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Year (UTC)', { exact: true })).toBeVisible();
  const dialogBox = await box(dialog);
  await expectWhole(dialog.locator('label.field > span'));
  const buttons = [
    dialog.getByTestId('write-tax-report'),
    dialog.getByTestId('write-koinly'),
    dialog.getByRole('button', { name: /close/i }),
  ];
  const boxes: Box[] = [];
  for (const button of buttons) boxes.push(await box(button));
  for (const [i, one] of boxes.entries()) {
    expect(inside(one, dialogBox)).toBe(true);
    for (const other of boxes.slice(i + 1)) {
      expect(overlaps(one, other)).toBe(false);
      // Apart, not touching: a gap between them on the line they share.
      if (Math.abs(one.y - other.y) < 2) {
        const gap = Math.max(other.x - (one.x + one.width), one.x - (other.x + other.width));
        expect(gap).toBeGreaterThanOrEqual(4);
      }
    }
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the empty toast row paints nothing, and Ctrl+Shift+L locks in browser mode', async ({
  page,
}) => {
  await open(page);
  const toasts = page.getByTestId('toasts');
  const style = await toasts.evaluate((node) => {
    const css = getComputedStyle(node);
    return {
      background: css.backgroundColor,
      pointer: css.pointerEvents,
      border: css.borderTopWidth,
    };
  });
  expect(style).toEqual({ background: 'rgba(0, 0, 0, 0)', pointer: 'none', border: '0px' });

  await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    await api.lock.setPassword({ password: 'small window 1024' });
  });
  // The page hears of the password as the app says so (lock.changed): then the lock button shows.
  await expect(page.getByTestId('lock-now')).toBeVisible();
  await goTo(page, 'funds');
  await page.keyboard.press('Control+Shift+L');
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await page.getByTestId('lock-password').fill('small window 1024');
  await page.getByTestId('lock-submit').click();
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);
  await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    await api.lock.removePassword({ current: 'small window 1024' });
  });
});

test('Withdrawals shows Address and TxID whole, with their copy buttons', async ({ page }) => {
  await open(page);
  await goTo(page, 'withdrawals');
  const table = page.getByTestId('withdraw-table');
  const rows = table.locator('[role=row]').filter({ has: page.locator('.c-txid') });
  await expect(rows.nth(3)).toBeVisible({ timeout: 20_000 });
  const tableBox = await box(table);
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    for (const column of ['.c-address', '.c-txid']) {
      const cell = row.locator(column);
      const cellBox = await box(cell);
      expect(inside(cellBox, tableBox), column).toBe(true);
      expect(await cell.evaluate((node) => node.scrollWidth <= node.clientWidth + 1)).toBe(true);
      for (const button of await cell.getByRole('button').all())
        expect(inside(await box(button), cellBox), `${column} copy button`).toBe(true);
    }
  }
  await expectWhole(table.locator('.vhead > div'));
  await expectWhole(rows.first().locator('[role=cell]'));
});
