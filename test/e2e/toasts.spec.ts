/**
 * Toasts say the right thing, once, in the right order. Balance changes made outside trading
 * (here, credits by the exchange) come as one toast per set of assets, replaced rather than
 * stacked; a transfer made in the app is told once, by its own outcome, whatever legs it took,
 * and a deposit of the same asset beside it is still told;
 * an order is told placed before any fill of it, even when the fill overtakes the exchange's
 * answer, and a partial fill says how much of the order is filled; a linked sub-account's fill is
 * told the same way, naming the sub-account. Toasts sit in a corner stack
 * of at most three that covers no control, and the notification settings govern them.
 */
import { expect, test, type Page } from '@playwright/test';
import Decimal from 'decimal.js';
import { ExchangeClient } from '../../electron/exchange/client';
import type { Order } from '../../electron/exchange/wire';
import type { SpotfolioBridge } from '../../shared/contract';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { exchangeClient, fromExchange, grouped } from './support/exchange';
import { goTo, openWithSandboxProfile, screenshot, tradingKey } from './support/stack';

const TAKER = 'taker@toasts.e2e';
let stack: AdminStack;
let exchange: ExchangeClient;
let taker: ExchangeClient;
test.beforeAll(async () => {
  stack = await startAdminStack();
  exchange = exchangeClient(stack.world, tradingKey(stack));
  stack.sandbox.admin.createAccount({ email: TAKER });
  stack.sandbox.admin.credit(TAKER, 'usdt', '1000000');
  taker = new ExchangeClient({
    baseUrl: stack.sandbox.baseUrl,
    ...stack.sandbox.admin.createApiKey(TAKER, { canTrade: true }),
  });
});
test.afterAll(async () => {
  await taker?.close();
  await exchange?.close();
  await stack?.close();
});

/** The exchange credits the main account 1 USDT: a balance change made outside trading. */
function credit(asset = 'usdt', amount = '1'): void {
  stack.sandbox.admin.credit(stack.parent.email, asset, amount);
}

/** The main account's USDT (free + locked) as the exchange holds it. */
function sandboxUsdt(): Decimal {
  const usdt = stack.sandbox.admin.balances(stack.parent.email).find((b) => b.asset === 'usdt');
  return new Decimal(usdt?.free ?? '0').plus(usdt?.locked ?? '0');
}

/** The main account's USDT as the app holds it (the stream's updates are written there). */
async function appUsdt(page: Page): Promise<string> {
  const row = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    return (await api.funds.list()).rows.find((r) => r.asset === 'usdt') ?? null;
  });
  return new Decimal(row?.free ?? '0').plus(row?.locked ?? '0').toFixed();
}

/** Moves 1 USDT between accounts through the app's bridge, as the transfer form does. */
async function transfer(page: Page, fromEmail: string, toEmail: string): Promise<void> {
  await page.evaluate(
    async ({ fromEmail, toEmail }) => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      await api.subAccounts.transfer({ asset: 'usdt', amount: '1', fromEmail, toEmail });
    },
    { fromEmail, toEmail },
  );
}

/** Dismisses every toast on screen, so the next ones are the only ones. */
async function clearToasts(page: Page): Promise<void> {
  const toasts = page.getByTestId('toast');
  while ((await toasts.count()) > 0) {
    await toasts.first().getByRole('button', { name: 'Dismiss' }).click();
  }
}

