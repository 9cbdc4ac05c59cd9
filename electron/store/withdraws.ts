/**
 * Withdraw history (on-chain and partner transfers). Built for a million rows per profile: every
 * filtered read the withdraw screen makes has an index ending in its sort column, so a page is
 * read in order straight from the index and the total is counted from the same index.
 */
import type Database from 'better-sqlite3';
import type { PageResult, WithdrawInput, WithdrawQuery, WithdrawRow } from './types';
import {
  addTimeRange,
  amountSortKey,
  booleanLike,
  containsPattern,
  checkDecimalText,
  direction,
  pageBounds,
  StatementCache,
  StoreInputError,
  wireTimeMs,
} from './util';

interface WithdrawDbRow {
  id: string;
  coin: string;
  network: string | null;
  address: string | null;
  amount: string;
  transactionFee: string;
  status: number;
  partnerTransfer: number;
  withdrawOrderId: string | null;
  txId: string | null;
  failureInfo: string | null;
  createdAt: number;
  lastUpdated: number;
}

const COLUMNS = `id, coin, network, address, amount, transaction_fee AS transactionFee, status,
  partner_transfer AS partnerTransfer, withdraw_order_id AS withdrawOrderId, tx_id AS txId,
  failure_info AS failureInfo, created_at AS createdAt, last_updated AS lastUpdated`;

/** The normalised record as written: the shape of the upsert's named parameters. */
interface WithdrawParams {
  profileId: string;
  id: string;
  coin: string;
  network: string | null;
  address: string | null;
  amount: string;
  amountKey: string;
  transactionFee: string;
  status: number;
  partnerTransfer: 0 | 1;
  withdrawOrderId: string | null;
  txId: string | null;
  failureInfo: string | null;
  createdAt: number;
  lastUpdated: number;
}

function toRow(row: WithdrawDbRow): WithdrawRow {
  return { ...row, partnerTransfer: row.partnerTransfer === 1 };
}

/** Empty strings and absent fields both mean "none" in the wire format. */
function textOrNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}

/** Converts one wire record (times as UTC text, partnerTransfer maybe a string) for the table. */
export function normaliseWithdraw(profileId: string, record: WithdrawInput): WithdrawParams {
  const id = String(record.id);
  if (!id) throw new StoreInputError('withdraw record id must not be empty');
  if (!record.coin) throw new StoreInputError(`withdraw ${id}: coin must not be empty`);
  const what = `withdraw ${id}`;
  const amount = checkDecimalText(record.amount, `${what} amount`);
  const status = record.status;
  if (!Number.isInteger(status)) {
    throw new StoreInputError(`${what} status must be an integer, got ${JSON.stringify(status)}`);
  }
  return {
    profileId,
    id,
    coin: record.coin,
    network: textOrNull(record.network),
    address: textOrNull(record.address),
    amount,
    amountKey: amountSortKey(amount, `${what} amount`),
    transactionFee: checkDecimalText(record.transactionFee, `${what} transactionFee`),
    status,
    partnerTransfer: booleanLike(record.partnerTransfer, `${what} partnerTransfer`) ? 1 : 0,
    withdrawOrderId: textOrNull(record.withdrawOrderId),
    txId: textOrNull(record.txId),
    failureInfo: textOrNull(record.failureInfo),
    createdAt: wireTimeMs(record.createdAt, `${what} createdAt`),
    lastUpdated: wireTimeMs(record.lastUpdated, `${what} lastUpdated`),
  };
}

export class WithdrawsRepository {
  private readonly upsertStatement;
  private readonly getStatement;
  private readonly countStatement;
  private readonly newestStatement;
  private readonly oldestStatement;
  private readonly coinsStatement;
  private readonly deleteAllStatement;
  private readonly upsertTransaction;
  private readonly pages;
  private readonly counts;

