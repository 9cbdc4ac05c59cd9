/**
 * Orders (open and past) and own trades, with filtered, sorted, paged reads. Each order is of an
 * account: the main account's ('main'), or a linked sub-account's (its e-mail, lower case), read
 * with that sub-account's key. Own trades are the main account's here; a sub-account's are kept
 * by sub-account-keys.ts, and a read of several accounts takes both tables together.
 */
import type Database from 'better-sqlite3';
import { Decimal } from '../../shared/exact-decimal';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import { formatDecimal } from '../core/decimal';
import type {
  OrderInput,
  OrderQuery,
  OrderRow,
  OrderStatus,
  OwnTradeInput,
  OwnTradeQuery,
  OwnTradeRow,
  PageResult,
} from './types';
import {
  addTimeRange,
  checkDecimalText,
  direction,
  integer,
  integerMs,
  checkOptionalDecimalText,
  PagedReads,
  pageBounds,
  StatementCache,
  StoreInputError,
} from './util';

const ORDER_COLUMNS = `account, id, client_order_id AS clientOrderId, symbol, side, type, status, price,
  stop_price AS stopPrice, orig_qty AS origQty, executed_qty AS executedQty,
  created_time AS createdTime, updated_time AS updatedTime, gone_at AS goneAt`;

const TRADE_FIELDS = `id, symbol, order_id AS orderId, side, price, qty, quote_qty AS quoteQty,
  fee, fee_currency AS feeCurrency, is_buyer_maker AS isBuyerMaker, time`;

type TradeDbRow = Omit<OwnTradeRow, 'isBuyerMaker'> & { isBuyerMaker: number };

/** own_trades holds the main account's trades only: its account is a constant. */
const MAIN_TRADE_COLUMNS = `'${MAIN_ACCOUNT}' AS account, ${TRADE_FIELDS}`;
const TRADE_COLUMNS = `account, ${TRADE_FIELDS}`;
/** The accounts a read covers: those named, or the main account. */
function accountList(accounts: readonly string[] | undefined): readonly string[] {
  const list = accounts ?? [MAIN_ACCOUNT];
  for (const account of list) {
    if (typeof account !== 'string' || account === '' || account !== account.toLowerCase()) {
      throw new StoreInputError(`account ${JSON.stringify(account)} is not an account's name`);
    }
  }
  return list;
}

function accountFilter(where: string[], params: unknown[], accounts: readonly string[]): void {
  where.push(accounts.length === 0 ? '0' : `account IN (${accounts.map(() => '?').join(', ')})`);
  params.push(...accounts);
}

const SIDES = new Set(['buy', 'sell']);
const TYPES = new Set(['limit', 'stop_limit']);
const STATUSES = new Set(['idle', 'wait', 'done', 'cancel']);

function checkOrder(order: OrderInput): Record<string, unknown> {
  const what = `order ${order.id}`;
  integer(order.id, 'order id');
  if (!SIDES.has(order.side))
    throw new StoreInputError(`${what} side is ${JSON.stringify(order.side)}`);
  if (!TYPES.has(order.type))
    throw new StoreInputError(`${what} type is ${JSON.stringify(order.type)}`);
  if (!STATUSES.has(order.status)) {
    throw new StoreInputError(`${what} status is ${JSON.stringify(order.status)}`);
  }
  return {
    id: order.id,
    clientOrderId: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    status: order.status,
    price: checkDecimalText(order.price, `${what} price`),
    stopPrice: checkOptionalDecimalText(order.stopPrice, `${what} stopPrice`),
    origQty: checkDecimalText(order.origQty, `${what} origQty`),
    executedQty: checkDecimalText(order.executedQty, `${what} executedQty`),
    createdTime: integerMs(order.createdTime, `${what} createdTime`),
    updatedTime: integerMs(order.updatedTime, `${what} updatedTime`),
  };
}

/** A trade's columns after its checks, in the order of the trade tables' inserts. */
export function checkTrade(trade: OwnTradeInput): unknown[] {
  const what = `trade ${trade.id}`;
  integer(trade.id, 'trade id');
  integer(trade.orderId, `${what} orderId`);
  if (!SIDES.has(trade.side))
    throw new StoreInputError(`${what} side is ${JSON.stringify(trade.side)}`);
  return [
    trade.id,
    trade.symbol,
    trade.orderId,
    trade.side,
    checkDecimalText(trade.price, `${what} price`),
    checkDecimalText(trade.qty, `${what} qty`),
    checkDecimalText(trade.quoteQty, `${what} quoteQty`),
    checkDecimalText(trade.fee, `${what} fee`),
    trade.feeCurrency,
    trade.isBuyerMaker ? 1 : 0,
    integerMs(trade.time, `${what} time`),
  ];
}

