/**
 * The store (better-sqlite3): two SQLite files in the data folder, on one connection. The RECORD
 * (record.sqlite) keeps what the exchange cannot give back: profiles, settings, value snapshots,
 * notifications; it is backed up and never discarded. The CACHE (cache.sqlite) keeps everything
 * the exchange can give back; a damaged one is rebuilt. docs/architecture.md lists which table is
 * where and why. Everything here runs under plain Node.
 *
 * ## Public API (stable; other parts of the app code against it)
 *
 * ```ts
 * const { store, notices, recovered } = await startStore({ dataDir, recordExpected?, now? });
 * // notices: what the user must be told (the cache rebuilt, the record restored from a backup of
 * // a given time, or lost); recovered: { movedTo, reason } when the cache was rebuilt.
 * // Throws StoreUnavailableError (details: problem, message, path, backupPath, help) when the
 * // record cannot be opened: a migration failed, a newer app wrote it, it is locked. Nothing was
 * // changed then; the app shows the details instead of starting afresh.
 * // A single-file install (spotfolio.sqlite) is converted at its first start.
 * const { store } = openStore({ dataDir });  // sync, for a new or up-to-date record (tests, tools)
 *
 * store.backup()   // a start/daily backup of the record now (backups/record-<time>.sqlite)
 * store.backupBefore('reset' | 'profile-removal')   // kept: backups/record-before-<action>-<time>.sqlite
 * store.paths      // { dataDir, record, cache, legacy, backups }
 * store.recordVersion  store.cacheVersion
 *
 * store.transaction(() => { ...several repositories... });   // one atomic sync step (nests)
 * store.close();  store.path (the record);  store.schemaVersion (the record's);  store.db
 * // store.db: the record is schema `main`, the cache is attached as `cache`; table names are unique
 * // across both, so SQL names them plainly. A transaction spanning both commits in each file.
 * new WalCheckpoints(store, {script, log})    // the WAL's checkpoints on a thread of their own
 *                     ready close() now()     (wal-checkpoints.ts; the app starts it, tests may)
 *
 * store.profiles      create(p) get(id) list() update(id, patch) archive(id, at) removed()
 *                     restore(id, patch) delete(id)  (archive: removed softly, its record rows
 *                     kept, its cache rows cleared; delete: the record's rows too, by cascade)
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
 * store.subAccountKeys links(pid) link(pid, email, masked, at) unlink(pid, email, cursorPrefix)
 *                     insertTrades(pid, email, trades) tradeCount(pid, email) tradedSymbols(pid, email)
 * store.orders        upsertOrders(pid, orders) getOrder getOrderByClientId openOrders(pid, symbol?)
 *                     ordersPage(pid, query) maxOrderId(pid, symbol)
 *                     insertTrades(pid, trades) tradesPage(pid, {symbol, side, orderId, from, to, ...paging})
 *                     feesByAsset(pid, query) maxTradeId(pid, symbol)
 * store.notifications add(pid, n) list(pid, {limit, unreadOnly}) markRead(pid, ids|'all') unreadCount(pid) prune(pid, keep)
 * store.syncState     get(pid, kind) set(pid, kind, cursor, updatedAt) list(pid) delete(pid, kind)
 * store.ledger        tradePage(pid, after, to, take) tradesAfter(pid, cursor) withdrawals(pid) ...
 *                     marks(pid) currentBalances(pid) keepCurrentBalances(pid) observations(pid)
 *                     annotations(pid) annotate(pid, entryId, {label?, costBasis?}, at)
 * store.alerts        list(pid) get(pid, id) create update setPaused delete observe fired
 * store.answers       get(pid, kind, key?) -> {answer, fetchedAt} | null (checked: kind.version and
 *                     kind.schema, else null) put(pid, kind, answer, fetchedAt, key?) delete
 * store.journal       create(entry) markStep(id, seq, patch, at) setStatus(id, patch, at) get(id)
 *                     withStatus(pid, statuses) visible(pid) claimedRefs(pid)   (the record; journal.ts)
 * ```
 *
 * Rows are camelCase (types.ts); amounts are decimal strings, times integer ms. Writes that take
 * a list run in one transaction. Bad input throws StoreInputError naming the field. Withdraw
 * `status` is the exchange's code (WITHDRAW_STATUS_CODES of shared/market.ts). Prices are per
 * profile; symbols lowercase.
 */
