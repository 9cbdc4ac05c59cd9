/**
 * Sync's port onto the store's repositories. Two answers sync keeps whole (the account's
 * permissions, the base/quote of each symbol) are the store's exchange answers, versioned and
 * checked on read; two cursors (the symbols with order history, the newest own-trade id across
 * all symbols) live in sync_state under the keys below, written in the same transaction as the
 * step's rows.
 */
import { z } from 'zod';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import { assetKey } from '../../shared/market';
import type { AccountInfo, CoinInfo } from '../exchange';
import { accountInfoSchema } from '../exchange/wire';
import type { AnswerKind, Store } from '../store';
import type { JsonValue } from '../store/types';
import type { SyncStorePort } from './port';

export const STATE_KEYS = {
  orderSymbols: 'orders.symbols',
  tradeCursor: 'trades.maxId',
} as const;

const symbolAssetsSchema = z.array(
  z.object({
    symbol: z.string().min(1),
    baseAsset: z.string().min(1),
    quoteAsset: z.string().min(1),
  }),
);
type SymbolAssets = z.infer<typeof symbolAssetsSchema>;

/** The exchange answers sync keeps whole; a version is raised whenever its shape changes. */
export const ANSWERS = {
  /** The account's type and permissions (accountInfo without the balances). */
  account: { name: 'account', version: 1, schema: accountInfoSchema },
  /** Base and quote (assetKey form) of every market seen in exchangeInfo or the tickers. */
  symbolAssets: { name: 'symbol-assets', version: 1, schema: symbolAssetsSchema },
} as const satisfies Record<string, AnswerKind<unknown>>;

/** The span of candle open times fetched for one symbol and interval (closes in kline_closes). */
const klinesKey = (symbol: string, interval: string) => `klines.${symbol}.${interval}`;
const entrySeries = (interval: string) => `${interval}.entries`;

/** The account info sync stored (canTrade, canWithdraw, ...), or null before the first refresh. */
export function storedAccountInfo(
  store: Store,
  profileId: string,
): { info: AccountInfo; fetchedAt: number } | null {
  const kept = store.answers.get(profileId, ANSWERS.account);
  return kept ? { info: kept.answer, fetchedAt: kept.fetchedAt } : null;
}

/**
 * Sync's port onto `store`: a stateless adapter, so building one costs a few closures and keeps
 * nothing. app.ts builds the one the long-lived services share (sync, live, alerts, the market
 * cache, the handlers); functions that are handed only the store adapt it where they read.
 */
