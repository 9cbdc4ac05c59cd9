/**
 * A linked sub-account's own data, read with its own key, while the profile's session runs: its
 * trades (the myTrades import, walked as the main account's is, at the start, after each
 * reconnect and every minute), its balances (its funds, read at the same times), its orders (the
 * open orders at the same times and whenever the Orders screen asks, at most every 15 s; the order
 * history every 5 minutes, as sync reads the main account's, sync/orders.ts) and its private
 * stream (order updates, own trades and balance events, as they happen). What it reads goes where
 * the ledger and the Orders screen read the main account's: its trades into the cache's
 * sub-account trades, its orders into the cache's orders under its e-mail, its balances into the
 * record's balance observations under its e-mail; then `data.changed` says the orders, trades and
 * funds changed, at most every 250 ms.
 *
 * Its stream's fills and cancels are told as the main account's are, by the session's one
 * OrderNotices (order-notices.ts), under its account: the notifications name it.
 *
 * The sub-account's private stream travels over a stream client of its own: the stream's auth
 * key is made with the key of the account whose events it carries, and one client holds one.
 */
import { LIVE_CHANGES_EVERY_MS } from '../../shared/contract';
import { Decimal } from '../../shared/exact-decimal';
import { assetKey } from '../../shared/market';
import { inBackground } from '../core/background';
import { Repeater, Throttle, Timer, type Clock } from '../core/clock';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { ExchangeClient } from '../exchange/client';
import { SharedStream, type StreamUser } from '../exchange/shared-stream';
import { StreamClient } from '../exchange/stream';
import type { AccountPositionEvent, OrderUpdateEvent, OwnTradeEvent } from '../exchange/wire';
import { toOrderUpdate, toOwnTradeUpdate } from '../core/views';
import type { Store } from '../store';
import { JOBS } from '../sync/engine';
import { readOrderHistory, refreshOpenOrders, type AccountOrdersContext } from '../sync/orders';
import { SyncStoppedError } from '../sync/pacing';
import type { SyncStorePort } from '../sync/port';
import { orderRowOf, ownTradeRow } from './live-session';
import type { OrderNotices } from './order-notices';
import { TradeImporter, TradeImportStopped, type TradeImportProgress } from '../sync/trade-import';

export interface SubAccountFeedDeps {
  store: Store;
  port: SyncStorePort;
  profileId: string;
  /** The sub-account's e-mail, lower case: its account in the ledger. */
  account: string;
  /** A client holding the sub-account's own key. */
  client: ExchangeClient;
  streamUrl: string;
  clock: Clock;
  emit: Emit;
  log: Logger;
  /** The session's notices of orders and fills, shared with the main account's live session. */
  notices: OrderNotices;
  /**
   * A balance of the sub-account changed with no trade of it: likely a transfer with the main
   * account, which the parent's key reads (the session reads the transfer history again).
   */
  onMovedOutside?: () => void;
}

/** Balance changes from outside trading within this long make one read of the transfers. */
const OUTSIDE_WAIT_MS = 500;
const ZERO = new Decimal(0);

/** The import and the funds are read again this often (the main account's trades job's pace). */
export const SUB_ACCOUNT_REFRESH_MS = 60_000;

/** What the feed reads with REST, and when each was last read in full. */
export type FeedRead = 'openOrders' | 'orders' | 'trades';

export class SubAccountFeed {
  private readonly streams: SharedStream;
  private readonly stream: StreamUser;
  private readonly importer: TradeImporter;
  private readonly dataChanged: Throttle;
  private repeater: Repeater | null = null;
  /** Armed by a balance change its own trades do not explain: fires once for a burst of them. */
  private readonly outside: Timer;
  /** Each asset's total (free + locked) as its stream last told it. */
  private readonly totals = new Map<string, Decimal>();
  /** What its own trades since then changed of each asset, not yet seen in a balance event. */
  private readonly traded = new Map<string, Decimal>();
  private readonly pairs = new Map<string, [string, string]>();
  private closed = false;
  private readonly work = new Set<Promise<unknown>>();
  private readonly readAt: Record<FeedRead, number | null> = {
    openOrders: null,
    orders: null,
    trades: null,
  };
  /** The open orders' read in flight, shared by whoever asks meanwhile. */
  private openOrdersRead: Promise<void> | null = null;

