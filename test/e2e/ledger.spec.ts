/**
 * The ledger on screen: an account trades on USDT markets against the demo world's market maker;
 * the P&L card's realized and unrealized P&L, fees and value, and the net worth, equal a FIFO
 * computed here from the sandbox's own trade records, balances and tickers. A Funds row opens the
 * asset page with its lots and entries (the deposit marked inferred); the reports dialog writes
 * the tax report and says where it went. The Orders screen shows the open orders of the main
 * account and of a sub-account linked to its own key, each with its account, and of the
 * sub-account alone, naming the sub-account with no key linked, and cancels the sub-account's
 * order with its own key.
 */
import { readFileSync } from 'node:fs';
import Decimal from 'decimal.js';
import { expect, test } from '@playwright/test';
import { formatStated, formatValue } from '../../shared/format';
import { ExchangeClient } from '../../electron/exchange';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { connectBridge, goTo, openWithSandboxProfile, screenshot } from './support/stack';

const Exact = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_EVEN });

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

interface TradeRecord {
  id: number;
  symbol: string;
  side: string;
  qty: string;
  quoteQty: string;
  price: string;
  fee: string;
  feeCurrency: string;
  time: number;
}

/**
 * FIFO (or HIFO: the lot of the highest cost per unit as it was bought first, equal ones oldest
 * first) over the exchange's records of USDT markets: realized gains, fees valued in USDT (a buy's
 * fee is in the base it receives, worth its share of the quote paid), and the lots left per base.
 */
function fifo(trades: TradeRecord[], order: 'fifo' | 'hifo' = 'fifo') {
  const lots = new Map<string, { qty: Decimal; cost: Decimal; unit: Decimal }[]>();
  let realized = new Exact(0);
  let fees = new Exact(0);
  for (const trade of [...trades].sort((a, b) => a.time - b.time || a.id - b.id)) {
    const queue = lots.get(trade.symbol) ?? [];
    lots.set(trade.symbol, queue);
    const qty = new Exact(trade.qty);
    if (trade.side === 'buy') {
      expect(trade.feeCurrency).not.toBe('usdt');
      fees = fees.plus(new Exact(trade.quoteQty).times(trade.fee).div(qty).toDecimalPlaces(18));
      const bought = qty.minus(trade.fee);
      const cost = new Exact(trade.quoteQty);
      queue.push({ qty: bought, cost, unit: cost.div(bought) });
      continue;
    }
    expect(trade.feeCurrency).toBe('usdt');
    fees = fees.plus(trade.fee);
    realized = realized.plus(new Exact(trade.quoteQty).minus(trade.fee));
    let left = qty;
    while (left.gt(0)) {
      let index = 0;
      if (order === 'hifo') {
        queue.forEach((candidate, i) => {
          if (candidate.unit.gt(queue[index]!.unit)) index = i;
        });
      }
      const lot = queue[index]!;
      const taken = Exact.min(lot.qty, left);
      const whole = taken.eq(lot.qty);
      const part = whole ? lot.cost : lot.cost.times(taken).div(lot.qty).toDecimalPlaces(18);
      realized = realized.minus(part);
      lot.qty = lot.qty.minus(taken);
      lot.cost = lot.cost.minus(part);
      if (whole) queue.splice(index, 1);
      left = left.minus(taken);
    }
  }
  return { realized, fees, lots };
}

const TRADER = 'ledger-journey@example.test';

