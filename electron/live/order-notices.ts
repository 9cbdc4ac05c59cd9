/**
 * What the user is told of an account's orders as its private stream brings them, written once
 * for the main account (live-session.ts) and every linked sub-account (sub-account-feed.ts): one
 * instance per session, so a fill or a cancel follows the same rules whichever account it is of.
 *
 * - An order placed from this app is told "Order placed" by its answer; a fill of it the stream
 *   brings before that answer waits for it.
 * - A fill's first notification waits for the order's update covering it (the title says how much
 *   of the order is filled), at most one summary window; the fills after it within a window make
 *   one summary per window, not a toast per piece.
 * - A cancel is told once.
 *
 * Orders and fills are keyed by account and order id: the exchange does not promise order ids
 * unique across accounts. A sub-account's notifications name it (its e-mail, as the Orders and
 * Sub-accounts screens name it) in the title: the body's numbers are masked in privacy mode, and
 * an e-mail may hold digits. The main account's are named as they always were.
 */
import { Decimal, divide } from '../../shared/exact-decimal';
import {
  describeOrder,
  formatAmount,
  formatAmountWithUnit,
  formatFee,
  type OrderDescription,
} from '../../shared/format';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import type { NotificationKind, OrderUpdate, OwnTradeUpdate } from '../../shared/types';
import type { Clock, TimerHandle } from '../core/clock';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Order } from '../exchange/wire';
import type { OrderInput } from '../store/types';
import type { SyncStorePort } from '../sync/port';
import { notify, type NotifyDeps } from './notify';

/**
 * An order filled in many small pieces makes one notification now and then one summary per this
 * interval, not a toast (and a desktop notification) per piece. The live batch still carries
 * every trade at once.
 */
export const FILL_SUMMARY_EVERY_MS = 1000;

export interface OrderNoticesDeps {
  notify: NotifyDeps;
  clock: Clock;
  /** Where the markets' base and quote assets are, as sync last read them. */
  port: Pick<SyncStorePort, 'symbolAssets'>;
}

/** How an account's orders stand, as its notices read them. */
export interface AccountOrders {
  /** The order as last known (what the account's stream has not stored yet first); none: unknown. */
  order(orderId: number): OrderInput | null;
}

/**
 * A fill's first notification, waiting to be told: until the order it belongs to is answered
 * (placed here, its fill may come over the stream before the REST answer, and "Order placed"
 * is told first), and until the order's update covering it has come. An update that does not come
 * within a summary window lets it go with what is known.
 */
interface HeldFill {
  account: string;
  orderId: number;
  clientOrderId: string;
  side: string;
  /** The trade's time: an order update at or after it covers it. */
  time: number;
  qty: string;
  body: string;
  expired: boolean;
  timer: TimerHandle;
}

/** Fills of one order since its last notification. */
interface FillGroup {
  account: string;
  orderId: number;
  side: string;
  symbol: string;
  count: number;
  qty: Decimal;
  fee: Decimal;
  feeCurrency: string;
  lastPrice: string;
  timer: TimerHandle;
}

/** One key per account's order: order ids are not promised unique across accounts. */
function keyOf(account: string, id: number | string): string {
  return `${account}\u0000${id}`;
}

export class OrderNotices {
  private readonly accounts = new Map<string, AccountOrders>();
  private readonly fillGroups = new Map<string, FillGroup>();
  private heldFills: HeldFill[] = [];
  /** Orders being placed from this app, not answered yet, by account and client order id. */
  private readonly placing = new Set<string>();

  constructor(private readonly deps: OrderNoticesDeps) {}

  /** The account's stream is live: its orders and fills are told from now on. */
  open(account: string, orders: AccountOrders): void {
    this.accounts.set(account, orders);
  }

  /**
   * The account's stream ends (its session or feed closes): what waits of it is told now, with
   * what is known, and nothing of it is told after.
   */
  close(account: string): void {
    if (!this.accounts.has(account)) return;
    for (const key of [...this.placing]) {
      if (key.startsWith(keyOf(account, ''))) this.placing.delete(key);
    }
    for (const held of this.heldFills) if (held.account === account) held.expired = true;
    this.releaseFills();
    for (const group of [...this.fillGroups.values()]) {
      if (group.account === account) this.flushFills(account, group.orderId, false);
    }
    this.accounts.delete(account);
  }

