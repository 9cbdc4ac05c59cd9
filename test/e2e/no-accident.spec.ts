/**
 * Things that must not happen by accident (issue items 9, 10 and 18): "Cancel all" asks first,
 * naming how many orders on which market; after one cancel, focus is not on the next order's
 * Cancel button; every dialog holds focus, closes on Escape and gives focus back; at 1024 x 700
 * nothing is cut (Cancel buttons, withdrawal times), measured on the element boxes.
 */
import { expect, test, type Page } from '@playwright/test';
import Decimal from 'decimal.js';
import type { SpotfolioBridge } from '../../shared/contract';
import { expectDialogHoldsFocus, focusedElement } from './support/dialogs';
import { fromExchange, sharedStack } from './support/exchange';
import { goTo, openWithSandboxProfile, screenshot } from './support/stack';

const shared = sharedStack();

const openCount = async (symbol: string) =>
  (await fromExchange(() => shared.exchange.trading.openOrders({ symbol }))).length;

/** Places resting buys at half the last price (they never fill), through the app's bridge. */
async function placeResting(
  page: Page,
  symbol: string,
  count: number,
  type: 'limit' | 'stop_limit' = 'limit',
) {
  const ticker = await fromExchange(() => shared.exchange.market.ticker({ symbol }));
  const price = new Decimal(ticker.lastPrice)
    .div(2)
    .toDecimalPlaces(2, Decimal.ROUND_DOWN)
    .toFixed();
  const stopPrice = new Decimal(ticker.lastPrice)
    .times(2)
    .toDecimalPlaces(2, Decimal.ROUND_DOWN)
    .toFixed();
  await page.evaluate(
    async ({ symbol, count, price, type, stopPrice }) => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      for (let i = 0; i < count; i += 1) {
        await api.orders.place({
          symbol,
          side: 'buy',
          type,
          quantity: '0.001',
          price,
          ...(type === 'stop_limit' ? { stopPrice } : {}),
        });
      }
    },
    { symbol, count, price, type, stopPrice },
  );
}

test('cancel all asks first, and a second Enter after a cancel cancels nothing', async ({
  page,
}) => {
  // The calls the page sends to the app, in the order it sends them.
  const sent: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => sent.push(String(payload))),
  );
  await openWithSandboxProfile(page, shared.stack);
  await placeResting(page, 'btcusdt', 3);
  const before = await openCount('btcusdt');
  expect(before).toBeGreaterThanOrEqual(3);
  await goTo(page, 'orders');
  const group = page.getByTestId('order-group-btcusdt');
  await expect(group.locator('tr[data-testid^=open-order-]')).toHaveCount(before);

  // Cancel all names how many orders on which market, and holds focus until answered.
  const cancelAll = page.getByTestId('cancel-all-btcusdt');
  const dialog = page.getByTestId('cancel-all-confirm');
  await expectDialogHoldsFocus(page, cancelAll, dialog, () => page.keyboard.press('Enter'));
  expect(await openCount('btcusdt'), 'Escape canceled nothing').toBe(before);
  await cancelAll.click();
  await expect(dialog).toContainText(`Cancel all ${before} open orders on BTC/USDT?`);
  await screenshot(page, 'cancel-all-confirm');
  await dialog.getByTestId('cancel-all-keep').click();
  await expect(dialog).toHaveCount(0);
  expect(await openCount('btcusdt')).toBe(before);

  // One cancel from the keyboard; focus then rests where Enter cancels nothing.
  await group.getByTestId('cancel-order').first().focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => openCount('btcusdt')).toBe(before - 1);
  await expect(group.locator('tr[data-testid^=open-order-]')).toHaveCount(before - 1);
  const focused = await focusedElement(page);
  expect(focused).not.toContain('cancel-order');
  expect(focused).not.toContain('cancel-all');
  const sentBeforeKeys = sent.length;
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  // A call of the test's own after the keys: one socket carries calls in the order they are made,
  // so once it has gone out, any cancel the keys made has gone out before it.
  await page.evaluate(() =>
    (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio.deposits.pending(),
  );
  const afterKeys = () => sent.slice(sentBeforeKeys);
  await expect
    .poll(() => afterKeys().some((frame) => frame.includes('"method":"deposits.pending"')))
    .toBe(true);
  const marker = afterKeys().findIndex((frame) => frame.includes('"method":"deposits.pending"'));
  expect(
    afterKeys()
      .slice(0, marker)
      .filter((frame) => frame.includes('"method":"orders.cancel')),
    'Enter after a cancel cancels nothing',
  ).toEqual([]);
  expect(await openCount('btcusdt')).toBe(before - 1);

  // Cancel all, confirmed: every order of the market goes.
  await cancelAll.click();
  await expect(dialog).toContainText(`Cancel all ${before - 1} open orders on BTC/USDT?`);
  await dialog.getByTestId('cancel-all-confirm-go').click();
  await expect.poll(() => openCount('btcusdt')).toBe(0);
  await expect(page.getByTestId('orders-status')).toContainText(
    `Canceled ${before - 1} orders on BTC/USDT`,
  );
});