import type Database from 'better-sqlite3';
import type { StoreNotice } from '../../shared/types';
import {
  backupBeforeAction,
  backupRecord,
  pruneRotated,
  type BackupInfo,
  type DestructiveAction,
} from './backups';
import type { StorePaths } from './files';
import {
  openStoreFilesSync,
  startStoreFiles,
  type OpenedStoreFiles,
  type OpenStoreFilesOptions,
} from './open';
import { AlertsRepository } from './alerts';
import { AnswersRepository } from './answers';
import { FundsRepository } from './funds';
import { JournalRepository } from './journal';
import { JournalFile } from './journal-file';
import { LedgerRepository } from './ledger';
import { NotificationsRepository } from './notifications';
import { OrdersRepository } from './orders';
import { PricesRepository } from './prices';
import { ProfilesRepository } from './profiles';
import { SettingsRepository } from './settings';
import { SubAccountsRepository } from './subaccounts';
import { SubAccountKeysRepository } from './sub-account-keys';
import { SyncStateRepository } from './sync-state';
import { WalletRepository } from './wallet';
import { WithdrawsRepository } from './withdraws';

export {
  APPLICATION_IDS,
  StoreCorruptError,
  StoreMigrationError,
  StoreVersionError,
} from './database';
export { CACHE_FILE, LEGACY_FILE, RECORD_FILE, BACKUP_FOLDER, type StorePaths } from './files';
export {
  CACHE_MIGRATIONS,
  LEGACY_MIGRATIONS,
  RECORD_MIGRATIONS,
  latestVersion,
  type Migration,
} from './migrations';
export { StoreUnavailableError } from './open';
export { CHECKPOINT_THREAD_SOURCE, WalCheckpoints } from './wal-checkpoints';
export {
  DESTRUCTIVE_ACTIONS,
  listBackups,
  ROTATED_BACKUPS_KEPT,
  scheduleBackups,
  type BackupInfo,
  type BackupKind,
  type DestructiveAction,
} from './backups';
export { maskApiKey } from './profiles';
export {
  UNSETTLED_STATUSES,
  type JournalEntryRow,
  type JournalKind,
  type JournalOrder,
  type JournalStepRow,
  type NewJournalEntry,
} from './journal';
export { StoreInputError } from './util';
export type { SubAccountLinkRow } from './sub-account-keys';
export type { AnswerKind, KeptAnswer } from './answers';
export type { AlertObservation, AlertRecord, AlertSide, AlertState } from './alerts';
export {
  type AnnotationRow,
  type BalanceObservation,
  type LedgerMarks,
  type LedgerTradeColumns,
  type LedgerTradeRow,
  type LedgerTransferRow,
  type LedgerWithdrawalRow,
  type TradeCursor,
} from './ledger';
export type * from './types';
export {
  AlertsRepository,
  AnswersRepository,
  FundsRepository,
  JournalRepository,
  LedgerRepository,
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
  /** One connection: the record as schema `main`, the cache attached as `cache`. */
  readonly db: Database.Database;
  /** Full path of the record file. */
  readonly path: string;
  readonly paths: StorePaths;
  /** Schema version of the record (the latest migration applied). */
  readonly schemaVersion: number;
  readonly recordVersion: number;
  readonly cacheVersion: number;
  readonly profiles: ProfilesRepository;
  readonly settings: SettingsRepository;
  readonly funds: FundsRepository;
  readonly prices: PricesRepository;
  readonly withdraws: WithdrawsRepository;
  readonly wallet: WalletRepository;
  readonly subAccounts: SubAccountsRepository;
  /** Sub-accounts linked to their own key (record) and the trades read with it (cache). */
  readonly subAccountKeys: SubAccountKeysRepository;
  readonly orders: OrdersRepository;
  readonly notifications: NotificationsRepository;
  readonly syncState: SyncStateRepository;
  /** The money journal (record): transfers and orders written before their first request. */
  readonly journal: JournalRepository;
  /** What the ledger reads, its balance observations and annotations (ledger.ts). */
  readonly ledger: LedgerRepository;
  /** The user's alerts and what evaluation last saw of them (the record; alerts.ts). */
  readonly alerts: AlertsRepository;
  /** Answers of the exchange kept whole, versioned and checked on read (the cache; answers.ts). */
  readonly answers: AnswersRepository;
  /** Runs fn in one transaction (a savepoint when nested); rolls back if it throws. */
  transaction<T>(fn: () => T): T;
  /** Takes a start/daily backup of the record now and drops the oldest beyond the kept few. */
  backup(): Promise<BackupInfo>;
  /**
   * Takes the kept backup (never rotated away) that must precede an action removing what the
   * user wrote: a reset of the app's data, a profile's removal. Do not act when it throws.
   */
  backupBefore(action: DestructiveAction): Promise<BackupInfo>;
  close(): void;
}