export function storePort(store: Store): SyncStorePort {
  const state: SyncStorePort['state'] = {
    get: (profileId, key) => store.syncState.get(profileId, key),
    set: (profileId, key, cursor, at) => store.syncState.set(profileId, key, cursor, at),
  };
  const list = <T>(profileId: string, key: string): T[] =>
    (store.syncState.get<JsonValue>(profileId, key)?.cursor as unknown as T[] | undefined) ?? [];

  const symbolAssets = (profileId: string): SymbolAssets =>
    store.answers.get(profileId, ANSWERS.symbolAssets)?.answer ?? [];

  const mergeSymbolAssets = (profileId: string, entries: SymbolAssets, at: number) => {
    const merged = new Map(symbolAssets(profileId).map((s) => [s.symbol, s]));
    let added = false;
    for (const entry of entries) {
      const known = merged.get(entry.symbol);
      if (known?.baseAsset === entry.baseAsset && known.quoteAsset === entry.quoteAsset) continue;
      merged.set(entry.symbol, {
        symbol: entry.symbol,
        baseAsset: assetKey(entry.baseAsset),
        quoteAsset: assetKey(entry.quoteAsset),
      });
      added = true;
    }
    if (added) store.answers.put(profileId, ANSWERS.symbolAssets, [...merged.values()], at);
  };

  const addOrderSymbols = (profileId: string, symbols: string[], at: number) => {
    const known = new Set(list<string>(profileId, STATE_KEYS.orderSymbols));
    const before = known.size;
    for (const symbol of symbols) known.add(symbol);
    if (known.size !== before) state.set(profileId, STATE_KEYS.orderSymbols, [...known].sort(), at);
  };

  return {
    transaction: (fn) => store.transaction(fn),
    state,

    // Balances read in full are kept as observations where they arrive, for the ledger: the
    // exchange keeps no balance history, and a read of the ledger writes nothing.
    replaceFunds: (profileId, funds, at, askedAt) =>
      store.transaction(() => {
        store.funds.replaceAll(profileId, funds, at, askedAt);
        store.ledger.keepCurrentBalances(profileId);
      }),
    funds: (profileId) => store.funds.list(profileId).rows,

    replaceTickers: (profileId, tickers, at) => {
      store.prices.upsertTickers(profileId, tickers);
      mergeSymbolAssets(profileId, tickers, at);
    },
    prices: (profileId) => store.prices.list(profileId),
    klineCloses: (profileId, { symbol, interval }, from, to) => ({
      closes: store.prices.closes(profileId, symbol, interval, from, to),
      covered:
        store.syncState.get<{ from: number; to: number }>(profileId, klinesKey(symbol, interval))
          ?.cursor ?? null,
    }),
    putKlineCloses: (profileId, { symbol, interval }, closes, covered, at) =>
      store.transaction(() => {
        store.prices.saveCloses(profileId, symbol, interval, closes, covered.from);
        state.set(profileId, klinesKey(symbol, interval), covered, at);
      }),

    // Under a series name of their own (`1m.entries`), so a range's pruning never takes them.
    entryCloses: (profileId, { symbol, interval }) => ({
      closes: store.prices.closes(
        profileId,
        symbol,
        entrySeries(interval),
        0,
        Number.MAX_SAFE_INTEGER,
      ),
      spans:
        store.syncState.get<[number, number][]>(profileId, klinesKey(symbol, entrySeries(interval)))
          ?.cursor ?? [],
    }),
    putEntryCloses: (profileId, { symbol, interval }, closes, spans, at) =>
      store.transaction(() => {
        store.prices.saveCloses(profileId, symbol, entrySeries(interval), closes, 0);
        state.set(profileId, klinesKey(symbol, entrySeries(interval)), spans, at);
      }),

    putAccount: (profileId, info, at) =>
      store.answers.put(
        profileId,
        ANSWERS.account,
        {
          accountType: info.accountType,
          canTrade: info.canTrade,
          canWithdraw: info.canWithdraw,
          updateTime: info.updateTime,
        },
        at,
      ),

    replaceCoins: (profileId, coins, at) => store.wallet.replaceCoins(profileId, coins, at),
    coins: (profileId) => {
      const rows = store.wallet.listCoins<CoinInfo & { [field: string]: unknown }>(profileId);
      return {
        coins: rows.map((row) => row.info),
        fetchedAt: rows.length === 0 ? null : Math.max(...rows.map((row) => row.fetchedAt)),
      };
    },

    upsertWithdrawals: (profileId, records) => store.withdraws.upsertMany(profileId, records),
    withdrawals: (profileId, query) => store.withdraws.page(profileId, query),
    oldestPendingWithdrawal: (profileId) =>
      store.withdraws.page(profileId, { status: 2, sort: 'time', direction: 'asc', limit: 1 })
        .rows[0]?.createdAt ?? null,

    depositAddress: (profileId, coin, network) =>
      store.wallet.getDepositAddress(profileId, coin, network),
    putDepositAddress: (profileId, network, address, at) => {
      store.wallet.saveDepositAddress(profileId, network, address, at);
    },

    replaceSubAccounts: (profileId, accounts, at) =>
      store.transaction(() => {
        store.subAccounts.replaceAll(profileId, accounts, at);
        store.ledger.keepCurrentBalances(profileId);
      }),
    subAccounts: (profileId) => store.subAccounts.list(profileId).rows,
    upsertTransfers: (profileId, records) => store.subAccounts.upsertTransfers(profileId, records),
    transfers: (profileId, query) => store.subAccounts.transfers(profileId, query),

    openOrders: (profileId, account = MAIN_ACCOUNT) =>
      store.orders
        .openOrders(profileId, undefined, [account])
        .map((o) => ({ id: o.id, symbol: o.symbol })),
    upsertOrders: (profileId, orders, at, account = MAIN_ACCOUNT) => {
      store.orders.upsertOrders(profileId, orders, account);
      if (account !== MAIN_ACCOUNT) return;
      addOrderSymbols(
        profileId,
        orders.map((o) => o.symbol),
        at,
      );
    },
    markOrdersGone: (profileId, ids, at, account = MAIN_ACCOUNT) => {
      store.orders.markOrdersGone(profileId, ids, at, account);
    },
    // A sub-account's are read from its own rows, which its unlink removes with them.
    orderSymbols: (profileId, account = MAIN_ACCOUNT) =>
      account === MAIN_ACCOUNT
        ? list<string>(profileId, STATE_KEYS.orderSymbols)
        : [
            ...new Set([
              ...store.orders.orderedSymbols(profileId, account),
              ...store.subAccountKeys.tradedSymbols(profileId, account),
            ]),
          ].sort(),
    upsertTrades: (profileId, trades, at) => {
      store.orders.insertTrades(profileId, trades);
      addOrderSymbols(
        profileId,
        trades.map((t) => t.symbol),
        at,
      );
      const newest = Math.max(...trades.map((t) => t.id));
      const known = store.syncState.get<number>(profileId, STATE_KEYS.tradeCursor)?.cursor ?? null;
      if (known === null || newest > known)
        state.set(profileId, STATE_KEYS.tradeCursor, newest, at);
    },
    insertSubAccountTrades: (profileId, account, trades) =>
      trades.length === 0 ? 0 : store.subAccountKeys.insertTrades(profileId, account, trades),
    subAccountTradeSymbols: (profileId, account) =>
      store.subAccountKeys.tradedSymbols(profileId, account),
    maxTradeId: (profileId) =>
      store.syncState.get<number>(profileId, STATE_KEYS.tradeCursor)?.cursor ?? null,
    trades: (profileId, query) => store.orders.tradesPage(profileId, query),

    replaceSymbols: (profileId, symbols, at) => mergeSymbolAssets(profileId, symbols, at),
    symbolAssets,

    addSnapshot: (profileId, snapshot) => store.funds.addSnapshot(profileId, snapshot),
    snapshots: (profileId, quoteAsset, from, to) =>
      store.funds.snapshots(profileId, quoteAsset, { from, to }),
  };
}
