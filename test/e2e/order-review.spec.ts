/**
 * Order review (issue: "no accident possible", items 3 and 4): the review checks the order
 * locally and says what it checked; a buy beyond the free balance is refused with the numbers, a
 * stop on the wrong side of the last price too. The form shows the paying asset's free balance
 * and the last price, and a price clicked in the depth ladder fills the form. Every figure is
 * computed here from the sandbox's own state, read with the same key over its REST interface.
 */
import { expect, test } from '@playwright/test';
import Decimal from 'decimal.js';
import { fromExchange, grouped, sandboxFacts, sharedStack } from './support/exchange';
import { openWithSandboxProfile, screenshot } from './support/stack';

const shared = sharedStack();

test('the review checks funds, tick, step, limits and the stop side, and says so', async ({
  page,
}) => {
  await openWithSandboxProfile(page, shared.stack, { screen: 'orders' });
  const form = page.getByTestId('order-form');
  await page.getByTestId('order-symbol').selectOption('btcusdt');
  await page.getByTestId('order-side-buy').click();
  const facts = await sandboxFacts(shared.exchange, 'btcusdt');
  const usdt = facts.free('usdt');

  // Item 4: the paying asset's free balance and the last price, exactly the sandbox's.
  await expect(form.getByTestId('order-free')).toHaveText(`Free: ${grouped(usdt)} USDT`);
  await expect(form.getByTestId('order-last-price')).toHaveText(
    `Last price: ${grouped(facts.last)} USDT`,
  );
  await page.getByTestId('order-side-sell').click();
  await expect(form.getByTestId('order-free')).toHaveText(
    `Free: ${grouped(facts.free('btc'))} BTC`,
  );
  await page.getByTestId('order-side-buy').click();

  // Item 3: 100 BTC at 50,000 is far beyond the free USDT: refused at review, with the numbers.
  await page.getByTestId('order-price').fill('50000');
  await page.getByTestId('order-quantity').fill('100');
  await page.getByTestId('order-review').click();
  const needs = new Decimal(100).times(50000);
  await expect(page.getByTestId('order-test-error')).toContainText(
    `Not enough USDT: this buy needs ${grouped(needs)} USDT (100 × 50,000) and ` +
      `${grouped(usdt)} USDT is free, ${grouped(needs.minus(usdt))} USDT short`,
  );
  await expect(page.getByTestId('order-confirm')).toHaveCount(0);
  await expect(page.getByTestId('order-test-error')).toContainText(
    "Not sent to the exchange's test",
  );

  // A sell stop above the last price would trigger at once: refused, naming the last price.
  await page.getByTestId('order-side-sell').click();
  await page.getByTestId('order-type').selectOption('stop_limit');
  const above = facts.last.plus(100);
  await page.getByTestId('order-stop').fill(above.toFixed());
  await page.getByTestId('order-price').fill(above.toFixed());
  await page.getByTestId('order-quantity').fill('0.01');
  await page.getByTestId('order-review').click();
  await expect(page.getByTestId('order-test-error')).toContainText(
    `A sell stop must be below the last price ${grouped(facts.last)} USDT; ` +
      `${grouped(above)} is above it, so the order would trigger at once`,
  );
  await expect(page.getByTestId('order-confirm')).toHaveCount(0);

  // A buy stop below the market is refused the same way.
  await page.getByTestId('order-side-buy').click();
  const below = facts.last.minus(100);
  await page.getByTestId('order-stop').fill(below.toFixed());
  await page.getByTestId('order-price').fill(below.toFixed());
  await page.getByTestId('order-review').click();
  await expect(page.getByTestId('order-test-error')).toContainText(
    `A buy stop must be above the last price ${grouped(facts.last)} USDT`,
  );

  // A sound order: the review lists every check it passed, the exchange's test last.
  await page.getByTestId('order-type').selectOption('limit');
  const price = facts.last.times('0.95').toDecimalPlaces(2, Decimal.ROUND_DOWN);
  await page.getByTestId('order-price').fill(price.toFixed());
  await page.getByTestId('order-quantity').fill('0.01');
  await page.getByTestId('order-review').click();
  const confirm = page.getByTestId('order-confirm');
  await expect(confirm).toBeVisible();
  const checks = confirm.getByTestId('order-check');
  await expect(checks).toHaveCount(6);
  expect(
    await checks.evaluateAll((items) => items.map((i) => i.getAttribute('data-check'))),
  ).toEqual(['tick', 'step', 'limits', 'price', 'balance', 'exchange']);
  for (const item of await checks.all())
    await expect(item).toHaveAttribute('data-status', 'passed');
  const cost = price.times('0.01');
  await expect(confirm).toContainText(
    `Needs ${grouped(cost)} USDT (0.01 × ${grouped(price)}); ${grouped(usdt)} USDT is free`,
  );
  await expect(confirm).not.toContainText('would accept it');
  await screenshot(page, 'order-review');
  await expect(confirm.getByTestId('order-price-warning')).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Back' }).click();
});

