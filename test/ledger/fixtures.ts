/**
 * The worked example's history (reported in USDT), every figure computed by hand in the comments:
 * partial fills, fees in the received asset, a fee in a third asset, a cross-quote trade, a
 * sub-account transfer, a withdrawal and inferred credits.
 */
import { formatDecimal } from '../../electron/core/decimal';
import {
  type Amount,
  type BalanceSnapshot,
  type LedgerEntry,
  type PriceAt,
  type TradeEntry,
} from '../../electron/ledger';

export const T = (n: number): number => Date.UTC(2024, 0, 1) + n * 86_400_000;

const PRICES: Record<string, Record<number, string>> = {
  BNB: { [T(2)]: '300', [T(4)]: '320', [T(9)]: '310' },
  BTC: { [T(5)]: '100000', [T(9)]: '120000' },
  ETH: { [T(7)]: '3000', [T(9)]: '3000' },
};

/** Prices in USDT at the example's times; any other quote is a mistake of the test. */
export const priceAt: PriceAt = (asset, quote, time) => {
  if (quote !== 'USDT') throw new Error(`The example reports in USDT, asked for ${quote}`);
  return PRICES[asset]?.[time] ?? null;
};

export const trade = (
  fields: Partial<TradeEntry> &
    Pick<TradeEntry, 'id' | 'symbol' | 'side' | 'qty' | 'price' | 'quoteQty' | 'time'>,
): TradeEntry => {
  const quote = fields.symbol.endsWith('USDT') ? 'USDT' : 'BTC';
  return {
    kind: 'trade',
    account: 'main',
    base: fields.symbol.slice(0, fields.symbol.length - quote.length),
    quote,
    commission: '0',
    commissionAsset: 'BNB',
    ...fields,
  };
};

export const SUB = 'sub1@example.com';

export const ENTRIES: LedgerEntry[] = [
  // 10,000 USDT and 10 BNB came in; no deposit history, so they are inferred credits. BNB has no
  // user basis: valued at 300 at the time, 3,000 (estimated).
  {
    kind: 'inferred',
    id: 'usdt',
    account: 'main',
    asset: 'USDT',
    amount: '10000',
    from: T(0),
    to: T(1),
    time: T(1),
  },
  {
    kind: 'inferred',
    id: 'bnb',
    account: 'main',
    asset: 'BNB',
    amount: '10',
    from: T(1),
    to: T(2),
    time: T(2),
  },
  // One order filled in two parts, fee in ETH (the received asset): 0.3996 ETH for 800 and
  // 0.5994 ETH for 1,200. Fees valued at the trade's price: 0.8 and 1.2.
  trade({
    id: '1',
    symbol: 'ETHUSDT',
    side: 'BUY',
    qty: '0.4',
    price: '2000',
    quoteQty: '800',
    commission: '0.0004',
    commissionAsset: 'ETH',
    time: T(3),
  }),
  trade({
    id: '2',
    symbol: 'ETHUSDT',
    side: 'BUY',
    qty: '0.6',
    price: '2000',
    quoteQty: '1200',
    commission: '0.0006',
    commissionAsset: 'ETH',
    time: T(3),
  }),
  // Fee in BNB (a third asset) at 320: a disposal of 0.5 BNB for 160 (basis 0.5 × 300 = 150,
  // gain 10), and the buy's cost is 2,500 + 160 = 2,660.
  trade({
    id: '3',
    symbol: 'ETHUSDT',
    side: 'BUY',
    qty: '1',
    price: '2500',
    quoteQty: '2500',
    commission: '0.5',
    commissionAsset: 'BNB',
    time: T(4),
  }),
  // ETH sold for BTC (not the reporting asset) with BTC at 100,000: 0.034965 BTC is worth
  // 3,496.5. FIFO: 0.3996 ETH (4/7 of it) cost 800, proceeds 1,998, gain 1,198; 0.2997 ETH (half
  // of the second lot) cost 600, proceeds 1,498.5, gain 898.5. BTC lot 0.034965 at 3,496.5.
  trade({
    id: '4',
    symbol: 'ETHBTC',
    side: 'SELL',
    qty: '0.6993',
    price: '0.05',
    quoteQty: '0.034965',
    time: T(5),
  }),
  // 0.01 BTC (at 100,000 a unit: 1,000 of basis) moves to the sub-account with its date.
  {
    kind: 'transfer',
    id: 't1',
    fromAccount: 'main',
    toAccount: SUB,
    asset: 'BTC',
    amount: '0.01',
    time: T(6),
  },
  // A withdrawal of 0.1998 ETH (basis 400) plus a fee of 0.0999 ETH (basis 200, worth 299.7 at 3,000).
  {
    kind: 'withdrawal',
    id: 'w1',
    account: 'main',
    asset: 'ETH',
    amount: '0.1998',
    fee: '0.0999',
    status: 'success',
    time: T(7),
  },
  // A failed withdrawal moves nothing.
  {
    kind: 'withdrawal',
    id: 'w2',
    account: 'main',
    asset: 'ETH',
    amount: '0.5',
    fee: '0.001',
    status: 'failed',
    time: T(7),
  },
  // The sub-account sells its BTC at 110,000 with the fee in USDT (received): proceeds
  // 1,100 − 1.1 = 1,098.9, basis 1,000, gain 98.9.
  {
    ...trade({
      id: '5',
      symbol: 'BTCUSDT',
      side: 'SELL',
      qty: '0.01',
      price: '110000',
      quoteQty: '1100',
      commission: '1.1',
      commissionAsset: 'USDT',
      time: T(8),
    }),
    account: SUB,
  },
];

