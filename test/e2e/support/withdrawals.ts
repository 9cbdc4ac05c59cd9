/** The withdrawals screen's table, as the withdrawal journeys read it. */
import { expect, type Locator, type Page } from '@playwright/test';
import { goTo } from './stack';

/**
 * Goes to the withdrawals screen and waits for the table's first rows: a fresh profile's recent
 * history (the exchange's 90-day window) arrives with the first sync, and the table updates by
 * itself.
 */
export async function withdrawalsTable(page: Page): Promise<Locator> {
  await goTo(page, 'withdrawals');
  const table = page.getByTestId('withdraw-table');
  await expect
    .poll(async () => Number((await table.getAttribute('data-total')) || 0), { timeout: 20_000 })
    .toBeGreaterThan(0);
  return table;
}

/** The table's total once it has loaded one (the attribute is empty while loading). */
export async function loadedTotal(table: Locator): Promise<number> {
  await expect(table).not.toHaveAttribute('data-total', '');
  return Number(await table.getAttribute('data-total'));
}
