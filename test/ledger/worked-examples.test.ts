/**
 * Worked examples, every figure computed by hand in the comments (the history is in fixtures.ts),
 * under FIFO and average cost, reported in USDT.
 */
import { formatDecimal } from '../../electron/core/decimal';
import { describe, expect, it } from 'vitest';
import {
  buildLedger,
  ledgerFigures,
  MissingPriceError,
  pnlForRange,
  type LedgerEntry,
  type PriceAt,
} from '../../electron/ledger';
import { ENTRIES, priceAt, SUB, T, text, trade } from './fixtures';

describe('FIFO worked example', () => {
  const ledger = buildLedger(ENTRIES, { method: 'fifo', reportingAsset: 'USDT', priceAt });

  it('disposes lot by lot with proceeds shared by quantity', () => {
    const rows = ledger.disposals.map((d) => [
      d.asset,
      text(d.quantity),
      text(d.proceeds),
      text(d.cost),
      text(d.gain),
      d.basis,
    ]);
    expect(rows).toEqual([
      ['BNB', '0.5', '160', '150', '10', 'estimated'],
      ['ETH', '0.3996', '1998', '800', '1198', 'recorded'],
      ['ETH', '0.2997', '1498.5', '600', '898.5', 'recorded'],
      ['BTC', '0.01', '1098.9', '1000', '98.9', 'recorded'],
    ]);
    // The sub-account's BTC kept the date it was bought (by the ETH sale), not the transfer's.
    expect(ledger.disposals[3]!.acquiredAt).toBe(T(5));
    expect(ledger.shortfalls).toEqual([]);
  });

  it('keeps the open lots with their basis', () => {
    const lots = ledger
      .lots()
      .map((lot) => [lot.account, lot.asset, text(lot.quantity), text(lot.cost), lot.acquiredAt]);
    expect(lots).toEqual([
      ['main', 'BNB', '9.5', '2850', T(2)],
      ['main', 'ETH', '1', '2660', T(4)],
      ['main', 'BTC', '0.024965', '2496.5', T(5)],
    ]);
  });

  it('gives per-asset and total figures at current prices', () => {
    const figures = ledgerFigures(ledger, { at: T(9), priceAt });
    const row = (asset: string) => figures.assets.find((a) => a.asset === asset)!;
    // ETH: 1 held at 2,660 (average 2,660), worth 3,000; realized 1,198 + 898.5; fees
    // 0.8 + 1.2 + 160 (the BNB fee of its buy) + 299.7 (withdrawal fee).
    expect([
      text(row('ETH').quantity),
      text(row('ETH').averageCost),
      text(row('ETH').costBasis),
    ]).toEqual(['1', '2660', '2660']);
    expect([
      text(row('ETH').realizedPnl),
      text(row('ETH').unrealizedPnl),
      text(row('ETH').feesPaid),
    ]).toEqual(['2096.5', '340', '461.7']);
    // BTC: 0.024965 at 2,496.5, worth 2,995.8 at 120,000; the sub-account's sale realized 98.9; its fee 1.1.
    expect([
      text(row('BTC').quantity),
      text(row('BTC').value),
      text(row('BTC').unrealizedPnl),
      text(row('BTC').realizedPnl),
      text(row('BTC').feesPaid),
    ]).toEqual(['0.024965', '2995.8', '499.3', '98.9', '1.1']);
    // BNB: 9.5 at 300 (estimated), worth 2,945 at 310.
    expect([
      text(row('BNB').costBasis),
      text(row('BNB').unrealizedPnl),
      text(row('BNB').realizedPnl),
      row('BNB').basisEstimated,
    ]).toEqual(['2850', '95', '10', true]);
    // USDT is cash: 10,000 − 800 − 1,200 − 2,500 = 5,500 in main, 1,098.9 in the sub-account.
    expect([
      text(row('USDT').quantity),
      text(row('USDT').costBasis),
      text(row('USDT').unrealizedPnl),
    ]).toEqual(['6598.9', '6598.9', '0']);
    const total = figures.total;
    expect(text(total.value)).toBe('15539.7');
    expect(text(total.costBasis)).toBe('14605.4');
    expect(text(total.realizedPnl)).toBe('2205.4');
    expect(text(total.unrealizedPnl)).toBe('934.3');
    expect(text(total.feesPaid)).toBe('462.8');
    // In: 10,000 + 3,000; out: the withdrawal's basis 400. The fee's basis 200 is a cost.
    expect(text(total.netFlowsAtCost)).toBe('12600');
    expect(text(total.withdrawalFeeCost)).toBe('200');
    // cost = flows + realized − withdrawal fee cost: 12,600 + 2,205.4 − 200 = 14,605.4.
    expect(
      total.costBasis.eq(
        total.netFlowsAtCost.plus(total.realizedPnl).minus(total.withdrawalFeeCost),
      ),
    ).toBe(true);
  });

  it('gives one account on its own', () => {
    const sub = ledgerFigures(ledger, { at: T(9), priceAt, account: SUB });
    expect(sub.assets.map((a) => [a.asset, text(a.quantity), text(a.realizedPnl)])).toEqual([
      ['BTC', '0', '98.9'],
      ['USDT', '1098.9', '0'],
    ]);
  });

  it('gives P&L over a range: realized within plus the change in unrealized', () => {
    // Over (T(5), T(9)]: the ETH sale at T(5) made the positions at the start, so it is not inside.
    // Positions at T(5): ETH 0.2997 at 600 and 1 at 2,660 (1.2997 at 3,260), BTC 0.034965 at
    // 3,496.5, BNB 9.5 at 2,850: the start needs their prices at T(5) (no ETH price there).
    expect(() =>
      pnlForRange(
        ENTRIES,
        { method: 'fifo', reportingAsset: 'USDT', priceAt },
        { from: T(5), to: T(9) },
      ),
    ).toThrow(MissingPriceError);
    const withEth: PriceAt = (asset, quote, time) =>
      asset === 'ETH' && time === T(5) ? '2500' : priceAt(asset, quote, time);
    const BNB_AT_T5 = '320';
    const range = pnlForRange(
      ENTRIES,
      {
        method: 'fifo',
        reportingAsset: 'USDT',
        priceAt: (a, q, t) => (a === 'BNB' && t === T(5) ? BNB_AT_T5 : withEth(a, q, t)),
      },
      { from: T(5), to: T(9) },
    );
    // Unrealized at T(5): ETH 1.2997 × 2,500 − 3,260 = −10.75; BTC 0.034965 × 100,000 − 3,496.5
    // = 0; BNB 9.5 × 320 − 2,850 = 190. Total 179.25. At T(9): 934.3, a change of 755.05.
    // Realized within: the sub-account's BTC sale, 98.9. Fees within: the withdrawal's 299.7 and
    // the sale's 1.1, 300.8. P&L = 98.9 + 755.05 = 853.95.
    expect(text(range.realizedPnl)).toBe('98.9');
    expect(text(range.feesPaid)).toBe('300.8');
    expect(text(range.unrealizedAtFrom)).toBe('179.25');
    expect(text(range.unrealizedAtTo)).toBe('934.3');
    expect(text(range.unrealizedChange)).toBe('755.05');
    expect(text(range.pnl)).toBe('853.95');
  });
});