export interface OpenStoreOptions extends OpenStoreFilesOptions {
  /** The app's data folder; created (0700) when missing. */
  dataDir: string;
}

export interface OpenStoreResult {
  store: Store;
  /** What the user must be told about this start (see StoreNotice). */
  notices: StoreNotice[];
  /** Set when the cache was damaged and has been rebuilt: where the old one was moved, and why. */
  recovered?: { movedTo: string; reason: string };
  /** The record backup taken at this start (none for a new, empty record). */
  startBackup?: BackupInfo;
}

/**
 * The app's start: converts a single-file install, restores a damaged record from its newest
 * backup, backs the record up (before migrating, and at each start), migrates both files and
 * rebuilds a damaged cache. Throws StoreUnavailableError when the record cannot be opened.
 */
export async function startStore(options: OpenStoreOptions): Promise<OpenStoreResult> {
  return assemble(await startStoreFiles(options), options);
}

/**
 * Opens a store whose record needs nothing done (new, or at the latest version), synchronously:
 * for tests, benches and tools. A damaged cache is rebuilt; whatever else startStore would do
 * first throws StoreUnavailableError.
 */
export function openStore(options: OpenStoreOptions): OpenStoreResult {
  return assemble(openStoreFilesSync(options), options);
}

function assemble(opened: OpenedStoreFiles, options: OpenStoreOptions): OpenStoreResult {
  const { db, paths } = opened;
  const now = options.now ?? Date.now;
  const store: Store = {
    db,
    path: paths.record,
    paths,
    schemaVersion: opened.recordVersion,
    recordVersion: opened.recordVersion,
    cacheVersion: opened.cacheVersion,
    profiles: new ProfilesRepository(db),
    settings: new SettingsRepository(db),
    funds: new FundsRepository(db),
    prices: new PricesRepository(db),
    withdraws: new WithdrawsRepository(db),
    wallet: new WalletRepository(db),
    subAccounts: new SubAccountsRepository(db),
    subAccountKeys: new SubAccountKeysRepository(db),
    orders: new OrdersRepository(db),
    notifications: new NotificationsRepository(db),
    syncState: new SyncStateRepository(db),
    journal: new JournalRepository(db, JournalFile.in(paths.dataDir)),
    ledger: new LedgerRepository(db),
    alerts: new AlertsRepository(db),
    answers: new AnswersRepository(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    backup: async () => {
      const taken = await backupRecord(db, paths.backups, 'rotated', now());
      pruneRotated(paths.backups, options.keepBackups);
      return taken;
    },
    backupBefore: (action) => backupBeforeAction(db, paths.backups, action, now()),
    close: () => {
      if (db.open) db.close();
    },
  };
  const result: OpenStoreResult = { store, notices: opened.notices };
  if (opened.cacheRebuilt) result.recovered = opened.cacheRebuilt;
  if (opened.startBackup) result.startBackup = opened.startBackup;
  return result;
}