function statusList(status: OrderStatus | OrderStatus[]): OrderStatus[] {
  const list = Array.isArray(status) ? status : [status];
  for (const s of list) {
    if (!STATUSES.has(s))
      throw new StoreInputError(`status filter ${JSON.stringify(s)} is unknown`);
  }
  return list;
}

/** The filter orders and trades share: the profile, and the symbol and side when given. */
function symbolAndSide(
  profileId: string,
  query: { symbol?: string; side?: string },
): { where: string[]; params: unknown[] } {
  const where = ['profile_id = ?'];
  const params: unknown[] = [profileId];
  if (query.symbol !== undefined) {
    where.push('symbol = ?');
    params.push(query.symbol);
  }
  if (query.side !== undefined) {
    if (!SIDES.has(query.side))
      throw new StoreInputError(`side filter ${JSON.stringify(query.side)} is unknown`);
    where.push('side = ?');
    params.push(query.side);
  }
  return { where, params };
}

export class OrdersRepository {
  private readonly upsertOrderStatement;
  private readonly getOrderStatement;
  private readonly getByClientIdStatement;
  private readonly openOrdersStatements;
  private readonly maxOrderIdStatement;
  private readonly orderedSymbolsStatement;
  private readonly markGoneStatement;
  private readonly insertTradeStatement;
  private readonly maxTradeIdStatement;
  private readonly upsertOrdersTransaction;
  private readonly insertTradesTransaction;
  private readonly orderPages;
  private readonly tradePages;
  private readonly subTradePages;
  private readonly fees;