describe('average cost worked example', () => {
  const ledger = buildLedger(ENTRIES, { method: 'average', reportingAsset: 'USDT', priceAt });

  it('costs what leaves at the average and keeps dates from the oldest lots', () => {
    // ETH: 0.999 at 2,000 then 1 at 2,660: 1.999 at 4,660. Selling 0.6993 costs
    // 4,660 × 0.6993 / 1.999, rounded to 18 places, split 4:3 between the two lots it comes from.
    const eth = ledger.disposals.filter((d) => d.asset === 'ETH');
    const cost = eth[0]!.cost.plus(eth[1]!.cost);
    expect(formatDecimal(cost)).toBe('1630.184092046023011506');
    expect(eth.map((d) => [text(d.quantity), d.acquiredAt])).toEqual([
      ['0.3996', T(3)],
      ['0.2997', T(3)],
    ]);
    // Realized on ETH: 3,496.5 − 1,630.184092046023011506.
    expect(text(eth[0]!.gain.plus(eth[1]!.gain))).toBe('1866.315907953976988494');
  });

  it('once everything is sold, differs from FIFO only by the basis that left with the withdrawal', () => {
    const sellAll: LedgerEntry[] = [
      ...ENTRIES,
      trade({
        id: '6',
        symbol: 'ETHUSDT',
        side: 'SELL',
        qty: '1',
        price: '3000',
        quoteQty: '3000',
        time: T(9),
      }),
      trade({
        id: '7',
        symbol: 'BTCUSDT',
        side: 'SELL',
        qty: '0.024965',
        price: '120000',
        quoteQty: '2995.8',
        time: T(9),
      }),
      trade({
        id: '8',
        symbol: 'BNBUSDT',
        side: 'SELL',
        qty: '9.5',
        price: '310',
        quoteQty: '2945',
        time: T(9),
      }),
    ];
    const options = { reportingAsset: 'USDT', priceAt };
    const fifo = ledgerFigures(buildLedger(sellAll, { ...options, method: 'fifo' }), {
      at: T(9),
      priceAt,
    });
    const average = ledgerFigures(buildLedger(sellAll, { ...options, method: 'average' }), {
      at: T(9),
      priceAt,
    });
    // FIFO: 2,205.4 + (3,000 − 2,660) + (2,995.8 − 2,496.5) + (2,945 − 2,850) = 3,139.7.
    expect(text(fifo.total.realizedPnl)).toBe('3139.7');
    expect(text(average.total.unrealizedPnl)).toBe('0');
    // Only cash is left (15,539.7 USDT), so under either method
    // realized + flows at cost − withdrawal fee cost is that cash: 3,139.7 + 12,600 − 200 in FIFO.
    for (const figures of [fifo, average]) {
      const { realizedPnl, netFlowsAtCost, withdrawalFeeCost, costBasis } = figures.total;
      expect(text(costBasis)).toBe('15539.7');
      expect(text(realizedPnl.plus(netFlowsAtCost).minus(withdrawalFeeCost))).toBe('15539.7');
    }
  });
});

