/**
 * Domain types that cross the bridge. Amounts are decimal strings, times integer ms.
 * Nothing here carries a secret: the secret key never leaves the main process.
 */

import type { WithdrawStatus } from './market';

/** An amount as exact decimal text ("12.5"): the bridge never carries a float. */
export type DecimalText = string;

export type ErrorKind =
  | 'invalid-input'
  | 'auth'
  | 'permission'
  | 'rate-limited'
  | 'banned'
  | 'not-found'
  | 'insufficient-balance'
  | 'network'
  | 'unknown-outcome'
  | 'server'
  | 'keychain'
  | 'no-profile'
  /** The app is locked: only the lock's own methods are answered until it is unlocked. */
  | 'locked'
  /**
   * A sensitive action while a lock password is set and it was last given more than a few
   * minutes ago: give it again (lock.confirm), then repeat the call.
   */
  | 'confirm-password'
  | 'internal';

/** What a failed bridge call carries to the renderer. */
export interface BridgeErrorPayload {
  kind: ErrorKind;
  message: string;
  /** The exchange's error code, when the exchange answered with one. */
  code?: number;
  /** The input field at fault, for invalid input. */
  field?: string;
}

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** Whether the exchange's REST interface answers ('unknown' before the first call's outcome). */
export type RestState = 'unknown' | 'ok' | 'offline';

/** The REST side of the connection; the private stream's state is ConnectionState. */
export interface RestStatus {
  state: RestState;
  /** When the state last changed; null while unknown. */
  since: number | null;
  /** Why it is offline, in words. */
  message?: string;
  /**
   * Set while offline when the exchange's address has refused every connection for a while
   * (nothing listens there: not a timeout): the exchange is stopped, or its address has changed.
   */
  refused?: { since: number; attempts: number };
}

/** A profile the user removed: its record rows are kept, restorable with its key. */
export interface RemovedProfileView {
  id: string;
  name: string;
  baseUrl: string;
  apiKeyMasked: string;
  createdAt: number;
  removedAt: number;
}

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  streamUrl: string;
  /** e.g. "AbCd…wxyz": enough to recognise a key, never the key itself. */
  apiKeyMasked: string;
  /** Every key may read its account; these say what else it may do. */
  canTrade: boolean;
  canWithdraw: boolean;
  /** Sub-account transfers: the trade permission, on the key of a main account. */
  canTransfer: boolean;
  isDemo: boolean;
  createdAt: number;
  active: boolean;
}

export interface KeychainStatus {
  available: boolean;
  /** What to start or unlock when the keychain is not available. */
  message?: string;
}

export interface AppStatus {
  version: string;
  mode: 'desktop' | 'browser';
  activeProfileId: string | null;
  demo: boolean;
  /** The private stream of the active profile. */
  connection: ConnectionState;
  /** The REST interface of the active profile's exchange, apart from its stream. */
  rest: RestStatus;
  keychain: KeychainStatus;
  /** Set once when the cache file was unreadable and has been rebuilt (also in storeNotices). */
  storeRecovered?: { movedTo: string; reason: string };
  /** What happened to the local data at this start that the user must be told, oldest first. */
  storeNotices?: StoreNotice[];
  /**
   * Set when the record could not be opened: the app then runs nothing else, and the page shows
   * this on a screen of its own instead of starting afresh.
   */
  recordUnavailable?: RecordUnavailable;
  /** The longest wait, in ms, a queued exchange call has in front of it now. */
  pacingWaitMs: number;
}

/**
 * Something the store did at start-up to the user's local data. `id` is unique per start, so a
 * notice dismissed on screen stays dismissed across reloads of the page.
 */
export type StoreNotice =
  | {
      /** The cache was damaged: moved aside, made anew, and filled again from the exchange. */
      kind: 'cache-rebuilt';
      id: string;
      reason: string;
      movedTo: string;
    }
  | {
      /** The record was damaged or missing: the newest backup was restored. */
      kind: 'record-restored';
      id: string;
      reason: string;
      /** Where the damaged file was kept; null when there was no file. */
      movedTo: string | null;
      backupPath: string;
      /** When the restored backup was taken: changes made after it may be missing. */
      backupTakenAt: number;
      /**
       * Transfers and orders the money journal wrote after the backup, brought back from its own
       * file (and checked with the exchange at the profile's start).
       */
      journalKept?: number;
      /** Journal entries of profiles the backup does not have: kept in the journal's file only. */
      journalWithoutProfile?: number;
    }
  | {
      /** The record was damaged and no usable backup existed: the app started with an empty one. */
      kind: 'record-lost';
      id: string;
      reason: string;
      movedTo: string | null;
    };

