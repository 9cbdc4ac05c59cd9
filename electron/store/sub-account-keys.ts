/**
 * Sub-accounts linked to their own API key: the link (record: `sub_account_links`, the masked
 * key only; the pair is in the keychain) and the trades read with that key (cache:
 * `sub_account_trades`; its orders are in `orders` under its e-mail, orders.ts). A sub-account is named by its e-mail in lower case.
 */
import type Database from 'better-sqlite3';
import type { OwnTradeInput } from './types';
import { checkTrade } from './orders';
import { integerMs, StoreInputError } from './util';

export interface SubAccountLinkRow {
  email: string;
  apiKeyMasked: string;
  linkedAt: number;
}

function accountName(email: string): string {
  const account = email.trim().toLowerCase();
  if (account === '' || account === 'main') {
    throw new StoreInputError(`sub-account e-mail ${JSON.stringify(email)} is not an e-mail`);
  }
  return account;
}

export class SubAccountKeysRepository {
  private readonly statements;
  private readonly insertTradesTransaction;
  private readonly unlinkTransaction;

  constructor(db: Database.Database) {
    this.statements = {
      links: db.prepare<[string], SubAccountLinkRow>(
        `SELECT email, api_key_masked AS apiKeyMasked, linked_at AS linkedAt
           FROM sub_account_links WHERE profile_id = ? ORDER BY email`,
      ),
      link: db.prepare<[string, string, string, number]>(
        `INSERT INTO sub_account_links (profile_id, email, api_key_masked, linked_at)
           VALUES (?, ?, ?, ?)
           ON CONFLICT (profile_id, email) DO UPDATE SET api_key_masked = excluded.api_key_masked,
             linked_at = excluded.linked_at`,
      ),
      unlink: db.prepare<[string, string]>(
        'DELETE FROM sub_account_links WHERE profile_id = ? AND email = ?',
      ),
      deleteTrades: db.prepare<[string, string]>(
        'DELETE FROM sub_account_trades WHERE profile_id = ? AND account = ?',
      ),
      deleteOrders: db.prepare<[string, string]>(
        'DELETE FROM orders WHERE profile_id = ? AND account = ?',
      ),
      deleteCursors: db.prepare<[string, string, string]>(
        `DELETE FROM sync_state WHERE profile_id = ? AND substr(kind, 1, length(?)) = ?`,
      ),
      insertTrade: db.prepare(
        `INSERT INTO sub_account_trades (profile_id, account, id, symbol, order_id, side, price,
           qty, quote_qty, fee, fee_currency, is_buyer_maker, time)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (profile_id, account, id, order_id) DO NOTHING`,
      ),
      count: db.prepare<[string, string], { n: number }>(
        'SELECT count(*) AS n FROM sub_account_trades WHERE profile_id = ? AND account = ?',
      ),
      symbols: db.prepare<[string, string], { symbol: string }>(
        `SELECT DISTINCT symbol FROM sub_account_trades WHERE profile_id = ? AND account = ?
           ORDER BY symbol`,
      ),
    };
    this.insertTradesTransaction = db.transaction(
      (profileId: string, account: string, rows: readonly unknown[][]) => {
        let inserted = 0;
        for (const row of rows) {
          inserted += this.statements.insertTrade.run(profileId, account, ...row).changes;
        }
        return inserted;
      },
    );
    this.unlinkTransaction = db.transaction(
      (profileId: string, account: string, cursorPrefix: string) => {
        const removed = this.statements.unlink.run(profileId, account).changes === 1;
        this.statements.deleteTrades.run(profileId, account);
        this.statements.deleteOrders.run(profileId, account);
        this.statements.deleteCursors.run(profileId, cursorPrefix, cursorPrefix);
        return removed;
      },
    );
  }

  /** The profile's linked sub-accounts, by e-mail. */
  links(profileId: string): SubAccountLinkRow[] {
    return this.statements.links.all(profileId);
  }

  link(profileId: string, email: string, apiKeyMasked: string, at: number): void {
    integerMs(at, 'linkedAt');
    if (apiKeyMasked === '') throw new StoreInputError('a link needs the masked key');
    this.statements.link.run(profileId, accountName(email), apiKeyMasked, at);
  }

  /**
   * Removes the link, the trades and orders read with its key and the import's cursors (sync state keys
   * starting with `cursorPrefix`), in one transaction: without the key the ledger sees the
   * sub-account's balances only, as before it was linked. False when it was not linked.
   */
  unlink(profileId: string, email: string, cursorPrefix: string): boolean {
    if (cursorPrefix === '') throw new StoreInputError('the cursor prefix must not be empty');
    return this.unlinkTransaction(profileId, accountName(email), cursorPrefix);
  }

  /** Stores trades read with the sub-account's key; a trade stored already is left. */
  insertTrades(profileId: string, email: string, trades: readonly OwnTradeInput[]): number {
    return this.insertTradesTransaction(profileId, accountName(email), trades.map(checkTrade));
  }

  tradeCount(profileId: string, email: string): number {
    return this.statements.count.get(profileId, accountName(email))?.n ?? 0;
  }

  /** The symbols the sub-account has trades on. */
  tradedSymbols(profileId: string, email: string): string[] {
    return this.statements.symbols.all(profileId, accountName(email)).map((row) => row.symbol);
  }
}
