/**
 * What the user wrote stays (issue: a labelled, costed inferred XRP credit lost its label and cost
 * when the full withdraw history came in). The parent's XRP credit, which the exchange's records
 * do not explain, is labelled and given a cost on the XRP page; Withdrawals → Fetch full history
 * then brings older XRP withdrawals, and the credit grows and moves back to the first of them.
 * The label and cost still apply, and the page shows the entry for review with what the user wrote
 * beside the entry then and now. Every figure is computed here from the sandbox's own records
 * (balances, trades, withdraw history, tickers): the credit before and after (what the balance
 * less the known movements leaves, at least what the movements needed), and the unrealized P&L
 * with the user's cost, by FIFO and by LIFO picked on the page.
 */
import Decimal from 'decimal.js';
import { expect, test, type Page } from '@playwright/test';
import { formatDateTime, formatStated } from '../../shared/format';
import type { SpotfolioBridge } from '../../shared/contract';
import { withdrawStatusOf } from '../../shared/market';
import { ExchangeClient } from '../../electron/exchange';
import { Exact, MethodPosition, type MethodName } from '../ledger/independent';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { goTo, openWithSandboxProfile } from './support/stack';

const LABEL = 'Bought on another exchange';
const COST = '14344.075';

let stack: AdminStack;
let exchange: ExchangeClient;
test.beforeAll(async () => {
  stack = await startAdminStack();
  const [key] = stack.parent.keys.filter((k) => !k.canTrade);
  exchange = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key!, rateLimits: false });
});
test.afterAll(async () => {
  await exchange?.close();
  await stack?.close();
});

interface Move {
  kind: 'buy' | 'withdrawal';
  time: number;
  qty: Exact;
  cost: Exact;
  fee: Exact;
}

/** The parent's XRP movements the exchange records: own trades, and withdrawals since `since`. */
async function xrpMoves(since: number): Promise<Move[]> {
  const moves: Move[] = [];
  for (const t of await exchange.trading.myTrades({ symbol: 'xrpusdt', limit: 1000 })) {
    // The seeded history only buys XRP, its fee in XRP.
    expect(t.side).toBe('buy');
    expect(t.feeCurrency.toLowerCase()).toBe('xrp');
    moves.push({
      kind: 'buy',
      time: t.time,
      qty: new Exact(t.qty),
      cost: new Exact(t.quoteQty),
      fee: new Exact(t.fee),
    });
  }
  for (const w of await exchange.withdrawHistory({ startTime: 0, endTime: Date.now() })) {
    const time = Date.parse(`${w.createdAt.replace(' ', 'T')}Z`);
    if (w.coin.toLowerCase() !== 'xrp' || time < since) continue;
    if (!['success', 'pending'].includes(withdrawStatusOf(Number(w.status)))) continue;
    moves.push({
      kind: 'withdrawal',
      time,
      qty: new Exact(w.amount),
      cost: new Exact(0),
      fee: new Exact(w.transactionFee),
    });
  }
  return moves.sort((a, b) => a.time - b.time);
}

/**
 * The credit the records leave unexplained, by the rule docs/architecture.md states: the balance
 * seen less what the movements did, or what they needed when more (the running balance's lowest),
 * placed at the first movement that needed it (or at the balance read).
 */
function creditOf(moves: readonly Move[], balance: Exact) {
  let running = new Exact(0);
  let lowest = new Exact(0);
  let neededAt: number | null = null;
  for (const move of moves) {
    running =
      move.kind === 'buy'
        ? running.plus(move.qty).minus(move.fee)
        : running.minus(move.qty).minus(move.fee);
    if (running.lt(lowest)) lowest = running;
    if (running.isNegative() && neededAt === null) neededAt = move.time;
  }
  const unexplained = balance.minus(running);
  const amount = Exact.max(unexplained, lowest.negated());
  return { amount, neededAt, debit: amount.minus(unexplained) };
}

/** Cost basis held now with the user's cost on the credit, by `method`. */
function costHeld(
  moves: readonly Move[],
  credit: { amount: Exact; time: number; debit: Exact },
  method: MethodName,
) {
  const xrp = new MethodPosition(method);
  const events = [
    { time: credit.time, apply: () => xrp.add(credit.amount, new Exact(COST), credit.time) },
    ...moves.map((move) => ({
      time: move.time,
      apply: () => {
        if (move.kind === 'buy') xrp.add(move.qty.minus(move.fee), move.cost, move.time);
        else {
          // The amount, then its fee, each taken out at cost.
          xrp.take(move.qty);
          xrp.take(move.fee);
        }
      },
    })),
  ];
  // A stable sort: the credit comes before a movement of the same time.
  for (const event of events.sort((a, b) => a.time - b.time)) event.apply();
  if (credit.debit.gt(0)) xrp.take(credit.debit);
  return { quantity: xrp.quantity, cost: xrp.cost };
}

const signed = (value: Exact) => formatStated(value.toFixed(), { signed: true });