  /**
   * Places an order through `send` and tells "Order placed" when it is answered: a fill of it the
   * stream brings before the answer waits, so the user never reads of a fill before the order. A
   * refused placement tells nothing here.
   */
  async placeOrder(
    account: string,
    clientOrderId: string,
    send: () => Promise<Order>,
  ): Promise<Order> {
    const key = keyOf(account, clientOrderId);
    this.placing.add(key);
    try {
      const order = await send();
      this.tell(account, 'order', 'Order placed', () =>
        this.orderText({
          side: order.side,
          qty: order.origQty,
          price: order.price,
          ...(order.stopPrice !== undefined ? { stopPrice: order.stopPrice } : {}),
          symbol: order.symbol,
        }),
      );
      return order;
    } finally {
      this.placing.delete(key);
      this.releaseFills();
    }
  }

  /**
   * An order update of the account's stream, once the account's orders hold it; `before` is the
   * order's status before it (none: the order was not known).
   */
  order(account: string, update: OrderUpdate, before: string | undefined): void {
    if (!this.accounts.has(account)) return;
    if (this.heldFills.length > 0) this.releaseFills();
    if (update.status !== 'cancel' || before === 'cancel') return;
    this.tell(
      account,
      'cancel',
      'Order canceled',
      () =>
        `${this.orderText({ side: update.side, qty: update.origQty, price: update.price, symbol: update.symbol })} was canceled` +
        (parseDecimal(update.executedQty, 'executed quantity').gt(0)
          ? ` (${this.qtyText(update.executedQty, update.symbol)} filled)`
          : ''),
    );
  }

  /** An own trade of the account's stream (`clientOrderId`: its order's, as the stream says). */
  trade(account: string, update: OwnTradeUpdate, clientOrderId: string): void {
    if (!this.accounts.has(account)) return;
    const key = keyOf(account, update.orderId);
    const group = this.fillGroups.get(key);
    if (group) {
      group.count += 1;
      group.qty = group.qty.plus(update.qty);
      group.fee = group.fee.plus(update.fee);
      group.lastPrice = update.price;
      return;
    }
    const { clock } = this.deps;
    const held: HeldFill = {
      account,
      orderId: update.orderId,
      clientOrderId,
      side: update.side,
      time: update.time,
      qty: update.qty,
      body:
        `${this.orderText({ side: update.side, qty: update.qty, price: update.price, symbol: update.symbol })}` +
        ` (${formatFee(update.fee, update.feeCurrency)})`,
      expired: false,
      timer: clock.setTimeout(() => {
        held.expired = true;
        this.releaseFills();
      }, FILL_SUMMARY_EVERY_MS),
    };
    this.heldFills.push(held);
    this.releaseFills();
    this.fillGroups.set(key, {
      account,
      orderId: update.orderId,
      side: update.side,
      symbol: update.symbol,
      count: 0,
      qty: new Decimal(0),
      fee: new Decimal(0),
      feeCurrency: update.feeCurrency,
      lastPrice: update.price,
      timer: clock.setTimeout(
        () => this.flushFills(account, update.orderId, true),
        FILL_SUMMARY_EVERY_MS,
      ),
    });
  }

  /** One notification for the fills gathered since the last; the window goes on while they come. */
  private flushFills(account: string, orderId: number, continueWindow: boolean): void {
    const key = keyOf(account, orderId);
    const group = this.fillGroups.get(key);
    if (!group) return;
    const { clock } = this.deps;
    clock.clearTimeout(group.timer);
    if (
      continueWindow &&
      this.heldFills.some((held) => held.account === account && held.orderId === orderId)
    ) {
      // The first fill is not told yet: the summary of the ones after it waits for it.
      group.timer = clock.setTimeout(
        () => this.flushFills(account, orderId, true),
        FILL_SUMMARY_EVERY_MS,
      );
      return;
    }
    if (group.count === 0 || !continueWindow) this.fillGroups.delete(key);
    if (group.count === 0) return;
    const { count, qty, fee, side, symbol } = group;
    this.tell(
      account,
      'fill',
      this.fillTitle(account, side, orderId, null),
      () =>
        `${count} more fills: ${this.orderText({ side, qty: formatDecimal(qty), symbol })}, last at ` +
        `${this.priceText(group.lastPrice, symbol)}` +
        ` (${fee.isZero() ? 'no fees' : `fees ${formatAmountWithUnit(formatDecimal(fee), group.feeCurrency)}`})`,
    );
    if (!continueWindow) return;
    Object.assign(group, { count: 0, qty: new Decimal(0), fee: new Decimal(0) });
    group.timer = clock.setTimeout(
      () => this.flushFills(account, orderId, true),
      FILL_SUMMARY_EVERY_MS,
    );
  }

