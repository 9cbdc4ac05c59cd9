/**
 * A build's trades held as columns: each trade reads back exactly what was put in (the
 * exchange's texts with every place, its amounts as the Decimals those texts are), whatever the
 * size of an amount, and a text that is not a decimal is refused naming the trade and the field.
 * A page of rows written as one text (as the store hands it over) is taken as its rows one by one
 * would be, or not at all when the text is not those rows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTradeAmounts, type TradeEntry } from '../../electron/ledger/entries';
import { TradeRows, TradeTable, type TradeRowInput } from '../../electron/ledger/trade-table';
import type { LedgerTradeColumns } from '../../electron/store';
import { TRADE_FIELD, TRADE_RECORD } from '../../electron/store/trade-range';
import { entryFacts } from './fixtures';
import { Decimal } from '../../shared/exact-decimal';

/** Plain decimal text as the exchange writes it: no sign, whole digits, places kept (zeros too). */
const amountText = fc
  .tuple(
    fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String)),
    fc.option(fc.stringMatching(/^[0-9]{1,24}$/), { nil: undefined }),
  )
  .map(([whole, places]) => (places === undefined ? whole : `${whole}.${places}`));

const rowArb: fc.Arbitrary<TradeRowInput> = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  account: fc.constantFrom('main', 'sub1@example.com'),
  symbol: fc.constantFrom('btcusdt', 'ethbtc'),
  base: fc.constantFrom('btc', 'eth'),
  quote: fc.constantFrom('usdt', 'btc'),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  qty: amountText,
  quoteQty: amountText,
  commission: amountText,
  commissionAsset: fc.constantFrom('bnb', 'usdt', 'btc'),
  price: amountText,
  time: fc.integer({ min: 0, max: 4_102_444_800_000 }),
});

const FIELDS = [
  'id',
  'account',
  'symbol',
  'base',
  'quote',
  'side',
  'qty',
  'quoteQty',
  'commission',
  'commissionAsset',
  'price',
  'time',
] as const;

describe('a table of trades', () => {
  it('reads every trade back as it was put in, its amounts the Decimals of its texts, and names its assets', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 40 }), (rows) => {
        // A small first capacity: the table grows while it is filled.
        const table = new TradeTable(1);
        const trades = rows.map((row) => table.add(row));
        rows.forEach((row, index) => {
          const trade: TradeEntry = trades[index]!;
          expect(trade.kind).toBe('trade');
          for (const field of FIELDS) {
            expect(trade[field]).toBe(field === 'id' ? String(row.id) : row[field]);
          }
          const read = trade.amounts!;
          const fromText = readTradeAmounts({ ...row, id: String(row.id) });
          for (const field of ['qty', 'quoteQty', 'commission'] as const) {
            expect(read[field].eq(fromText[field])).toBe(true);
            expect(read[field].toString()).toBe(new Decimal(row[field]).toString());
          }
        });
        expect(table.count).toBe(rows.length);
        const assets = new Set<string>();
        table.addAssetsTo(assets);
        expect(assets).toEqual(
          new Set(rows.flatMap((row) => [row.base, row.quote, row.commissionAsset])),
        );
      }),
    );
  });

  it('refuses an amount that is not decimal text, naming the trade and the field', () => {
    const table = new TradeTable();
    const row: TradeRowInput = {
      id: 7,
      account: 'main',
      symbol: 'btcusdt',
      base: 'btc',
      quote: 'usdt',
      side: 'BUY',
      qty: '0.5',
      quoteQty: '1e3',
      commission: '0',
      commissionAsset: 'btc',
      price: '2000',
      time: 1,
    };
    expect(() => table.add(row)).toThrow('trade:btcusdt:7 quoteQty must be a decimal, got "1e3"');
    expect(() => table.add({ ...row, quoteQty: '1000', price: '' })).toThrow(
      'trade:btcusdt:7 price must be a decimal, got ""',
    );
    expect(table.count).toBe(0);
  });
});

/** Symbols a reading knows the assets of; any other is left out and named. */
const PAIRS = new Map([
  ['btcusdt', { base: 'btc', quote: 'usdt' }],
  ['ethbtc', { base: 'eth', quote: 'btc' }],
]);