test('every dialog holds focus, closes on Escape and gives focus back', async ({ page }) => {
  await openWithSandboxProfile(page, shared.stack);
  await placeResting(page, 'ethusdt', 1);

  // The order review.
  await goTo(page, 'orders');
  await page.getByTestId('order-symbol').selectOption('btcusdt');
  const ticker = await fromExchange(() => shared.exchange.market.ticker({ symbol: 'btcusdt' }));
  const price = new Decimal(ticker.lastPrice).div(2).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  await page.getByTestId('order-price').fill(price.toFixed());
  await page.getByTestId('order-quantity').fill('0.001');
  await expectDialogHoldsFocus(
    page,
    page.getByTestId('order-review'),
    page.getByTestId('order-confirm'),
    () => page.keyboard.press('Enter'),
  );
  // Enter while the review is open acts inside it only: Back is focused, so nothing is placed.
  const openBefore = await openCount('btcusdt');
  await page.getByTestId('order-review').click();
  await page.getByTestId('order-confirm').getByRole('button', { name: 'Back' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-confirm')).toHaveCount(0);
  expect(await openCount('btcusdt')).toBe(openBefore);

  // Cancel all.
  await expectDialogHoldsFocus(
    page,
    page.getByTestId('cancel-all-ethusdt'),
    page.getByTestId('cancel-all-confirm'),
    () => page.keyboard.press('Enter'),
  );

  // The transfer review.
  await goTo(page, 'sub-accounts');
  const sub = shared.stack.subs[0]!;
  await page.getByTestId('transfer-to').selectOption(sub.email);
  await page.getByTestId('transfer-asset').selectOption('usdt');
  await expect(page.getByTestId('transfer-form')).not.toContainText('Free: —');
  await page.getByTestId('transfer-amount').fill('1');
  await expectDialogHoldsFocus(
    page,
    page.getByTestId('transfer-review'),
    page.getByTestId('transfer-confirm'),
    () => page.keyboard.press('Enter'),
  );

  // Removing a profile: the safe choice has focus, and Escape keeps the profile.
  await goTo(page, 'settings');
  const remove = page.getByTestId('profile-Sandbox').getByTestId('profile-remove');
  await expectDialogHoldsFocus(page, remove, page.getByTestId('profile-remove-confirm'), () =>
    page.keyboard.press('Enter'),
  );
  await expect(page.getByTestId('profile-Sandbox')).toBeVisible();
});

test('at 1024 x 700 no Cancel button is clipped and withdrawal times are whole', async ({
  page,
}) => {
  await openWithSandboxProfile(page, shared.stack);
  await placeResting(page, 'btcusdt', 1);
  await placeResting(page, 'ethusdt', 1, 'stop_limit');
  await goTo(page, 'orders');
  const buttons = page.getByTestId('open-orders').getByTestId('cancel-order');
  await expect(buttons).toHaveCount(
    await fromExchange(() => shared.exchange.trading.openOrders()).then((o) => o.length),
  );
  // A laptop's 1280 keeps the form beside the orders; 1024 puts it below them.
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: width === 1024 ? 700 : 800 });
    const boxes = await buttons.evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        const wrap = element.closest('.table-wrap') as HTMLElement;
        const frame = wrap.getBoundingClientRect();
        return {
          left: box.left,
          right: box.right,
          frameLeft: frame.left,
          frameRight: frame.right,
          scrolls: wrap.scrollWidth > wrap.clientWidth,
        };
      }),
    );
    for (const box of boxes) {
      expect(box.scrolls, `at ${width} the orders table fits without a scrollbar`).toBe(false);
      expect(box.right).toBeLessThanOrEqual(box.frameRight);
      expect(box.left).toBeGreaterThanOrEqual(box.frameLeft);
      expect(box.right).toBeLessThanOrEqual(width);
    }
  }
  await screenshot(page, 'orders-small');

  await goTo(page, 'withdrawals');
  const times = page.getByTestId('withdraw-table').locator('[role=cell].c-time');
  await expect(times.first()).toBeVisible({ timeout: 20_000 });
  const cells = await times.evaluateAll((elements) =>
    elements.map((element) => ({
      text: (element.textContent ?? '').trim(),
      cut: element.scrollWidth > element.clientWidth,
    })),
  );
  expect(cells.length).toBeGreaterThan(3);
  for (const cell of cells) {
    expect(cell.text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(cell.cut, `${cell.text} is shown whole`).toBe(false);
  }
  await screenshot(page, 'withdrawals-small');
});
