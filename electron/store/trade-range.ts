/**
 * A profile's own trades read in ranges of ledger order on a connection of their own: a reader
 * thread's part of a long history (see TradeRangeReader). Kept apart from ledger.ts so a thread
 * that reads loads this file and better-sqlite3, not the store.
 */
import Database from 'better-sqlite3';
import type { LedgerTradeColumns, TradeCursor } from './ledger';

/** The columns of a LedgerTradeColumns row but its account. */
export const TRADE_COLUMNS =
  'id, symbol, side, price, qty, quote_qty, fee, fee_currency, time, order_id';

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

/** Rows read per page: pages of all() read faster than one iterate() or one all() of every row. */
const PAGE = 5000;

/**
 * A profile's own trades (both tables, as the ledger reads them) in ranges of ledger order, on a
 * read-only connection of its own to the cache file: for a thread that reads a part of a long
 * history while another thread reads the rest (a reader in WAL mode sees the last commit, and the
 * range's end bounds it to what the caller's marks counted).
 */
export class TradeRangeReader {
  private readonly db: Database.Database;
  private readonly range: Database.Statement<Record<string, string | number>, LedgerTradeColumns>;

  constructor(cacheFile: string) {
    this.db = new Database(cacheFile, { readonly: true, fileMustExist: true });
    this.range = this.db
      .prepare<Record<string, string | number>, LedgerTradeColumns>(TRADE_RANGE)
      .raw();
  }

  /** Each trade after `after` (from the first with null) up to `to` (included), in order. */
  each(
    profileId: string,
    after: TradeCursor | null,
    to: TradeCursor,
    take: (row: LedgerTradeColumns) => void,
  ): void {
    let from = after ?? { time: -1, id: -1, orderId: -1 };
    for (;;) {
      const page = this.range.all({
        profile: profileId,
        afterTime: from.time,
        afterId: from.id,
        afterOrder: from.orderId,
        toTime: to.time,
        toId: to.id,
        toOrder: to.orderId,
        limit: PAGE,
      });
      for (const row of page) take(row);
      const last = page[page.length - 1];
      if (page.length < PAGE || !last) return;
      from = { time: last[8], id: last[0], orderId: last[9] };
    }
  }

  close(): void {
    this.db.close();
  }
}