test('the P&L card and net worth equal what the sandbox’s own records give', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  // An account of its own, trading against the demo world's market maker on USDT markets only.
  stack.sandbox.admin.createAccount({ email: TRADER });
  const key = stack.sandbox.admin.createApiKey(TRADER, { canTrade: true });
  stack.sandbox.admin.credit(TRADER, 'usdt', '250000');
  const exchange = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key, rateLimits: false });
  try {
    const take = async (symbol: string, side: 'buy' | 'sell', quantity: string) => {
      const book = await exchange.market.depth({ symbol, limit: 20 });
      // A limit as deep as the quantity needs: filled at once against the maker's orders.
      let covered = new Exact(0);
      const levels = side === 'buy' ? book.asks : book.bids;
      const level = levels.find(([, qty]) => (covered = covered.plus(String(qty))).gte(quantity));
      if (!level) throw new Error(`The ${symbol} book cannot fill ${quantity}`);
      await exchange.trading.placeOrder({
        symbol,
        side,
        type: 'limit',
        quantity,
        price: String(level[0]),
      });
    };
    await take('btcusdt', 'buy', '0.05');
    await take('ethusdt', 'buy', '1');
    await take('solusdt', 'buy', '10');
    await take('btcusdt', 'sell', '0.02');
    await take('ethusdt', 'buy', '0.3');
    await take('ethusdt', 'sell', '0.8');
    const records: TradeRecord[] = [];
    for (const symbol of ['btcusdt', 'ethusdt', 'solusdt']) {
      records.push(...(await exchange.trading.myTrades({ symbol, limit: 1000 })));
    }
    expect(records.length).toBeGreaterThanOrEqual(6);
    const expected = fifo(records);
    const tickers = await stack.tickers();
    const last = (symbol: string) => new Exact(tickers.find((t) => t.symbol === symbol)!.lastPrice);
    let unrealized = new Exact(0);
    for (const [symbol, queue] of expected.lots) {
      for (const lot of queue)
        unrealized = unrealized.plus(lot.qty.times(last(symbol)).minus(lot.cost));
    }
    let worth = new Exact(0);
    for (const balance of stack.sandbox.admin.balances(TRADER)) {
      const amount = new Exact(balance.free).plus(balance.locked);
      worth = worth.plus(
        balance.asset === 'usdt' ? amount : amount.times(last(`${balance.asset}usdt`)),
      );
    }

    // While the exchange refuses candles, the prices of the past are not known: the card says
    // what it waits for and shows no figure that would change once they come (the value now, at
    // today's prices, is final already).
    stack.sandbox.admin.faults.inject(
      { path: '/sapi/v1/klines' },
      { kind: 'error-before' },
      100_000,
    );
    const card = page.getByTestId('pnl-card');
    try {
      await openWithSandboxProfile(page, stack, { name: 'Ledger', key });
      await goTo(page, 'portfolio');
      await expect(card.getByTestId('ledger-import-progress')).toContainText(
        'own trades imported',
        { timeout: 60_000 },
      );
      await expect(card.getByTestId('pnl-computing')).toHaveText(
        'Computing: waiting for past prices of BTCUSDT, ETHUSDT, SOLUSDT. The figures appear ' +
          'once they are final; the value now is already.',
      );
      for (const testId of ['pnl-realized', 'pnl-fees', 'pnl-unrealized', 'pnl-cost']) {
        await expect(card.getByTestId(testId)).toHaveText('Computing…');
      }
      await expect(card.getByTestId('pnl-value')).toHaveText(formatValue(worth.toFixed(), 'usdt'));
    } finally {
      stack.sandbox.admin.faults.clear();
    }
    await expect(card.getByTestId('pnl-computing')).toHaveCount(0, { timeout: 30_000 });
    const shows = async (testId: string, value: Decimal, signed = false) =>
      expect(card.getByTestId(testId)).toHaveText(
        formatValue(value.toFixed(), 'usdt', { signed }),
        { timeout: 30_000 },
      );
    await shows('pnl-realized', expected.realized, true);
    await shows('pnl-unrealized', unrealized, true);
    await shows('pnl-fees', expected.fees);
    await shows('pnl-value', worth);
    await expect(card.getByTestId('pnl-includes')).toContainText(
      `Main account: ${records.length} trades, 0 withdrawals, 0 transfers`,
    );
    await expect(page.getByTestId('net-worth-total')).toHaveText(
      formatValue(worth.toFixed(), 'usdt'),
    );
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'pnl');

    // A Funds row opens the asset page: its lots and entries, the inferred ones marked.
    await goTo(page, 'funds');
    await page.getByTestId('fund-row-eth').click();
    await page.getByTestId('screen-asset').waitFor();
    await expect(page.getByTestId('asset-lots')).toBeVisible();
    await expect(page.getByTestId('asset-entry-trade').first()).toBeVisible();
    await screenshot(page, 'asset-page');
    await page.goto(`${stack.url.split('#')[0]}#/funds/usdt`);
    await expect(page.getByTestId('asset-entry-inferred').first()).toBeVisible();

    // Reports: the tax report is written and the dialog says where.
    await goTo(page, 'portfolio');
    await page.getByTestId('open-reports').click();
    await page.getByTestId('write-tax-report').click();
    await expect(page.getByTestId('report-path')).toContainText(
      `spotfolio-tax-${new Date().getUTCFullYear()}-fifo-usdt.csv`,
    );
    await expect(page.getByTestId('report-summary')).toBeVisible();
    await screenshot(page, 'reports');

    // The dialog starts with the method Settings gives the ledger, not always FIFO.
    await expect(page.getByTestId('report-method')).toHaveValue('fifo');
    await page.getByRole('button', { name: 'Close' }).click();
    await goTo(page, 'settings');
    await page.getByTestId('cost-method').selectOption('average');
    await goTo(page, 'portfolio');
    await page.getByTestId('open-reports').click();
    await expect(page.getByTestId('report-method')).toHaveValue('average');
    await page.getByTestId('write-tax-report').click();
    await expect(page.getByTestId('report-path')).toContainText(
      `spotfolio-tax-${new Date().getUTCFullYear()}-average-usdt.csv`,
    );

    // HIFO from Settings: the card's realized P&L is a HIFO of the same records, and the report
    // dialog starts with it, writing the report and its split by term.
    await page.getByRole('button', { name: 'Close' }).click();
    await goTo(page, 'settings');
    await page.getByTestId('cost-method').selectOption('hifo');
    await expect(page.getByTestId('cost-method-hint')).toHaveText(
      'highest in, first out: the lot of the highest cost per unit first',
    );
    await goTo(page, 'portfolio');
    await expect(card.getByTestId('pnl-method-select')).toHaveValue('hifo');
    await expect(card.getByTestId('pnl-method')).toHaveText('in USDT');
    const hifo = fifo(records, 'hifo');
    await shows('pnl-realized', hifo.realized, true);
    await shows('pnl-fees', hifo.fees);
    // The card chooses the method too: back to FIFO there, and its figures follow.
    await card.getByTestId('pnl-method-select').selectOption('fifo');
    await shows('pnl-realized', expected.realized, true);
    await card.getByTestId('pnl-method-select').selectOption('hifo');
    await shows('pnl-realized', hifo.realized, true);
    await page.getByTestId('open-reports').click();
    await expect(page.getByTestId('report-method')).toHaveValue('hifo');
    await page.getByTestId('write-tax-report').click();
    await expect(page.getByTestId('report-path')).toContainText(
      `spotfolio-tax-${new Date().getUTCFullYear()}-hifo-usdt.csv`,
    );
    await expect(page.getByTestId('report-terms-path')).toContainText(
      `spotfolio-tax-${new Date().getUTCFullYear()}-hifo-usdt-terms.csv`,
    );
  } finally {
    await exchange.close();
  }
});

