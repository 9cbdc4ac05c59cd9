/**
 * The asset page and the net worth for the main account alone and for every account together:
 * the main account buys ETH at several prices, moves some to a sub-account (the lots go with it),
 * then sells. Read through the app's `ledger.asset` and `ledger.netWorth` handlers in USDT and in
 * BTC with each cost method, every figure of the page (quantity, cost basis, average cost,
 * realized and unrealized P&L, the lots and the entries) and the net worth equal what is computed
 * here from the sandbox's own records (trades, the transfer, each account's balances and last
 * prices), exactly, for each scope.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import type { AssetLedgerView, CostMethodName } from '../../shared/ledger';
import { COST_METHODS } from '../../shared/ledger';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from '../live/helpers';
import { btcPriceWith, takeTrade, traderAndCounterparty } from '../sync/own-trades';
import { Exact, MethodPosition, quotient, type TradeRecord } from './independent';

const PARENT = 'asset-scope@example.test';
const SUB = 'asset-scope-savings@example.test';
const MOVED = '0.6';

/** Three buys, 0.6 ETH moved to the sub-account (more than the first lot), then trades again. */
const BEFORE = [
  { side: 'buy', qty: '0.5', price: '3000' },
  { side: 'buy', qty: '0.3', price: '3400' },
  { side: 'buy', qty: '0.4', price: '2800' },
] as const;
const AFTER = [
  { side: 'sell', qty: '0.3', price: '3200' },
  { side: 'buy', qty: '0.2', price: '3600' },
  { side: 'sell', qty: '0.25', price: '3100' },
] as const;

