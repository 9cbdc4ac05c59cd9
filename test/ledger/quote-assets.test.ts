/**
 * The ledger in every quote asset the app offers (USDT, BTC, ETH, INR), through the app's own
 * handlers against a sandbox:
 * - a history of the main account's trades, a USDT withdrawal and transfers to a sub-account: the
 *   P&L card's figures, for every account together and for each account, equal a FIFO computed
 *   here from the sandbox's own records (trades, withdrawals, transfers, balances, tickers),
 *   exactly; a price that needs a division (USDT in BTC is 1 / the BTC price) rounded by the rule
 *   docs/architecture.md states: half-even to 40 significant digits and at most 40 places;
 * - the demo's world: every ledger method answers in each quote asset, and the value history's
 *   newest point equals the total.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { addressFor, seededSource } from '../../electron/sandbox/addresses';
import { SeededRandom } from '../../electron/sandbox/random';
import type { OwnTrade, WithdrawRecord } from '../../electron/exchange';
import type {
  AssetLedgerView,
  InferredEntryView,
  LedgerHistoryView,
  LedgerSummaryView,
  NetWorthView,
} from '../../shared/ledger';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from '../live/helpers';
import { takeTrade, tradingClient } from '../sync/own-trades';
import { Exact, quotient, share } from './independent';

const PARENT = 'parent@example.test';
const SUB = 'savings@example.test';
const COUNTERPARTY = 'counterparty@example.test';
const INR_MAKER = 'inr-maker@example.test';
const SYMBOLS = ['btcusdt', 'ethusdt'] as const;
const QUOTES = ['usdt', 'btc', 'eth', 'inr'] as const;

let sandbox: Sandbox | undefined;
let live: LiveApp | undefined;
afterEach(async () => {
  await live?.close();
  await sandbox?.close();
  live = undefined;
  sandbox = undefined;
});

interface Lot {
  qty: Exact;
  cost: Exact;
}

/**
 * FIFO in `cash` over the sandbox's records, by the rules of docs/architecture.md's ledger: the
 * reporting asset is cash (cost = quantity, no lots); a trade is worth its quote amount at the
 * quote's price (its base amount when the base is cash); a buy's fee (in what it receives) adds to
 * the cost of what it buys, a sell's fee (in the quote it receives) reduces its proceeds; a
 * withdrawal takes lots out at cost, its fee's cost apart; a transfer moves lots with their cost;
 * what the records do not explain (the opening USDT) came in at its value then.
 */