const SCOPED = 'ledger-scope@example.test';
const SCOPED_SUB = 'ledger-scope-sub@example.test';

test('a Funds row, the P&L card, net worth and the asset page cover the accounts they name, and a transfer moves its lots', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  // An account with a sub-account: it buys BTC, then moves 0.02 BTC to the sub-account, whose
  // lots go with it (the oldest first, under FIFO).
  stack.sandbox.admin.createAccount({ email: SCOPED });
  stack.sandbox.admin.createAccount({ email: SCOPED_SUB, parentEmail: SCOPED });
  const key = stack.sandbox.admin.createApiKey(SCOPED, { canTrade: true });
  stack.sandbox.admin.credit(SCOPED, 'usdt', '100000');
  const exchange = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key, rateLimits: false });
  try {
    for (const quantity of ['0.01', '0.03']) {
      const book = await exchange.market.depth({ symbol: 'btcusdt', limit: 20 });
      let covered = new Exact(0);
      const level = book.asks.find(([, qty]) =>
        (covered = covered.plus(String(qty))).gte(quantity),
      );
      if (!level) throw new Error(`The btcusdt book cannot fill ${quantity}`);
      await exchange.trading.placeOrder({
        symbol: 'btcusdt',
        side: 'buy',
        type: 'limit',
        quantity,
        price: String(level[0]),
      });
    }
    await exchange.subAccounts.transfer({
      currency: 'btc',
      amount: '0.02',
      fromEmail: SCOPED,
      toEmail: SCOPED_SUB,
    });
    const records: TradeRecord[] = await exchange.trading.myTrades({
      symbol: 'btcusdt',
      limit: 100,
    });
    const lots = fifo(records).lots.get('btcusdt') ?? [];
    // The lots the transfer took, from the oldest, a lot cut in two as a sale cuts it.
    const main = lots.map((lot) => ({ ...lot }));
    let left = new Exact('0.02');
    while (left.gt(0)) {
      const lot = main[0]!;
      const taken = Exact.min(lot.qty, left);
      const whole = taken.eq(lot.qty);
      const part = whole ? lot.cost : lot.cost.times(taken).div(lot.qty).toDecimalPlaces(18);
      lot.qty = lot.qty.minus(taken);
      lot.cost = lot.cost.minus(part);
      if (whole) main.shift();
      left = left.minus(taken);
    }
    const tickers = await stack.tickers();
    const last = new Exact(tickers.find((t) => t.symbol === 'btcusdt')!.lastPrice);
    const unrealized = (held: typeof lots) =>
      held.reduce((sum, lot) => sum.plus(lot.qty.times(last).minus(lot.cost)), new Exact(0));
    const mainBtc = stack.sandbox.admin
      .balances(SCOPED)
      .find((balance) => balance.asset === 'btc')!;

    await openWithSandboxProfile(page, stack, { name: 'Scoped', key });

    // Funds: the main account's BTC, and the P&L of the main account's lots alone.
    await goTo(page, 'funds');
    await expect(page.getByTestId('funds-scope')).toContainText('The main account');
    const row = page.getByTestId('fund-row-btc');
    await expect(row.getByTestId('fund-unrealized')).toHaveText(
      formatValue(unrealized(main).toFixed(), 'usdt', { signed: true, withUnit: false }),
      { timeout: 60_000 },
    );
    await expect(row).toContainText(new Exact(mainBtc.free).plus(mainBtc.locked).toFixed());

    // The P&L card: every account's lots, or the main account's, as its switch says.
    await goTo(page, 'portfolio');
    const card = page.getByTestId('pnl-card');
    await expect(card.getByTestId('pnl-includes')).toContainText('Main account and 1 sub-account', {
      timeout: 60_000,
    });
    await expect(card.getByTestId('pnl-unrealized')).toHaveText(
      formatValue(unrealized(lots).toFixed(), 'usdt', { signed: true }),
      { timeout: 30_000 },
    );
    await card.getByTestId('pnl-scope-main').click();
    await expect(card.getByTestId('pnl-includes')).toContainText('Main account:');
    await expect(card.getByTestId('pnl-unrealized')).toHaveText(
      formatValue(unrealized(main).toFixed(), 'usdt', { signed: true }),
    );

    // Net worth: each account's balances at the last prices, every account's or the main one's.
    const held = (email: string, asset: string) => {
      const balance = stack.sandbox.admin.balances(email).find((b) => b.asset === asset);
      return balance ? new Exact(balance.free).plus(balance.locked) : new Exact(0);
    };
    const worthOf = (email: string) =>
      held(email, 'usdt').plus(held(email, 'btc').times(last)).toFixed();
    const worth = page.getByTestId('net-worth-card');
    await expect(worth.getByTestId('net-worth-covers')).toContainText(
      'Every account together (main account and 1 sub-account)',
    );
    await expect(worth.getByTestId('net-worth-total')).toHaveAttribute(
      'data-exact',
      new Exact(worthOf(SCOPED)).plus(worthOf(SCOPED_SUB)).toFixed(),
    );
    await worth.getByTestId('net-worth-scope-main').click();
    await expect(worth.getByTestId('net-worth-covers')).toContainText(
      'Main account only, not the 1 sub-account',
    );
    await expect(worth.getByTestId('net-worth-total')).toHaveAttribute(
      'data-exact',
      worthOf(SCOPED),
    );

    // The BTC page: every figure, lot and entry covers the accounts its own switch names; the
    // transfer nets to nothing for every account and takes 0.02 BTC from the main account.
    await goTo(page, 'funds');
    await page.getByTestId('fund-row-btc').click();
    await page.getByTestId('screen-asset').waitFor();
    const costOf = (lotsHeld: typeof lots) =>
      lotsHeld.reduce((sum, lot) => sum.plus(lot.cost), new Exact(0)).toFixed();
    const pageShows = async (
      scope: string,
      quantity: Decimal,
      lotsHeld: typeof lots,
      moved: string,
    ) => {
      await expect(page.getByTestId('asset-scope')).toContainText(`${scope}; cost by FIFO`);
      await expect(page.getByTestId('asset-quantity')).toHaveText(formatStated(quantity.toFixed()));
      await expect(page.getByTestId('asset-cost-basis')).toHaveAttribute(
        'data-exact',
        costOf(lotsHeld),
      );
      await expect(page.getByTestId('asset-unrealized')).toHaveAttribute(
        'data-exact',
        unrealized(lotsHeld).toFixed(),
      );
      await expect(page.getByTestId('asset-realized')).toHaveAttribute('data-exact', '0');
      await expect(page.getByTestId('asset-entry-trade')).toHaveCount(records.length);
      await expect(page.getByTestId('asset-entry-transfer').locator('td').last()).toHaveText(
        formatStated(moved, { signed: true }),
      );
    };
    await pageShows(
      'Every account together (main account and 1 sub-account)',
      held(SCOPED, 'btc').plus(held(SCOPED_SUB, 'btc')),
      lots,
      '0',
    );
    await expect(page.getByTestId('asset-lots')).toContainText(SCOPED_SUB);
    await page.getByTestId('asset-scope-main').click();
    await pageShows('Main account only, not the 1 sub-account', held(SCOPED, 'btc'), main, '-0.02');
    await expect(page.getByTestId('asset-lots')).not.toContainText(SCOPED_SUB);
    await expect(page.getByTestId('asset-lots').locator('tbody tr')).toHaveCount(main.length);
  } finally {
    await exchange.close();
  }
});