let sandbox: Sandbox | undefined;
let live: LiveApp | undefined;
afterEach(async () => {
  await live?.close();
  await sandbox?.close();
  live = undefined;
  sandbox = undefined;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * ETH of each account under `method`, in a quote whose prices are `price` (every record is in
 * the ledger's present, so today's prices value it): a buy's lot is the ETH received after its
 * fee, costing the USDT given; a sell's proceeds are the USDT received less its fee; the transfer
 * takes its ETH from the main account's lots in the method's order and the sub-account holds them
 * at the cost they carried.
 */
function expectedEth(
  trades: readonly TradeRecord[],
  transfer: { time: number; qty: string },
  method: CostMethodName,
  price: (asset: string) => Exact,
) {
  const main = new MethodPosition(method);
  const sub = new MethodPosition(method);
  let realized = new Exact(0);
  const events = [
    ...trades.map((trade) => ({ time: trade.time, trade })),
    { time: transfer.time, trade: null },
  ].sort((a, b) => a.time - b.time || (a.trade?.id ?? 0) - (b.trade?.id ?? 0));
  for (const { time, trade } of events) {
    if (!trade) {
      const qty = new Exact(transfer.qty);
      sub.add(qty, main.take(qty), time);
      continue;
    }
    const qty = new Exact(trade.qty);
    const value = new Exact(trade.quoteQty).times(price('usdt'));
    const fee = new Exact(trade.fee);
    if (trade.side === 'buy') {
      expect(trade.feeCurrency).toBe('eth');
      main.add(qty.minus(fee), value, trade.time);
    } else {
      expect(trade.feeCurrency).toBe('usdt');
      realized = realized.plus(value.minus(fee.times(price('usdt'))).minus(main.take(qty)));
    }
  }
  const figures = (held: MethodPosition[], gains: Exact) => {
    const quantity = held.reduce((sum, position) => sum.plus(position.quantity), new Exact(0));
    const costBasis = held.reduce((sum, position) => sum.plus(position.cost), new Exact(0));
    return {
      quantity: quantity.toFixed(),
      costBasis: costBasis.toFixed(),
      averageCost: costBasis.div(quantity).toDecimalPlaces(18, Exact.ROUND_HALF_EVEN).toFixed(),
      realizedPnl: gains.toFixed(),
      unrealizedPnl: quantity.times(price('eth')).minus(costBasis).toFixed(),
    };
  };
  return {
    main: figures([main], realized),
    every: figures([main, sub], realized),
    sub: figures([sub], new Exact(0)),
    held: { main: main.quantity, sub: sub.quantity, mainCost: main.cost, subCost: sub.cost },
  };
}

/** The page's figures the test compares, and each account's lots summed. */
function shown(page: AssetLedgerView) {
  const { quantity, costBasis, averageCost, realizedPnl, unrealizedPnl } = page.figures;
  const lots = new Map<string, { qty: Exact; cost: Exact }>();
  for (const lot of page.lots) {
    const sum = lots.get(lot.account) ?? { qty: new Exact(0), cost: new Exact(0) };
    lots.set(lot.account, { qty: sum.qty.plus(lot.quantity), cost: sum.cost.plus(lot.cost) });
  }
  return { figures: { quantity, costBasis, averageCost, realizedPnl, unrealizedPnl }, lots };
}

describe('the asset page and net worth for the main account and for every account', () => {
  it('give the figures computed from the sandbox’s records for each scope, in USDT and BTC', async () => {
    sandbox = await startSandbox({ world: 'empty', rateLimits: false, seed: 33 });
    const s = sandbox;
    const { trader, counterparty } = traderAndCounterparty(s, PARENT, '50000');
    s.admin.createAccount({ email: SUB, parentEmail: PARENT });
    await btcPriceWith(s, counterparty, '61234.5');
    // Each record a few milliseconds after the last: the order by time is the order made.
    for (const step of BEFORE) {
      await takeTrade(trader, counterparty, { symbol: 'ethusdt', ...step });
      await pause(5);
    }
    await trader.subAccounts.transfer({
      currency: 'eth',
      amount: MOVED,
      fromEmail: PARENT,
      toEmail: SUB,
    });
    await pause(5);
    for (const step of AFTER) {
      await takeTrade(trader, counterparty, { symbol: 'ethusdt', ...step });
      await pause(5);
    }
    const trades = await trader.trading.myTrades({ symbol: 'ethusdt', limit: 1000 });
    expect(trades).toHaveLength(BEFORE.length + AFTER.length);
    const [transfer] = await trader.subAccounts.transferHistory();
    expect(transfer).toMatchObject({ asset: 'eth', qty: MOVED });
    const times = [...trades.map((trade) => trade.time), transfer!.time].sort((a, b) => a - b);
    expect(new Set(times).size).toBe(times.length);
    const last = async (symbol: string) =>
      new Exact((await trader.market.ticker({ symbol })).lastPrice);
    const btc = await last('btcusdt');
    const ethLast = await last('ethusdt');
    // Each account's holdings as the exchange states them.
    const balances = (email: string) =>
      new Map(
        s.admin
          .balances(email)
          .map((balance) => [balance.asset, new Exact(balance.free).plus(balance.locked)]),
      );
    const mainHeld = balances(PARENT);
    const subHeld = balances(SUB);
    expect([...subHeld.keys()]).toEqual(['eth']);
    await counterparty.close();

    live = await startLiveApp(s, s.admin.createApiKey(PARENT));
    const { app } = live;
    // Every record read: the trades, the transfer and the sub-account's balance.
    await eventually('the history imported', async () => {
      const summary = await app.handlers['ledger.summary']({});
      if (summary.import.storedTrades !== trades.length) return undefined;
      const page = await app.handlers['ledger.asset']({ asset: 'eth' });
      const worth = await app.handlers['ledger.netWorth']({});
      return page.entries.some((entry) => entry.kind === 'transfer') &&
        worth.accounts.some((account) => account.account === SUB && account.assets.length > 0)
        ? true
        : undefined;
    });

    const prices = {
      usdt: (asset: string) => (asset === 'eth' ? ethLast : new Exact(1)),
      // ETH in BTC: its USDT price over BTC's, one division; USDT in BTC: 1 over BTC's.
      btc: (asset: string) =>
        asset === 'eth' ? quotient(ethLast, btc) : quotient(new Exact(1), btc),
    };
    for (const quote of ['usdt', 'btc'] as const) {
      await app.handlers['settings.update']({ quoteAsset: quote });
      for (const method of COST_METHODS) {
        const expected = expectedEth(trades, transfer!, method, prices[quote]);
        // What each account holds is what the exchange says it holds.
        expect(expected.held.main.toFixed()).toBe(mainHeld.get('eth')!.toFixed());
        expect(expected.held.sub.toFixed()).toBe(subHeld.get('eth')!.toFixed());
        const pages = {
          every: await app.handlers['ledger.asset']({ asset: 'eth', method }),
          main: await app.handlers['ledger.asset']({ asset: 'eth', method, account: 'main' }),
          sub: await app.handlers['ledger.asset']({ asset: 'eth', method, account: SUB }),
        };
        for (const scope of ['every', 'main', 'sub'] as const) {
          const page = pages[scope];
          const label = `${method} in ${quote}, ${scope}`;
          expect(page.method, label).toBe(method);
          expect(page.currency, label).toBe(quote);
          expect(page.account, label).toBe(
            scope === 'every' ? null : scope === 'main' ? 'main' : SUB,
          );
          const { figures, lots } = shown(page);
          expect(figures, label).toEqual(expected[scope]);
          // The lots of the accounts covered, each account's summing to what it holds.
          const lotsOf = (account: string, qty: Exact, cost: Exact) =>
            expect(
              { qty: lots.get(account)?.qty.toFixed(), cost: lots.get(account)?.cost.toFixed() },
              `${label}: lots of ${account}`,
            ).toEqual({ qty: qty.toFixed(), cost: cost.toFixed() });
          expect([...lots.keys()].sort(), label).toEqual(
            scope === 'every' ? [SUB, 'main'].sort() : [page.account],
          );
          if (scope !== 'sub') lotsOf('main', expected.held.main, expected.held.mainCost);
          if (scope !== 'main') lotsOf(SUB, expected.held.sub, expected.held.subCost);
        }
        // The scopes tell the accounts apart: the figures of each differ.
        const each = Object.values(pages).map((page) => JSON.stringify(shown(page).figures));
        expect(new Set(each).size).toBe(3);
        expect(pages.every.covers).toBe('Every account together (main account and 1 sub-account)');
        expect(pages.main.covers).toBe('Main account only, not the 1 sub-account');
      }
    }
    // The entries each scope lists, with what each did to the balances it covers: the trades are
    // the main account's; the transfer takes from the main account, gives to the sub-account and
    // nets to nothing for every account together.
    const byTime = [...trades].sort((a, b) => b.time - a.time);
    const tradeChanges = byTime.map((trade) => ({
      kind: 'trade',
      id: String(trade.id),
      amount:
        trade.side === 'buy'
          ? new Exact(trade.qty).minus(trade.fee).toFixed()
          : new Exact(trade.qty).neg().toFixed(),
    }));
    const listed = async (account?: string) =>
      (
        await app.handlers['ledger.asset']({
          asset: 'eth',
          ...(account !== undefined ? { account } : {}),
        })
      ).entries.map(({ kind, id, amount }) => ({ kind, id, amount }));
    const withTransfer = (amount: string) => {
      const transferEntry = { kind: 'transfer', id: String(transfer!.txnId), amount };
      const after = byTime.filter((trade) => trade.time > transfer!.time).length;
      return [...tradeChanges.slice(0, after), transferEntry, ...tradeChanges.slice(after)];
    };
    expect(await listed()).toEqual(withTransfer('0'));
    expect(await listed('main')).toEqual(withTransfer(`-${MOVED}`));
    expect(await listed(SUB)).toEqual([
      { kind: 'transfer', id: String(transfer!.txnId), amount: MOVED },
    ]);

    // Net worth: each account's balances at the last prices, for the scope asked.
    for (const quote of ['usdt', 'btc'] as const) {
      await app.handlers['settings.update']({ quoteAsset: quote });
      const worthOf = (held: Map<string, Exact>) =>
        [...held].reduce(
          (sum, [asset, qty]) => sum.plus(qty.times(prices[quote](asset))),
          new Exact(0),
        );
      const every = await app.handlers['ledger.netWorth']({});
      const main = await app.handlers['ledger.netWorth']({ account: 'main' });
      expect(every.total, quote).toBe(worthOf(mainHeld).plus(worthOf(subHeld)).toFixed());
      expect(main.total, quote).toBe(worthOf(mainHeld).toFixed());
      expect(main.accounts.map((account) => account.account)).toEqual(['main']);
      expect(every.accounts.map((account) => account.account)).toEqual(['main', SUB]);
      expect(main.covers).toBe('Main account only, not the 1 sub-account');
    }
    await trader.close();
  });
});
