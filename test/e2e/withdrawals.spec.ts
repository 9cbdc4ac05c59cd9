import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';
import { loadedTotal, withdrawalsTable } from './support/withdrawals';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('reads the full withdraw history, filters it and exports the filtered view', async ({
  page,
}) => {
  await openWithSandboxProfile(page, stack);
  const table = await withdrawalsTable(page);
  const recentTotal = await loadedTotal(table);
  await expect(table.locator('[role=row][data-index="0"] .c-coin')).not.toBeEmpty();

  // Partner transfers only: every visible row is marked as one, and there are fewer rows.
  await page.getByTestId('filter-type').selectOption('partner');
  await expect(table).not.toHaveAttribute('data-total', String(recentTotal));
  const partnerTotal = await loadedTotal(table);
  expect(partnerTotal).toBeGreaterThan(0);
  expect(partnerTotal).toBeLessThan(recentTotal);
  const typeCells = table.locator('[role=row][data-index] .c-type');
  await expect(typeCells.first()).toHaveText('Partner');
  for (const text of await typeCells.allTextContents()) expect(text).toBe('Partner');

  // Failed on-chain withdrawals show why they failed.
  await page.getByTestId('filter-type').selectOption('onchain');
  await page.getByTestId('filter-status').selectOption('failed');
  await expect(table.locator('[role=row][data-index="0"] .c-status')).toContainText('Failed');
  await expect(table.locator('[data-testid=failure-info]').first()).not.toBeEmpty();
  await page.getByTestId('filter-status').selectOption('');
  await page.getByTestId('filter-type').selectOption('partner');
  await expect(table).toHaveAttribute('data-total', String(partnerTotal));
  await screenshot(page, 'withdrawals');

  // The export holds exactly the filtered rows.
  const downloadPromise = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const download = await downloadPromise;
  const path = await download.path();
  const csv = (await readFile(path, 'utf8')).trim().split(/\r?\n/);
  expect(csv.length - 1).toBe(partnerTotal);
  expect(csv[0]?.toLowerCase()).toContain('coin');

  // Beyond the 90-day window: the backfill shows its progress and older records join the table.
  // (It is paced by the exchange's limits; the first windows come at once.)
  await page.getByTestId('filter-type').selectOption('');
  await expect(table).toHaveAttribute('data-total', String(recentTotal));
  await page.getByTestId('backfill-start').click();
  await expect(page.getByTestId('backfill')).toContainText(/Fetching history|Full history fetched/);
  await expect
    .poll(async () => Number((await table.getAttribute('data-total')) || 0), { timeout: 30_000 })
    .toBeGreaterThan(recentTotal);
});