test('a price far from the last price is warned about, and focus starts on Back', async ({
  page,
}) => {
  await openWithSandboxProfile(page, shared.stack, { screen: 'orders' });
  await page.getByTestId('order-symbol').selectOption('btcusdt');
  const facts = await sandboxFacts(shared.exchange, 'btcusdt');
  const openBefore = await fromExchange(() =>
    shared.exchange.trading.openOrders({ symbol: 'btcusdt' }),
  );
  const percent = (price: Decimal) =>
    price
      .minus(facts.last)
      .abs()
      .times(100)
      .div(facts.last)
      .toDecimalPlaces(1, Decimal.ROUND_HALF_EVEN)
      .toFixed(1);

  // A buy 47 % above the market: placeable, but the review says how far and what it would cost.
  await page.getByTestId('order-side-buy').click();
  const high = facts.last.times('1.47').toDecimalPlaces(2, Decimal.ROUND_DOWN);
  await page.getByTestId('order-price').fill(high.toFixed());
  await page.getByTestId('order-quantity').fill('0.01');
  await page.getByTestId('order-review').click();
  const confirm = page.getByTestId('order-confirm');
  await expect(confirm).toBeVisible();
  const warning = confirm.getByTestId('order-price-warning');
  await expect(warning).toHaveText(
    `Check the price: Price ${grouped(high)} USDT is ${percent(high)} % above the last price ` +
      `${grouped(facts.last)} USDT, more than 10 %. At the last price this buy would cost ` +
      `${grouped(facts.last.times('0.01'))} USDT (0.01 × ${grouped(facts.last)}); at your ` +
      `price ${grouped(high.times('0.01'))} USDT`,
  );
  await expect(confirm.locator('[data-check="price"]')).toHaveAttribute('data-status', 'warning');
  await screenshot(page, 'order-review-price-warning');

  // Focus starts on Back: Enter goes back, nothing is placed.
  await expect(confirm.getByRole('button', { name: 'Back' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toHaveCount(0);
  const openAfter = await fromExchange(() =>
    shared.exchange.trading.openOrders({ symbol: 'btcusdt' }),
  );
  expect(openAfter.map((o) => o.id)).toEqual(openBefore.map((o) => o.id));

  // A sell far below: what it would bring at the last price.
  await page.getByTestId('order-side-sell').click();
  const low = facts.last.times('0.49').toDecimalPlaces(2, Decimal.ROUND_DOWN);
  await page.getByTestId('order-price').fill(low.toFixed());
  await page.getByTestId('order-quantity').fill('0.002');
  await page.getByTestId('order-review').click();
  await expect(confirm.getByTestId('order-price-warning')).toContainText(
    `Price ${grouped(low)} USDT is ${percent(low)} % below the last price ` +
      `${grouped(facts.last)} USDT, more than 10 %. At the last price this sell would bring ` +
      `${grouped(facts.last.times('0.002'))} USDT`,
  );
  await expect(confirm.getByRole('button', { name: 'Back' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Back' }).click();
});

test('a price clicked in the depth ladder fills the order form', async ({ page }) => {
  await openWithSandboxProfile(page, shared.stack);
  await page.evaluate(() => {
    window.location.hash = '#/markets/btcusdt';
  });
  await page.getByTestId('screen-symbol').waitFor();
  const book = await fromExchange(() =>
    shared.exchange.market.depth({ symbol: 'btcusdt', limit: 20 }),
  );
  const bestBid = new Decimal(book.bids[0]![0]);
  const bestAsk = new Decimal(book.asks[0]![0]);
  const ladder = page.getByTestId('depth-ladder');
  await ladder.getByRole('button', { name: `Use price ${bestBid.toFixed()}` }).click();
  await expect(page.getByTestId('order-price')).toHaveValue(bestBid.toFixed());
  await ladder.getByRole('button', { name: `Use price ${bestAsk.toFixed()}` }).click();
  await expect(page.getByTestId('order-price')).toHaveValue(bestAsk.toFixed());
  const facts = await sandboxFacts(shared.exchange, 'btcusdt');
  await expect(page.getByTestId('order-form').getByTestId('order-free')).toHaveText(
    `Free: ${grouped(facts.free('usdt'))} USDT`,
  );
  await screenshot(page, 'symbol');
});