describe('a simple average', () => {
  it('buys at 1,000 and 2,000 and sells one at 3,000: cost 1,500, gain 1,500', () => {
    const entries: LedgerEntry[] = [
      {
        kind: 'inferred',
        id: 'cash',
        account: 'main',
        asset: 'USDT',
        amount: '3000',
        from: 0,
        to: 1,
        time: 1,
      },
      trade({
        id: '1',
        symbol: 'ETHUSDT',
        side: 'BUY',
        qty: '1',
        price: '1000',
        quoteQty: '1000',
        time: 2,
      }),
      trade({
        id: '2',
        symbol: 'ETHUSDT',
        side: 'BUY',
        qty: '1',
        price: '2000',
        quoteQty: '2000',
        time: 3,
      }),
      trade({
        id: '3',
        symbol: 'ETHUSDT',
        side: 'SELL',
        qty: '1',
        price: '3000',
        quoteQty: '3000',
        time: 4,
      }),
    ];
    const noPrices: PriceAt = () => null;
    const average = buildLedger(entries, {
      method: 'average',
      reportingAsset: 'USDT',
      priceAt: noPrices,
    });
    expect(average.disposals.map((d) => [text(d.cost), text(d.gain), d.acquiredAt])).toEqual([
      ['1500', '1500', 2],
    ]);
    expect(
      average.lots().map((lot) => [text(lot.quantity), text(lot.cost), lot.acquiredAt]),
    ).toEqual([['1', '1500', 3]]);
    const fifo = buildLedger(entries, {
      method: 'fifo',
      reportingAsset: 'USDT',
      priceAt: noPrices,
    });
    expect(fifo.disposals.map((d) => [text(d.cost), text(d.gain)])).toEqual([['1000', '2000']]);
  });
});

describe('prices', () => {
  it('names the asset and the time when a price is missing', () => {
    const entries: LedgerEntry[] = [
      {
        kind: 'inferred',
        id: 'eth',
        account: 'main',
        asset: 'ETH',
        amount: '1',
        from: 0,
        to: T(1),
        time: T(1),
      },
    ];
    expect(() =>
      buildLedger(entries, { method: 'fifo', reportingAsset: 'USDT', priceAt: () => null }),
    ).toThrow('No price of ETH in USDT at 2024-01-02T00:00:00.000Z');
  });

  it('opens an inferred credit at the user basis, converted to the reporting asset', () => {
    const entries: LedgerEntry[] = [
      {
        kind: 'inferred',
        id: 'eth',
        account: 'main',
        asset: 'ETH',
        amount: '2',
        from: 0,
        to: 5,
        time: 5,
        costBasis: { amount: '1.5', currency: 'BTC' },
      },
    ];
    const ledger = buildLedger(entries, {
      method: 'fifo',
      reportingAsset: 'USDT',
      priceAt: (asset) => (asset === 'BTC' ? '40000' : null),
    });
    expect(ledger.lots().map((lot) => [text(lot.cost), lot.basis])).toEqual([['60000', 'user']]);
  });

  it('never rounds a product of long amounts', () => {
    const entries: LedgerEntry[] = [
      {
        kind: 'inferred',
        id: 'btc',
        account: 'main',
        asset: 'BTC',
        amount: '123456789.123456789',
        from: 0,
        to: 5,
        time: 5,
      },
    ];
    const ledger = buildLedger(entries, {
      method: 'fifo',
      reportingAsset: 'USDT',
      priceAt: () => '98765.43210987654321',
    });
    // 123456789.123456789 × 98765.43210987654321, exactly (decimal.js at its default 20 digits would round).
    expect(text(ledger.lots()[0]!.cost)).toBe('12193263124676.11632360920590112635269');
  });
});
