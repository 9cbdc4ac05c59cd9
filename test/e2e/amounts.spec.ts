/**
 * Amounts as stated: every amount the exchange stated is on screen with every digit it has, never
 * cut to a market's step. The journey walks Funds, an asset's page, Withdrawals, the transfers
 * and the own trades, and compares each figure shown with the sandbox's own records (its admin
 * balances and what its interface lists), written here by the one rule (formatStated). The
 * parent is first given amounts finer than its markets' steps: SOL (3 places on its market) and
 * XRP (1 place), and an XRP withdrawal whose fee is 0.25.
 */
import Decimal from 'decimal.js';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { formatDateTime, formatPrice, formatStated, formatValue } from '../../shared/format';
import type { SpotfolioBridge } from '../../shared/contract';
import { withdrawStatusOf } from '../../shared/market';
import { ExchangeClient } from '../../electron/exchange';
import { addressFor, seededSource } from '../../electron/sandbox/addresses';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { goTo, openWithSandboxProfile } from './support/stack';

let stack: AdminStack;
let exchange: ExchangeClient;
test.beforeAll(async () => {
  stack = await startAdminStack();
  const email = stack.parent.email;
  stack.sandbox.admin.credit(email, 'sol', '11.6766');
  stack.sandbox.admin.credit(email, 'xrp', '0.15');
  stack.sandbox.admin.credit(email, 'usdt', '0.000123456789');
  stack.sandbox.admin.requestWithdrawal(email, {
    coin: 'xrp',
    network: 'XRP',
    amount: '646',
    address: addressFor('XRP', seededSource('amounts-xrp')),
    withdrawOrderId: 'amounts-xrp',
  });
  const [key] = stack.parent.keys.filter((k) => !k.canTrade);
  exchange = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key!, rateLimits: false });
});
test.afterAll(async () => {
  await exchange?.close();
  await stack?.close();
});

const places = (text: string) => text.split('.')[1]?.length ?? 0;
const cellTexts = async (row: Locator) =>
  (await row.locator('td, [role=cell]').allTextContents()).map((t) => t.trim());

function balancesOf(email: string): Map<string, { free: Decimal; locked: Decimal }> {
  return new Map(
    stack.sandbox.admin
      .balances(email)
      .map((b) => [b.asset, { free: new Decimal(b.free), locked: new Decimal(b.locked) }]),
  );
}

async function checkFunds(page: Page): Promise<void> {
  await goTo(page, 'funds');
  const balances = balancesOf(stack.parent.email);
  for (const [asset, { free, locked }] of balances) {
    if (free.plus(locked).isZero()) continue;
    const row = page.getByTestId(`fund-row-${asset}`);
    // Free, locked, reserved fee, total: the exchange's figures and their exact sum.
    await expect(row.getByTestId('fund-free')).toHaveText(formatStated(free.toFixed()));
    await expect(row.getByTestId('fund-locked')).toHaveText(formatStated(locked.toFixed()));
    await expect(row.getByTestId('fund-total')).toHaveText(
      formatStated(free.plus(locked).toFixed()),
    );
  }
  // The figures that were cut before: SOL has 4 places on a market of 3, XRP 2 on a market of 1.
  const sol = balances.get('sol')!.free.toFixed();
  expect(places(sol)).toBeGreaterThan(3);
  await expect(page.getByTestId('fund-row-sol').getByTestId('fund-free')).toHaveText(
    formatStated(sol),
  );
  // A price the app computed keeps its significant digits (XRP at 0.52..., not "0.52"), and its
  // exact figure is the tooltip.
  const xrpPrice = page.getByTestId('fund-row-xrp').getByTestId('fund-price').locator('span');
  const tickers = await stack.tickers();
  const last = tickers.find((t) => t.symbol === 'xrpusdt')!.lastPrice;
  await expect(xrpPrice).toHaveText(formatPrice(last, 'usdt', { withUnit: false }), {
    timeout: 30_000,
  });
  expect(places((await xrpPrice.textContent()) ?? '')).toBeGreaterThan(2);
  await expect(xrpPrice).toHaveAttribute('title', `${new Decimal(last).toFixed()} USDT`);
  // A value the app computed: rounded to cents on screen, exact in its tooltip (quantity × price).
  const xrp = balances.get('xrp')!;
  const worth = xrp.free.plus(xrp.locked).times(last);
  const xrpValue = page.getByTestId('fund-row-xrp').getByTestId('fund-value').locator('span');
  await expect(xrpValue).toHaveText(formatValue(worth.toFixed(), 'usdt', { withUnit: false }));
  await expect(xrpValue).toHaveAttribute('title', `${worth.toFixed()} USDT`);
}

