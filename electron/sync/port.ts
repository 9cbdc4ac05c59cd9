/**
 * What sync reads and writes in the store, in sync's own words. The engine, the backfill and the
 * valuation talk to this port only; ./store-port.ts maps it onto the store's repositories, so a
 * renamed repository method is fixed in one place.
 */
import type {
  CoinInfo,
  Fund,
  Order,
  OwnTrade,
  SubAccountRecord,
  SubTransferRecord,
  SymbolInfo,
  Ticker,
  WithdrawRecord,
  AccountInfo,
  DepositAddress,
} from '../exchange';
import type {
  DepositAddressRow,
  FundRecordRow,
  FundSnapshotInput,
  FundSnapshotRow,
  JsonValue,
  KlineClose,
  OwnTradeRow,
  PriceRow,
  SubAccountRow,
  SubTransferRow,
  WithdrawRow,
  WithdrawQuery,
  OwnTradeQuery,
  SubTransferQuery,
} from '../store/types';

/** One symbol's candles of one interval. */
export interface KlineSeries {
  symbol: string;
  interval: string;
}

export interface SyncStatePort {
  get<T extends JsonValue>(profileId: string, key: string): { cursor: T; updatedAt: number } | null;
  set(profileId: string, key: string, cursor: JsonValue, at: number): void;
}

export interface SyncStorePort {
  /** Runs fn in one SQLite transaction (better-sqlite3: synchronous, all or nothing). */
  transaction<T>(fn: () => T): T;
  state: SyncStatePort;

  /** The full list, asked for at `askedAt` (default `at`): what the stream changed since stays. */
  replaceFunds(profileId: string, funds: Fund[], at: number, askedAt?: number): void;
  funds(profileId: string): FundRecordRow[];

  replaceTickers(profileId: string, tickers: Ticker[], at: number): void;
  prices(profileId: string): PriceRow[];
  /**
   * Closes of finished candles, and the span [from, to] of open times already fetched (a candle
   * the exchange does not have inside it is known to be missing, not still to fetch).
   */
  klineCloses(
    profileId: string,
    series: KlineSeries,
    from: number,
    to: number,
  ): { closes: KlineClose[]; covered: { from: number; to: number } | null };
  putKlineCloses(
    profileId: string,
    series: KlineSeries,
    closes: KlineClose[],
    covered: { from: number; to: number },
    at: number,
  ): void;

  /**
   * Candles kept for the prices of entries' times (apart from the candles above, which a range
   * keeps from its start and prunes before), and the spans [from, to] of open times whose candles
   * are all kept; a span from 0 means the exchange had none of the interval before `to`.
   */
  entryCloses(
    profileId: string,
    series: KlineSeries,
  ): { closes: KlineClose[]; spans: [number, number][] };
  putEntryCloses(
    profileId: string,
    series: KlineSeries,
    closes: KlineClose[],
    spans: [number, number][],
    at: number,
  ): void;

  putAccount(profileId: string, info: AccountInfo, at: number): void;

  replaceCoins(profileId: string, coins: CoinInfo[], at: number): void;
  coins(profileId: string): { coins: CoinInfo[]; fetchedAt: number | null };

  upsertWithdrawals(profileId: string, records: WithdrawRecord[]): number;
  withdrawals(profileId: string, query: WithdrawQuery): { rows: WithdrawRow[]; total: number };
  oldestPendingWithdrawal(profileId: string): number | null;

  depositAddress(profileId: string, coin: string, network: string): DepositAddressRow | null;
  putDepositAddress(profileId: string, network: string, address: DepositAddress, at: number): void;

  replaceSubAccounts(profileId: string, accounts: SubAccountRecord[], at: number): void;
  subAccounts(profileId: string): SubAccountRow[];
  upsertTransfers(profileId: string, records: SubTransferRecord[]): void;
  transfers(profileId: string, query: SubTransferQuery): { rows: SubTransferRow[]; total: number };

  // An order's account is 'main' (the default) or a linked sub-account's e-mail, read with its key.
  /** Orders the store holds as open (idle or wait) of one account. */
  openOrders(profileId: string, account?: string): { id: number; symbol: string }[];
  upsertOrders(profileId: string, orders: Order[], at: number, account?: string): void;
  /** Marks orders the exchange no longer knows (see OrdersRepository.markOrdersGone). */
  markOrdersGone(profileId: string, ids: number[], at: number, account?: string): void;
  /** Symbols the account has had orders or trades on (allOrders needs a symbol). */
  orderSymbols(profileId: string, account?: string): string[];
  upsertTrades(profileId: string, trades: OwnTrade[], at: number): void;
  /** Trades read with a linked sub-account's key, stored as its own; returns how many were new. */
  insertSubAccountTrades(profileId: string, account: string, trades: OwnTrade[]): number;
  /** The symbols a linked sub-account has trades on. */
  subAccountTradeSymbols(profileId: string, account: string): string[];
  maxTradeId(profileId: string): number | null;
  trades(profileId: string, query: OwnTradeQuery): { rows: OwnTradeRow[]; total: number };

  replaceSymbols(profileId: string, symbols: SymbolInfo[], at: number): void;
  /** base/quote of every known symbol (from exchangeInfo or tickers), for price paths. */
  symbolAssets(profileId: string): { symbol: string; baseAsset: string; quoteAsset: string }[];

  addSnapshot(profileId: string, snapshot: FundSnapshotInput): void;
  snapshots(profileId: string, quoteAsset: string, from: number, to: number): FundSnapshotRow[];
}
