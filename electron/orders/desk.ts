/**
 * Orders sent from the app: reviewed (review.ts), placed through the money journal, canceled, and
 * what the exchange answered kept in the cache at once. A place that meets a 5xx or a timeout is
 * reconciled by the client (by clientOrderId) before it answers, so a retry by the user never
 * doubles an order silently. Also whether an order is worth more than the Settings' threshold (the
 * lock asks for the password again above it). One OrderDesk, built in app.ts, serves whichever
 * profile is active.
 */
import { randomBytes } from 'node:crypto';
import type { MethodParsedInput } from '../../shared/contract';
import { Decimal } from '../../shared/exact-decimal';
import type { OrderReview, OrderView, Settings } from '../../shared/types';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import { toOrderView } from '../core/views';
import type { ExchangeClient, NewOrder } from '../exchange/client';
import type { Order } from '../exchange/wire';
import type { ExchangeRules } from '../rules/exchange-rules';
import type { Store } from '../store';
import { testOrder, toNewOrder, type OrderInput } from './review';

/** What the desk needs of the active profile's session. */
export interface OrderSession {
  readonly profile: { readonly id: string };
  readonly client: Pick<ExchangeClient, 'general' | 'account' | 'market' | 'trading'>;
  /** The live session: holds a fill that overtakes the answer of its order. */
  readonly live: {
    placeOrder(clientOrderId: string, send: () => Promise<Order>): Promise<Order>;
  };
  /** The money journal: the order is written before it is sent. */
  readonly journal: { placeOrder(order: NewOrder): Promise<Order> };
}

export interface OrderDeskDeps {
  store: Store;
  rules: ExchangeRules;
  emit: Emit;
  log: Logger;
  settings: () => Settings;
}

export class OrderDesk {
  constructor(private readonly deps: OrderDeskDeps) {}

  /**
   * A test is a review: local checks with their numbers first (review.ts), the exchange's test
   * endpoint only when they all pass.
   */
  test(session: Pick<OrderSession, 'client'>, input: OrderInput): Promise<OrderReview> {
    const { rules, settings } = this.deps;
    return testOrder(rules, session.client, input, new Decimal(settings().priceWarningPercent));
  }

  async place(session: OrderSession, input: OrderInput): Promise<OrderView> {
    await this.deps.rules.checkOrderDecimals(session.client, input);
    // Journaled under its clientOrderId before it is sent: if the app dies before the answer,
    // the next start looks the order up instead of leaving the user to guess.
    // Its own client order id, so the live session can hold a fill that overtakes the answer.
    const clientOrderId = randomBytes(16).toString('hex');
    const order = await session.live.placeOrder(clientOrderId, () =>
      session.journal.placeOrder({ ...toNewOrder(input), clientOrderId }),
    );
    this.remember(session.profile.id, [order]);
    this.deps.log.info(`placed order ${order.id} (${order.symbol} ${order.side} ${order.type})`);
    return toOrderView(order);
  }

  async cancel(
    session: OrderSession,
    { symbol, orderId }: MethodParsedInput<'orders.cancel'>,
  ): Promise<OrderView> {
    await this.deps.rules.checkListedSymbol(session.client, symbol);
    const order = await session.client.trading.cancelOrder({ symbol, orderId });
    this.remember(session.profile.id, [order]);
    return toOrderView(order);
  }

  async cancelAll(session: OrderSession, symbol: string): Promise<OrderView[]> {
    await this.deps.rules.checkListedSymbol(session.client, symbol);
    const canceled = await session.client.trading.cancelAllOrders({ symbol });
    this.remember(session.profile.id, canceled);
    return canceled.map(toOrderView);
  }

  /**
   * Whether an order's value (price × quantity in its market's quote asset) is above the
   * threshold in the settings' quote asset. An order whose value cannot be put in that asset (no
   * cached price between the two) counts as above it: the password is asked rather than skipped.
   */
  async aboveThreshold(
    session: Pick<OrderSession, 'profile' | 'client'>,
    order: OrderInput,
  ): Promise<boolean> {
    const { store, rules } = this.deps;
    const { quoteAsset, confirmOrdersAbove } = this.deps.settings();
    const threshold = new Decimal(confirmOrdersAbove);
    const value = new Decimal(order.price).times(order.quantity);
    let market;
    try {
      market = (await rules.listedSymbols(session.client)).find(
        (s) => s.symbol.toLowerCase() === order.symbol,
      );
    } catch {
      return true;
    }
    if (!market) return false; // refused by orders.place itself, before anything is sent
    const quote = market.quoteAsset.toLowerCase();
    const wanted = quoteAsset.toLowerCase();
    if (quote === wanted) return value.gt(threshold);
    const profileId = session.profile.id;
    const direct = store.prices.get(profileId, `${quote}${wanted}`);
    if (direct) return value.times(direct.last).gt(threshold);
    const inverse = store.prices.get(profileId, `${wanted}${quote}`);
    // value / price > threshold, compared without dividing.
    if (inverse) return value.gt(threshold.times(inverse.last));
    return true;
  }

  private remember(profileId: string, orders: Order[]): void {
    if (orders.length === 0) return;
    this.deps.store.orders.upsertOrders(profileId, orders);
    this.deps.emit('data.changed', { profileId, kinds: ['orders'] });
  }
}
