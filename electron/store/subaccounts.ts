/** Sub-accounts with their balances, and the parent/sub transfer history. */
import type Database from 'better-sqlite3';
import type {
  PageResult,
  SubAccountInput,
  SubAccountRow,
  SubTransferInput,
  SubTransferQuery,
  SubTransferRow,
} from './types';
import {
  addTimeRange,
  checkDecimalText,
  direction,
  integer,
  integerMs,
  PagedReads,
  pageBounds,
  StoreInputError,
} from './util';

const TRANSFER_COLUMNS = `txn_id AS txnId, asset, from_email AS fromEmail, to_email AS toEmail,
  qty, status, time`;

export class SubAccountsRepository {
  private readonly deleteAccountsStatement;
  private readonly insertAccountStatement;
  private readonly insertBalanceStatement;
  private readonly listAccountsStatement;
  private readonly listBalancesStatement;
  private readonly upsertTransferStatement;
  private readonly getTransferStatement;
  private readonly replaceAccountsTransaction;
  private readonly upsertTransfersTransaction;
  private readonly transferPages;

  constructor(db: Database.Database) {
    this.deleteAccountsStatement = db.prepare<[string]>(
      'DELETE FROM sub_accounts WHERE profile_id = ?',
    );
    this.insertAccountStatement = db.prepare(`INSERT INTO sub_accounts
      (profile_id, email, status, portfolio, created_at, fetched_at) VALUES (?, ?, ?, ?, ?, ?)`);
    this.insertBalanceStatement = db.prepare(`INSERT INTO sub_account_balances
      (profile_id, email, asset, balance) VALUES (?, ?, ?, ?)
      ON CONFLICT (profile_id, email, asset) DO UPDATE SET balance = excluded.balance`);
    this.listAccountsStatement = db.prepare<
      [string],
      Omit<SubAccountRow, 'balances'>
    >(`SELECT email, status, portfolio, created_at AS createdAt, fetched_at AS fetchedAt
      FROM sub_accounts WHERE profile_id = ? ORDER BY created_at, email`);
    this.listBalancesStatement = db.prepare<
      [string],
      { email: string; asset: string; balance: string }
    >(`SELECT email, asset, balance FROM sub_account_balances WHERE profile_id = ?
      ORDER BY email, asset`);
    this.upsertTransferStatement = db.prepare(`INSERT INTO sub_transfers
      (profile_id, txn_id, asset, from_email, to_email, qty, status, time)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (profile_id, txn_id) DO UPDATE SET asset = excluded.asset,
        from_email = excluded.from_email, to_email = excluded.to_email, qty = excluded.qty,
        status = excluded.status, time = excluded.time`);
    this.getTransferStatement = db.prepare<[string, number], SubTransferRow>(
      `SELECT ${TRANSFER_COLUMNS} FROM sub_transfers WHERE profile_id = ? AND txn_id = ?`,
    );
    this.replaceAccountsTransaction = db.transaction(
      (profileId: string, accounts: readonly SubAccountInput[], fetchedAt: number) => {
        this.deleteAccountsStatement.run(profileId);
        for (const account of accounts) {
          this.insertAccountStatement.run(
            profileId,
            account.email,
            account.status,
            account.portfolio,
            account.created_at,
            fetchedAt,
          );
          for (const entry of account.balance) {
            this.insertBalanceStatement.run(profileId, account.email, entry.symbol, entry.balance);
          }
        }
      },
    );
    this.upsertTransfersTransaction = db.transaction(
      (profileId: string, transfers: readonly SubTransferInput[]) => {
        for (const t of transfers) {
          this.upsertTransferStatement.run(
            profileId,
            t.txnId,
            t.asset,
            t.from,
            t.to,
            t.qty,
            t.status,
            t.time,
          );
        }
      },
    );
    this.transferPages = new PagedReads<SubTransferRow>(db, 'sub_transfers', TRANSFER_COLUMNS);
  }

  /** Replaces the profile's sub-accounts and their balances with the exchange's list. */
  replaceAll(profileId: string, accounts: readonly SubAccountInput[], fetchedAt: number): void {
    integerMs(fetchedAt, 'fetchedAt');
    const seen = new Set<string>();
    for (const account of accounts) {
      if (!account.email) throw new StoreInputError('sub-account without an e-mail');
      if (seen.has(account.email)) {
        throw new StoreInputError(`sub-account ${account.email} appears twice`);
      }
      seen.add(account.email);
      checkDecimalText(account.portfolio, `sub-account ${account.email} portfolio`);
      integerMs(account.created_at, `sub-account ${account.email} created_at`);
      for (const entry of account.balance) {
        checkDecimalText(entry.balance, `sub-account ${account.email} balance of ${entry.symbol}`);
      }
    }
    this.replaceAccountsTransaction(profileId, accounts, fetchedAt);
  }

  list(profileId: string): { rows: SubAccountRow[]; asOf: number | null } {
    const balances = new Map<string, { asset: string; balance: string }[]>();
    for (const row of this.listBalancesStatement.all(profileId)) {
      const list = balances.get(row.email) ?? [];
      list.push({ asset: row.asset, balance: row.balance });
      balances.set(row.email, list);
    }
    const rows = this.listAccountsStatement
      .all(profileId)
      .map((account) => ({ ...account, balances: balances.get(account.email) ?? [] }));
    let asOf: number | null = null;
    for (const row of rows) if (asOf === null || row.fetchedAt > asOf) asOf = row.fetchedAt;
    return { rows, asOf };
  }

  /** Inserts or updates transfer history records (wire shape) in one transaction. */
  upsertTransfers(profileId: string, transfers: readonly SubTransferInput[]): void {
    for (const t of transfers) {
      integer(t.txnId, 'transfer txnId');
      checkDecimalText(t.qty, `transfer ${t.txnId} qty`);
      integerMs(t.time, `transfer ${t.txnId} time`);
    }
    this.upsertTransfersTransaction(profileId, transfers);
  }

  getTransfer(profileId: string, txnId: number): SubTransferRow | null {
    return this.getTransferStatement.get(profileId, txnId) ?? null;
  }

  /** A filtered page of the transfer history, newest first unless direction is 'asc'. */
  transfers(profileId: string, query: SubTransferQuery = {}): PageResult<SubTransferRow> {
    const page = pageBounds(query.offset, query.limit);
    const order = direction(query.direction);
    const where = ['profile_id = ?'];
    const params: unknown[] = [profileId];
    if (query.asset !== undefined) {
      where.push('asset = ?');
      params.push(query.asset);
    }
    if (query.email !== undefined) {
      where.push('(from_email = ? OR to_email = ?)');
      params.push(query.email, query.email);
    }
    addTimeRange(where, params, 'time', query.from, query.to);
    return this.transferPages.read(where, params, `time ${order}, txn_id ${order}`, page);
  }
}