function independentFigures(input: {
  cash: string;
  price: (asset: string) => Exact;
  opening: Exact;
  trades: OwnTrade[];
  withdrawal: WithdrawRecord;
  transfers: { asset: string; amount: string }[];
}) {
  const { cash, price } = input;
  const lots = new Map<string, Map<string, Lot[]>>();
  const realized = new Map<string, Exact>();
  let fees = new Exact(0);
  const queue = (account: string, asset: string): Lot[] => {
    let assets = lots.get(account);
    if (!assets) lots.set(account, (assets = new Map()));
    let list = assets.get(asset);
    if (!list) assets.set(asset, (list = []));
    return list;
  };
  const add = (account: string, asset: string, qty: Exact, cost: Exact) => {
    const list = queue(account, asset);
    const last = list.at(-1);
    if (asset === cash && last) {
      last.qty = last.qty.plus(qty);
      last.cost = last.qty;
    } else list.push({ qty, cost: asset === cash ? qty : cost });
  };
  /** Takes `qty` FIFO, the cost it carried out. */
  const take = (account: string, asset: string, qty: Exact): Lot[] => {
    const list = queue(account, asset);
    const out: Lot[] = [];
    let left = qty;
    while (left.gt(0)) {
      const lot = list[0]!;
      const taken = Exact.min(lot.qty, left);
      const cost = asset === cash ? taken : share(lot.cost, taken, lot.qty);
      out.push({ qty: taken, cost });
      lot.qty = lot.qty.minus(taken);
      lot.cost = asset === cash ? lot.qty : lot.cost.minus(cost);
      if (lot.qty.isZero()) list.shift();
      left = left.minus(taken);
    }
    return out;
  };
  const dispose = (asset: string, qty: Exact, proceeds: Exact) => {
    const cost = take('main', asset, qty).reduce((sum, lot) => sum.plus(lot.cost), new Exact(0));
    if (asset !== cash) {
      realized.set('main', (realized.get('main') ?? new Exact(0)).plus(proceeds.minus(cost)));
    }
  };

  add('main', 'usdt', input.opening, input.opening.times(price('usdt')));
  for (const trade of [...input.trades].sort((a, b) => a.time - b.time || a.id - b.id)) {
    const base = trade.symbol.slice(0, 3);
    const qty = new Exact(trade.qty);
    const quoteQty = new Exact(trade.quoteQty);
    const fee = new Exact(trade.fee);
    const buy = trade.side === 'buy';
    expect(trade.feeCurrency).toBe(buy ? base : 'usdt');
    const value = cash === 'usdt' ? quoteQty : cash === base ? qty : quoteQty.times(price('usdt'));
    if (buy) {
      // The fee's value: in cash as it is, else its share of the trade's value.
      const feeValue = base === cash ? fee : share(value, fee, qty);
      fees = fees.plus(feeValue);
      // Cash carries no fee: when the bought asset is cash, what was sold carries it.
      const proceeds = base === cash ? value.minus(feeValue) : value;
      dispose('usdt', quoteQty, proceeds);
      add('main', base, qty.minus(fee), proceeds);
    } else {
      const feeValue =
        cash === 'usdt'
          ? fee
          : base === cash
            ? share(value, fee, quoteQty)
            : fee.times(price('usdt'));
      fees = fees.plus(feeValue);
      const proceeds = base === cash ? value : value.minus(feeValue);
      dispose(base, qty, proceeds);
      add('main', 'usdt', quoteQty.minus(fee), proceeds);
    }
  }
  for (const transfer of input.transfers) {
    for (const lot of take('main', transfer.asset, new Exact(transfer.amount))) {
      add(SUB, transfer.asset, lot.qty, lot.cost);
    }
  }
  const withdrawalFee = new Exact(input.withdrawal.transactionFee);
  take('main', input.withdrawal.coin, new Exact(input.withdrawal.amount));
  take('main', input.withdrawal.coin, withdrawalFee);
  fees = fees.plus(withdrawalFee.times(price(input.withdrawal.coin)));

  const figures = (account: string) => {
    let value = new Exact(0);
    let costBasis = new Exact(0);
    for (const [asset, list] of lots.get(account) ?? []) {
      for (const lot of list) {
        value = value.plus(lot.qty.times(price(asset)));
        costBasis = costBasis.plus(lot.cost);
      }
    }
    const gains = realized.get(account) ?? new Exact(0);
    return {
      value: value.toFixed(),
      costBasis: costBasis.toFixed(),
      realizedPnl: gains.toFixed(),
      unrealizedPnl: value.minus(costBasis).toFixed(),
      feesPaid: (account === 'main' ? fees : new Exact(0)).toFixed(),
      rangePnl: gains.plus(value).minus(costBasis).toFixed(),
    };
  };
  return { main: figures('main'), sub: figures(SUB), lots };
}