const LINKED = 'ledger-linked@example.test';
const LINKED_SUB = 'ledger-linked-sub@example.test';

test('a sub-account linked to its own key: its trades are in the P&L, the net worth and the tax report, and main<->sub transfers move lots without a disposal', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  const { admin } = stack.sandbox;
  admin.createAccount({ email: LINKED });
  admin.createAccount({ email: LINKED_SUB, parentEmail: LINKED });
  const key = admin.createApiKey(LINKED, { canTrade: true });
  // The link needs no more than reading; the sub-account trades with a key of its own.
  const readOnly = admin.createApiKey(LINKED_SUB, { canTrade: false });
  const subTrading = admin.createApiKey(LINKED_SUB, { canTrade: true });
  admin.credit(LINKED, 'usdt', '100000');
  const main = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key, rateLimits: false });
  const sub = new ExchangeClient({
    baseUrl: stack.world.baseUrl,
    ...subTrading,
    rateLimits: false,
  });
  const take = async (client: ExchangeClient, side: 'buy' | 'sell', quantity: string) => {
    const book = await client.market.depth({ symbol: 'btcusdt', limit: 20 });
    let covered = new Exact(0);
    const levels = side === 'buy' ? book.asks : book.bids;
    const level = levels.find(([, qty]) => (covered = covered.plus(String(qty))).gte(quantity));
    if (!level) throw new Error(`The btcusdt book cannot fill ${quantity}`);
    await client.trading.placeOrder({
      symbol: 'btcusdt',
      side,
      type: 'limit',
      quantity,
      price: String(level[0]),
    });
  };
  const move = (asset: string, amount: string, fromEmail: string, toEmail: string) =>
    main.subAccounts.transfer({ currency: asset, amount, fromEmail, toEmail });
  try {
    // The main account buys twice and moves USDT and part of its BTC to the sub-account.
    await take(main, 'buy', '0.01');
    await take(main, 'buy', '0.03');
    await move('usdt', '20000', LINKED, LINKED_SUB);
    await move('btc', '0.015', LINKED, LINKED_SUB);

    await openWithSandboxProfile(page, stack, { name: 'Linked', key });
    const card = page.getByTestId('pnl-card');
    // Unlinked, the sub-account's trades cannot be seen: the card says so and offers the link.
    await expect(card.getByTestId('pnl-unseen')).toContainText(
      `The trades of ${LINKED_SUB} are not seen`,
      { timeout: 60_000 },
    );
    await card.getByTestId('pnl-unseen').getByRole('link').click();
    await page.getByTestId('screen-sub-accounts').waitFor();
    const linkTestId = (name: string) => `sub-key-${name}-${LINKED_SUB}`;
    await page.getByTestId(linkTestId('open')).click();
    // The main account's key is refused, naming the field; nothing is kept.
    await page.getByTestId(linkTestId('apiKey')).fill(key.apiKey);
    await page.getByTestId(linkTestId('secretKey')).fill(key.secretKey);
    await page.getByTestId(linkTestId('submit')).click();
    await expect(page.getByTestId(linkTestId('apiKey-error'))).toContainText(
      `This is the key of the main account of "Linked", not of ${LINKED_SUB}.`,
    );
    await page.getByTestId(linkTestId('apiKey')).fill(readOnly.apiKey);
    await page.getByTestId(linkTestId('secretKey')).fill(readOnly.secretKey);
    await page.getByTestId(linkTestId('submit')).click();
    await expect(page.getByTestId(linkTestId('linked'))).toContainText(
      'Trades read with its own key',
      { timeout: 30_000 },
    );
    await screenshot(page, 'sub-account-linked');

    // Linked: the sub-account trades (its private stream brings the fills), sends USDT back, and
    // the main account sells.
    await take(sub, 'buy', '0.02');
    await take(sub, 'sell', '0.025');
    await move('usdt', '1000', LINKED_SUB, LINKED);
    await take(main, 'sell', '0.01');

    // FIFO by hand over both accounts' records, the transfers moving lots oldest first.
    type Tagged = TradeRecord & { account: string };
    const records: Tagged[] = [
      ...(await main.trading.myTrades({ symbol: 'btcusdt', limit: 100 })).map((t) => ({
        ...t,
        account: LINKED,
      })),
      ...(await sub.trading.myTrades({ symbol: 'btcusdt', limit: 100 })).map((t) => ({
        ...t,
        account: LINKED_SUB,
      })),
    ];
    expect(records.filter((r) => r.account === LINKED_SUB).length).toBeGreaterThanOrEqual(2);
    const moves = await main.subAccounts.transferHistory();
    const transfers = moves.filter((t) => t.asset.toLowerCase() === 'btc');
    type Lot = { qty: Decimal; cost: Decimal };
    const lots = new Map<string, Lot[]>([
      [LINKED, []],
      [LINKED_SUB, []],
    ]);
    const take_ = (account: string, quantity: Decimal) => {
      const queue = lots.get(account)!;
      const taken: Lot[] = [];
      let left = quantity;
      while (left.gt(0)) {
        const lot = queue[0]!;
        const part = Exact.min(lot.qty, left);
        const whole = part.eq(lot.qty);
        const cost = whole ? lot.cost : lot.cost.times(part).div(lot.qty).toDecimalPlaces(18);
        taken.push({ qty: part, cost });
        lot.qty = lot.qty.minus(part);
        lot.cost = lot.cost.minus(cost);
        if (whole) queue.shift();
        left = left.minus(part);
      }
      return taken;
    };
    let realized = new Exact(0);
    let fees = new Exact(0);
    const events = [
      ...records.map((r) => ({ time: r.time, rank: 0, id: r.id, trade: r })),
      ...transfers.map((t) => ({ time: t.time, rank: 1, id: t.txnId, transfer: t })),
    ].sort((a, b) => a.time - b.time || a.rank - b.rank || a.id - b.id);
    for (const event of events) {
      if ('transfer' in event && event.transfer) {
        const { from, to, qty } = event.transfer;
        lots.get(to.toLowerCase())!.push(...take_(from.toLowerCase(), new Exact(qty)));
        continue;
      }
      const trade = (event as { trade: Tagged }).trade;
      const qty = new Exact(trade.qty);
      if (trade.side === 'buy') {
        fees = fees.plus(new Exact(trade.quoteQty).times(trade.fee).div(qty).toDecimalPlaces(18));
        lots
          .get(trade.account)!
          .push({ qty: qty.minus(trade.fee), cost: new Exact(trade.quoteQty) });
      } else {
        fees = fees.plus(trade.fee);
        const cost = take_(trade.account, qty).reduce(
          (sum, lot) => sum.plus(lot.cost),
          new Exact(0),
        );
        realized = realized.plus(new Exact(trade.quoteQty).minus(trade.fee)).minus(cost);
      }
    }
    const tickers = await stack.tickers();
    const last = new Exact(tickers.find((t) => t.symbol === 'btcusdt')!.lastPrice);
    let unrealized = new Exact(0);
    for (const queue of lots.values()) {
      for (const lot of queue) unrealized = unrealized.plus(lot.qty.times(last).minus(lot.cost));
    }
    const held = (email: string, asset: string) => {
      const balance = admin.balances(email).find((b) => b.asset === asset);
      return balance ? new Exact(balance.free).plus(balance.locked) : new Exact(0);
    };
    const worthOf = (email: string) => held(email, 'usdt').plus(held(email, 'btc').times(last));
    const worth = worthOf(LINKED).plus(worthOf(LINKED_SUB));

    await goTo(page, 'portfolio');
    await expect(card.getByTestId('pnl-unseen')).toHaveCount(0, { timeout: 30_000 });
    const shows = (testId: string, value: Decimal) =>
      expect(card.getByTestId(testId)).toHaveAttribute('data-exact', value.toFixed(), {
        timeout: 60_000,
      });
    await card.getByTestId('pnl-range-all').click();
    await shows('pnl-realized', realized);
    await shows('pnl-fees', fees);
    await shows('pnl-unrealized', unrealized);
    await shows('pnl-value', worth);
    // Its trades are its own, not inferred: both accounts' trades, and the transfers as moves.
    await expect(card.getByTestId('pnl-includes')).toContainText(
      `Main account and 1 sub-account: ${records.length} trades, 0 withdrawals, ${moves.length} transfers`,
      { timeout: 30_000 },
    );
    // The sub-account's own scope: every movement of it known, none inferred.
    const bridge = await connectBridge(stack.url);
    try {
      const own = await bridge.ok<{ inferred: { count: number }; includes: string }>(
        'ledger.summary',
        { account: LINKED_SUB },
      );
      expect(own.inferred.count).toBe(0);
      expect(own.includes).toContain(
        `${records.filter((r) => r.account === LINKED_SUB).length} trades`,
      );
    } finally {
      bridge.close();
    }
    await expect(page.getByTestId('net-worth-total')).toHaveAttribute(
      'data-exact',
      worth.toFixed(),
    );

    // The tax report: one row per lot sold, by either account, their gains summing to the
    // realized P&L; no transfer is a disposal.
    await page.getByTestId('open-reports').click();
    await page.getByTestId('write-tax-report').click();
    const path = (await page.getByTestId('report-path').textContent())!;
    const rows = readFileSync(path, 'utf8').trim().split(/\r?\n/).slice(1);
    expect(rows.length).toBeGreaterThan(0);
    // Every row a lot sold by a trade (of either account); no transfer is among them.
    expect(rows.filter((row) => !/^"?Trade btcusdt sell/i.test(row))).toEqual([]);
    const gains = rows.reduce((sum, row) => sum.plus(row.split(',').at(-4)!), new Exact(0));
    expect(gains.toFixed()).toBe(realized.toFixed());
  } finally {
    await Promise.all([main.close(), sub.close()]);
  }
});