/** Why the record could not be opened, and where the user's files are. */
export interface RecordUnavailable {
  problem: 'migration-failed' | 'newer-version' | 'unreadable';
  /** What went wrong, in words. */
  message: string;
  /** The record file, left as it was. */
  path: string;
  /** The backup taken before the attempt, when one was. */
  backupPath: string | null;
  /** What the user can do. */
  help: string;
}

export interface AllocationSlice {
  asset: string;
  value: DecimalText;
  /** Share of the total, 0..1, as a decimal string. */
  share: DecimalText;
}

export interface PortfolioSummary {
  quoteAsset: string;
  totalValue: DecimalText;
  change24hValue: DecimalText;
  change24hPercent: DecimalText;
  allocation: AllocationSlice[];
  /** Assets held for which no price path to the quote asset exists. */
  unpriced: string[];
  asOf: number | null;
}

export const HISTORY_RANGES = ['day', 'week', 'month', 'year', 'all'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

const DAY_MS = 86_400_000;
/** How far back each range of the value history and the P&L reaches from now. */
export const HISTORY_SPAN_MS: Record<HistoryRange, number> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
  all: 5 * 365 * DAY_MS,
};

export interface FundRow {
  asset: string;
  free: DecimalText;
  locked: DecimalText;
  reservedFee: DecimalText | null;
  total: DecimalText;
  /** Price of one unit in the quote asset; null when no price path exists. */
  price: DecimalText | null;
  value: DecimalText | null;
}

export interface FundsView {
  quoteAsset: string;
  rows: FundRow[];
  asOf: number | null;
  stale: boolean;
}

export type { WithdrawStatus };

export interface WithdrawView {
  id: string;
  coin: string;
  amount: DecimalText;
  transactionFee: DecimalText;
  status: WithdrawStatus;
  partnerTransfer: boolean;
  address: string | null;
  network: string | null;
  txId: string | null;
  withdrawOrderId: string | null;
  failureInfo: string | null;
  createdAt: number;
  lastUpdated: number;
}

export interface Page<T> {
  rows: T[];
  total: number;
  asOf: number | null;
}

export interface BackfillProgress {
  state: 'idle' | 'running' | 'done' | 'error';
  doneWindows: number;
  totalWindows: number;
  records: number;
  /** The oldest time the cache covers without gaps. */
  coveredFrom: number | null;
  error?: string;
  /**
   * While running: the next request waits for the exchange's rate limit on the withdraw history
   * (a few calls a minute) until about this time (ms). Not kept: only the running engine knows.
   */
  waitingUntil?: number;
}

export interface NetworkView {
  network: string;
  name: string;
  isDefault: boolean;
  depositEnable: boolean;
  withdrawEnable: boolean;
  memoRequired: boolean;
  confirmations: number;
  withdrawFee: DecimalText;
  withdrawMin: DecimalText;
  withdrawMax: DecimalText;
}

export interface CoinView {
  coin: string;
  name: string;
  networks: NetworkView[];
}

export interface DepositAddressView {
  coin: string;
  network: string;
  address: string;
  tag: string;
  url: string;
  memoRequired: boolean;
  fetchedAt: number;
  fromCache: boolean;
}

/** A deposit address asked for that has not come yet. */
export interface DepositAddressRequest {
  coin: string;
  network: string;
  /** 'queued': waiting for the one-a-minute slot; 'fetching': sent to the exchange. */
  state: 'queued' | 'fetching';
  /** When a queued request goes out (the pacer's next slot for it); null once it has. */
  startsAt: number | null;
}

export interface SubAccountView {
  email: string;
  status: string;
  /** The balances valued in the quote asset of SubAccountsView (not the exchange's own figure). */
  value: DecimalText;
  /** Assets held for which no price path to the quote asset exists (not counted in value). */
  unpriced: string[];
  createdAt: number;
  balances: { asset: string; balance: DecimalText }[];
  /**
   * The sub-account's own API key, when the user linked one (the ledger then reads its trades);
   * null when only its balances are known.
   */
  link: { apiKeyMasked: string; linkedAt: number } | null;
}

export interface SubAccountsView {
  /** The asset every value of this view is in (the user's quote asset). */
  quoteAsset: string;
  parentEmail: string | null;
  accounts: SubAccountView[];
  asOf: number | null;
}

export interface TransferLeg {
  fromEmail: string;
  toEmail: string;
  status: 'success' | 'failed' | 'unknown' | 'not-sent';
  txnId?: number;
  message?: string;
}

export interface TransferOutcome {
  /** completed: every leg succeeded; partial: the first leg of a sub-to-sub move succeeded only. */
  state: 'completed' | 'partial' | 'failed' | 'unknown';
  legs: TransferLeg[];
  asset: string;
  amount: DecimalText;
  /** Where the funds are now, as far as is known; for the user to finish a partial move. */
  fundsAt: string | null;
  /** The money journal's entry of the move (journal.*), to finish or resolve it later. */
  journalId?: number;
}

