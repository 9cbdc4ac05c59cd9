/**
 * Row types of the SQLite cache: camelCase objects, amounts as decimal text, times as integer
 * ms. The input types are structural so the exchange client's wire types (electron/exchange/wire.ts)
 * can be passed as they are, and so can hand-built objects in tests.
 */
import type {
  DecimalText,
  NotificationKind,
  OrderSide,
  OrderStatus,
  OrderType,
} from '../../shared/types';

export type { NotificationKind, OrderSide, OrderStatus, OrderType };

// ---------------------------------------------------------------------------------------------
// Profiles and settings

export interface ProfileRow {
  id: string;
  name: string;
  baseUrl: string;
  streamUrl: string;
  /** e.g. "AbCd…wxyz" (see maskApiKey); the key itself lives in the OS keychain only. */
  apiKeyMasked: string;
  canTrade: boolean;
  canWithdraw: boolean;
  isDemo: boolean;
  createdAt: number;
}

export type ProfileInput = ProfileRow;
export type ProfilePatch = Partial<Omit<ProfileRow, 'id' | 'createdAt'>>;

/** Any JSON value a setting may hold. */
export type JsonValue = JsonScalar | JsonValue[] | { [key: string]: JsonValue };
type JsonScalar = null | boolean | number | string;

// ---------------------------------------------------------------------------------------------
// Funds, snapshots and prices

/** The wire's Fund (asset, free, locked, reservedFee?). */
export interface FundInput {
  asset: string;
  free: DecimalText;
  locked: DecimalText;
  reservedFee?: DecimalText | null;
}

/** A balance as the cache holds it (the bridge's FundRow adds value and price to it). */
export interface FundRecordRow {
  asset: string;
  free: DecimalText;
  locked: DecimalText;
  reservedFee: DecimalText | null;
  updatedAt: number;
}

/** One balance of an outboundAccountPosition event (a asset, b free, l locked). */
export interface BalanceChange {
  asset: string;
  free: DecimalText;
  locked: DecimalText;
}

/** A fund joined with the latest price of `<asset><quote>` (lowercase symbol) when one is cached. */
export interface FundWithPriceRow extends FundRecordRow {
  /** The symbol the price comes from, e.g. 'btcusdt'; null when none is cached. */
  priceSymbol: string | null;
  /** Last price in the quote asset: '1' for the quote asset itself, null when no direct pair. */
  lastPrice: DecimalText | null;
  /** Open price of the 24h window (for the 24h change), same rules as lastPrice. */
  openPrice: DecimalText | null;
  priceAt: number | null;
}

export interface FundSnapshotInput {
  takenAt: number;
  quoteAsset: string;
  totalValue: DecimalText;
  /** Per-asset holdings and values at that moment. */
  assets: { asset: string; total: DecimalText; value: DecimalText | null }[];
}

export type FundSnapshotRow = FundSnapshotInput;

/** The wire's Ticker (REST 24hr ticker). */
export interface TickerInput {
  symbol: string;
  openPrice: DecimalText;
  lowPrice: DecimalText;
  highPrice: DecimalText;
  lastPrice: DecimalText;
  volume: DecimalText;
  bidPrice: DecimalText;
  askPrice: DecimalText;
  at: number;
}

/** The wire's all-market ticker stream element (s, c, o, h, l, b, a, q, E). */
export interface TickerEventInput {
  s: string;
  c: DecimalText;
  o: DecimalText;
  h: DecimalText;
  l: DecimalText;
  b: DecimalText;
  a: DecimalText;
  q: DecimalText;
  E: number;
}

export interface PriceRow {
  symbol: string;
  last: DecimalText;
  open: DecimalText;
  high: DecimalText;
  low: DecimalText;
  bid: DecimalText;
  ask: DecimalText;
  volume: DecimalText;
  at: number;
}

/** A finished candle's close. */
export interface KlineClose {
  openTime: number;
  close: DecimalText;
}

// ---------------------------------------------------------------------------------------------
// Withdraws

/**
 * The wire's WithdrawRecord. Times are the wire's 'YYYY-MM-DD HH:MM:SS' UTC text (or ms already);
 * partnerTransfer may still be the string "true"/"false" one sample shows.
 */
export interface WithdrawInput {
  id: string | number;
  partnerTransfer: boolean | string;
  address?: string | null;
  amount: DecimalText;
  createdAt: string | number;
  lastUpdated: string | number;
  coin: string;
  withdrawOrderId?: string | null;
  network?: string | null;
  status: number;
  transactionFee: DecimalText;
  failureInfo?: string | null;
  txId?: string | null;
}