/** The titles of the toasts on screen, oldest first. */
function toastTitles(page: Page): Promise<string[]> {
  return page.getByTestId('toast').locator('strong').allInnerTexts();
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
  await openWithSandboxProfile(page, stack, { screen: 'sub-accounts' });
  const balanceToasts = page.getByTestId('toast').filter({ hasText: 'Balance changed' });

  // Five changes of the main account's USDT within a few seconds: one toast, replaced in place.
  let most = 0;
  for (let i = 0; i < 5; i++) {
    credit();
    // Each change is in the app before the next is made: the toasts are looked at between them.
    await expect.poll(() => appUsdt(page)).toBe(sandboxUsdt().toFixed());
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
  credit();
  // Recorded all the same, with the balance the exchange holds now; a toast would have gone out
  // with the record, and none did.
  const now = `USDT balance: ${grouped(sandboxUsdt())} USDT`;
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
        return (await api.activity.notifications({ limit: 20 })).map((n) => n.body);
      }),
    )
    .toContainEqual(expect.stringContaining(now));
  await expect(balanceToasts).toHaveCount(0);
  // The Activity screen lists it.
  await goTo(page, 'activity');
  await expect(
    page.getByTestId('notification-item').filter({ hasText: now }).first(),
  ).toBeVisible();
});

test('a transfer is told once, by its outcome, also a sub-account to sub-account one', async ({
  page,
}) => {
  await openWithSandboxProfile(page, stack);
  await page
    .getByTestId('notify-balances')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    const settings = await api.settings.get();
    await api.settings.update({ notifications: { ...settings.notifications, balances: true } });
  });
  await goTo(page, 'sub-accounts');
  const [first, second] = stack.subs;
  const told = async (sent: () => Promise<void>, marker: string) => {
    await clearToasts(page);
    await sent();
    // A balance change the exchange makes after the transfer: its toast comes after anything
    // the transfer's own balance changes would have raised (one stream, in order).
    credit(marker, '1');
    await expect(
      page.getByTestId('toast').filter({ hasText: `${marker.toUpperCase()} balance` }),
    ).toHaveCount(1);
    return toastTitles(page);
  };
  // Main account to a sub-account first: the app learns the main account's e-mail from it.
  expect(await told(() => transfer(page, stack.parent.email, first!.email), 'eth')).toEqual([
    'Transfer completed',
    'Balance changed',
  ]);
  // Sub-account to sub-account goes in and out of the main account: still one toast.
  expect(await told(() => transfer(page, first!.email, second!.email), 'sol')).toEqual([
    'Transfer completed',
    'Balance changed',
  ]);
  await expect(page.getByTestId('toast').filter({ hasText: 'USDT balance' })).toHaveCount(0);
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Transfer completed' }).last(),
  ).toContainText(`1 USDT moved from ${first!.email} to ${second!.email}`);

  // A deposit of the same asset from outside the app, right after a transfer of it: the
  // transfer's own change is folded into its toast, the deposit is told, with the balance the
  // exchange holds after both.
  await clearToasts(page);
  await transfer(page, stack.parent.email, first!.email);
  credit('usdt', '2.5');
  const after = `USDT balance: ${grouped(sandboxUsdt())} USDT`;
  const deposit = page.getByTestId('toast').filter({ hasText: 'USDT balance' });
  await expect(deposit).toHaveCount(1);
  await expect(deposit).toContainText(after);
  expect(await toastTitles(page)).toEqual(['Transfer completed', 'Balance changed']);
});