const ORDERS_MAIN = 'orders-accounts@example.test';
const ORDERS_SUB = 'orders-accounts-sub@example.test';
const ORDERS_UNLINKED = 'orders-accounts-unlinked@example.test';

test("the Orders screen shows every account's open orders with their account, and a sub-account's alone", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  const { admin } = stack.sandbox;
  admin.createAccount({ email: ORDERS_MAIN });
  admin.createAccount({ email: ORDERS_SUB, parentEmail: ORDERS_MAIN });
  admin.createAccount({ email: ORDERS_UNLINKED, parentEmail: ORDERS_MAIN });
  const key = admin.createApiKey(ORDERS_MAIN, { canTrade: true });
  const subKey = admin.createApiKey(ORDERS_SUB, { canTrade: true });
  admin.credit(ORDERS_MAIN, 'usdt', '5000');
  admin.credit(ORDERS_SUB, 'usdt', '3000');
  const main = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...key, rateLimits: false });
  const sub = new ExchangeClient({ baseUrl: stack.world.baseUrl, ...subKey, rateLimits: false });
  // Buys far below the market: they rest on the book, each account's own.
  const rest = async (client: ExchangeClient, quantity: string) => {
    const book = await client.market.depth({ symbol: 'btcusdt', limit: 5 });
    const price = new Exact(String(book.bids[0]![0])).div(2).toDecimalPlaces(2).toFixed();
    return client.trading.placeOrder({
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity,
      price,
    });
  };
  try {
    const mainOrder = await rest(main, '0.0123');
    const subOrder = await rest(sub, '0.0456');
    await openWithSandboxProfile(page, stack, { name: 'Orders', key });
    const bridge = await connectBridge(stack.url);
    try {
      await bridge.ok('subAccounts.refresh', {});
      await bridge.ok('subAccounts.link', { email: ORDERS_SUB, ...subKey });
    } finally {
      bridge.close();
    }
    await goTo(page, 'orders');

    // Every account: both orders, each saying its account; the sub-account with no key of its
    // own is named, with the way to link it.
    const mainRow = page.getByTestId(`open-order-${mainOrder.id}`);
    const subRow = page.getByTestId(`open-order-${subOrder.id}`);
    await expect(subRow.getByTestId('order-account')).toHaveText(ORDERS_SUB, { timeout: 30_000 });
    await expect(mainRow.getByTestId('order-account')).toHaveText('Main account', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('orders-scope-every')).toHaveAttribute('aria-pressed', 'true');
    const unlinked = page.getByTestId('orders-unlinked');
    await expect(unlinked).toContainText(ORDERS_UNLINKED);
    await expect(unlinked).not.toContainText(ORDERS_SUB);
    await expect(unlinked.getByRole('link')).toHaveAttribute('href', '#/sub-accounts');
    await screenshot(page, 'orders-every-account');

    // The sub-account alone: its order only.
    await page.getByTestId(`orders-scope-${ORDERS_SUB}`).click();
    await expect(mainRow).toHaveCount(0);
    await expect(subRow.getByTestId('order-account')).toHaveText(ORDERS_SUB);
    await expect(page.getByTestId('orders-unlinked')).toHaveCount(0);
    await expect(page.locator('[data-testid^="open-order-"]')).toHaveCount(1);

    // Canceled from the screen, with the sub-account's own key: the exchange's record says so.
    await subRow.getByTestId('cancel-order').click();
    await expect(page.getByTestId('orders-status')).toContainText(`Order ${subOrder.id}`);
    await expect(subRow).toHaveCount(0, { timeout: 15_000 });
    expect((await sub.trading.getOrder({ orderId: subOrder.id })).status).toBe('cancel');

    // The main account alone: its own.
    await page.getByTestId('orders-scope-main').click();
    await expect(mainRow.getByTestId('order-account')).toHaveText('Main account');
    expect((await main.trading.getOrder({ orderId: mainOrder.id })).status).toBe('wait');
  } finally {
    await Promise.all([main.close(), sub.close()]);
  }
});