export function text(value: Amount | null): string | null {
  return value === null ? null : formatDecimal(value);
}

/** The reconciliation's worked example (test/ledger/reconcile.test.ts works it out). */
export const RECONCILED_KNOWN: LedgerEntry[] = [
  // 400 USDT spent at t=5 before any deposit is on record.
  trade({
    id: '1',
    symbol: 'ETHUSDT',
    side: 'BUY',
    qty: '0.2',
    price: '2000',
    quoteQty: '400',
    commission: '0.0002',
    commissionAsset: 'ETH',
    time: 5,
  }),
  {
    kind: 'withdrawal',
    id: 'w1',
    account: 'main',
    asset: 'USDT',
    amount: '100',
    fee: '1',
    status: 'success',
    time: 15,
  },
  {
    kind: 'withdrawal',
    id: 'w2',
    account: 'main',
    asset: 'USDT',
    amount: '5000',
    fee: '1',
    status: 'cancelled',
    time: 16,
  },
  trade({
    id: '2',
    symbol: 'BNBUSDT',
    side: 'BUY',
    qty: '2',
    price: '400',
    quoteQty: '800',
    time: 27,
  }),
  trade({
    id: '3',
    symbol: 'BNBUSDT',
    side: 'SELL',
    qty: '1',
    price: '500',
    quoteQty: '500',
    time: 28,
  }),
];

export const RECONCILED_SNAPSHOTS: BalanceSnapshot[] = [
  { account: 'main', time: 10, complete: true, balances: { USDT: '1000', ETH: '0.1998' } },
  { account: 'main', time: 20, complete: true, balances: { USDT: '700', ETH: '0.1998' } },
  // A live balance event: only BNB changed; it says nothing of the others.
  { account: 'main', time: 25, complete: false, balances: { BNB: '5' } },
  { account: 'main', time: 30, complete: true, balances: { USDT: '0', ETH: '0.1998', BNB: '6' } },
];

/**
 * An entry's facts as plain values, to compare two builds' entries: each trade reads its row
 * from its own build's (or update's) table, so two builds' trades are equal only in their facts.
 */
export function entryFacts(entry: LedgerEntry): object {
  if (entry.kind !== 'trade') return entry;
  const { kind, id, account, symbol, base, quote, side, qty, price, quoteQty, time } = entry;
  const { commission, commissionAsset } = entry;
  return {
    kind,
    id,
    account,
    symbol,
    base,
    quote,
    side,
    qty,
    price,
    quoteQty,
    commission,
    commissionAsset,
    time,
  };
}