  constructor(db: Database.Database) {
    // An update never moves an order back in time (REST and stream can interleave); a stream
    // update lacking stopPrice keeps the one known.
    this.upsertOrderStatement = db.prepare(`INSERT INTO orders
      (profile_id, account, id, client_order_id, symbol, side, type, status, price, stop_price,
       orig_qty, executed_qty, created_time, updated_time)
      VALUES (@profileId, @account, @id, @clientOrderId, @symbol, @side, @type, @status, @price, @stopPrice,
       @origQty, @executedQty, @createdTime, @updatedTime)
      ON CONFLICT (profile_id, account, id) DO UPDATE SET client_order_id = excluded.client_order_id,
        symbol = excluded.symbol, side = excluded.side, type = excluded.type,
        status = excluded.status, price = excluded.price,
        stop_price = coalesce(excluded.stop_price, orders.stop_price),
        orig_qty = excluded.orig_qty, executed_qty = excluded.executed_qty,
        created_time = min(orders.created_time, excluded.created_time),
        updated_time = excluded.updated_time, gone_at = NULL
      WHERE excluded.updated_time >= orders.updated_time`);
    this.getOrderStatement = db.prepare<[string, string, number], OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE profile_id = ? AND account = ? AND id = ?`,
    );
    this.getByClientIdStatement = db.prepare<[string, string, string], OrderRow>(
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE profile_id = ? AND account = ?
       AND client_order_id = ? ORDER BY created_time DESC LIMIT 1`,
    );
    this.openOrdersStatements = new StatementCache((sql) => db.prepare<unknown[], OrderRow>(sql));
    this.maxOrderIdStatement = db.prepare<[string, string, string], { id: number | null }>(
      'SELECT max(id) AS id FROM orders WHERE profile_id = ? AND account = ? AND symbol = ?',
    );
    this.orderedSymbolsStatement = db.prepare<[string, string], { symbol: string }>(
      'SELECT DISTINCT symbol FROM orders WHERE profile_id = ? AND account = ? ORDER BY symbol',
    );
    this.markGoneStatement = db.prepare<[number, string, string, number]>(
      `UPDATE orders SET gone_at = ? WHERE profile_id = ? AND account = ? AND id = ?
       AND gone_at IS NULL AND status IN ('idle', 'wait')`,
    );
    this.insertTradeStatement = db.prepare(`INSERT INTO own_trades
      (profile_id, id, symbol, order_id, side, price, qty, quote_qty, fee, fee_currency,
       is_buyer_maker, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (profile_id, id, order_id) DO NOTHING`);
    this.maxTradeIdStatement = db.prepare<[string, string], { id: number | null }>(
      'SELECT max(id) AS id FROM own_trades WHERE profile_id = ? AND symbol = ?',
    );
    this.upsertOrdersTransaction = db.transaction(
      (profileId: string, account: string, rows: readonly Record<string, unknown>[]) => {
        let changed = 0;
        for (const row of rows)
          changed += this.upsertOrderStatement.run({ profileId, account, ...row }).changes;
        return changed;
      },
    );
    this.insertTradesTransaction = db.transaction(
      (profileId: string, rows: readonly unknown[][]) => {
        let inserted = 0;
        for (const row of rows)
          inserted += this.insertTradeStatement.run(profileId, ...row).changes;
        return inserted;
      },
    );
    this.orderPages = new PagedReads<OrderRow>(db, 'orders', ORDER_COLUMNS);
    this.tradePages = new PagedReads<TradeDbRow>(db, 'own_trades', MAIN_TRADE_COLUMNS);
    this.subTradePages = new PagedReads<TradeDbRow>(db, 'sub_account_trades', TRADE_COLUMNS);
    this.fees = new StatementCache((sql) =>
      db.prepare<unknown[], { feeCurrency: string; fee: string }>(sql),
    );
  }

  // ---- orders

  /**
   * Inserts or updates orders (REST or stream) of one account in one transaction; returns rows
   * changed.
   */
  upsertOrders(
    profileId: string,
    orders: readonly OrderInput[],
    account: string = MAIN_ACCOUNT,
  ): number {
    accountList([account]);
    return this.upsertOrdersTransaction(profileId, account, orders.map(checkOrder));
  }

  getOrder(profileId: string, id: number, account: string = MAIN_ACCOUNT): OrderRow | null {
    return this.getOrderStatement.get(profileId, account, id) ?? null;
  }

  getOrderByClientId(
    profileId: string,
    clientOrderId: string,
    account: string = MAIN_ACCOUNT,
  ): OrderRow | null {
    return this.getByClientIdStatement.get(profileId, account, clientOrderId) ?? null;
  }

  /**
   * Marks orders the exchange no longer knows (neither its order lookup nor its history has
   * them): they stay in the history with the time they were found gone and are open no more.
   * An answer of the exchange about the same id later (upsertOrders) clears the mark. Returns how
   * many were marked.
   */
  markOrdersGone(
    profileId: string,
    ids: readonly number[],
    at: number,
    account: string = MAIN_ACCOUNT,
  ): number {
    integerMs(at, 'gone time');
    let changed = 0;
    for (const id of ids) {
      changed += this.markGoneStatement.run(
        at,
        profileId,
        account,
        integer(id, 'order id'),
      ).changes;
    }
    return changed;
  }

  /**
   * Orders in idle or wait that the exchange still knows, newest first, of the accounts named
   * (the main account's when none are).
   */
  openOrders(profileId: string, symbol?: string, accounts?: readonly string[]): OrderRow[] {
    const where: string[] = ['profile_id = ?'];
    const params: unknown[] = [profileId];
    accountFilter(where, params, accountList(accounts));
    const rows = this.openOrdersStatements
      .get(
        `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${where.join(' AND ')}
         AND status IN ('idle', 'wait') AND gone_at IS NULL ORDER BY created_time DESC, id DESC`,
      )
      .all(...params);
    return symbol === undefined ? rows : rows.filter((row) => row.symbol === symbol);
  }

  /** The symbols an account has orders on, in the cache. */
  orderedSymbols(profileId: string, account: string): string[] {
    return this.orderedSymbolsStatement.all(profileId, account).map((row) => row.symbol);
  }

  /** Highest cached order id of a symbol: where allOrders paging resumes. */
  maxOrderId(profileId: string, symbol: string, account: string = MAIN_ACCOUNT): number | null {
    return this.maxOrderIdStatement.get(profileId, account, symbol)?.id ?? null;
  }

  ordersPage(profileId: string, query: OrderQuery = {}): PageResult<OrderRow> {
    const page = pageBounds(query.offset, query.limit);
    const order = direction(query.direction);
    const { where, params } = symbolAndSide(profileId, query);
    accountFilter(where, params, accountList(query.accounts));
    if (query.status !== undefined) {
      const list = statusList(query.status);
      where.push(list.length === 0 ? '0' : `status IN (${list.map(() => '?').join(', ')})`);
      params.push(...list);
      // A gone order's last status is not what it is now: it answers no status filter.
      where.push('gone_at IS NULL');
    }
    addTimeRange(where, params, 'created_time', query.from, query.to);
    return this.orderPages.read(where, params, `created_time ${order}, id ${order}`, page);
  }

  // ---- own trades

  /** Inserts trades not cached yet (a trade never changes); returns how many were new. */
  insertTrades(profileId: string, trades: readonly OwnTradeInput[]): number {
    return this.insertTradesTransaction(profileId, trades.map(checkTrade));
  }

  /** Highest cached trade id of a symbol: where myTrades paging resumes (fromId = this + 1). */
  maxTradeId(profileId: string, symbol: string): number | null {
    return this.maxTradeIdStatement.get(profileId, symbol)?.id ?? null;
  }

  /**
   * A page of the trades of the accounts named (the main account's when none are), newest or
   * oldest first; trades of the same time in id order, then by account. The main account's are
   * in own_trades, the sub-accounts' in sub_account_trades: each table gives its first
   * offset + limit rows in that order along its index, and the page is taken from their merge
   * (a sort of the two tables' union read every row of both).
   */
  tradesPage(profileId: string, query: OwnTradeQuery = {}): PageResult<OwnTradeRow> {
    const page = pageBounds(query.offset, query.limit);
    const order = direction(query.direction);
    // own_trades' account is a constant: its order is its index's.
    const mainOrder = `time ${order}, id ${order}, order_id ${order}`;
    const subOrder = `time ${order}, id ${order}, account ${order}, order_id ${order}`;
    const { main, subs } = tradeSources(profileId, query);
    const sources: PageResult<TradeDbRow>[] = [];
    const top = subs && main ? { offset: 0, limit: page.offset + page.limit } : page;
    if (main) sources.push(this.tradePages.read(main.where, main.params, mainOrder, top));
    if (subs) sources.push(this.subTradePages.read(subs.where, subs.params, subOrder, top));
    const rows =
      sources.length === 2
        ? mergeTrades(sources[0]!.rows, sources[1]!.rows, order).slice(
            page.offset,
            page.offset + page.limit,
          )
        : (sources[0]?.rows ?? []);
    return {
      rows: rows.map((row) => ({ ...row, isBuyerMaker: row.isBuyerMaker === 1 })),
      total: sources.reduce((sum, source) => sum + source.total, 0),
    };
  }

  /** Fees paid over the whole filtered set, per fee asset, summed exactly. */
  feesByAsset(profileId: string, query: OwnTradeQuery = {}): { asset: string; fee: string }[] {
    const { main, subs } = tradeSources(profileId, query);
    const sums = new Map<string, Decimal>();
    const reads = [
      ...(main ? [{ table: 'own_trades', ...main }] : []),
      ...(subs ? [{ table: 'sub_account_trades', ...subs }] : []),
    ];
    for (const { table, where, params } of reads) {
      for (const row of this.fees
        .get(`SELECT fee_currency AS feeCurrency, fee FROM ${table} WHERE ${where.join(' AND ')}`)
        .iterate(...params)) {
        sums.set(row.feeCurrency, (sums.get(row.feeCurrency) ?? new Decimal(0)).plus(row.fee));
      }
    }
    return [...sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([asset, fee]) => ({ asset, fee: formatDecimal(fee) }));
  }
}