  /**
   * Tells the held fills that may be told now, in the order they came: each once its order is
   * answered and its order's update has come (or its wait is over).
   */
  private releaseFills(): void {
    const waiting: HeldFill[] = [];
    for (const held of this.heldFills) {
      if (this.placing.has(keyOf(held.account, held.clientOrderId))) {
        waiting.push(held);
        continue;
      }
      const order = this.orderState(held.account, held.orderId);
      const covered = order !== null && order.updatedTime >= held.time;
      if (!covered && !held.expired) {
        waiting.push(held);
        continue;
      }
      this.deps.clock.clearTimeout(held.timer);
      const title = this.fillTitle(
        held.account,
        held.side,
        held.orderId,
        covered ? null : held.qty,
      );
      this.tell(held.account, 'fill', title, () => held.body);
    }
    this.heldFills = waiting;
  }

  private orderState(account: string, orderId: number): OrderInput | null {
    return this.accounts.get(account)?.order(orderId) ?? null;
  }

  /**
   * "Sell order filled", or "Sell order 40 % filled" while part of it is open: the order's
   * executed quantity over its original one, exactly (to two places, never 100 % before it is
   * all filled). `notCounted` is a fill the order's last known update does not cover yet.
   */
  private fillTitle(
    account: string,
    side: string,
    orderId: number,
    notCounted: string | null,
  ): string {
    const name = side === 'buy' ? 'Buy order' : 'Sell order';
    const order = this.orderState(account, orderId);
    if (!order) return `${name} partly or fully filled`;
    const original = parseDecimal(order.origQty, 'original quantity');
    let executed = parseDecimal(order.executedQty, 'executed quantity');
    if (notCounted !== null) executed = executed.plus(notCounted);
    if (!original.gt(0) || executed.gte(original)) return `${name} filled`;
    let percent = divide(executed.times(100), original, 2);
    if (percent.gte(100)) percent = new Decimal('99.99');
    return `${name} ${formatDecimal(percent)} % filled`;
  }

  /**
   * Records and shows one notification of `account` (a failure is logged: it must never break
   * the stream's handlers). The body is made inside, so a bad amount in it is that one's failure.
   */
  private tell(account: string, kind: NotificationKind, title: string, body: () => string): void {
    if (!this.accounts.has(account)) return;
    try {
      const named = account === MAIN_ACCOUNT ? title : `${title} in ${account}`;
      notify(this.deps.notify, kind, named, body());
    } catch (error) {
      this.deps.notify.log.error(`live: could not handle a ${kind} notification`, error);
    }
  }

  /** The market's base and quote asset, as sync last read them; undefined when not known. */
  private assetsOf(symbol: string): { baseAsset: string; quoteAsset: string } | undefined {
    return this.deps.port
      .symbolAssets(this.deps.notify.profileId)
      .find((s) => s.symbol === symbol.toLowerCase());
  }

  /** "Sell 0.001 BTC at 61,250 USDT": how a notification names an order or a fill. */
  private orderText(order: Omit<OrderDescription, 'baseAsset' | 'quoteAsset'>): string {
    return describeOrder({ ...order, ...this.assetsOf(order.symbol) });
  }

  private qtyText(qty: string, symbol: string): string {
    const base = this.assetsOf(symbol)?.baseAsset;
    return base ? formatAmountWithUnit(qty, base) : formatAmount(qty);
  }

  private priceText(price: string, symbol: string): string {
    const quote = this.assetsOf(symbol)?.quoteAsset;
    return quote ? formatAmountWithUnit(price, quote) : formatAmount(price);
  }
}
