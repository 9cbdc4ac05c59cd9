/** Funds (balances per asset), their value snapshots over time, and the funds view with prices. */
import type Database from 'better-sqlite3';
import { Decimal } from '../../shared/exact-decimal';
import { assetKey } from '../../shared/market';
import { formatDecimal } from '../core/decimal';
import type {
  BalanceChange,
  FundInput,
  FundRecordRow,
  FundSnapshotInput,
  FundSnapshotRow,
  FundWithPriceRow,
} from './types';
import { checkDecimalText, integerMs, checkOptionalDecimalText, StoreInputError } from './util';

const FUND_COLUMNS = `asset, free, locked, reserved_fee AS reservedFee, updated_at AS updatedAt`;

export class FundsRepository {
  private readonly deleteAllStatement;
  private readonly insertStatement;
  private readonly applyChangeStatement;
  private readonly listStatement;
  private readonly viewStatement;
  private readonly insertSnapshotStatement;
  private readonly snapshotsStatement;
  private readonly latestSnapshotStatement;
  private readonly pruneSnapshotsStatement;
  private readonly replaceAllTransaction;
  private readonly applyChangesTransaction;
  private readonly observationStatement;
  private readonly observeStatement;
  private readonly observeTransaction;

  constructor(db: Database.Database) {
    // A row the stream changed after the full list was asked for is newer than the list's.
    this.deleteAllStatement = db.prepare<[string, number]>(
      'DELETE FROM funds WHERE profile_id = ? AND updated_at <= ?',
    );
    this.insertStatement = db.prepare(`INSERT INTO funds
      (profile_id, asset, free, locked, reserved_fee, updated_at)
      VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (profile_id, asset) DO NOTHING`);
    // A stream balance change carries free/locked only: the reserved fee already known stays.
    this.applyChangeStatement = db.prepare(`INSERT INTO funds
      (profile_id, asset, free, locked, reserved_fee, updated_at) VALUES (?, ?, ?, ?, NULL, ?)
      ON CONFLICT (profile_id, asset) DO UPDATE SET free = excluded.free,
        locked = excluded.locked, updated_at = excluded.updated_at
      WHERE excluded.updated_at >= funds.updated_at`);
    this.listStatement = db.prepare<[string], FundRecordRow>(
      `SELECT ${FUND_COLUMNS} FROM funds WHERE profile_id = ? ORDER BY asset`,
    );
    this.viewStatement = db.prepare<
      { profileId: string; quote: string },
      FundWithPriceRow
    >(`SELECT f.asset, f.free, f.locked, f.reserved_fee AS reservedFee, f.updated_at AS updatedAt,
        CASE WHEN lower(f.asset) = lower(@quote) THEN NULL ELSE p.symbol END AS priceSymbol,
        CASE WHEN lower(f.asset) = lower(@quote) THEN '1' ELSE p.last END AS lastPrice,
        CASE WHEN lower(f.asset) = lower(@quote) THEN '1' ELSE p.open END AS openPrice,
        CASE WHEN lower(f.asset) = lower(@quote) THEN NULL ELSE p.at END AS priceAt
      FROM funds f
      LEFT JOIN prices p ON p.profile_id = f.profile_id AND p.symbol = lower(f.asset) || lower(@quote)
      WHERE f.profile_id = @profileId
      ORDER BY f.asset`);
    this.insertSnapshotStatement = db.prepare(`INSERT INTO fund_snapshots
      (profile_id, quote_asset, taken_at, total_value, assets) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (profile_id, quote_asset, taken_at) DO UPDATE SET
        total_value = excluded.total_value, assets = excluded.assets`);
    this.snapshotsStatement = db.prepare<
      [string, string, number, number],
      { takenAt: number; quoteAsset: string; totalValue: string; assets: string }
    >(`SELECT taken_at AS takenAt, quote_asset AS quoteAsset, total_value AS totalValue, assets
      FROM fund_snapshots
      WHERE profile_id = ? AND quote_asset = ? AND taken_at >= ? AND taken_at <= ?
      ORDER BY taken_at`);
    this.latestSnapshotStatement = db.prepare<
      [string, string],
      { takenAt: number; quoteAsset: string; totalValue: string; assets: string }
    >(`SELECT taken_at AS takenAt, quote_asset AS quoteAsset, total_value AS totalValue, assets
      FROM fund_snapshots WHERE profile_id = ? AND quote_asset = ?
      ORDER BY taken_at DESC LIMIT 1`);
    this.pruneSnapshotsStatement = db.prepare<[string, number]>(
      'DELETE FROM fund_snapshots WHERE profile_id = ? AND taken_at < ?',
    );
    this.replaceAllTransaction = db.transaction(
      (profileId: string, rows: readonly FundInput[], asOf: number, askedAt: number) => {
        this.deleteAllStatement.run(profileId, askedAt);
        for (const row of rows) {
          this.insertStatement.run(
            profileId,
            row.asset,
            checkDecimalText(row.free, `fund ${row.asset} free`),
            checkDecimalText(row.locked, `fund ${row.asset} locked`),
            checkOptionalDecimalText(row.reservedFee, `fund ${row.asset} reservedFee`),
            asOf,
          );
        }
      },
    );
    this.observationStatement = db.prepare<[string, number], { balances: string }>(
      `SELECT balances FROM balance_observations
        WHERE profile_id = ? AND account = 'main' AND time = ? AND complete = 0`,
    );
    // REPLACE, not UPDATE: a second event of the same millisecond gets a new rowid, so the
    // ledger's incremental read sees the observation changed (see ledger/source.ts readAppends).
    this.observeStatement = db.prepare<[string, number, string]>(
      `INSERT OR REPLACE INTO balance_observations (profile_id, account, time, balances, complete)
        VALUES (?, 'main', ?, ?, 0)`,
    );
    this.observeTransaction = db.transaction(
      (profileId: string, changes: readonly BalanceChange[], at: number) => {
        const earlier = this.observationStatement.get(profileId, at);
        const balances: Record<string, string> = earlier
          ? (JSON.parse(earlier.balances) as Record<string, string>)
          : {};
        for (const change of changes) {
          balances[assetKey(change.asset)] = formatDecimal(
            new Decimal(checkDecimalText(change.free, `balance ${change.asset} free`)).plus(
              checkDecimalText(change.locked, `balance ${change.asset} locked`),
            ),
          );
        }
        this.observeStatement.run(profileId, at, JSON.stringify(balances));
      },
    );
    this.applyChangesTransaction = db.transaction(
      (profileId: string, changes: readonly BalanceChange[], at: number, observe: boolean) => {
        for (const change of changes) {
          this.applyChangeStatement.run(
            profileId,
            change.asset,
            checkDecimalText(change.free, `balance ${change.asset} free`),
            checkDecimalText(change.locked, `balance ${change.asset} locked`),
            at,
          );
        }
        if (observe) this.observeTransaction(profileId, changes, at);
      },
    );
  }