/** The trades a page or a fee sum covers, in one table. */
function tradeFilter(
  profileId: string,
  query: OwnTradeQuery,
): { where: string[]; params: unknown[] } {
  const { where, params } = symbolAndSide(profileId, query);
  if (query.orderId !== undefined) {
    where.push('order_id = ?');
    params.push(integer(query.orderId, 'orderId'));
  }
  addTimeRange(where, params, 'time', query.from, query.to);
  return { where, params };
}

/**
 * The filter of each table the accounts' trades are in: own_trades for the main account's,
 * sub_account_trades for the sub-accounts'; none for a table no account asked for is in.
 */
function tradeSources(
  profileId: string,
  query: OwnTradeQuery,
): {
  main: { where: string[]; params: unknown[] } | null;
  subs: { where: string[]; params: unknown[] } | null;
} {
  const accounts = accountList(query.accounts);
  const subAccounts = accounts.filter((account) => account !== MAIN_ACCOUNT);
  let subs = null;
  if (subAccounts.length > 0) {
    subs = tradeFilter(profileId, query);
    accountFilter(subs.where, subs.params, subAccounts);
  }
  return {
    main: accounts.includes(MAIN_ACCOUNT) ? tradeFilter(profileId, query) : null,
    subs,
  };
}

/** Two pages each in (time, id, account, order id) order, merged in that order. */
function mergeTrades(
  a: readonly TradeDbRow[],
  b: readonly TradeDbRow[],
  order: 'ASC' | 'DESC',
): TradeDbRow[] {
  const sign = order === 'ASC' ? 1 : -1;
  const compare = (x: TradeDbRow, y: TradeDbRow) =>
    sign *
    (x.time - y.time ||
      x.id - y.id ||
      (x.account < y.account ? -1 : x.account > y.account ? 1 : 0) ||
      x.orderId - y.orderId);
  const merged: TradeDbRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && compare(a[i]!, b[j]!) <= 0)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}
