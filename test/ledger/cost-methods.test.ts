/**
 * The four cost methods on one small history, every figure computed by hand in the comments:
 * 10,000 USDT in; 1 ETH bought at 1,000, 1 at 3,000, 1 at 2,000 (no fees); 1.5 ETH sold at 2,500
 * (proceeds 3,750); then 0.5 ETH withdrawn. Reported in USDT.
 */
import { describe, expect, it } from 'vitest';
import {
  buildLedger,
  ledgerFigures,
  taxReport,
  taxReportCsv,
  type CostMethod,
  type LedgerEntry,
  type PriceAt,
} from '../../electron/ledger';
import { T, text, trade } from './fixtures';

const noPrices: PriceAt = () => null;
const ETH_NOW: PriceAt = (asset) => (asset === 'ETH' ? '2400' : null);

const buy = (id: string, price: string, day: number) =>
  trade({
    id,
    symbol: 'ETHUSDT',
    side: 'BUY',
    qty: '1',
    price,
    quoteQty: price,
    commissionAsset: 'ETH',
    time: T(day),
  });

const CASH: LedgerEntry = {
  kind: 'inferred',
  id: 'cash',
  account: 'main',
  asset: 'USDT',
  amount: '10000',
  from: T(0),
  to: T(1),
  time: T(1),
};

const SALE = trade({
  id: 's',
  symbol: 'ETHUSDT',
  side: 'SELL',
  qty: '1.5',
  price: '2500',
  quoteQty: '3750',
  commissionAsset: 'USDT',
  time: T(5),
});

const ENTRIES: LedgerEntry[] = [
  CASH,
  buy('1', '1000', 2),
  buy('2', '3000', 3),
  buy('3', '2000', 4),
  SALE,
];

const build = (method: CostMethod, entries = ENTRIES) =>
  buildLedger(entries, { method, reportingAsset: 'USDT', priceAt: noPrices });

const pieces = (method: CostMethod) =>
  build(method).disposals.map((d) => [text(d.quantity), text(d.cost), text(d.gain), d.acquiredAt]);

const held = (method: CostMethod, entries = ENTRIES) =>
  build(method, entries)
    .lots({ asset: 'ETH' })
    .map((lot) => [text(lot.quantity), text(lot.cost), lot.acquiredAt]);

