/**
 * Withdrawals: the Type column says on-chain or partner (the network has a column of its own),
 * the banner and the header give one record count, a failure's reason shows without a hover,
 * dates in the wrong order say why nothing matches, and a partner transfer says where it went
 * when the record names the account.
 */
import { expect, test } from '@playwright/test';
import { openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';
import { withdrawalsTable } from './support/withdrawals';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('withdrawals read right: kind, network, one count, reasons, date order', async ({ page }) => {
  test.setTimeout(120_000);
  await openWithSandboxProfile(page, stack);
  const table = await withdrawalsTable(page);

  // Type is the kind of transfer; the network stands in its own column.
  await expect(table.getByRole('columnheader', { name: 'Network' })).toBeVisible();
  const rows = table.locator('[role=row][data-index]');
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) {
    const kind = (await row.locator('.c-type').textContent())?.trim();
    expect(['On-chain', 'Partner']).toContain(kind);
    const network = (await row.locator('.c-network').textContent())?.trim();
    if (kind === 'On-chain') expect(network).toMatch(/^[A-Z0-9]+$/);
    else expect(network).toBe('—');
  }

  // Partner transfers: the receiving account when the record names one (the demo's records do
  // not), said in words rather than a bare dash.
  await page.getByTestId('filter-type').selectOption('partner');
  await expect(rows.first().locator('.c-type')).toHaveText('Partner');
  await expect(rows.first().locator('.c-address')).toHaveText('account not named');
  await page.getByTestId('filter-type').selectOption('');

  // One count: while older history comes in, the banner and the header agree.
  await page.getByTestId('backfill-start').click();
  await expect(page.getByTestId('backfill')).toContainText(/Fetching history|Full history/);
  const header = page.getByTestId('withdraw-total');
  await expect(async () => {
    const total = Number(await table.getAttribute('data-total'));
    const count = `${total.toLocaleString('en-US')} records`;
    await expect(header).toHaveText(count, { timeout: 1000 });
    await expect(page.getByTestId('backfill')).toContainText(`${count} kept`, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // A failure's reason is on screen, under its status, with no hover.
  await page.getByTestId('filter-status').selectOption('failed');
  const failed = rows.first();
  await expect(failed.locator('.c-status')).toContainText('Failed');
  const reason = failed.getByTestId('failure-info');
  await expect(reason).toBeVisible();
  await expect(reason).toContainText('rejected');
  const [reasonBox, rowBox] = [await reason.boundingBox(), await failed.boundingBox()];
  expect(
    reasonBox && rowBox && reasonBox.y + reasonBox.height <= rowBox.y + rowBox.height + 1,
  ).toBe(true);
  // Filtered, the header says how many of all: of every record kept so far, as the banner counts
  // them (older history may still be coming in).
  await expect(async () => {
    const filtered = Number(await table.getAttribute('data-total'));
    const banner = (await page.getByTestId('backfill').textContent()) ?? '';
    const kept = /([\d,]+) records? kept/.exec(banner)?.[1];
    expect(kept, `the banner's count of records kept: "${banner}"`).toBeDefined();
    await expect(header).toHaveText(`${filtered.toLocaleString('en-US')} of ${kept} records`, {
      timeout: 1000,
    });
  }).toPass({ timeout: 20_000 });
  await screenshot(page, 'withdrawals');

  // From after To: why nothing matches, not "0 records".
  await page.getByTestId('filter-status').selectOption('');
  await page.getByTestId('filter-from').fill('2026-11-20');
  await page.getByTestId('filter-to').fill('2026-11-10');
  await expect(page.getByTestId('withdraw-date-problem')).toContainText(
    'The "From" date is after the "To" date',
  );
  await expect(header).not.toContainText('0 records');
  await page.getByTestId('filter-to').fill('2026-11-25');
  await expect(page.getByTestId('withdraw-date-problem')).toHaveCount(0);
});
