/**
 * The exchange reset under the app (a fresh world of the same seed behind the same address: the
 * same keys, none of the orders placed since): the orders it no longer knows leave the open list
 * and stay in the history as "No longer on the exchange", and the open list is the exchange's
 * own, its figures as the exchange lists them.
 */
import { expect, test } from '@playwright/test';
import Decimal from 'decimal.js';
import { ExchangeError } from '../../electron/exchange/errors';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { exchangeClient, fromExchange, grouped } from './support/exchange';
import { goTo, openWithSandboxProfile, tradingKey } from './support/stack';

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

test('orders the reset exchange no longer knows leave the open list and are named in the history', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openWithSandboxProfile(page, stack);
  const exchange = exchangeClient(stack.world, tradingKey(stack));
  try {
    const placed = [];
    for (const price of ['40000.00', '41000.00']) {
      placed.push(
        await fromExchange(() =>
          exchange.trading.placeOrder({
            symbol: 'btcusdt',
            side: 'buy',
            type: 'limit',
            quantity: '0.001',
            price,
          }),
        ),
      );
    }
    await goTo(page, 'orders');
    for (const order of placed) {
      await expect(page.getByTestId(`open-order-${order.id}`)).toBeVisible({ timeout: 30_000 });
    }

    await stack.resetSandbox();
    const listed = await fromExchange(() => exchange.trading.openOrders());
    for (const order of placed) {
      expect(listed.map((o) => o.id)).not.toContain(order.id);
      // What the app hears when it asks about one: the exchange's 2004.
      const lookup = await exchange.trading
        .getOrder({ orderId: order.id })
        .catch((e: unknown) => e);
      expect(lookup).toBeInstanceOf(ExchangeError);
      expect((lookup as ExchangeError).code).toBe(2004);
    }

    // The open list becomes the exchange's list, without a reload.
    const rows = page.locator('tr[data-testid^=open-order-]');
    await expect
      .poll(
        async () =>
          (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-testid')))).sort(),
        { timeout: 45_000 },
      )
      .toEqual(listed.map((o) => `open-order-${o.id}`).sort());
    for (const order of listed) {
      const row = page.getByTestId(`open-order-${order.id}`);
      await expect(row).toContainText(grouped(new Decimal(order.price)));
      await expect(row.getByTestId('order-status')).toHaveText(
        order.status === 'idle' ? 'Waiting for stop' : 'Open',
      );
    }

    // Kept in the history, named for what happened to them, never "Open".
    await page.getByTestId('tab-history').click();
    for (const order of placed) {
      const row = page.getByTestId(`history-order-${order.id}`);
      await expect(row.getByTestId('order-status')).toHaveText('No longer on the exchange');
      await expect(row).toContainText(grouped(new Decimal(order.price)));
    }
    // Asked about once each, then left alone: no endless retry on them.
    const lookups = () =>
      stack.sandbox.admin.faults.count({ method: 'GET', path: '/sapi/v1/order' });
    const settled = lookups();
    await page.getByTestId('tab-open').click();
    await expect(page.getByTestId('order-status').first()).toBeVisible();
    // Another refresh of the open orders passes (it lists what the exchange has) ... (that every
    // later one leaves them alone too is test/sync/engine.test.ts's, on the engine's own clock)
    const listings = () =>
      stack.sandbox.admin.faults.count({ method: 'GET', path: '/sapi/v1/openOrders' });
    const seen = listings();
    await expect.poll(listings, { timeout: 30_000 }).toBeGreaterThanOrEqual(seen + 1);
    // ... without asking about the gone orders again (our own lookups above went to the old world).
    expect(lookups()).toBe(settled);
  } finally {
    await exchange.close();
  }
});