async function coveredFrom(page: Page): Promise<number> {
  const status = await page.evaluate(() =>
    (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio.withdrawals.backfillStatus(),
  );
  return status.coveredFrom ?? Date.now();
}

async function openXrp(page: Page): Promise<void> {
  await goTo(page, 'funds');
  await page.getByTestId('fund-row-xrp').click();
  await page.getByTestId('screen-asset').waitFor();
}

test('a labelled, costed inferred credit keeps its label and cost through the full withdraw history', async ({
  page,
}) => {
  test.setTimeout(360_000);
  const parentXrp = () => {
    const row = stack.sandbox.admin.balances(stack.parent.email).find((b) => b.asset === 'xrp');
    return new Exact(row!.free).plus(row!.locked);
  };
  await openWithSandboxProfile(page, stack);
  await openXrp(page);
  const credit = page
    .getByTestId('asset-entry-inferred')
    .filter({ hasText: 'Inferred deposit or other credit' })
    .filter({ hasNotText: '@' });

  // Before: the ledger knows the withdrawals of the exchange's recent window.
  const recent = await xrpMoves(await coveredFrom(page));
  const before = creditOf(recent, parentXrp());
  await expect(credit.locator('td').last()).toHaveText(signed(before.amount), { timeout: 60_000 });

  await credit.getByTestId('inferred-label').fill(LABEL);
  await credit.getByTestId('inferred-cost').fill(COST);
  await credit.getByTestId('inferred-cost-currency').fill('usdt');
  await credit.getByTestId('inferred-save').click();
  await expect(credit).toContainText(`Inferred deposit or other credit: ${LABEL}`);
  await expect(page.getByTestId('annotation-reviews')).toHaveCount(0);

  // Withdrawals → Fetch full history, to its end.
  await goTo(page, 'withdrawals');
  await page.getByTestId('backfill-start').click();
  await expect(page.getByTestId('backfill')).toContainText('Full history fetched', {
    timeout: 300_000,
  });
  const all = await xrpMoves(0);
  const older = all.filter((move) => move.kind === 'withdrawal').length;
  expect(older).toBeGreaterThan(recent.filter((move) => move.kind === 'withdrawal').length);
  const after = creditOf(all, parentXrp());
  expect(after.amount.gt(before.amount)).toBe(true);
  expect(after.neededAt).not.toBeNull();

  // The XRP page: the credit, larger and earlier, still carries the label and cost...
  await openXrp(page);
  await expect(credit.locator('td').last()).toHaveText(signed(after.amount), { timeout: 60_000 });
  await expect(credit.locator('td').first()).toHaveText(formatDateTime(after.neededAt!));
  await expect(credit).toContainText(`Inferred deposit or other credit: ${LABEL}`);
  await expect(credit.getByTestId('inferred-label')).toHaveValue(LABEL);
  await expect(credit.getByTestId('inferred-cost')).toHaveValue(COST);
  await expect(credit.getByTestId('inferred-review')).toContainText('Needs your look again');
  // ...and is shown for review: what the user wrote, beside the entry then and now.
  const review = page.getByTestId('annotation-review');
  await expect(review).toHaveCount(1);
  await expect(review).toHaveAttribute('data-status', 'changed');
  await expect(review.getByTestId('review-label')).toHaveText(LABEL);
  await expect(review.getByTestId('review-cost')).toHaveText(`${formatStated(COST)} USDT`);
  await expect(review.getByTestId('review-was')).toContainText(`${signed(before.amount)} XRP`);
  await expect(review.getByTestId('review-now')).toContainText(`${signed(after.amount)} XRP`);
  await expect(review.getByTestId('review-now')).toContainText(
    `placed at ${formatDateTime(after.neededAt!)}`,
  );

  // The figures take the user's cost: unrealized P&L by FIFO (Settings), then by LIFO picked on
  // the page, each equal to the same method over the sandbox's records at its last price.
  const placed = { ...after, time: after.neededAt! };
  for (const method of ['fifo', 'lifo'] as const) {
    if (method !== 'fifo') await page.getByTestId('asset-method').selectOption(method);
    await expect(page.getByTestId('asset-scope')).toContainText(
      method === 'fifo' ? 'cost by FIFO' : 'cost by LIFO on this page (Settings: FIFO)',
    );
    const held = costHeld(all, placed, method);
    await expect
      .poll(
        async () => {
          const last = (await stack.tickers()).find((t) => t.symbol === 'xrpusdt')!.lastPrice;
          const expected = held.quantity.times(last).minus(held.cost);
          const shown = await page.getByTestId('asset-unrealized').getAttribute('data-exact');
          return shown === null ? 'none' : new Decimal(shown).minus(expected.toFixed()).toFixed();
        },
        { timeout: 30_000, message: `unrealized XRP P&L by ${method}` },
      )
      .toBe('0');
  }

  // Kept with the entry as it is now: nothing left to look at, the label and cost stay.
  await review.getByTestId('review-keep').click();
  await expect(page.getByTestId('annotation-reviews')).toHaveCount(0);
  await expect(credit).toContainText(`Inferred deposit or other credit: ${LABEL}`);
  await expect(credit.getByTestId('inferred-cost')).toHaveValue(COST);
  await expect(credit.getByTestId('inferred-review')).toHaveCount(0);
});
