/**
 * A profile's own trades read a page at a time, each page as one text (store/trade-range.ts):
 * every trade of both tables exactly once, in ledger order, up to the cursor asked for, across
 * pages that end among trades of one time; a page whose text its taker cannot read (a separator
 * inside a text field) is handed over as rows instead. Real SQLite files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerTradeColumns, TradeCursor } from '../../electron/store/ledger';
import {
  TRADE_FIELD,
  TRADE_PAGE,
  TRADE_RECORD,
  TradeRangeReader,
  type TradePageTaker,
} from '../../electron/store/trade-range';
import type { OwnTradeInput } from '../../electron/store/types';
import { freshStore, removeTempDirs } from './helpers';

const P = 'p1';
const SUB = 'sub1@example.com';
const START = Date.UTC(2025, 0, 1);

afterEach(() => removeTempDirs());

/** `count` trades from `firstId`, three at each second (a page's end falls among one time's). */
function trades(count: number, firstId: number, symbolOf = (_i: number) => 'btcusdt') {
  return Array.from({ length: count }, (_, i): OwnTradeInput => ({
    id: firstId + i,
    symbol: symbolOf(i),
    orderId: firstId + Math.floor(i / 2),
    side: i % 3 === 2 ? 'sell' : 'buy',
    price: '50000.10',
    qty: i % 7 === 0 ? '0.00000000' : `0.${String(i).padStart(8, '0')}`,
    quoteQty: '123456789012345678.123456789',
    fee: '0.001',
    feeCurrency: 'BNB',
    isBuyerMaker: i % 2 === 0,
    time: START + Math.floor(i / 3) * 1000,
  }));
}

/**
 * What a reading hands over, as rows: a page's text split at its separators (refused when a row
 * does not come out as eleven fields), or the rows themselves. `refuse` refuses every text.
 */
function collector(refuse = false) {
  const rows: LedgerTradeColumns[] = [];
  const pages = { text: 0, rows: 0 };
  const take: TradePageTaker = {
    text(text, count) {
      const split = text.split(TRADE_RECORD).map((row) => row.split(TRADE_FIELD));
      if (refuse || split.length !== count || split.some((row) => row.length !== 11)) {
        // The store hands the page's rows over next.
        pages.rows++;
        return false;
      }
      pages.text++;
      for (const [
        id,
        symbol,
        side,
        price,
        qty,
        quoteQty,
        fee,
        feeAsset,
        time,
        order,
        account,
      ] of split) {
        rows.push([
          Number(id),
          symbol!,
          side!,
          price!,
          qty!,
          quoteQty!,
          fee!,
          feeAsset!,
          Number(time),
          Number(order),
          account === '' ? null : account!,
        ]);
      }
      return true;
    },
    row(row) {
      rows.push(row);
    },
  };
  return { rows, pages, take };
}

/** The same trades by the store's other reading of them (one query, rows as objects). */
function expected(store: ReturnType<typeof freshStore>, to: TradeCursor): LedgerTradeColumns[] {
  return store.ledger
    .tradesAfter(P, null)
    .filter(
      (t) =>
        t.time < to.time ||
        (t.time === to.time && (t.id < to.id || (t.id === to.id && t.orderId <= to.orderId))),
    )
    .map((t) => [
      t.id,
      t.symbol,
      t.side,
      t.price,
      t.qty,
      t.quoteQty,
      t.fee,
      t.feeCurrency,
      t.time,
      t.orderId,
      t.account === 'main' ? null : t.account,
    ]);
}

function seeded(count: number, symbolOf?: (i: number) => string) {
  const store = freshStore(P);
  store.orders.insertTrades(P, trades(count, 1, symbolOf));
  store.subAccountKeys.link(P, SUB, 'sub…key', START);
  store.subAccountKeys.insertTrades(P, SUB, trades(count, 1, symbolOf));
  return store;
}

/** Every page from the first up to `to`, through the store's own connection. */
function readAll(store: ReturnType<typeof freshStore>, to: TradeCursor, take: TradePageTaker) {
  let pages = 0;
  let after: TradeCursor | null = null;
  do {
    after = store.ledger.tradePage(P, after, to, take);
    pages++;
  } while (after);
  return pages;
}

describe('own trades read a page at a time', () => {
  it('give every trade of both accounts once, in ledger order, each page as one text', () => {
    const store = seeded(6000);
    const last = store.ledger.lastTrade(P)!;
    const read = collector();
    expect(readAll(store, last, read.take)).toBe(Math.ceil(12_000 / TRADE_PAGE));
    expect(read.pages).toEqual({ text: 3, rows: 0 });
    expect(read.rows).toHaveLength(12_000);
    expect(read.rows).toEqual(expected(store, last));
    // Amounts come back as written: zeros with their places, more digits than a number holds.
    expect(read.rows[0]!.slice(3, 6)).toEqual([
      '50000.10',
      '0.00000000',
      '123456789012345678.123456789',
    ]);
  });

  it('stop at the cursor asked for, inside a time and inside a page', () => {
    const store = seeded(6000);
    const to = store.ledger.tradeAt(P, 7001)!;
    const read = collector();
    readAll(store, to, read.take);
    expect(read.rows).toHaveLength(7002);
    expect(read.rows).toEqual(expected(store, to));
  });

  it('hand a page over as rows when its text cannot be read, on a connection of its own too', () => {
    // A symbol holding the field separator: its page's text does not split into its rows.
    const store = seeded(6000, (i) => (i === 4000 ? `odd${TRADE_FIELD}usdt` : 'btcusdt'));
    const last = store.ledger.lastTrade(P)!;
    const read = collector();
    readAll(store, last, read.take);
    expect(read.pages.rows).toBe(1);
    expect(read.rows).toEqual(expected(store, last));
    expect(read.rows.filter((row) => row[1] === `odd${TRADE_FIELD}usdt`)).toHaveLength(2);

    const refusing = collector(true);
    const reader = new TradeRangeReader(store.paths.cache);
    try {
      reader.each(P, null, last, refusing.take);
    } finally {
      reader.close();
    }
    expect(refusing.pages).toEqual({ text: 0, rows: 3 });
    expect(refusing.rows).toEqual(expected(store, last));
  });
});