export interface SubTransferView {
  txnId: number;
  asset: string;
  fromEmail: string;
  toEmail: string;
  qty: DecimalText;
  status: string;
  time: number;
}

export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export const ORDER_TYPES = ['limit', 'stop_limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export const ORDER_STATUSES = ['idle', 'wait', 'done', 'cancel'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderView {
  /** The account the order is of: 'main', or a linked sub-account's e-mail (lower case). */
  account: string;
  id: number;
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: DecimalText;
  stopPrice: DecimalText | null;
  origQty: DecimalText;
  executedQty: DecimalText;
  createdTime: number;
  updatedTime: number;
  /**
   * Set (ms) when the exchange no longer knows the order: neither its order lookup nor its order
   * history has it (the exchange was reset). Such an order is kept in the history, never open.
   * Absent from an answer of the exchange itself.
   */
  goneAt?: number | null;
}

export interface OwnTradeView {
  /** The account the trade is of: 'main', or a linked sub-account's e-mail (lower case). */
  account: string;
  id: number;
  symbol: string;
  orderId: number;
  side: OrderSide;
  price: DecimalText;
  qty: DecimalText;
  quoteQty: DecimalText;
  fee: DecimalText;
  feeCurrency: string;
  isBuyerMaker: boolean;
  time: number;
}

/**
 * The accounts a read of orders or trades covers (its `account` input: 'main', a sub-account's
 * e-mail, or left out for every account), and those of its scope it cannot read.
 */
export interface AccountsCovered {
  /** 'main' and the linked sub-accounts read, in that order. */
  accounts: string[];
  /**
   * Sub-accounts of the scope with no key of their own linked: the parent's key cannot read their
   * orders or trades (they are linked on the Sub-accounts screen).
   */
  unlinked: string[];
  /** Every sub-account of the profile, as sync last listed them. */
  subAccounts: string[];
  /**
   * The sub-accounts of the profile linked to a key of their own, whatever the scope: with any,
   * the screen's rows may be of several accounts and each says its account.
   */
  linked: string[];
}

export interface OrdersPage extends Page<OrderView>, AccountsCovered {}

export interface TradesPage extends Page<OwnTradeView>, AccountsCovered {
  /** Fees paid over the whole filtered set, per asset. */
  feesByAsset: { asset: string; fee: DecimalText }[];
}

export interface SymbolView {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  baseAssetPrecision: number;
  quoteAssetPrecision: number;
  tickSize: DecimalText;
  minPrice: DecimalText;
  orderTypes: OrderType[];
}

/** One check of an order made before it is placed, with the numbers it compared. */
export interface OrderCheck {
  check: 'tick' | 'step' | 'limits' | 'price' | 'stop' | 'balance' | 'exchange';
  /**
   * 'skipped': not run, because an earlier check already refused the order. 'warning': the order
   * may be placed, but something in it deserves a second look (a price far from the last price).
   */
  status: 'passed' | 'warning' | 'failed' | 'skipped';
  text: string;
}

/** What orders.test found: every check in order; ok only when none failed. */
export interface OrderReview {
  ok: boolean;
  checks: OrderCheck[];
}

export interface TickerView {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  lastPrice: DecimalText;
  openPrice: DecimalText;
  highPrice: DecimalText;
  lowPrice: DecimalText;
  /** 24h volume in the base asset. */
  volume: DecimalText;
  /** 24h volume in the quote asset: the exchange's sum, or volume x last price without one. */
  quoteVolume: DecimalText;
  /** True when quoteVolume is volume x last price rather than the exchange's own sum. */
  quoteVolumeEstimated: boolean;
  /** quoteVolume in the user's quote asset, to compare markets; null without a price path. */
  quoteVolumeValue: DecimalText | null;
  bidPrice: DecimalText;
  askPrice: DecimalText;
  at: number;
}

export interface KlineView {
  time: number;
  open: DecimalText;
  high: DecimalText;
  low: DecimalText;
  close: DecimalText;
  volume: DecimalText;
}

export interface DepthView {
  symbol: string;
  bids: [DecimalText, DecimalText][];
  asks: [DecimalText, DecimalText][];
  at: number;
}

export interface PublicTradeView {
  id: number;
  price: DecimalText;
  qty: DecimalText;
  time: number;
  isBuyerMaker: boolean;
}

export interface AccountView {
  accountType: string;
  canTrade: boolean;
  canWithdraw: boolean;
  updateTime: number;
}

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

export interface NotificationSettings {
  fills: boolean;
  cancels: boolean;
  balances: boolean;
  transfers: boolean;
  /** Price and balance alerts that fired. */
  alerts: boolean;
}

