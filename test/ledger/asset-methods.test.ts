/**
 * The asset page's own cost method: an ETH history of buys at different prices and two sells,
 * read through the app's `ledger.asset` handler with each method (FIFO, LIFO, HIFO, average
 * cost) in USDT and in BTC, equals the same method computed here from the sandbox's own trade
 * records and last prices, exactly: realized and unrealized P&L, cost basis and average cost.
 * Without a method the page takes the Settings one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import type { OwnTrade } from '../../electron/exchange';
import { COST_METHODS } from '../../shared/ledger';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from '../live/helpers';
import { btcPriceWith, takeTrade, traderAndCounterparty } from '../sync/own-trades';
import { Exact, MethodPosition, quotient, type MethodName } from './independent';

const PARENT = 'asset-methods@example.test';

/** Buys at four prices, sells between them: each method takes different lots. */
const HISTORY = [
  { side: 'buy', qty: '0.5', price: '3000' },
  { side: 'buy', qty: '0.3', price: '3400' },
  { side: 'buy', qty: '0.4', price: '2800' },
  { side: 'sell', qty: '0.6', price: '3200' },
  { side: 'buy', qty: '0.2', price: '3600' },
  { side: 'sell', qty: '0.5', price: '3100' },
  { side: 'buy', qty: '0.25', price: '2950' },
] as const;

let sandbox: Sandbox | undefined;
let live: LiveApp | undefined;
afterEach(async () => {
  await live?.close();
  await sandbox?.close();
  live = undefined;
  sandbox = undefined;
});

/**
 * ETH's figures under `method`, reported in `quote` at prices `price` (every trade is within the
 * ledger's present, so today's prices value it): a buy's lot is the ETH received after its fee
 * (charged in ETH), costing the USDT it gave; a sell's proceeds are the USDT it gave less its fee.
 */
function expectedEth(
  trades: readonly OwnTrade[],
  method: MethodName,
  price: (asset: string) => Exact,
) {
  const eth = new MethodPosition(method);
  let realized = new Exact(0);
  for (const trade of [...trades].sort((a, b) => a.time - b.time || a.id - b.id)) {
    const qty = new Exact(trade.qty);
    const value = new Exact(trade.quoteQty).times(price('usdt'));
    const fee = new Exact(trade.fee);
    if (trade.side === 'buy') {
      expect(trade.feeCurrency).toBe('eth');
      eth.add(qty.minus(fee), value, trade.time);
    } else {
      expect(trade.feeCurrency).toBe('usdt');
      const proceeds = value.minus(fee.times(price('usdt')));
      realized = realized.plus(proceeds.minus(eth.take(qty)));
    }
  }
  const quantity = eth.quantity;
  const costBasis = eth.cost;
  return {
    quantity: quantity.toFixed(),
    costBasis: costBasis.toFixed(),
    averageCost: costBasis.div(quantity).toDecimalPlaces(18, Exact.ROUND_HALF_EVEN).toFixed(),
    realizedPnl: realized.toFixed(),
    unrealizedPnl: quantity.times(price('eth')).minus(costBasis).toFixed(),
  };
}

describe('the asset page’s cost method', () => {
  it('gives each method’s figures as computed from the sandbox’s records, in USDT and BTC', async () => {
    sandbox = await startSandbox({ world: 'empty', rateLimits: false, seed: 31 });
    const s = sandbox;
    const { trader, counterparty } = traderAndCounterparty(s, PARENT, '50000');
    await btcPriceWith(s, counterparty, '61234.5');
    for (const step of HISTORY) {
      await takeTrade(trader, counterparty, { symbol: 'ethusdt', ...step });
    }
    const trades = await trader.trading.myTrades({ symbol: 'ethusdt', limit: 1000 });
    expect(trades.length).toBe(HISTORY.length);
    const last = async (symbol: string) =>
      new Exact((await trader.market.ticker({ symbol })).lastPrice);
    const btc = await last('btcusdt');
    const ethLast = await last('ethusdt');
    expect(ethLast.toFixed()).toBe('2950');
    await counterparty.close();

    live = await startLiveApp(s, s.admin.createApiKey(PARENT));
    const { app } = live;
    await eventually('the trades imported', async () => {
      const summary = await app.handlers['ledger.summary']({});
      return summary.import.storedTrades === trades.length ? true : undefined;
    });

    const prices = {
      usdt: (asset: string) => (asset === 'eth' ? ethLast : new Exact(1)),
      // ETH in BTC: its USDT price over BTC's, one division; USDT in BTC: 1 over BTC's.
      btc: (asset: string) =>
        asset === 'eth' ? quotient(ethLast, btc) : quotient(new Exact(1), btc),
    };
    const seen = new Set<string>();
    for (const quote of ['usdt', 'btc'] as const) {
      await app.handlers['settings.update']({ quoteAsset: quote });
      for (const method of COST_METHODS) {
        const page = await app.handlers['ledger.asset']({ asset: 'eth', method });
        expect(page.method).toBe(method);
        expect(page.currency).toBe(quote);
        const { quantity, costBasis, averageCost, realizedPnl, unrealizedPnl } = page.figures;
        expect(
          { quantity, costBasis, averageCost, realizedPnl, unrealizedPnl },
          `${method} in ${quote}`,
        ).toEqual(expectedEth(trades, method, prices[quote]));
        seen.add(`${realizedPnl}`);
      }
      // Without one the page takes the method of Settings.
      await app.handlers['ledger.setMethod']({ method: 'hifo' });
      expect((await app.handlers['ledger.asset']({ asset: 'eth' })).method).toBe('hifo');
      await app.handlers['ledger.setMethod']({ method: 'fifo' });
    }
    // The history tells the methods apart: not every realized figure is the same.
    expect(seen.size).toBeGreaterThan(4);
  });
});