  constructor(private readonly deps: SubAccountFeedDeps) {
    const { client, clock } = deps;
    this.streams = new SharedStream(
      new StreamClient({
        streamUrl: deps.streamUrl,
        clock,
        authKeyProvider: () => client.auth.createAuthToken(),
      }),
    );
    this.stream = this.streams.user(`sub-account ${deps.account}`);
    this.stream.on('account', (event) => this.guard('balance update', () => this.onAccount(event)));
    this.stream.on('ownTrade', (event) => this.guard('own trade', () => this.onOwnTrade(event)));
    this.stream.on('order', (event) => this.guard('order update', () => this.onOrder(event)));
    this.stream.on('reconnected', () => this.refresh('after a reconnect'));
    this.importer = new TradeImporter({
      client,
      port: deps.port,
      profileId: deps.profileId,
      account: deps.account,
      now: () => clock.now(),
      stopped: () => this.closed,
      onPage: () => this.changed(),
    });
    this.outside = new Timer(clock, () => this.deps.onMovedOutside?.());
    this.dataChanged = new Throttle(clock, LIVE_CHANGES_EVERY_MS, () => {
      this.deps.emit('data.changed', {
        profileId: this.deps.profileId,
        kinds: ['orders', 'trades', 'funds', 'subAccounts'],
      });
    });
  }

  get account(): string {
    return this.deps.account;
  }

  /** The import's latest run (complete once every market was walked to its end). */
  importProgress(): TradeImportProgress {
    return this.importer.progress();
  }

  /** When the open orders, the order history or the trades were last read in full; null: not yet. */
  lastReadAt(what: FeedRead): number | null {
    return this.readAt[what];
  }

  /** Subscribes the sub-account's private streams, then reads its trades, orders and funds. */
  start(): void {
    const { store, profileId, account } = this.deps;
    this.deps.notices.open(account, {
      order: (orderId) => store.orders.getOrder(profileId, orderId, account),
    });
    this.stream.subscribe(['outboundAccountPosition', 'orderUpdate', 'ownTrade']).then(
      () => {
        this.deps.log.info(`private stream live for sub-account ${this.deps.account}`);
        this.refresh('once its stream is live');
      },
      (error: unknown) => {
        if (!this.closed) {
          this.deps.log.error(`The stream of sub-account ${this.deps.account} failed`, error);
        }
      },
    );
    this.refresh('at the start');
    this.repeater = new Repeater(this.deps.clock, SUB_ACCOUNT_REFRESH_MS, () =>
      this.refresh('every minute'),
    );
  }

  /**
   * Reads the sub-account's funds, open orders, trades (what the import has not stored) and,
   * when due, its order history now.
   */
  async readNow(): Promise<void> {
    const moved = await this.readFunds();
    // The orders' failure is told once the trades are in: neither keeps the other unread.
    const orders = await this.readOpenOrders().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    await this.importTrades();
    await this.readOrderHistory();
    if (orders) throw orders.error;
    // Its balances changed since they were last kept: a transfer may be among the causes (one
    // made while its stream was not listening); the transfer history tells.
    if (moved && !this.closed) this.deps.onMovedOutside?.();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.deps.notices.close(this.deps.account);
    this.repeater?.stop();
    this.outside.cancel();
    this.dataChanged.cancel();
    await this.streams.close();
    await Promise.allSettled([...this.work]);
  }

  /**
   * The Orders screen shows the open orders: read them now unless they were read within the
   * freshness sync keeps the main account's in, or a read is on its way.
   */
  focusOrders(): void {
    if (this.closed || this.openOrdersRead) return;
    const at = this.readAt.openOrders;
    if (at !== null && this.deps.clock.now() - at < JOBS.openOrders.freshnessMs) return;
    this.background(this.readOpenOrders(), 'reading its open orders for the Orders screen');
  }

  private refresh(when: string): void {
    if (this.closed) return;
    this.background(this.readNow(), `reading ${when}`);
  }

  private background(run: Promise<void>, what: string): void {
    this.work.add(run);
    void run.finally(() => this.work.delete(run)).catch(() => undefined);
    inBackground(run, `sub-account ${this.deps.account}: ${what}`, this.deps.log.error);
  }

  private ordersContext(): AccountOrdersContext {
    return {
      client: this.deps.client,
      port: this.deps.port,
      profileId: this.deps.profileId,
      account: this.deps.account,
      now: () => this.deps.clock.now(),
      stopped: () => this.closed,
      log: (line) => this.deps.log.info(line),
    };
  }

  /** Its open orders, and the final state of those kept open that the exchange lists no more. */
  private readOpenOrders(): Promise<void> {
    this.openOrdersRead ??= (async () => {
      try {
        const failed = await refreshOpenOrders(this.ordersContext());
        this.changed();
        if (failed) throw failed.failure;
        this.readAt.openOrders = this.deps.clock.now();
      } catch (error) {
        if (error instanceof SyncStoppedError || this.closed) return;
        throw error;
      } finally {
        this.openOrdersRead = null;
      }
    })();
    return this.openOrdersRead;
  }