test('an order is told placed before its fill, and a partial fill says how much', async ({
  page,
}) => {
  await openWithSandboxProfile(page, stack, { screen: 'orders' });
  // A price inside the spread: the taker's buy rests there alone, so the sell meets only it.
  const book = await fromExchange(() => exchange.market.depth({ symbol: 'btcusdt', limit: 5 }));
  const bestBid = new Decimal(book.bids[0]![0]);
  const price = new Decimal(book.asks[0]![0]).minus('0.01');
  expect(price.gt(bestBid)).toBe(true);
  await taker.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    quantity: '0.002',
    price: price.toFixed(),
  });

  await page.getByTestId('order-symbol').selectOption('btcusdt');
  await page.getByTestId('order-side-sell').click();
  await page.getByTestId('order-price').fill(price.toFixed());
  await page.getByTestId('order-quantity').fill('0.005');
  await page.getByTestId('order-review').click();
  await expect(page.getByTestId('order-confirm')).toBeVisible();
  // The exchange places and fills the order but its answer is lost (a 500 after the work), and
  // the app's look-up of the order is slow: the stream's fill arrives before the app knows.
  stack.sandbox.admin.faults.inject(
    { method: 'POST', path: '/sapi/v1/order' },
    { kind: 'error-after' },
  );
  stack.sandbox.admin.faults.inject(
    { method: 'GET', path: '/sapi/v1/order' },
    { kind: 'latency', ms: 1500 },
  );
  await clearToasts(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByTestId('order-confirm')).toHaveCount(0);

  // How much of it is filled, from the exchange's own record of the order.
  let order: Order | undefined;
  await expect
    .poll(async () => {
      const open = await fromExchange(() => exchange.trading.openOrders({ symbol: 'btcusdt' }));
      order = open.find((o) => o.side === 'sell' && new Decimal(o.price).eq(price));
      return order?.executedQty;
    })
    .toBeDefined();
  const filled = new Decimal(order!.executedQty).times(100).div(order!.origQty);
  expect(filled.toFixed()).toBe('40');
  const fillTitle = `Sell order ${filled.toFixed()} % filled`;
  await expect(page.getByTestId('toast').filter({ hasText: fillTitle })).toHaveCount(1);
  expect(await toastTitles(page)).toEqual(['Order placed', fillTitle]);
  const toasts = page.getByTestId('toast');
  await expect(toasts.filter({ hasText: 'Order placed' })).toContainText(
    `Sell 0.005 BTC at ${grouped(price)} USDT`,
  );
  await expect(toasts.filter({ hasText: fillTitle })).toContainText(
    `Sell ${new Decimal(order!.executedQty).toFixed()} BTC at ${grouped(price)} USDT`,
  );
});

test("a linked sub-account's fill is told in a toast naming the account", async ({ page }) => {
  await openWithSandboxProfile(page, stack, { screen: 'orders' });
  const sub = stack.subs[1]!;
  const email = sub.email.toLowerCase();
  // The sub-account trades with a key of its own, linked through the bridge as the form does.
  const key = stack.sandbox.admin.createApiKey(sub.email, { canTrade: true });
  stack.sandbox.admin.credit(sub.email, 'btc', '0.01');
  await page.evaluate(
    async (input) => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      await api.subAccounts.link(input);
    },
    { email, ...key },
  );
  // Its feed's private stream is a connection of its own beside the main account's.
  await expect
    .poll(
      () =>
        stack.sandbox.admin.streamsByConnection().filter((s) => s.includes('orderUpdate')).length,
    )
    .toBeGreaterThanOrEqual(2);

  // A sell of the sub-account inside the spread rests alone there: the taker's buy meets only it.
  const subClient = new ExchangeClient({ baseUrl: stack.sandbox.baseUrl, ...key });
  try {
    const book = await subClient.market.depth({ symbol: 'btcusdt', limit: 5 });
    const price = new Decimal(book.asks[0]![0]).minus('0.01');
    expect(price.gt(new Decimal(book.bids[0]![0]))).toBe(true);
    const sell = await subClient.trading.placeOrder({
      symbol: 'btcusdt',
      side: 'sell',
      type: 'limit',
      quantity: '0.005',
      price: price.toFixed(),
    });
    await clearToasts(page);
    await taker.trading.placeOrder({
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.002',
      price: price.toFixed(),
    });

    // How much of it is filled, from the exchange's own record of the sub-account's order.
    const order = await subClient.trading.getOrder({ orderId: sell.id });
    const filled = new Decimal(order.executedQty).times(100).div(order.origQty);
    const fillTitle = `Sell order ${filled.toFixed()} % filled in ${email}`;
    const toast = page.getByTestId('toast').filter({ hasText: fillTitle });
    await expect(toast).toHaveCount(1);
    await expect(toast).toContainText(
      `Sell ${new Decimal(order.executedQty).toFixed()} BTC at ${grouped(price)} USDT`,
    );
    // The main account traded nothing: no toast of it, no unnamed fill.
    expect(await toastTitles(page)).toEqual([fillTitle]);
    await screenshot(page, 'toast-sub-account-fill');
  } finally {
    await subClient.close();
  }
});
