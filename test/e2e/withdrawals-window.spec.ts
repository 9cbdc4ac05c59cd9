/**
 * The withdrawals table renders only the rows on screen. Filtering it down to nothing and back
 * must leave every row reachable by scrolling: a table that stayed half-empty (a handful of rows
 * rendered, the rest blank) until a reload was a bug users hit.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openWithSandboxProfile, startStack, type Stack } from './support/stack';
import { loadedTotal, withdrawalsTable } from './support/withdrawals';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

/** The withdraw table's row height: a status with its failure reason on a line of its own. */
const rowHeight = 48;

/** Indexes of the data rows rendered inside the viewport's visible band. */
async function rowsOnScreen(viewport: Locator): Promise<number[]> {
  return viewport.evaluate((element) => {
    const band = element.getBoundingClientRect();
    return [...element.querySelectorAll<HTMLElement>('[role=row][data-index]')]
      .filter((row) => {
        const box = row.getBoundingClientRect();
        return box.bottom > band.top + 1 && box.top < band.bottom - 1;
      })
      .filter((row) => row.querySelector('.c-coin')?.textContent?.trim())
      .map((row) => Number(row.dataset.index));
  });
}

/**
 * Every row can be reached: the scroll area is as tall as all rows, the rows on screen fill the
 * viewport at the top, in the middle and at the bottom, and the last row shows at the end.
 */
async function expectAllRowsReachable(page: Page, total: number): Promise<void> {
  const table = page.getByTestId('withdraw-table');
  const viewport = page.getByTestId('withdraw-table-viewport');
  await expect(table).toHaveAttribute('data-total', String(total));
  const { scrollHeight, clientHeight } = await viewport.evaluate((element) => ({
    scrollHeight: element.scrollHeight,
    clientHeight: element.clientHeight,
  }));
  expect(scrollHeight).toBeGreaterThanOrEqual(total * rowHeight);
  const fullRowsOnScreen = Math.min(total, Math.floor(clientHeight / rowHeight));

  for (const position of ['top', 'middle', 'bottom'] as const) {
    await viewport.evaluate((element, where) => {
      const end = element.scrollHeight - element.clientHeight;
      element.scrollTop = where === 'top' ? 0 : where === 'middle' ? Math.round(end / 2) : end;
    }, position);
    await expect
      .poll(async () => (await rowsOnScreen(viewport)).length, {
        message: `rows rendered on screen at the ${position} of ${total}`,
      })
      .toBeGreaterThanOrEqual(fullRowsOnScreen);
  }
  await expect(table.locator(`[role=row][data-index="${total - 1}"] .c-coin`)).not.toBeEmpty();
  expect(await rowsOnScreen(viewport)).toContain(total - 1);
  await viewport.evaluate((element) => (element.scrollTop = 0));
}

/** Types a search that matches nothing, sees the empty state, then clears the search. */
async function searchNothingThenClear(page: Page): Promise<void> {
  const search = page.getByTestId('filter-search');
  await search.fill('zzzz');
  await expect(page.getByTestId('withdraw-empty')).toBeVisible();
  await expect(page.getByTestId('withdraw-table')).toHaveAttribute('data-total', '0');
  await search.fill('');
}

test('after a filter matches nothing and is cleared, every row is reachable by scrolling', async ({
  page,
}) => {
  await openWithSandboxProfile(page, stack);
  const table = await withdrawalsTable(page);
  const allTotal = await loadedTotal(table);
  const viewportHeight = await page
    .getByTestId('withdraw-table-viewport')
    .evaluate((element) => element.clientHeight);
  // The journey means something only when the rows overflow the viewport.
  expect(allTotal * rowHeight).toBeGreaterThan(2 * viewportHeight);
  await expectAllRowsReachable(page, allTotal);

  await searchNothingThenClear(page);
  await expectAllRowsReachable(page, allTotal);

  // Other filters after that: each shows all of its rows.
  await page.getByTestId('filter-type').selectOption('onchain');
  await expect(table).not.toHaveAttribute('data-total', String(allTotal));
  const onchainTotal = await loadedTotal(table);
  await expectAllRowsReachable(page, onchainTotal);
  await page.getByTestId('sort-dir').selectOption('asc');
  await expectAllRowsReachable(page, onchainTotal);

  // The same with another filter set: nothing, cleared, all rows again.
  await searchNothingThenClear(page);
  await expectAllRowsReachable(page, onchainTotal);
  await page.getByTestId('filter-type').selectOption('');
  await expectAllRowsReachable(page, allTotal);
});
