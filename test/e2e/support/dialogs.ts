/**
 * What every dialog of the app must do, checked with the keyboard as a user would: focus starts
 * inside, Tab and Shift+Tab never leave it, the page behind cannot take focus, Escape closes it
 * and focus returns to the element that opened it.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** True when the focused element is inside the open dialog. */
export function focusInsideDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return Boolean(active?.closest('[role=dialog]'));
  });
}

/** A short description of the focused element, for messages and comparisons. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'body';
    const testId = active.getAttribute('data-testid');
    return `${active.tagName.toLowerCase()}${testId ? `[${testId}]` : ''}:${(active.textContent ?? '').trim().slice(0, 40)}`;
  });
}

/**
 * Opens a dialog with `open` (which must leave focus on `opener` first), then checks that it
 * holds focus and closes on Escape with focus back on `opener`.
 */
export async function expectDialogHoldsFocus(
  page: Page,
  opener: Locator,
  dialog: Locator,
  open: () => Promise<void>,
): Promise<void> {
  await opener.focus();
  const openerText = await focusedElement(page);
  await open();
  await expect(dialog).toBeVisible();
  expect(await focusInsideDialog(page), 'focus moves into the dialog').toBe(true);
  for (let i = 0; i < 8; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focusInsideDialog(page), `Tab ${i + 1} stays inside`).toBe(true);
  }
  for (let i = 0; i < 8; i += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInsideDialog(page), `Shift+Tab ${i + 1} stays inside`).toBe(true);
  }
  // The page behind is out of reach: focusing it directly does nothing.
  await opener.evaluate((element) => (element as HTMLElement).focus());
  expect(await focusInsideDialog(page), 'the page behind cannot take focus').toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await focusedElement(page), 'focus returns to the opener').toBe(openerText);
}
