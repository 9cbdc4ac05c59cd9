/**
 * The SQLite cache (better-sqlite3). Everything here runs under plain Node.
 *
 * ## Public API (stable; other parts of the app code against it)
 *
 * ```ts
 * const { store, recovered } = openStore({ dataDir, fileName?: 'spotfolio.sqlite' });
 * // recovered: { movedTo, reason } when the old file was unreadable and has been moved aside;
 * // tell the user and rebuild from the exchange. Throws StoreVersionError for a file written by a
 * // newer app (left untouched).
 *
 * store.transaction(() => { ...several repositories... });   // one atomic sync step (nests)
 * store.close();  store.path;  store.schemaVersion;  store.db (the better-sqlite3 handle)
 *
 * store.profiles      create(p) get(id) list() update(id, patch) delete(id)  (delete cascades)
 *                     maskApiKey(key) -> 'AbCd…wxyz' (exported function)
 * store.settings      get(key, profileId?) set(key, json, profileId?) delete(key, profileId?) all(profileId?)
 * store.funds         replaceAll(pid, funds, asOf) applyBalanceChanges(pid, [{asset,free,locked}], at)
 *                     list(pid) -> {rows, asOf}   view(pid, quoteAsset) -> {rows (+lastPrice, openPrice), asOf}
 *                     addSnapshot(pid, s) snapshots(pid, quote, {from?, to?}) latestSnapshot(pid, quote)
 *                     pruneSnapshots(pid, before)
 * store.prices        upsertTickers(pid, tickers) upsertTickerEvents(pid, events) upsertMany(pid, rows)
 *                     get(pid, symbol) list(pid)
 *                     saveCloses(pid, symbol, interval, [{openTime, close}], keepFrom)
 *                     closes(pid, symbol, interval, from, to)   (finished candles only)
 * store.withdraws     upsertMany(pid, wireRecords) / ingest(...) -> rows changed
 *                     page(pid, {coin, type: 'onchain'|'partner', status, from, to, search,
 *                                sort: 'time'|'amount', direction, offset, limit}) -> {rows, total}
 *                     get(pid, id) count(pid) timeRange(pid) coins(pid) deleteAll(pid)
 * store.wallet        saveDepositAddress(pid, network, wireAddress, fetchedAt) getDepositAddress(pid, coin, network)
 *                     listDepositAddresses(pid) replaceCoins(pid, coins, fetchedAt) listCoins(pid) getCoin(pid, coin)
 * store.subAccounts   replaceAll(pid, wireRecords, fetchedAt) list(pid) -> {rows (+balances), asOf}
 *                     upsertTransfers(pid, wireRecords) transfers(pid, {asset, email, from, to, ...paging})
 *                     getTransfer(pid, txnId)
 * store.orders        upsertOrders(pid, orders) getOrder getOrderByClientId openOrders(pid, symbol?)
 *                     ordersPage(pid, query) maxOrderId(pid, symbol)
 *                     insertTrades(pid, trades) tradesPage(pid, {symbol, side, orderId, from, to, ...paging})
 *                     feesByAsset(pid, query) maxTradeId(pid, symbol)
 * store.notifications add(pid, n) list(pid, {limit, unreadOnly}) markRead(pid, ids|'all') unreadCount(pid) prune(pid, keep)
 * store.syncState     get(pid, kind) set(pid, kind, cursor, updatedAt) list(pid) delete(pid, kind)
 * ```
 *
 * Rows are camelCase (types.ts); amounts are decimal strings, times integer ms. Writes that take
 * a list run in one transaction. Bad input throws StoreInputError naming the field. Withdraw
 * `status` is the exchange's code (WITHDRAW_STATUS_CODES of shared/market.ts). Prices are per
 * profile; symbols lowercase.
 */
import type Database from 'better-sqlite3';
import { openDatabase, schemaVersion } from './database';
import { FundsRepository } from './funds';
import { NotificationsRepository } from './notifications';
import { OrdersRepository } from './orders';
import { PricesRepository } from './prices';
import { ProfilesRepository } from './profiles';
import { SettingsRepository } from './settings';
import { SubAccountsRepository } from './subaccounts';
import { SyncStateRepository } from './sync-state';
import { WalletRepository } from './wallet';
import { WithdrawsRepository } from './withdraws';

export { DEFAULT_FILE_NAME, StoreCorruptError, StoreVersionError } from './database';
export { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations';
export { maskApiKey } from './profiles';
export { StoreInputError } from './util';
export type * from './types';
export {
  FundsRepository,
  NotificationsRepository,
  OrdersRepository,
  PricesRepository,
  ProfilesRepository,
  SettingsRepository,
  SubAccountsRepository,
  SyncStateRepository,
  WalletRepository,
  WithdrawsRepository,
};

export interface Store {
  readonly db: Database.Database;
  /** Full path of the database file. */
  readonly path: string;
  /** Schema version of the open file (the latest migration applied). */
  readonly schemaVersion: number;
  readonly profiles: ProfilesRepository;
  readonly settings: SettingsRepository;
  readonly funds: FundsRepository;
  readonly prices: PricesRepository;
  readonly withdraws: WithdrawsRepository;
  readonly wallet: WalletRepository;
  readonly subAccounts: SubAccountsRepository;
  readonly orders: OrdersRepository;
  readonly notifications: NotificationsRepository;
  readonly syncState: SyncStateRepository;
  /** Runs fn in one transaction (a savepoint when nested); rolls back if it throws. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export interface OpenStoreOptions {
  /** The app's data folder; created when missing. */
  dataDir: string;
  /** Default 'spotfolio.sqlite'. */
  fileName?: string;
}

export interface OpenStoreResult {
  store: Store;
  /** Set when the previous file was unreadable: where it was moved, and why. */
  recovered?: { movedTo: string; reason: string };
}

export function openStore(options: OpenStoreOptions): OpenStoreResult {
  const opened = openDatabase({ dataDir: options.dataDir, fileName: options.fileName });
  const { db } = opened;
  const store: Store = {
    db,
    path: opened.path,
    schemaVersion: schemaVersion(db),
    profiles: new ProfilesRepository(db),
    settings: new SettingsRepository(db),
    funds: new FundsRepository(db),
    prices: new PricesRepository(db),
    withdraws: new WithdrawsRepository(db),
    wallet: new WalletRepository(db),
    subAccounts: new SubAccountsRepository(db),
    orders: new OrdersRepository(db),
    notifications: new NotificationsRepository(db),
    syncState: new SyncStateRepository(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => {
      if (db.open) db.close();
    },
  };
  return opened.recovered ? { store, recovered: opened.recovered } : { store };
}
