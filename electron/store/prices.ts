/** Latest 24h ticker per symbol and profile, from REST tickers or the all-market ticker stream. */
import type Database from 'better-sqlite3';
import type { PriceRow, TickerEventInput, TickerInput } from './types';
import { decimalText, integerMs } from './util';

const COLUMNS = 'symbol, last, open, high, low, bid, ask, volume, at';

export class PricesRepository {
  private readonly upsertStatement;
  private readonly getStatement;
  private readonly listStatement;
  private readonly upsertTransaction;

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
    last: decimalText(row.last, `${what} last`),
    open: decimalText(row.open, `${what} open`),
    high: decimalText(row.high, `${what} high`),
    low: decimalText(row.low, `${what} low`),
    bid: decimalText(row.bid, `${what} bid`),
    ask: decimalText(row.ask, `${what} ask`),
    volume: decimalText(row.volume, `${what} volume`),
    at: integerMs(row.at, `${what} at`),
  };
}