  /** Its order history, at sync's pace for the main account's (every 5 minutes). */
  private async readOrderHistory(): Promise<void> {
    const at = this.readAt.orders;
    if (at !== null && this.deps.clock.now() - at < JOBS.orders.freshnessMs) return;
    try {
      if ((await readOrderHistory(this.ordersContext())) > 0) this.changed();
      this.readAt.orders = this.deps.clock.now();
    } catch (error) {
      if (error instanceof SyncStoppedError || this.closed) return;
      throw error;
    }
  }

  private async importTrades(): Promise<void> {
    const listed = this.deps.port.symbolAssets(this.deps.profileId).map((s) => s.symbol);
    if (listed.length === 0) return;
    try {
      const progress = await this.importer.run(listed);
      this.readAt.trades = this.deps.clock.now();
      if (progress.trades > 0) this.changed();
    } catch (error) {
      if (error instanceof TradeImportStopped || this.closed) return;
      throw error;
    }
  }

  /**
   * Its full funds, as a complete observation of the sub-account (zero balances left out); true
   * when they differ from those kept last.
   */
  private async readFunds(): Promise<boolean> {
    const funds = await this.deps.client.account.funds();
    if (this.closed) return false;
    const balances: Record<string, string> = {};
    for (const fund of funds) {
      const total = parseDecimal(fund.free, `${fund.asset} free`).plus(
        parseDecimal(fund.locked, `${fund.asset} locked`),
      );
      if (!total.isZero()) balances[assetKey(fund.asset)] = formatDecimal(total);
    }
    const kept = this.deps.store.ledger.observeAccount(this.deps.profileId, {
      account: this.deps.account,
      time: this.deps.clock.now(),
      balances,
      complete: true,
    });
    if (kept) this.changed();
    return kept;
  }

  private onAccount(event: AccountPositionEvent): void {
    const balances = new Map<string, Decimal>();
    for (const b of event.B) {
      balances.set(
        assetKey(b.a),
        parseDecimal(b.b, `${b.a} free`).plus(parseDecimal(b.l, `${b.a} locked`)),
      );
    }
    this.deps.store.ledger.observeAccount(this.deps.profileId, {
      account: this.deps.account,
      time: event.E,
      balances: Object.fromEntries([...balances].map(([a, total]) => [a, formatDecimal(total)])),
      complete: false,
    });
    // A change its own trades explain is theirs; any other (or one of an asset not seen before)
    // may be a transfer.
    let outside = false;
    for (const [asset, total] of balances) {
      const known = this.totals.get(asset);
      const explained = this.traded.get(asset) ?? ZERO;
      if (known === undefined || !total.minus(known).eq(explained)) outside = true;
      this.totals.set(asset, total);
      this.traded.delete(asset);
    }
    if (outside) this.outside.startIfIdle(OUTSIDE_WAIT_MS);
    this.changed();
  }

  private onOrder(event: OrderUpdateEvent): void {
    const { store, profileId, account } = this.deps;
    const update = toOrderUpdate(event);
    const existing = store.orders.getOrder(profileId, event.i, account);
    const row = orderRowOf(update, existing);
    if (!row) return;
    store.orders.upsertOrders(profileId, [row], account);
    this.changed();
    this.deps.notices.order(account, update, existing?.status);
  }

  private onOwnTrade(event: OwnTradeEvent): void {
    const update = toOwnTradeUpdate(event);
    const row = ownTradeRow(event, update);
    this.deps.store.subAccountKeys.insertTrades(this.deps.profileId, this.deps.account, [row]);
    // What the trade does to each balance, as the ledger counts it (fee off the asset it is in).
    const buy = row.side === 'buy';
    const [base, quote] = this.assetsOf(row.symbol);
    const add = (asset: string | undefined, delta: Decimal) => {
      if (asset) this.traded.set(asset, (this.traded.get(asset) ?? ZERO).plus(delta));
    };
    add(base, buy ? new Decimal(row.qty) : new Decimal(row.qty).negated());
    add(quote, buy ? new Decimal(row.quoteQty).negated() : new Decimal(row.quoteQty));
    add(assetKey(row.feeCurrency), new Decimal(row.fee).negated());
    this.changed();
    this.deps.notices.trade(this.deps.account, update, event.c);
  }

  /** A symbol's base and quote (exchangeInfo, kept by sync); none when unknown. */
  private assetsOf(symbol: string): [string | undefined, string | undefined] {
    const pair = this.deps.port.symbolAssets(this.deps.profileId).find((s) => s.symbol === symbol);
    return pair ? [assetKey(pair.baseAsset), assetKey(pair.quoteAsset)] : [undefined, undefined];
  }

  private changed(): void {
    if (!this.closed) this.dataChanged.trigger();
  }

  /** A bad event or a store failure is logged; it must never break the stream's handlers. */
  private guard(what: string, fn: () => void): void {
    if (this.closed) return;
    try {
      fn();
    } catch (error) {
      this.deps.log.error(`sub-account ${this.deps.account}: could not handle a ${what}`, error);
    }
  }
}