/**
 * The parent's first movement of `asset` (in the exchange's own trades and the withdrawals the
 * app has read) that takes the balance below zero replayed from nothing: the movement an inferred
 * credit must precede.
 */
async function firstShortfall(
  page: Page,
  asset: string,
): Promise<{ kind: 'trade' | 'withdrawal'; time: number } | null> {
  const status = await page.evaluate(() =>
    (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio.withdrawals.backfillStatus(),
  );
  const moves: { kind: 'trade' | 'withdrawal'; time: number; delta: Decimal }[] = [];
  for (const ticker of await stack.tickers()) {
    if (ticker.baseAsset !== asset && ticker.quoteAsset !== asset) continue;
    for (const t of await exchange.trading.myTrades({ symbol: ticker.symbol, limit: 1000 })) {
      const buy = t.side === 'buy';
      let delta =
        ticker.baseAsset === asset
          ? new Decimal(t.qty).times(buy ? 1 : -1)
          : new Decimal(t.quoteQty).times(buy ? -1 : 1);
      if (t.feeCurrency.toLowerCase() === asset) delta = delta.minus(t.fee);
      moves.push({ kind: 'trade', time: t.time, delta });
    }
  }
  const since = status.coveredFrom ?? Date.now();
  for (const w of await exchange.withdrawHistory({ startTime: since, endTime: Date.now() })) {
    if (w.coin.toLowerCase() !== asset) continue;
    if (!['success', 'pending'].includes(withdrawStatusOf(Number(w.status)))) continue;
    moves.push({
      kind: 'withdrawal',
      time: Date.parse(`${w.createdAt.replace(' ', 'T')}Z`),
      delta: new Decimal(w.amount).plus(w.transactionFee).negated(),
    });
  }
  moves.sort((a, b) => a.time - b.time);
  let running = new Decimal(0);
  for (const move of moves) {
    running = running.plus(move.delta);
    if (running.isNegative()) return { kind: move.kind, time: move.time };
  }
  return null;
}

async function checkAssetPage(page: Page): Promise<void> {
  await page.getByTestId('fund-row-xrp').click();
  await page.getByTestId('screen-asset').waitFor();
  // The page adds every account together: the parent's XRP and the sub-accounts' (none held).
  let quantity = new Decimal(0);
  for (const account of [stack.parent, ...stack.subs]) {
    const xrp = balancesOf(account.email).get('xrp');
    if (xrp) quantity = quantity.plus(xrp.free).plus(xrp.locked);
  }
  await expect(page.getByTestId('asset-figures').locator('dd').first()).toHaveText(
    formatStated(quantity.toFixed()),
    { timeout: 60_000 },
  );
  // The withdrawal as the exchange lists it: amount and fee in the words, both leaving.
  const [record] = (await exchange.withdrawHistory({ startTime: 0, endTime: Date.now() })).filter(
    (w) => w.withdrawOrderId === 'amounts-xrp',
  );
  expect(record).toBeTruthy();
  const withdrawal = page.getByTestId('asset-entry-withdrawal').filter({
    hasText: `Withdrawal of ${formatStated(record!.amount)} (fee ${formatStated(record!.transactionFee)})`,
  });
  // Entries are newest first: this withdrawal is the newest (the seeded history may hold its twin).
  await expect(withdrawal.first()).toBeVisible();
  await expect(withdrawal.first().locator('td').last()).toHaveText(
    formatStated(new Decimal(record!.amount).plus(record!.transactionFee).negated().toFixed()),
  );
  // Every entry's change, read off the screen, adds up to what the exchange holds: one cut digit
  // (an inferred credit of 28,688.15 shown as 28,688.1) would show as a difference here.
  // Read again until the ledger has taken in everything (its inferred credit comes once the
  // import has reached back far enough).
  const rows = page.locator('[data-testid^=asset-entry-]');
  await expect(rows.first()).toBeVisible();
  const shownSum = async () => {
    let sum = new Decimal(0);
    for (const change of await rows.locator('td:last-child').allTextContents()) {
      sum = sum.plus(change.trim().replace(/,/g, ''));
    }
    return sum.toFixed();
  };
  await expect.poll(shownSum, { timeout: 60_000 }).toBe(quantity.toFixed());

  // The parent's inferred XRP credit had to come before the first movement that spent more than
  // the records hold: its window says so, naming that movement, not the observation after it.
  const needing = await firstShortfall(page, 'xrp');
  expect(needing).not.toBeNull();
  const credit = page
    .getByTestId('asset-entry-inferred')
    .filter({ hasText: 'Inferred deposit or other credit' })
    .filter({ hasNotText: '@' });
  await expect(credit.getByTestId('inferred-window')).toContainText(
    `and before the ${needing!.kind} of ${formatDateTime(needing!.time)}; not in the exchange's records.`,
  );
  await page.getByRole('link', { name: '← Funds' }).click();
}

async function checkWithdrawals(page: Page): Promise<void> {
  await goTo(page, 'withdrawals');
  await page.getByTestId('filter-coin').selectOption('xrp');
  const table = page.getByTestId('withdraw-table');
  const rows = table.locator('[role=row][data-index]');
  await expect(rows.first().locator('.c-fee')).toHaveText('0.25', { timeout: 20_000 });
  const records = (await exchange.withdrawHistory({ startTime: 0, endTime: Date.now() })).filter(
    (w) => w.coin.toLowerCase() === 'xrp',
  );
  let compared = 0;
  for (const row of await rows.all()) {
    const time = (await row.locator('.c-time').textContent())!.trim();
    const amount = (await row.locator('.c-amount').textContent())!.trim();
    const fee = (await row.locator('.c-fee').textContent())!.trim();
    const same = records.filter(
      (w) => formatDateTime(Date.parse(`${w.createdAt.replace(' ', 'T')}Z`)) === time,
    );
    expect(same.length, `a record at ${time}`).toBeGreaterThan(0);
    expect(
      same.map((w) => [formatStated(w.amount), formatStated(w.transactionFee)]),
      time,
    ).toContainEqual([amount, fee]);
    compared++;
  }
  expect(compared).toBeGreaterThan(1);

  // Fetching the full history (400 days, five windows) spends more than the few withdraw-history
  // requests a minute the app allows itself: the wait is said, with how long, while it lasts.
  await page.getByTestId('backfill-start').click();
  const wait = page.getByTestId('backfill-wait');
  await expect(wait).toContainText(
    "Waiting for the exchange's rate limit on the withdraw history",
    {
      timeout: 60_000,
    },
  );
  const seconds = Number(/in about (\d+) s\./.exec((await wait.textContent()) ?? '')?.[1]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(60);
  await expect(page.getByTestId('backfill')).toContainText(/Fetching history: \d+ of \d+ windows/);
}

async function checkTransfers(page: Page): Promise<void> {
  await goTo(page, 'sub-accounts');
  const sol = balancesOf(stack.parent.email).get('sol')!.free.toFixed();
  // The form's asset picker and its free line: the balance as stated, every digit.
  await page.getByTestId('transfer-asset').selectOption('sol');
  await expect(page.getByTestId('transfer-asset').locator('option[value=sol]')).toHaveText(
    `SOL (${formatStated(sol)} free)`,
  );
  await expect(page.getByText(`Free: ${formatStated(sol)} SOL`)).toBeVisible();
  // "Use all" fills the balance with every digit, and the form takes it (more places than the
  // SOL market's step: a transfer moves a balance, not a trade).
  await page.getByRole('button', { name: 'Use all' }).click();
  await expect(page.getByTestId('transfer-amount')).toHaveValue(sol);
  await page.getByTestId('transfer-amount').blur();
  await expect(page.getByTestId('transfer-amount')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('transfer-amount-error')).toHaveCount(0);
  const history = await exchange.subAccounts.transferHistory();
  const rows = page.getByTestId('transfer-history').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBe(history.length);
  for (const row of await rows.all()) {
    const [time, from, to, asset, amount] = await cellTexts(row);
    const match = history.filter(
      (t) =>
        formatDateTime(t.time) === time &&
        t.from.toLowerCase() === from!.toLowerCase() &&
        t.to.toLowerCase() === to!.toLowerCase() &&
        t.asset.toUpperCase() === asset,
    );
    expect(match.map((t) => formatStated(t.qty))).toContain(amount);
  }
}

async function checkTrades(page: Page): Promise<void> {
  await goTo(page, 'orders');
  // The order form opens on a market the parent can pay for: the first by name whose quote asset
  // the exchange says is free (not BTC/INR with 0 INR), showing that free balance as stated.
  const balances = balancesOf(stack.parent.email);
  const markets = [...(await stack.tickers())].sort((a, b) => a.symbol.localeCompare(b.symbol));
  expect(markets[0]!.symbol).toBe('btcinr');
  expect(balances.get('inr')?.free.gt(0) ?? false).toBe(false);
  const payable = markets.find((t) => balances.get(t.quoteAsset)?.free.gt(0))!;
  await expect(page.getByTestId('order-symbol')).toHaveValue(payable.symbol);
  await expect(page.getByTestId('order-free')).toHaveText(
    `Free: ${formatStated(balances.get(payable.quoteAsset)!.free.toFixed())} ${payable.quoteAsset.toUpperCase()}`,
  );
  await page.getByTestId('tab-trades').click();
  const trades = [];
  for (const ticker of await stack.tickers()) {
    for (const t of await exchange.trading.myTrades({ symbol: ticker.symbol, limit: 1000 }))
      trades.push({ ...t, market: `${ticker.baseAsset}/${ticker.quoteAsset}`.toUpperCase() });
  }
  expect(trades.length).toBeGreaterThan(0);
  // Fees paid, per asset: the exact sum of the exchange's fees.
  const fees = new Map<string, Decimal>();
  for (const t of trades) {
    const asset = t.feeCurrency.toLowerCase();
    fees.set(asset, (fees.get(asset) ?? new Decimal(0)).plus(t.fee));
  }
  for (const [asset, fee] of fees) {
    if (fee.isZero()) continue;
    await expect(page.getByTestId('fees-paid')).toContainText(
      `${formatStated(fee.toFixed())} ${asset.toUpperCase()}`,
    );
  }
  const rows = page.getByTestId('own-trades').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  for (const row of (await rows.all()).slice(0, 40)) {
    const [time, market, , price, qty, total, fee] = await cellTexts(row);
    const candidates = trades
      .filter((t) => formatDateTime(t.time) === time && t.market === market)
      .map((t) => [
        formatStated(t.price),
        formatStated(t.qty),
        formatStated(t.quoteQty),
        `${formatStated(t.fee)} ${t.feeCurrency.toUpperCase()}`,
      ]);
    expect(candidates, `${market} at ${time}`).toContainEqual([price, qty, total, fee]);
  }
}

test('amounts the exchange stated are shown with every digit on every screen', async ({ page }) => {
  test.setTimeout(240_000);
  await openWithSandboxProfile(page, stack);
  await checkFunds(page);
  await checkAssetPage(page);
  await checkWithdrawals(page);
  await checkTransfers(page);
  await checkTrades(page);
});
