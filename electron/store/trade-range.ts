/**
 * A profile's own trades (both tables, as the ledger reads them) in ranges of ledger order, a
 * page at a time: on the store's own connection (the build's reading in the main thread) or on a
 * read-only connection of its own (TradeRangeReader: a reader thread's part of a long history).
 * Kept apart from ledger.ts so a thread that reads loads this file and better-sqlite3, not the
 * store.
 *
 * A page comes as one text, its rows apart by TRADE_RECORD and each row's fields apart by
 * TRADE_FIELD: better-sqlite3 makes a JavaScript value of every field of every row it hands
 * over, and for the 100,000 rows of a long history that cost more than SQLite's read itself
 * (100,000 rows: ~110 ms as arrays, ~68 ms as pages of text). The taker reads the text where it
 * stands; a page whose text is not its rows (a text field holding a separator) is read again as
 * rows.
 */
import Database from 'better-sqlite3';
import type { LedgerTradeColumns, TradeCursor } from './ledger';

/** The columns of a LedgerTradeColumns row but its account. */
export const TRADE_COLUMNS =
  'id, symbol, side, price, qty, quote_qty, fee, fee_currency, time, order_id';

/** Between two fields of a row in a page's text (ASCII's unit separator). */
export const TRADE_FIELD = '\u001f';
/** Between two rows in a page's text (ASCII's record separator). */
export const TRADE_RECORD = '\u001e';

/** Both tables' trades of a profile after one cursor and up to another, in ledger order. */
const TRADE_RANGE = `SELECT * FROM (SELECT ${TRADE_COLUMNS}, NULL AS account FROM own_trades
       WHERE profile_id = @profile AND (time, id, order_id) > (@afterTime, @afterId, @afterOrder)
         AND (time, id, order_id) <= (@toTime, @toId, @toOrder)
       ORDER BY time, id, order_id)
   UNION ALL
   SELECT * FROM (SELECT ${TRADE_COLUMNS}, account FROM sub_account_trades
       WHERE profile_id = @profile AND (time, id, order_id) > (@afterTime, @afterId, @afterOrder)
         AND (time, id, order_id) <= (@toTime, @toId, @toOrder)
       ORDER BY time, id, order_id)
   ORDER BY time, id, order_id LIMIT @limit`;

/**
 * The same page as one text: each row's fields in LedgerTradeColumns' order (the main account's
 * as an empty account), and how many rows it holds. SQLite does not promise an aggregate takes
 * its rows in the order they come; the taker checks they are in ledger order (sorting them here
 * cost a third of the read).
 */
const TRADE_RANGE_TEXT = `SELECT count(*), group_concat(id || char(31) || symbol || char(31)
     || side || char(31) || price || char(31) || qty || char(31) || quote_qty || char(31) || fee
     || char(31) || fee_currency || char(31) || time || char(31) || order_id || char(31)
     || ifnull(account, ''), char(30))
   FROM (${TRADE_RANGE})`;

/** Rows read per page: a page costs one statement's run, and a turn of the event loop holds one. */
export const TRADE_PAGE = 5000;

/** What takes a range's trades: each page as text, or as rows when its text cannot be read. */
export interface TradePageTaker {
  /**
   * A page of `count` rows as one text; false when the text is not `count` rows in ledger order
   * (nothing of it taken): the page's rows are then given to row().
   */
  text(text: string, count: number): boolean;
  row(row: LedgerTradeColumns): void;
}

type RangeParameters = Record<string, string | number>;

/** The range's statements on one connection. */
export class TradeRange {
  private readonly rows: Database.Statement<RangeParameters, LedgerTradeColumns>;
  private readonly text: Database.Statement<RangeParameters, [number, string | null]>;

  constructor(db: Database.Database) {
    this.rows = db.prepare<RangeParameters, LedgerTradeColumns>(TRADE_RANGE).raw();
    this.text = db.prepare<RangeParameters, [number, string | null]>(TRADE_RANGE_TEXT).raw();
  }

  /**
   * The page of trades after `after` (from the first with null) up to `to` (included), given to
   * `take`: the cursor to read the next page after, or null when the range is done.
   */
  page(
    profileId: string,
    after: TradeCursor | null,
    to: TradeCursor,
    take: TradePageTaker,
  ): TradeCursor | null {
    const from = after ?? { time: -1, id: -1, orderId: -1 };
    const parameters: RangeParameters = {
      profile: profileId,
      afterTime: from.time,
      afterId: from.id,
      afterOrder: from.orderId,
      toTime: to.time,
      toId: to.id,
      toOrder: to.orderId,
      limit: TRADE_PAGE,
    };
    const [count, text] = this.text.get(parameters)!;
    if (count === 0 || text === null) return null;
    let last: TradeCursor;
    if (take.text(text, count)) {
      const fields = text.slice(text.lastIndexOf(TRADE_RECORD) + 1).split(TRADE_FIELD);
      last = { time: Number(fields[8]), id: Number(fields[0]), orderId: Number(fields[9]) };
    } else {
      const rows = this.rows.all(parameters);
      for (const row of rows) take.row(row);
      const lastRow = rows[rows.length - 1]!;
      last = { time: lastRow[8], id: lastRow[0], orderId: lastRow[9] };
    }
    return count < TRADE_PAGE ? null : last;
  }
}

/**
 * A profile's own trades in ranges, on a read-only connection of its own to the cache file: for
 * a thread that reads a part of a long history while another thread reads the rest (a reader in
 * WAL mode sees the last commit, and the range's end bounds it to what the caller's marks
 * counted).
 */
export class TradeRangeReader {
  private readonly db: Database.Database;
  private readonly range: TradeRange;

  constructor(cacheFile: string) {
    this.db = new Database(cacheFile, { readonly: true, fileMustExist: true });
    this.range = new TradeRange(this.db);
  }

  /** Each trade after `after` (from the first with null) up to `to` (included), in order. */
  each(profileId: string, after: TradeCursor | null, to: TradeCursor, take: TradePageTaker): void {
    let from = after;
    do from = this.range.page(profileId, from, to, take);
    while (from);
  }

  close(): void {
    this.db.close();
  }
}