describe('cost methods on one sale', () => {
  it('FIFO: the oldest first, 1 at 1,000 and half of the 3,000 lot: cost 2,500, gain 1,250', () => {
    // Proceeds shared by quantity: 2,500 for the first unit, 1,250 for the half.
    expect(pieces('fifo')).toEqual([
      ['1', '1000', '1500', T(2)],
      ['0.5', '1500', '-250', T(3)],
    ]);
    expect(held('fifo')).toEqual([
      ['0.5', '1500', T(3)],
      ['1', '2000', T(4)],
    ]);
  });

  it('LIFO: the newest first, 1 at 2,000 and half of the 3,000 lot: cost 3,500, gain 250', () => {
    expect(pieces('lifo')).toEqual([
      ['1', '2000', '500', T(4)],
      ['0.5', '1500', '-250', T(3)],
    ]);
    expect(held('lifo')).toEqual([
      ['1', '1000', T(2)],
      ['0.5', '1500', T(3)],
    ]);
  });

  it('HIFO: the highest cost first, 1 at 3,000 and half of the 2,000 lot: cost 4,000, loss 250', () => {
    expect(pieces('hifo')).toEqual([
      ['1', '3000', '-500', T(3)],
      ['0.5', '1000', '250', T(4)],
    ]);
    expect(held('hifo')).toEqual([
      ['1', '1000', T(2)],
      ['0.5', '1000', T(4)],
    ]);
  });

  it('average: 6,000 for 3 is 2,000 a unit, 1.5 cost 3,000, gain 750 (dates from the oldest lots)', () => {
    expect(pieces('average')).toEqual([
      ['1', '2000', '500', T(2)],
      ['0.5', '1000', '250', T(3)],
    ]);
    expect(held('average')).toEqual([
      ['0.5', '1000', T(3)],
      ['1', '2000', T(4)],
    ]);
  });

  it('gives each method its own totals; realized − basis held is −2,250 (3,750 − 6,000) under each', () => {
    // ETH at 2,400 now. FIFO holds 1.5 at 3,500 (value 3,600, unrealized 100); LIFO 1.5 at
    // 2,500 (1,100); HIFO 1.5 at 2,000 (1,600); average 1.5 at 3,000 (600). Realized + unrealized
    // is 1,350 under every method: the value now (3,600 + 7,750 USDT) less the 10,000 that came in.
    const expected: Record<CostMethod, [string, string, string]> = {
      fifo: ['1250', '3500', '100'],
      lifo: ['250', '2500', '1100'],
      hifo: ['-250', '2000', '1600'],
      average: ['750', '3000', '600'],
    };
    for (const [method, [realized, basis, unrealized]] of Object.entries(expected) as [
      CostMethod,
      [string, string, string],
    ][]) {
      const ledger = buildLedger(ENTRIES, { method, reportingAsset: 'USDT', priceAt: ETH_NOW });
      const eth = ledgerFigures(ledger, { at: T(6), priceAt: ETH_NOW }).assets.find(
        (row) => row.asset === 'ETH',
      )!;
      expect([text(eth.realizedPnl), text(eth.costBasis), text(eth.unrealizedPnl)], method).toEqual(
        [realized, basis, unrealized],
      );
      expect(text(eth.realizedPnl.minus(eth.costBasis)), method).toBe('-2250');
      expect(text(eth.realizedPnl.plus(eth.unrealizedPnl)), method).toBe('1350');
    }
  });

  it('takes a withdrawal in the method’s order too', () => {
    const withdrawn: LedgerEntry[] = [
      ...ENTRIES,
      {
        kind: 'withdrawal',
        id: 'w',
        account: 'main',
        asset: 'ETH',
        amount: '0.5',
        fee: '0',
        status: 'success',
        time: T(6),
      },
    ];
    // FIFO takes the half left of the 3,000 lot (the oldest open); LIFO the same half (the newest
    // open); HIFO the half left of the 2,000 lot (2,000 a unit, above the 1,000 lot).
    expect(held('fifo', withdrawn)).toEqual([['1', '2000', T(4)]]);
    expect(held('lifo', withdrawn)).toEqual([['1', '1000', T(2)]]);
    expect(held('hifo', withdrawn)).toEqual([['1', '1000', T(2)]]);
  });

  it('under HIFO, takes the older of two lots of the same cost per unit first', () => {
    // 1 ETH at 2,000 on day 2, 2 ETH for 4,000 on day 3 (2,000 a unit too): selling 1.5 takes the
    // day-2 lot whole and half of the day-3 one.
    const entries: LedgerEntry[] = [
      CASH,
      buy('1', '2000', 2),
      trade({
        id: '2',
        symbol: 'ETHUSDT',
        side: 'BUY',
        qty: '2',
        price: '2000',
        quoteQty: '4000',
        commissionAsset: 'ETH',
        time: T(3),
      }),
      { ...SALE, time: T(4) },
    ];
    expect(
      build('hifo', entries).disposals.map((d) => [text(d.quantity), text(d.cost), d.acquiredAt]),
    ).toEqual([
      ['1', '2000', T(2)],
      ['0.5', '1000', T(3)],
    ]);
  });

  it('names the method in the tax report', () => {
    for (const [method, name] of [
      ['lifo', 'LIFO'],
      ['hifo', 'HIFO'],
    ] as const) {
      const csv = taxReportCsv(
        taxReport(build(method), { from: T(0), to: T(10), longTermAfterDays: 365 }),
      );
      const rows = csv.trim().split(/\r?\n/).slice(1);
      expect(rows.length, method).toBe(2);
      for (const row of rows) expect(row.split(',')[9], method).toBe(name);
    }
  });
});
