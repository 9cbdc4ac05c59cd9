/**
 * Latest 24h ticker per symbol and profile, from REST tickers or the all-market ticker stream;
 * and the closes of finished candles per symbol and interval, for values at past prices.
 */
import type Database from 'better-sqlite3';
import type { KlineClose, PriceRow, TickerEventInput, TickerInput } from './types';
import { checkDecimalText, integerMs } from './util';

const COLUMNS = 'symbol, last, open, high, low, bid, ask, volume, at';

export class PricesRepository {
  private readonly upsertStatement;
  private readonly getStatement;
  private readonly listStatement;
  private readonly upsertTransaction;
  private readonly saveClosesTransaction;
  private readonly closesStatement;

  constructor(db: Database.Database) {
    // An older ticker never overwrites a newer one (stream and REST can interleave).
    this.upsertStatement = db.prepare(`INSERT INTO prices
      (profile_id, symbol, last, open, high, low, bid, ask, volume, at)
      VALUES (@profileId, @symbol, @last, @open, @high, @low, @bid, @ask, @volume, @at)
      ON CONFLICT (profile_id, symbol) DO UPDATE SET last = excluded.last, open = excluded.open,
        high = excluded.high, low = excluded.low, bid = excluded.bid, ask = excluded.ask,
        volume = excluded.volume, at = excluded.at
      WHERE excluded.at >= prices.at`);
    this.getStatement = db.prepare<[string, string], PriceRow>(
      `SELECT ${COLUMNS} FROM prices WHERE profile_id = ? AND symbol = ?`,
    );
    this.listStatement = db.prepare<[string], PriceRow>(
      `SELECT ${COLUMNS} FROM prices WHERE profile_id = ? ORDER BY symbol`,
    );
    this.upsertTransaction = db.transaction((profileId: string, rows: readonly PriceRow[]) => {
      for (const row of rows) this.upsertStatement.run({ profileId, ...checked(row) });
    });
    const insertClose = db.prepare(`INSERT OR REPLACE INTO kline_closes
      (profile_id, symbol, interval, open_time, close) VALUES (?, ?, ?, ?, ?)`);
    const pruneCloses = db.prepare(
      'DELETE FROM kline_closes WHERE profile_id = ? AND symbol = ? AND interval = ? AND open_time < ?',
    );
    this.saveClosesTransaction = db.transaction(
      (
        profileId: string,
        symbol: string,
        interval: string,
        closes: readonly KlineClose[],
        keepFrom: number,
      ) => {
        for (const { openTime, close } of closes) {
          const what = `${symbol} ${interval} candle`;
          insertClose.run(
            profileId,
            symbol,
            interval,
            integerMs(openTime, `${what} open time`),
            checkDecimalText(close, `${what} close`),
          );
        }
        pruneCloses.run(profileId, symbol, interval, keepFrom);
      },
    );
    this.closesStatement = db.prepare<[string, string, string, number, number], KlineClose>(
      `SELECT open_time AS openTime, close FROM kline_closes
       WHERE profile_id = ? AND symbol = ? AND interval = ? AND open_time BETWEEN ? AND ?
       ORDER BY open_time`,
    );
  }

  /**
   * Keeps the closes of finished candles (a candle is only ever stored once it has closed, so a
   * later fetch can never change it) and forgets those older than `keepFrom`.
   */
  saveCloses(
    profileId: string,
    symbol: string,
    interval: string,
    closes: readonly KlineClose[],
    keepFrom: number,
  ): void {
    this.saveClosesTransaction(profileId, symbol, interval, closes, keepFrom);
  }

  /** Closes with open times in [from, to], oldest first. */
  closes(
    profileId: string,
    symbol: string,
    interval: string,
    from: number,
    to: number,
  ): KlineClose[] {
    return this.closesStatement.all(profileId, symbol, interval, from, to);
  }

  upsertMany(profileId: string, rows: readonly PriceRow[]): void {
    this.upsertTransaction(profileId, rows);
  }

  /** REST 24hr tickers (wire field names). */
  upsertTickers(profileId: string, tickers: readonly TickerInput[]): void {
    this.upsertMany(
      profileId,
      tickers.map((t) => ({
        symbol: t.symbol,
        last: t.lastPrice,
        open: t.openPrice,
        high: t.highPrice,
        low: t.lowPrice,
        bid: t.bidPrice,
        ask: t.askPrice,
        volume: t.volume,
        at: t.at,
      })),
    );
  }

  /** The all-market ticker stream's elements (s, c, o, h, l, b, a, q, E). */
  upsertTickerEvents(profileId: string, events: readonly TickerEventInput[]): void {
    this.upsertMany(
      profileId,
      events.map((e) => ({
        symbol: e.s,
        last: e.c,
        open: e.o,
        high: e.h,
        low: e.l,
        bid: e.b,
        ask: e.a,
        volume: e.q,
        at: e.E,
      })),
    );
  }

  get(profileId: string, symbol: string): PriceRow | null {
    return this.getStatement.get(profileId, symbol) ?? null;
  }

  list(profileId: string): PriceRow[] {
    return this.listStatement.all(profileId);
  }
}

function checked(row: PriceRow): PriceRow {
  const what = `price ${row.symbol}`;
  return {
    symbol: row.symbol,
    last: checkDecimalText(row.last, `${what} last`),
    open: checkDecimalText(row.open, `${what} open`),
    high: checkDecimalText(row.high, `${what} high`),
    low: checkDecimalText(row.low, `${what} low`),
    bid: checkDecimalText(row.bid, `${what} bid`),
    ask: checkDecimalText(row.ask, `${what} ask`),
    volume: checkDecimalText(row.volume, `${what} volume`),
    at: integerMs(row.at, `${what} at`),
  };
}
