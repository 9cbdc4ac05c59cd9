/**
 * A build's trades held as columns: each trade reads back exactly what was put in (the
 * exchange's texts with every place, its amounts as the Decimals those texts are), whatever the
 * size of an amount, and a text that is not a decimal is refused naming the trade and the field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTradeAmounts, type TradeEntry } from '../../electron/ledger/entries';
import { TradeTable, type TradeRowInput } from '../../electron/ledger/trade-table';
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