export interface WithdrawRow {
  id: string;
  coin: string;
  network: string | null;
  address: string | null;
  amount: DecimalText;
  transactionFee: DecimalText;
  /** The exchange's code, as WITHDRAW_STATUS_CODES (shared/market.ts) reads it. */
  status: number;
  partnerTransfer: boolean;
  withdrawOrderId: string | null;
  txId: string | null;
  /** null when the exchange sent an empty failureInfo. */
  failureInfo: string | null;
  createdAt: number;
  lastUpdated: number;
}

export type SortDirection = 'asc' | 'desc';

export interface WithdrawQuery {
  coin?: string;
  /** 'onchain': partnerTransfer false; 'partner': partnerTransfer true. */
  type?: 'onchain' | 'partner';
  status?: number | number[];
  /** Inclusive bounds on createdAt, ms. */
  from?: number;
  to?: number;
  /** Substring of address, txId or withdrawOrderId, or the exact id. */
  search?: string;
  sort?: 'time' | 'amount';
  direction?: SortDirection;
  offset?: number;
  /** 1..1000, default 100. */
  limit?: number;
}

export interface PageResult<T> {
  rows: T[];
  /** Rows matching the filters, regardless of offset/limit. */
  total: number;
}

// ---------------------------------------------------------------------------------------------
// Wallet

/** The wire's DepositAddress. */
export interface DepositAddressInput {
  address: string;
  coin: string;
  tag?: string | null;
  url?: string | null;
}

export interface DepositAddressRow {
  coin: string;
  network: string;
  address: string;
  /** Empty string when the coin has no memo/tag. */
  tag: string;
  url: string;
  fetchedAt: number;
}

/** The wire's CoinInfo; stored as JSON, so extra fields the exchange sends survive. */
export interface CoinInput {
  coin: string;
  [field: string]: unknown;
}

export interface CoinRow<T extends CoinInput = CoinInput> {
  coin: string;
  info: T;
  fetchedAt: number;
}

// ---------------------------------------------------------------------------------------------
// Sub-accounts

/** The wire's SubAccountRecord. */
export interface SubAccountInput {
  email: string;
  status: string;
  portfolio: DecimalText;
  created_at: number;
  balance: { symbol: string; balance: DecimalText }[];
}

export interface SubAccountRow {
  email: string;
  status: string;
  portfolio: DecimalText;
  createdAt: number;
  fetchedAt: number;
  balances: { asset: string; balance: DecimalText }[];
}

/** The wire's SubTransferRecord. */
export interface SubTransferInput {
  txnId: number;
  asset: string;
  from: string;
  to: string;
  qty: DecimalText;
  status: string;
  time: number;
}

export interface SubTransferRow {
  txnId: number;
  asset: string;
  fromEmail: string;
  toEmail: string;
  qty: DecimalText;
  status: string;
  time: number;
}

export interface SubTransferQuery {
  asset?: string;
  /** Transfers where this e-mail is the sender or the receiver. */
  email?: string;
  from?: number;
  to?: number;
  direction?: SortDirection;
  offset?: number;
  limit?: number;
}

// ---------------------------------------------------------------------------------------------
// Orders and own trades

/** The wire's Order. */
export interface OrderInput {
  id: number;
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: DecimalText;
  stopPrice?: DecimalText | null;
  origQty: DecimalText;
  executedQty: DecimalText;
  createdTime: number;
  updatedTime: number;
}

export interface OrderRow {
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
  /** When the exchange was found to know the order no more (see markOrdersGone); else null. */
  goneAt: number | null;
}

export interface OrderQuery {
  /** The accounts read ('main' or a linked sub-account's e-mail); left out, the main account. */
  accounts?: readonly string[];
  symbol?: string;
  side?: OrderSide;
  status?: OrderStatus | OrderStatus[];
  /** Inclusive bounds on createdTime, ms. */
  from?: number;
  to?: number;
  direction?: SortDirection;
  offset?: number;
  limit?: number;
}

/** The wire's OwnTrade. */
export interface OwnTradeInput {
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

export interface OwnTradeRow extends OwnTradeInput {
  /** The account the trade is of: 'main', or a linked sub-account's e-mail (lower case). */
  account: string;
}

export interface OwnTradeQuery {
  /** The accounts read ('main' or a linked sub-account's e-mail); left out, the main account. */
  accounts?: readonly string[];
  symbol?: string;
  side?: OrderSide;
  orderId?: number;
  /** Inclusive bounds on time, ms. */
  from?: number;
  to?: number;
  direction?: SortDirection;
  offset?: number;
  limit?: number;
}

// ---------------------------------------------------------------------------------------------
// Notifications and sync state

export interface NotificationInput {
  kind: NotificationKind;
  title: string;
  body: string;
  time: number;
}

export interface NotificationRow extends NotificationInput {
  id: number;
  read: boolean;
}

export interface SyncStateRow<T extends JsonValue = JsonValue> {
  kind: string;
  /** What was fetched up to (ids, times, windows), as the sync step that wrote it defines. */
  cursor: T;
  updatedAt: number;
}
