/**
 * Domain types that cross the bridge. Amounts are decimal strings, times integer ms.
 * Nothing here carries a secret: the secret key never leaves the main process.
 */

export type Decimal = string;

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

export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  streamUrl: string;
  /** e.g. "AbCd…wxyz": enough to recognise a key, never the key itself. */
  apiKeyMasked: string;
  canTrade: boolean;
  canWithdraw: boolean;
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
  connection: ConnectionState;
  keychain: KeychainStatus;
  /** Set once when the cache file was unreadable and has been rebuilt. */
  storeRecovered?: { movedTo: string; reason: string };
  /** The longest wait, in ms, a queued exchange call has in front of it now. */
  pacingWaitMs: number;
}

export interface AllocationSlice {
  asset: string;
  value: Decimal;
  /** Share of the total, 0..1, as a decimal string. */
  share: Decimal;
}

export interface PortfolioSummary {
  quoteAsset: string;
  totalValue: Decimal;
  change24hValue: Decimal;
  change24hPercent: Decimal;
  allocation: AllocationSlice[];
  /** Assets held for which no price path to the quote asset exists. */
  unpriced: string[];
  asOf: number | null;
}

export type HistoryRange = 'day' | 'week' | 'month' | 'year' | 'all';

export interface ValuePoint {
  time: number;
  value: Decimal;
  /** 'snapshot': recorded while running; 'backfill': current holdings at past prices. */
  source: 'snapshot' | 'backfill';
}

export interface PortfolioHistory {
  quoteAsset: string;
  range: HistoryRange;
  points: ValuePoint[];
}

export interface FundRow {
  asset: string;
  free: Decimal;
  locked: Decimal;
  reservedFee: Decimal | null;
  total: Decimal;
  /** Price of one unit in the quote asset; null when no price path exists. */
  price: Decimal | null;
  value: Decimal | null;
}

export interface FundsView {
  quoteAsset: string;
  rows: FundRow[];
  asOf: number | null;
  stale: boolean;
}

export type WithdrawStatus = 'success' | 'failed' | 'pending' | 'cancelled';

export interface WithdrawView {
  id: string;
  coin: string;
  amount: Decimal;
  transactionFee: Decimal;
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
}

export interface NetworkView {
  network: string;
  name: string;
  isDefault: boolean;
  depositEnable: boolean;
  withdrawEnable: boolean;
  memoRequired: boolean;
  confirmations: number;
  withdrawFee: Decimal;
  withdrawMin: Decimal;
  withdrawMax: Decimal;
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

export interface SubAccountView {
  email: string;
  status: string;
  portfolio: Decimal;
  createdAt: number;
  balances: { asset: string; balance: Decimal }[];
}

export interface SubAccountsView {
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
  amount: Decimal;
  /** Where the funds are now, as far as is known; for the user to finish a partial move. */
  fundsAt: string | null;
}

export interface SubTransferView {
  txnId: number;
  asset: string;
  fromEmail: string;
  toEmail: string;
  qty: Decimal;
  status: string;
  time: number;
}

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'limit' | 'stop_limit';
export type OrderStatus = 'idle' | 'wait' | 'done' | 'cancel';

export interface OrderView {
  id: number;
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: Decimal;
  stopPrice: Decimal | null;
  origQty: Decimal;
  executedQty: Decimal;
  createdTime: number;
  updatedTime: number;
}

export interface OwnTradeView {
  id: number;
  symbol: string;
  orderId: number;
  side: OrderSide;
  price: Decimal;
  qty: Decimal;
  quoteQty: Decimal;
  fee: Decimal;
  feeCurrency: string;
  isBuyerMaker: boolean;
  time: number;
}

export interface TradesPage extends Page<OwnTradeView> {
  /** Fees paid over the whole filtered set, per asset. */
  feesByAsset: { asset: string; fee: Decimal }[];
}

export interface SymbolView {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  baseAssetPrecision: number;
  quoteAssetPrecision: number;
  tickSize: Decimal;
  minPrice: Decimal;
  orderTypes: OrderType[];
}

export interface TickerView {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  lastPrice: Decimal;
  openPrice: Decimal;
  highPrice: Decimal;
  lowPrice: Decimal;
  volume: Decimal;
  bidPrice: Decimal;
  askPrice: Decimal;
  at: number;
}

export interface KlineView {
  time: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
}

export interface DepthView {
  symbol: string;
  bids: [Decimal, Decimal][];
  asks: [Decimal, Decimal][];
  at: number;
}

export interface PublicTradeView {
  id: number;
  price: Decimal;
  qty: Decimal;
  time: number;
  isBuyerMaker: boolean;
}

export interface AccountView {
  accountType: string;
  canTrade: boolean;
  canWithdraw: boolean;
  updateTime: number;
}

export type Theme = 'light' | 'dark' | 'system';

export interface NotificationSettings {
  fills: boolean;
  cancels: boolean;
  balances: boolean;
  transfers: boolean;
}

export interface Settings {
  quoteAsset: string;
  theme: Theme;
  privacyMode: boolean;
  hideSmallBalances: boolean;
  /** Balances worth less than this (in the quote asset) are "small". */
  smallBalanceThreshold: Decimal;
  notifications: NotificationSettings;
}

export type NotificationKind = 'fill' | 'cancel' | 'balance' | 'transfer' | 'order';

export interface NotificationView {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  time: number;
  read: boolean;
}

export interface BalanceUpdate {
  asset: string;
  free: Decimal;
  locked: Decimal;
  time: number;
}

export interface OrderUpdate {
  orderId: number;
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: Decimal;
  origQty: Decimal;
  executedQty: Decimal;
  time: number;
}

export interface OwnTradeUpdate {
  tradeId: number;
  orderId: number;
  symbol: string;
  side: OrderSide;
  price: Decimal;
  qty: Decimal;
  fee: Decimal;
  feeCurrency: string;
  time: number;
}

export type ActivityItem =
  | { kind: 'order'; time: number; order: OrderUpdate }
  | { kind: 'trade'; time: number; trade: OwnTradeUpdate }
  | { kind: 'balance'; time: number; balance: BalanceUpdate };

export type DataKind =
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
  | 'notifications';

export interface CsvExport {
  fileName: string;
  content: string;
  rows: number;
}
