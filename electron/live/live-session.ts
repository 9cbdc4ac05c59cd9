/**
 * The private stream of the active profile: balances (outboundAccountPosition), order updates and
 * own trades, held on the profile's one stream client (exchange/shared-stream.ts). Events are gathered per live batch (at most one per frame), written to the store in
 * one transaction and then handed to the renderer in a 'live.batch' event; fills, cancels and
 * outside balance changes are also recorded as notifications (fills and cancels by the session's
 * OrderNotices, order-notices.ts, whose rules the linked sub-accounts' feeds share). After a reconnect, funds and open orders are re-read over REST so nothing that
 * happened while disconnected stays missing.
 */
import { LIVE_CHANGES_EVERY_MS } from '../../shared/contract';
import { Decimal } from '../../shared/exact-decimal';
import { formatAmountWithUnit } from '../../shared/format';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import { assetKey } from '../../shared/market';
import type { DataKind, OrderUpdate, Settings } from '../../shared/types';
import { inBackground } from '../core/background';
import { sameAsset } from '../core/market';
import { KeyedThrottle, type Clock } from '../core/clock';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { Notifier } from '../core/notifier';
import { toOrderUpdate, toOwnTradeUpdate } from '../core/views';
import type { SharedStream, StreamUser } from '../exchange/shared-stream';
import { PRIVATE_STREAMS } from '../exchange/stream';
import type { AccountPositionEvent, OrderUpdateEvent, OwnTradeEvent } from '../exchange/wire';
import type { Store } from '../store';
import type { BalanceChange, OrderInput, OwnTradeInput } from '../store/types';
import type { Order } from '../exchange/wire';
import type { SyncEngine } from '../sync';
import type { SyncStorePort } from '../sync/port';
import { storePort } from '../sync/store-port';
import { BatchCoalescer, type LiveBatch } from './coalescer';
import { BalanceNotices, type NotifyDeps } from './notify';
import type { OrderNotices } from './order-notices';
import { TransferClaims, type TransferClaim } from './transfer-claims';

export interface LiveSessionDeps {
  store: Store;
  /** Sync's port onto the store, built once in app.ts. Default: one onto `store`. */
  port?: SyncStorePort;
  profileId: string;
  /**
   * The profile's one stream client, shared with alerts and the market watch (built by the
   * session, which also tells its state); the live session holds the private streams on it.
   */
  streams: SharedStream;
  sync: Pick<SyncEngine, 'refresh'>;
  emit: Emit;
  /** Time and the session's timers: batching, data-changed pacing, fill summaries. */
  clock: Clock;
  log: Logger;
  settings: () => Settings;
  notifier?: Notifier | undefined;
  /**
   * What the user is told of orders and fills, built by the session and shared with its linked
   * sub-accounts' feeds (order-notices.ts): the live session tells the main account's through it.
   */
  notices: OrderNotices;
  /** Coalescing interval of live.batch; one animation frame unless a test says otherwise. */
  frameMs?: number;
}

interface Writes {
  orders: Map<number, OrderInput>;
  trades: OwnTradeInput[];
  balances: { changes: BalanceChange[]; at: number }[];
}

function newWrites(): Writes {
  return { orders: new Map(), trades: [], balances: [] };
}

/**
 * A batch's balance events as one, at the latest event's time: an asset an event leaves out did
 * not change since the event before that named it, so each asset's latest figure holds then: one
 * balance observation per batch, not per event.
 */
function mergeBalances(
  events: readonly { changes: BalanceChange[]; at: number }[],
): { changes: BalanceChange[]; at: number } | null {
  if (events.length === 0) return null;
  const latest = new Map<string, { change: BalanceChange; at: number }>();
  let at = -Infinity;
  for (const event of events) {
    at = Math.max(at, event.at);
    for (const change of event.changes) {
      const known = latest.get(change.asset);
      if (!known || known.at <= event.at) latest.set(change.asset, { change, at: event.at });
    }
  }
  return { changes: [...latest.values()].map((value) => value.change), at };
}