/** The main account's history: trades on two markets, transfers to a sub-account, a withdrawal. */
async function madeHistory(s: Sandbox) {
  s.admin.createAccount({ email: PARENT });
  s.admin.createAccount({ email: SUB, parentEmail: PARENT });
  s.admin.createAccount({ email: COUNTERPARTY });
  s.admin.createAccount({ email: INR_MAKER });
  const trader = tradingClient(s, s.admin.createApiKey(PARENT, { canTrade: true }));
  const counterparty = tradingClient(s, s.admin.createApiKey(COUNTERPARTY, { canTrade: true }));
  const inrMaker = tradingClient(s, s.admin.createApiKey(INR_MAKER, { canTrade: true }));
  const opening = '2000000';
  s.admin.credit(PARENT, 'usdt', opening);
  for (const asset of ['btc', 'eth', 'usdt']) s.admin.credit(COUNTERPARTY, asset, '100000');
  s.admin.credit(INR_MAKER, 'inr', '100000000');
  // A market in rupees has a price, so INR prices everything through USDT.
  await takeTrade(counterparty, inrMaker, {
    symbol: 'usdtinr',
    side: 'sell',
    qty: '100',
    price: '83.17',
  });
  const random = new SeededRandom(18);
  const held = { btcusdt: 0, ethusdt: 0 };
  for (let i = 0; i < 24; i++) {
    const symbol = SYMBOLS[random.int(0, 1)]!;
    const base = symbol === 'btcusdt' ? 61000 : 3100;
    const price = (base * (0.8 + random.next() * 0.4)).toFixed(2);
    const sell = held[symbol] > 0.5 && random.next() < 0.45;
    const qty = sell
      ? (held[symbol] * random.next() * 0.8).toFixed(4)
      : (random.int(1, 40) / 100).toFixed(2);
    if (Number(qty) <= 0) continue;
    await takeTrade(trader, counterparty, { symbol, side: sell ? 'sell' : 'buy', qty, price });
    held[symbol] += sell ? -Number(qty) : Number(qty) * 0.998;
  }
  const transfers = [
    { asset: 'btc', amount: '0.05' },
    { asset: 'usdt', amount: '25000' },
  ];
  for (const transfer of transfers) {
    await trader.subAccounts.transfer({
      currency: transfer.asset,
      amount: transfer.amount,
      fromEmail: PARENT,
      toEmail: SUB,
    });
  }
  const { id } = s.admin.requestWithdrawal(PARENT, {
    coin: 'usdt',
    network: 'TRX',
    amount: '1500',
    address: addressFor('TRX', seededSource('quote-assets')),
  });
  s.admin.settleWithdrawal(id, 'success');
  const trades: OwnTrade[] = [];
  for (const symbol of SYMBOLS)
    trades.push(...(await trader.trading.myTrades({ symbol, limit: 1000 })));
  const withdrawal = (await trader.wallet.withdraws()).find((record) => record.id === id)!;
  await Promise.all([counterparty.close(), inrMaker.close()]);
  return { trader, opening: new Exact(opening), trades, transfers, withdrawal };
}

/** The price of `asset` in `quote` from the sandbox's last prices, by the stated rule. */
async function pricesFrom(trader: ReturnType<typeof tradingClient>) {
  const last = new Map<string, Exact>();
  for (const symbol of ['btcusdt', 'ethusdt', 'usdtinr']) {
    last.set(symbol, new Exact((await trader.market.ticker({ symbol })).lastPrice));
  }
  const inUsdt = (asset: string): Exact =>
    asset === 'usdt' ? new Exact(1) : last.get(`${asset}usdt`)!;
  return (asset: string, quote: string): Exact => {
    if (asset === quote) return new Exact(1);
    // INR: through USDT, a product (usdtinr is USDT priced in rupees).
    if (quote === 'inr') return inUsdt(asset).times(last.get('usdtinr')!);
    if (quote === 'usdt') return inUsdt(asset);
    // BTC and ETH: the asset in USDT over the quote in USDT, one division.
    return asset === 'usdt'
      ? quotient(new Exact(1), inUsdt(quote))
      : quotient(inUsdt(asset), inUsdt(quote));
  };
}