  constructor(db: Database.Database) {
    // A record only moves forward: a status change arrives with a later lastUpdated.
    this.upsertStatement = db.prepare<WithdrawParams>(`INSERT INTO withdraws
      (profile_id, id, coin, network, address, amount, amount_key, transaction_fee, status,
       partner_transfer, withdraw_order_id, tx_id, failure_info, created_at, last_updated)
      VALUES (@profileId, @id, @coin, @network, @address, @amount, @amountKey, @transactionFee,
       @status, @partnerTransfer, @withdrawOrderId, @txId, @failureInfo, @createdAt, @lastUpdated)
      ON CONFLICT (profile_id, id) DO UPDATE SET coin = excluded.coin, network = excluded.network,
        address = excluded.address, amount = excluded.amount, amount_key = excluded.amount_key,
        transaction_fee = excluded.transaction_fee, status = excluded.status,
        partner_transfer = excluded.partner_transfer, withdraw_order_id = excluded.withdraw_order_id,
        tx_id = excluded.tx_id, failure_info = excluded.failure_info,
        created_at = excluded.created_at, last_updated = excluded.last_updated
      WHERE excluded.last_updated >= withdraws.last_updated`);
    this.getStatement = db.prepare<[string, string], WithdrawDbRow>(
      `SELECT ${COLUMNS} FROM withdraws WHERE profile_id = ? AND id = ?`,
    );
    this.countStatement = db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM withdraws WHERE profile_id = ?',
    );
    this.newestStatement = db.prepare<[string], { t: number | null }>(
      'SELECT max(created_at) AS t FROM withdraws WHERE profile_id = ?',
    );
    this.oldestStatement = db.prepare<[string], { t: number | null }>(
      'SELECT min(created_at) AS t FROM withdraws WHERE profile_id = ?',
    );
    this.coinsStatement = db.prepare<[string], { coin: string }>(
      'SELECT DISTINCT coin FROM withdraws WHERE profile_id = ? ORDER BY coin',
    );
    this.deleteAllStatement = db.prepare<[string]>('DELETE FROM withdraws WHERE profile_id = ?');
    this.upsertTransaction = db.transaction((rows: readonly WithdrawParams[]) => {
      let changed = 0;
      for (const row of rows) changed += this.upsertStatement.run(row).changes;
      return changed;
    });
    this.pages = new StatementCache((sql) => db.prepare<unknown[], WithdrawDbRow>(sql));
    this.counts = new StatementCache((sql) => db.prepare<unknown[], { n: number }>(sql));
  }

  /**
   * Inserts or updates wire records in one transaction (all or nothing: a malformed record throws
   * before anything is written). Returns how many rows were inserted or changed.
   */
  upsertMany(profileId: string, records: readonly WithdrawInput[]): number {
    const rows = records.map((record) => normaliseWithdraw(profileId, record));
    return this.upsertTransaction(rows);
  }

  /** Same as upsertMany; the name the backfill of a large history uses. */
  ingest(profileId: string, records: readonly WithdrawInput[]): number {
    return this.upsertMany(profileId, records);
  }

  get(profileId: string, id: string): WithdrawRow | null {
    const row = this.getStatement.get(profileId, id);
    return row ? toRow(row) : null;
  }

  count(profileId: string): number {
    return this.countStatement.get(profileId)?.n ?? 0;
  }

  /** createdAt range of the cached records, for the backfill to know what it covers. */
  timeRange(profileId: string): { oldest: number | null; newest: number | null } {
    return {
      oldest: this.oldestStatement.get(profileId)?.t ?? null,
      newest: this.newestStatement.get(profileId)?.t ?? null,
    };
  }

  /** Coins that appear in the profile's history (for the filter's choices). */
  coins(profileId: string): string[] {
    return this.coinsStatement.all(profileId).map((row) => row.coin);
  }

  deleteAll(profileId: string): number {
    return this.deleteAllStatement.run(profileId).changes;
  }

  /** A filtered, sorted page and the number of records matching the filters. */
  page(profileId: string, query: WithdrawQuery = {}): PageResult<WithdrawRow> {
    const { offset, limit } = pageBounds(query.offset, query.limit);
    const order = direction(query.direction);
    const where = ['profile_id = ?'];
    const params: unknown[] = [profileId];
    if (query.coin !== undefined) {
      where.push('coin = ?');
      params.push(query.coin);
    }
    if (query.type !== undefined) {
      if (query.type !== 'onchain' && query.type !== 'partner') {
        throw new StoreInputError(
          `type must be 'onchain' or 'partner', got ${JSON.stringify(query.type)}`,
        );
      }
      where.push('partner_transfer = ?');
      params.push(query.type === 'partner' ? 1 : 0);
    }
    if (query.status !== undefined) {
      const statuses = Array.isArray(query.status) ? query.status : [query.status];
      for (const status of statuses) {
        if (!Number.isInteger(status)) {
          throw new StoreInputError(`status must be an integer, got ${JSON.stringify(status)}`);
        }
      }
      if (statuses.length === 1) {
        where.push('status = ?');
      } else if (statuses.length > 1) {
        where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
      } else {
        where.push('0');
      }
      params.push(...statuses);
    }
    addTimeRange(where, params, 'created_at', query.from, query.to);
    if (query.search !== undefined && query.search.trim() !== '') {
      const text = query.search.trim();
      const pattern = containsPattern(text);
      where.push(`(id = ? OR address LIKE ? ESCAPE '\\' OR tx_id LIKE ? ESCAPE '\\'
        OR withdraw_order_id LIKE ? ESCAPE '\\')`);
      params.push(text, pattern, pattern, pattern);
    }
    const sort = query.sort ?? 'time';
    if (sort !== 'time' && sort !== 'amount') {
      throw new StoreInputError(`sort must be 'time' or 'amount', got ${JSON.stringify(sort)}`);
    }
    // rowid breaks ties: every index ends with it implicitly, so the order stays index-driven.
    const orderBy =
      sort === 'time'
        ? `created_at ${order}, rowid ${order}`
        : `amount_key ${order}, rowid ${order}`;
    const whereSql = where.join(' AND ');
    const rows = this.pages
      .get(
        `SELECT ${COLUMNS} FROM withdraws WHERE ${whereSql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      )
      .all(...params, limit, offset)
      .map(toRow);
    const total =
      this.counts.get(`SELECT count(*) AS n FROM withdraws WHERE ${whereSql}`).get(...params)?.n ??
      0;
    return { rows, total };
  }
}