/**
 * An order update of the private stream as the store keeps the order, over what it kept of it
 * (`existing`: its stop price and creation time, which the update lacks); none when the update is
 * older than what is kept (updates can overtake each other across a reconnect).
 */
export function orderRowOf(
  update: OrderUpdate,
  existing: Pick<OrderInput, 'stopPrice' | 'createdTime' | 'updatedTime'> | null | undefined,
): OrderInput | null {
  if (existing && existing.updatedTime > update.time) return null;
  return {
    id: update.orderId,
    clientOrderId: update.clientOrderId,
    symbol: update.symbol,
    side: update.side,
    type: update.type,
    status: update.status,
    price: update.price,
    stopPrice: existing?.stopPrice ?? null,
    origQty: update.origQty,
    executedQty: update.executedQty,
    createdTime: existing?.createdTime ?? update.time,
    updatedTime: update.time,
  };
}

/** An own trade of the private stream as the store keeps it. */
export function ownTradeRow(event: OwnTradeEvent, update = toOwnTradeUpdate(event)): OwnTradeInput {
  return {
    id: update.tradeId,
    symbol: update.symbol,
    orderId: update.orderId,
    side: update.side,
    price: update.price,
    qty: update.qty,
    // "w" is the trade's funds (quote amount); computed when a deployment leaves it out.
    quoteQty:
      event.w ??
      formatDecimal(
        parseDecimal(update.price, 'price').times(parseDecimal(update.qty, 'quantity')),
      ),
    fee: update.fee,
    feeCurrency: update.feeCurrency,
    // "m" says whether this account was the maker; the table records whether the buyer was.
    isBuyerMaker: update.side === 'buy' ? event.m : !event.m,
    time: update.time,
  };
}

export class LiveSession {
  private readonly stream: StreamUser;
  private readonly coalescer: BatchCoalescer;
  private readonly notifyDeps: NotifyDeps;
  private readonly balanceNotices: BalanceNotices;
  private pendingKinds = new Set<DataKind>();
  private readonly dataChanged: KeyedThrottle<DataKind>;
  private readonly notices: OrderNotices;
  /**
   * The main account's balance changes that transfers made from this app will cause: those are
   * the transfer's, which tells its own outcome in one notification (transfer-claims.ts).
   */
  private readonly transferClaims = new TransferClaims();
  /** Each asset's total (free + locked) by the stream's updates not yet in the store. */
  private readonly unwrittenTotals = new Map<string, Decimal>();
  /** Assets changed since the last batch by something other than an own transfer. */
  private readonly changedOutside = new Set<string>();
  /**
   * Store writes of the events of the batch being gathered: one transaction per batch instead of
   * several per event (a busy stream made the commits most of the session's work).
   */
  private writes = newWrites();
  private closed = false;

  private readonly port: SyncStorePort;

  constructor(private readonly deps: LiveSessionDeps) {
    this.port = deps.port ?? storePort(deps.store);
    this.dataChanged = new KeyedThrottle<DataKind>(deps.clock, LIVE_CHANGES_EVERY_MS, (kinds) =>
      deps.emit('data.changed', { profileId: deps.profileId, kinds }),
    );
    this.notifyDeps = {
      store: deps.store,
      profileId: deps.profileId,
      emit: deps.emit,
      settings: deps.settings,
      now: () => deps.clock.now(),
      log: deps.log,
      notifier: deps.notifier,
    };
    this.balanceNotices = new BalanceNotices(this.notifyDeps, deps.clock);
    this.notices = deps.notices;
    this.notices.open(MAIN_ACCOUNT, { order: (orderId) => this.orderState(orderId) });
    this.coalescer = new BatchCoalescer((batch) => this.deliver(batch), deps.frameMs, deps.clock);
    this.stream = deps.streams.user('live');
    this.stream.on('account', (event) => this.guard('balance update', () => this.onAccount(event)));
    this.stream.on('order', (event) => this.guard('order update', () => this.onOrder(event)));
    this.stream.on('ownTrade', (event) => this.guard('own trade', () => this.onOwnTrade(event)));
    this.stream.on('reconnected', () => this.onReconnected());
  }