describe('the ledger in every quote asset', () => {
  it('gives the P&L card the figures a FIFO of the sandbox’s records gives, for each account', async () => {
    sandbox = await startSandbox({ world: 'empty', rateLimits: false, seed: 18 });
    const history = await madeHistory(sandbox);
    const priceOf = await pricesFrom(history.trader);
    live = await startLiveApp(sandbox, sandbox.admin.createApiKey(PARENT));
    const { app } = live;
    // Every record read: the trades, both transfers, the withdrawal and the sub-account's balances.
    await eventually('the history imported', async () => {
      const summary = await app.handlers['ledger.summary']({});
      if (summary.import.storedTrades !== history.trades.length) return undefined;
      const usdt = await app.handlers['ledger.asset']({ asset: 'usdt' });
      const kinds = usdt.entries.map((entry) => entry.kind);
      const worth = await app.handlers['ledger.netWorth']({});
      return kinds.includes('withdrawal') &&
        kinds.filter((kind) => kind === 'transfer').length === 1 &&
        worth.accounts.some((account) => account.account === SUB)
        ? true
        : undefined;
    });
    expect(history.trades.length).toBeGreaterThan(15);
    expect(history.trades.some((trade) => trade.side === 'sell')).toBe(true);

    for (const quote of QUOTES) {
      await app.handlers['settings.update']({ quoteAsset: quote });
      const expected = independentFigures({
        cash: quote,
        price: (asset) => priceOf(asset, quote),
        opening: history.opening,
        trades: history.trades,
        withdrawal: history.withdrawal,
        transfers: history.transfers,
      });
      for (const [account, figures] of [
        ['main', expected.main],
        [SUB, expected.sub],
      ] as const) {
        const card = (await app.handlers['ledger.summary']({
          account,
          range: 'year',
        })) as LedgerSummaryView;
        expect(card.currency, `${quote} ${account}`).toBe(quote);
        expect(card.unpriced).toEqual([]);
        expect(
          {
            value: card.totals.value,
            costBasis: card.totals.costBasis,
            realizedPnl: card.totals.realizedPnl,
            unrealizedPnl: card.totals.unrealizedPnl,
            feesPaid: card.totals.feesPaid,
            rangePnl: card.range?.pnl,
          },
          `${quote} ${account}`,
        ).toEqual(figures);
      }
      // Every account together.
      const all = await app.handlers['ledger.summary']({});
      const sum = (field: 'value' | 'costBasis' | 'realizedPnl' | 'unrealizedPnl') =>
        new Exact(expected.main[field]).plus(expected.sub[field]).toFixed();
      expect(all.totals.value, quote).toBe(sum('value'));
      expect(all.totals.costBasis, quote).toBe(sum('costBasis'));
      expect(all.totals.realizedPnl, quote).toBe(sum('realizedPnl'));
      expect(all.totals.unrealizedPnl, quote).toBe(sum('unrealizedPnl'));
      const worth = await app.handlers['ledger.netWorth']({});
      expect(worth.total, quote).toBe(sum('value'));
      const values = await app.handlers['ledger.history']({ range: 'year' });
      expect(values.points.at(-1)?.value, quote).toBe(expected.main.value);
    }
  });

  it('answers every ledger method in each quote asset in the demo’s world', async () => {
    sandbox = await startSandbox({ world: 'demo', rateLimits: false, seed: 20 });
    const parent = sandbox.world.accounts.find((account) => account.role === 'parent')!;
    live = await startLiveApp(
      sandbox,
      parent.keys.find((key) => !key.canTrade)!,
    );
    const { app } = live;
    await eventually('own trades imported', async () => {
      const summary = await app.handlers['ledger.summary']({});
      return summary.import.complete && summary.import.storedTrades > 0 ? true : undefined;
    });
    const year = new Date().getUTCFullYear();
    for (const quote of QUOTES) {
      await app.handlers['settings.update']({ quoteAsset: quote });
      const summary: LedgerSummaryView = await app.handlers['ledger.summary']({ range: 'month' });
      expect(summary.currency).toBe(quote);
      const main: LedgerSummaryView = await app.handlers['ledger.summary']({ account: 'main' });
      const worth: NetWorthView = await app.handlers['ledger.netWorth']({});
      expect(worth.total, quote).toBe(summary.totals.value);
      expect(
        worth.accounts
          .reduce((total, account) => total.plus(account.value), new Exact(0))
          .toFixed(),
        quote,
      ).toBe(worth.total);
      for (const range of ['day', 'week', 'month', 'year'] as const) {
        const history: LedgerHistoryView = await app.handlers['ledger.history']({ range });
        expect(history.points.at(-1)?.value, `${quote} ${range}`).toBe(main.totals.value);
      }
      for (const asset of ['usdt', 'btc', 'eth', 'inr']) {
        const page: AssetLedgerView = await app.handlers['ledger.asset']({ asset });
        expect(page.asset).toBe(asset);
      }
      const inferred: InferredEntryView[] = await app.handlers['ledger.inferred']({});
      expect(inferred.length).toBe(summary.inferred.count);
      const tax = await app.handlers['ledger.taxReport']({ year, longTermAfterDays: 365 });
      expect(tax.summary?.currency).toBe(quote);
      expect((await app.handlers['ledger.koinlyExport']({})).rows).toBeGreaterThan(0);
    }
    const credit = (await app.handlers['ledger.inferred']({})).find(
      (entry) => entry.inferred.credit,
    )!;
    const labelled = await app.handlers['ledger.annotate']({ id: credit.id, label: 'Opening' });
    expect(labelled.inferred.label).toBe('Opening');
    expect(await app.handlers['ledger.setMethod']({ method: 'average' })).toMatchObject({
      method: 'average',
      currency: 'inr',
    });
    expect((await app.handlers['ledger.summary']({})).method).toBe('average');
  });
});