export interface Settings {
  quoteAsset: string;
  theme: Theme;
  privacyMode: boolean;
  hideSmallBalances: boolean;
  /** Balances worth less than this (in the quote asset) are "small". */
  smallBalanceThreshold: DecimalText;
  /** The order review warns when an order's price is more than this percentage from the last price. */
  priceWarningPercent: DecimalText;
  notifications: NotificationSettings;
  /**
   * With a lock password set, placing an order worth more than this (in the quote asset) asks for
   * the password again when it was last given more than a few minutes ago.
   */
  confirmOrdersAbove: DecimalText;
}

export type NotificationKind = 'fill' | 'cancel' | 'balance' | 'transfer' | 'order' | 'alert';

export interface NotificationView {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  time: number;
  read: boolean;
  /** Shown in place of the toast of the same group (e.g. one asset set's balance changes). */
  group?: string;
}

export interface BalanceUpdate {
  asset: string;
  free: DecimalText;
  locked: DecimalText;
  time: number;
}

export interface OrderUpdate {
  orderId: number;
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: DecimalText;
  origQty: DecimalText;
  executedQty: DecimalText;
  time: number;
}

export interface OwnTradeUpdate {
  tradeId: number;
  orderId: number;
  symbol: string;
  side: OrderSide;
  price: DecimalText;
  qty: DecimalText;
  fee: DecimalText;
  feeCurrency: string;
  time: number;
}

export type ActivityItem =
  | { kind: 'order'; time: number; order: OrderUpdate }
  | { kind: 'trade'; time: number; trade: OwnTradeUpdate }
  | { kind: 'balance'; time: number; balance: BalanceUpdate };

export type DataKind =
  /** Price and balance alerts: created, edited, fired. */
  | 'alerts'
  | 'profiles'
  | 'funds'
  | 'portfolio'
  | 'prices'
  | 'withdrawals'
  | 'deposits'
  | 'subAccounts'
  | 'orders'
  | 'trades'
  | 'settings'
  | 'notifications'
  /** The money journal: transfers and orders the app started, and how they ended. */
  | 'journal'
  /** What app.status tells: the REST interface's reachability. */
  | 'status';

/** The separators a CSV export may use. */
export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

export interface CsvExport {
  fileName: string;
  content: string;
  rows: number;
}

/**
 * An entry of Spotfolio's in the OS keychain whose profile is gone (the record was lost or
 * restored from an older backup): offered back to the user to re-attach or delete.
 */
export interface OrphanedKeyView {
  /** The entry's name in the keychain (the id of the profile it was made for). */
  id: string;
  /** The API key masked as profiles show it; null when the entry does not hold a key pair. */
  apiKeyMasked: string | null;
}

/**
 * A money movement the app started, as its journal keeps it: written before the first request,
 * each step updated as it completes, so a process that died half-way leaves a trace that is
 * reconciled with the exchange at the next start.
 * - in-progress: being sent now, or waiting to be checked with the exchange
 * - unknown: the exchange could not be asked (offline); checked again on reconnect
 * - stopped: a step is missing and the funds are somewhere the user did not ask for
 * - completed / not-made: every step happened / nothing happened
 * - resolved: the user chose to leave the funds where they are
 */
export const JOURNAL_STATUSES = [
  'in-progress',
  'unknown',
  'stopped',
  'completed',
  'not-made',
  'resolved',
] as const;
export type JournalStatus = (typeof JOURNAL_STATUSES)[number];

/** pending: not sent; sending: sent without a recorded answer; done; not-made: known refused. */
export type JournalStepStatus = 'pending' | 'sending' | 'done' | 'not-made';

export interface JournalStepView {
  /** A transfer leg's accounts; null for an order. */
  fromEmail: string | null;
  toEmail: string | null;
  /** An order's client order id; null for a transfer leg. */
  clientOrderId: string | null;
  status: JournalStepStatus;
  /** The exchange's txnId (a transfer) or orderId (an order), once known. */
  ref: string | null;
  /** Why a step was not made, or what the last attempt met. */
  message: string | null;
}

/** What the user may do with an entry: send the missing leg, leave the funds, or acknowledge. */
export type JournalAction = 'finish' | 'resolve' | 'dismiss';

export interface JournalEntryView {
  id: number;
  kind: 'transfer' | 'order';
  /** The asset moved (a transfer) or the market (an order). */
  asset: string;
  /** The amount moved, or the order's quantity. */
  amount: DecimalText;
  fromEmail: string | null;
  toEmail: string | null;
  /** The main account a sub-to-sub move passes through; null for a single transfer. */
  viaEmail: string | null;
  order: { side: string; type: string; price: DecimalText } | null;
  status: JournalStatus;
  /** The account that holds the funds now, when a transfer is known to have stopped half-way. */
  fundsAt: string | null;
  /** The facts in words, e.g. "0.5 BTC left a@x and is in your main account; it did not reach b@x". */
  facts: string;
  actions: JournalAction[];
  createdAt: number;
  updatedAt: number;
  steps: JournalStepView[];
}