/** A page's rows as the store reads them, in ledger order (time, id, order id). */
const pageArb: fc.Arbitrary<LedgerTradeColumns[]> = fc
  .array(
    fc.tuple(
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.constantFrom('btcusdt', 'ethbtc', 'xyzusdt'),
      fc.constantFrom('buy', 'sell'),
      amountText,
      amountText,
      amountText,
      amountText,
      fc.constantFrom('BNB', 'USDT', 'Btc'),
      fc.integer({ min: 0, max: 4_102_444_800_000 }),
      fc.integer({ min: 1, max: 2 ** 60 }),
      fc.constantFrom(null, 'sub1@example.com'),
    ),
    { minLength: 1, maxLength: 30 },
  )
  .map((rows) =>
    (rows as LedgerTradeColumns[]).sort((a, b) => a[8] - b[8] || a[0] - b[0] || a[9] - b[9]),
  )
  .filter((rows) =>
    rows.every(
      (row, i) =>
        i === 0 ||
        String(row.slice(8, 10)) !== String(rows[i - 1]!.slice(8, 10)) ||
        row[0] !== rows[i - 1]![0],
    ),
  );

/** The rows as one text, as the store writes a page (its integers as SQLite writes them). */
function pageText(rows: readonly LedgerTradeColumns[]): string {
  return rows
    .map((row) => row.map((field) => (field === null ? '' : String(field))).join(TRADE_FIELD))
    .join(TRADE_RECORD);
}

function readRows(rows: readonly LedgerTradeColumns[]): TradeRows {
  const read = new TradeRows(PAIRS, 1);
  for (const row of rows) read.row(row);
  return read;
}

describe('a page of trades read as one text', () => {
  it('is taken as its rows one by one are: every field, the accounts, the symbols left out', () => {
    fc.assert(
      fc.property(pageArb, (rows) => {
        const byText = new TradeRows(PAIRS, 1);
        expect(byText.text(pageText(rows), rows.length)).toBe(true);
        const byRow = readRows(rows);
        expect(byText.table.trades().map(entryFacts)).toEqual(byRow.table.trades().map(entryFacts));
        expect(byText.unknown).toEqual(byRow.unknown);
      }),
    );
  });

  it('is not taken at all when the text is not its rows, so the rows are read instead', () => {
    const rows: LedgerTradeColumns[] = [
      [1, 'btcusdt', 'buy', '50000', '0.1', '5000', '0.0001', 'BTC', 1000, 11, null],
      [2, 'btcusdt', 'sell', '51000', '0.05', '2550', '2.55', 'USDT', 2000, 12, null],
      [3, 'xyzusdt', 'sell', '1', '1', '1', '0', 'USDT', 3000, 13, 'sub1@example.com'],
    ];
    const read = new TradeRows(PAIRS, 1);
    read.text(pageText(rows.slice(0, 1)), 1);
    const refused = (text: string, count = rows.length) => {
      expect(read.text(text, count)).toBe(false);
      // Nothing of the page was taken: the one trade before it, no symbol named.
      expect(read.table.count).toBe(1);
      expect(read.unknown.size).toBe(0);
    };
    const later = rows.slice(1);
    const withField = (index: number, value: string) =>
      pageText(
        later.map((row, i) => (i === 0 ? (row.with(index, value) as LedgerTradeColumns) : row)),
      );
    // A separator inside a text field (a symbol, a fee asset, an account).
    refused(withField(1, `btc${TRADE_FIELD}usdt`), 2);
    refused(withField(7, `US${TRADE_FIELD}DT`), 2);
    refused(withField(10, `sub${TRADE_FIELD}1`), 2);
    refused(withField(10, `sub${TRADE_RECORD}1`), 2);
    refused(
      pageText([later[0]!, later[1]!.with(10, `sub${TRADE_RECORD}`) as LedgerTradeColumns]),
      2,
    );
    // Fewer or more rows than the page holds, rows out of ledger order, a row cut short.
    refused(pageText(later), 3);
    refused(pageText([later[1]!, later[0]!]), 2);
    const sameTime = (id: number, orderId: number) =>
      later[0]!.with(0, id).with(9, orderId) as LedgerTradeColumns;
    refused(pageText([sameTime(5, 12), sameTime(4, 12)]), 2);
    refused(pageText([sameTime(5, 12), sameTime(5, 11)]), 2);
    refused(pageText([sameTime(5, 12), sameTime(5, 12)]), 2);
    refused(pageText(later).slice(0, -20), 2);
    // An amount that is not plain decimal text, or an integer that is not one.
    refused(withField(4, '1e3'), 2);
    refused(withField(8, '2000.5'), 2);
    // The same page, as its text should be, is taken whole.
    expect(read.text(pageText(later), 2)).toBe(true);
    expect(read.table.count).toBe(2);
    expect([...read.unknown]).toEqual(['xyzusdt']);
    expect(read.table.trade(1).account).toBe('main');
  });
});