  /**
   * Replaces every fund of the profile with the exchange's full list (one transaction), asked for
   * at `askedAt` and answered by `asOf`. A balance the stream changed after `askedAt` is newer
   * than the list's and stays: the list, in flight meanwhile, would put the old one back.
   */
  replaceAll(
    profileId: string,
    rows: readonly FundInput[],
    asOf: number,
    askedAt: number = asOf,
  ): void {
    integerMs(asOf, 'asOf');
    integerMs(askedAt, 'askedAt');
    const assets = new Set<string>();
    for (const row of rows) {
      if (!row.asset) throw new StoreInputError('fund asset must not be empty');
      if (assets.has(row.asset)) throw new StoreInputError(`fund ${row.asset} appears twice`);
      assets.add(row.asset);
    }
    this.replaceAllTransaction(profileId, rows, asOf, askedAt);
  }

  /**
   * Applies a stream balance update; older updates than the stored row are ignored. The update
   * is also kept as a partial balance observation of the main account (the record's
   * balance_observations): the exchange keeps no balance history, and the ledger's
   * reconciliation dates unexplained movements between observations.
   */
  applyBalanceChanges(
    profileId: string,
    changes: readonly BalanceChange[],
    at: number,
    observe = true,
  ): void {
    integerMs(at, 'at');
    this.applyChangesTransaction(profileId, changes, at, observe);
  }

  /**
   * Keeps balances seen at `at` as a partial observation of the main account (merged with one
   * already kept at that time): what a live batch's balance events say, once per batch.
   */
  observeBalances(profileId: string, changes: readonly BalanceChange[], at: number): void {
    integerMs(at, 'at');
    this.observeTransaction(profileId, changes, at);
  }

  list(profileId: string): { rows: FundRecordRow[]; asOf: number | null } {
    const rows = this.listStatement.all(profileId);
    return { rows, asOf: latest(rows) };
  }

  /** Funds joined with the cached price of `<asset><quoteAsset>` (symbols are lowercase). */
  view(profileId: string, quoteAsset: string): { rows: FundWithPriceRow[]; asOf: number | null } {
    const rows = this.viewStatement.all({ profileId, quote: quoteAsset });
    return { rows, asOf: latest(rows) };
  }

  addSnapshot(profileId: string, snapshot: FundSnapshotInput): void {
    integerMs(snapshot.takenAt, 'snapshot takenAt');
    checkDecimalText(snapshot.totalValue, 'snapshot totalValue');
    this.insertSnapshotStatement.run(
      profileId,
      snapshot.quoteAsset,
      snapshot.takenAt,
      snapshot.totalValue,
      JSON.stringify(snapshot.assets),
    );
  }

  /** Snapshots in [from, to] (inclusive, default: all), oldest first. */
  snapshots(
    profileId: string,
    quoteAsset: string,
    range: { from?: number; to?: number } = {},
  ): FundSnapshotRow[] {
    return this.snapshotsStatement
      .all(profileId, quoteAsset, range.from ?? 0, range.to ?? Number.MAX_SAFE_INTEGER)
      .map(parseSnapshot);
  }

  latestSnapshot(profileId: string, quoteAsset: string): FundSnapshotRow | null {
    const row = this.latestSnapshotStatement.get(profileId, quoteAsset);
    return row ? parseSnapshot(row) : null;
  }

  /** Deletes snapshots older than `before`; returns how many. */
  pruneSnapshots(profileId: string, before: number): number {
    return this.pruneSnapshotsStatement.run(profileId, integerMs(before, 'before')).changes;
  }
}

function latest(rows: readonly { updatedAt: number }[]): number | null {
  let max: number | null = null;
  for (const row of rows) if (max === null || row.updatedAt > max) max = row.updatedAt;
  return max;
}

function parseSnapshot(row: {
  takenAt: number;
  quoteAsset: string;
  totalValue: string;
  assets: string;
}): FundSnapshotRow {
  return { ...row, assets: JSON.parse(row.assets) as FundSnapshotRow['assets'] };
}