  /** Connects and subscribes in the background; the state events tell how it goes. */
  start(): void {
    this.stream.subscribe([...PRIVATE_STREAMS]).then(
      () => {
        this.deps.log.info(`private stream live for profile ${this.deps.profileId}`);
        // Sync's first reads may have been answered before the stream listened: a change made in
        // between came as no event, so funds and open orders are read once more, as after a
        // reconnect.
        this.reread('live: re-reading funds and open orders once the stream is live');
      },
      (error: unknown) => {
        if (!this.closed) this.deps.log.error('The private stream could not subscribe', error);
      },
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.coalescer.close();
    this.write();
    this.balanceNotices.close();
    this.notices.close(MAIN_ACCOUNT);
    // What waits for its interval is told now: nothing is told after close.
    this.dataChanged.flush();
    await this.stream.release();
  }

  /**
   * Places an order through `send` (the money journal's placement) and tells "Order placed"
   * when it is answered: a fill of it the stream brings before the answer waits, so the user
   * never reads of a fill before the order. A refused placement tells nothing here.
   */
  placeOrder(clientOrderId: string, send: () => Promise<Order>): Promise<Order> {
    return this.notices.placeOrder(MAIN_ACCOUNT, clientOrderId, send);
  }

  /**
   * A sub-account transfer of `asset` made from this app, about to be sent, claims the changes it
   * will make to the main account's balance, in order (signed amounts: a sub-to-sub move passes
   * through the main account, in and out). Those changes are the transfer's, which tells its
   * outcome once; any other change of the asset is still told. The caller settles the claim with
   * the transfer's answer (see transfer-claims.ts).
   */
  claimTransfer(asset: string, changes: readonly string[]): TransferClaim {
    const key = assetKey(asset);
    return this.transferClaims.claim(
      key,
      this.unwrittenTotals.get(key) ?? this.storedTotal(key),
      changes,
    );
  }

  /** The main account's total of `asset` as the store holds it. */
  private storedTotal(asset: string): Decimal {
    const row = this.port.funds(this.deps.profileId).find((f) => sameAsset(f.asset, asset));
    return row ? parseDecimal(row.free, `${asset} free`).plus(row.locked) : new Decimal(0);
  }

  // -------------------------------------------------------------------------------------------

  private onAccount(event: AccountPositionEvent): void {
    const changes = event.B.map((b) => ({ asset: b.a, free: b.b, locked: b.l }));
    this.writes.balances.push({ changes, at: event.E });
    for (const change of changes) {
      const asset = assetKey(change.asset);
      const total = parseDecimal(change.free, `${asset} free`).plus(
        parseDecimal(change.locked, `${asset} locked`),
      );
      this.unwrittenTotals.set(asset, total);
      if (!this.transferClaims.observe(asset, total)) this.changedOutside.add(asset);
      this.coalescer.addBalance({ ...change, time: event.E });
    }
    this.changed('funds', 'portfolio');
  }

  private onOrder(event: OrderUpdateEvent): void {
    const { store, profileId } = this.deps;
    const update = toOrderUpdate(event);
    const existing =
      this.writes.orders.get(update.orderId) ?? store.orders.getOrder(profileId, update.orderId);
    // Updates can overtake each other across a reconnect; an older one never wins.
    const row = orderRowOf(update, existing);
    if (!row) return;
    this.writes.orders.set(update.orderId, row);
    this.coalescer.addOrder(update);
    this.changed('orders');
    this.notices.order(MAIN_ACCOUNT, update, existing?.status);
  }

  private onOwnTrade(event: OwnTradeEvent): void {
    const update = toOwnTradeUpdate(event);
    const trade = ownTradeRow(event, update);
    // The trade may be stored already (the trades sync read it over REST a moment earlier); the
    // stream sends each trade once, so it is still news for the live feed and the notification.
    this.writes.trades.push(trade);
    this.coalescer.addTrade(update);
    this.changed('trades', 'funds', 'portfolio');
    this.notices.trade(MAIN_ACCOUNT, update, event.c);
  }

  private orderState(orderId: number): OrderInput | null {
    return (
      this.writes.orders.get(orderId) ??
      this.deps.store.orders.getOrder(this.deps.profileId, orderId)
    );
  }

  private onReconnected(): void {
    if (this.closed) return;
    this.deps.log.info('private stream reconnected: re-reading funds and open orders');
    this.transferClaims.reconnected();
    this.reread('live: re-reading funds and open orders after a reconnect');
  }

  /** Funds and open orders read again over REST, after a time the stream was not listening. */
  private reread(what: string): void {
    if (this.closed) return;
    inBackground(
      Promise.all([
        this.deps.sync.refresh('funds', { force: true }),
        this.deps.sync.refresh('openOrders', { force: true }),
      ]),
      what,
      this.deps.log.error,
    );
  }

  /** The batch's events into the store, before the page hears of them. */
  private write(): void {
    const { store, profileId } = this.deps;
    const { orders, trades, balances } = this.writes;
    this.writes = newWrites();
    this.unwrittenTotals.clear();
    if (orders.size === 0 && trades.length === 0 && balances.length === 0) return;
    try {
      store.transaction(() => {
        if (orders.size > 0) store.orders.upsertOrders(profileId, [...orders.values()]);
        if (trades.length > 0) store.orders.insertTrades(profileId, trades);
        for (const { changes, at } of balances) {
          store.funds.applyBalanceChanges(profileId, changes, at, false);
        }
        const merged = mergeBalances(balances);
        if (merged) store.funds.observeBalances(profileId, merged.changes, merged.at);
      });
    } catch (error) {
      this.deps.log.error('live: could not store a batch of stream events', error);
    }
  }

  private deliver(batch: LiveBatch): void {
    this.write();
    this.deps.emit('live.batch', { profileId: this.deps.profileId, ...batch });
    this.scheduleDataChanged();
    // A balance change with no order or trade beside it came from outside trading: a deposit,
    // a withdrawal or a transfer. Trading moves balances on every order, which is not news.
    // A transfer made from this app tells its own outcome: its own changes are not told here
    // (see claimTransfer); an asset that also changed otherwise is.
    const outside = batch.balances.filter((b) => this.changedOutside.has(assetKey(b.asset)));
    this.changedOutside.clear();
    if (batch.orders.length === 0 && batch.trades.length === 0 && outside.length > 0) {
      const balances = [...outside].sort((a, b) => a.asset.localeCompare(b.asset));
      const lines = balances.map(
        (b) =>
          `${b.asset.toUpperCase()} balance: ${formatAmountWithUnit(formatDecimal(parseDecimal(b.free, 'free').plus(b.locked)), b.asset)}`,
      );
      // One per set of assets per window, the latest replacing the one before (see notify.ts).
      this.guard('balance notification', () =>
        this.balanceNotices.add(
          balances.map((b) => b.asset),
          lines.join(', '),
        ),
      );
    }
  }

  /** Notes what a stream event changed; the batch that carries it says so (see deliver). */
  private changed(...kinds: DataKind[]): void {
    for (const kind of kinds) this.pendingKinds.add(kind);
  }

  /**
   * A data.changed for the batch just stored: at once for each kind of change none went out for in
   * the last LIVE_CHANGES_EVERY_MS (a lone fill reaches the P&L card in a frame, even when its
   * order update came a batch before its trade), else at the end of that kind's interval for every
   * batch meanwhile (a busy stream does not make screens re-ask per frame).
   */
  private scheduleDataChanged(): void {
    if (this.pendingKinds.size === 0) return;
    const kinds = this.pendingKinds;
    this.pendingKinds = new Set();
    this.dataChanged.trigger(kinds);
    if (this.closed) this.dataChanged.flush();
  }

  /** A bad event or a store failure is logged; it must never break the stream's handlers. */
  private guard(what: string, fn: () => void): void {
    if (this.closed) return;
    try {
      fn();
    } catch (error) {
      this.deps.log.error(`live: could not handle a ${what}`, error);
    }
  }
}
