/**
 * Orders sent from the app: reviewed (review.ts), placed through the money journal, canceled, and
 * what the exchange answered kept in the cache at once. A place that meets a 5xx or a timeout is
 * reconciled by the client (by clientOrderId) before it answers, so a retry by the user never
 * doubles an order silently. Also whether an order is worth more than the Settings' threshold (the
 * lock asks for the password again above it). One OrderDesk, built in app.ts, serves whichever
 * profile is active.
 *
 * A linked sub-account's order is canceled with its own key (the parent's cannot touch it),
 * through the same client, pacing and unknown-outcome reconciliation as the main account's;
 * orders are placed on the main account only (the review, the money journal and the live
 * placement are the profile's session's).
 */
import { randomBytes } from 'node:crypto';
import type { MethodParsedInput } from '../../shared/contract';
import { Decimal } from '../../shared/exact-decimal';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import type { OrderReview, OrderView, Settings } from '../../shared/types';
import { AppError } from '../core/app-error';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import { toOrderView } from '../core/views';
import type { ExchangeClient, NewOrder } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
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

/** The clients of the linked sub-accounts' own keys (session/sub-account-links.ts). */
export interface SubAccountClients {
  /** The client of a linked sub-account's key; none when it has no key linked or kept. */
  clientOf(profileId: string, account: string): Pick<ExchangeClient, 'trading'> | undefined;
}

export interface OrderDeskDeps {
  store: Store;
  subAccounts: SubAccountClients;
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

  /** Cancels an order of the main account, or of a linked sub-account with that one's key. */
  async cancel(
    session: Pick<OrderSession, 'profile' | 'client'>,
    { symbol, orderId, account = MAIN_ACCOUNT }: MethodParsedInput<'orders.cancel'>,
  ): Promise<OrderView> {
    await this.deps.rules.checkListedSymbol(session.client, symbol);
    const trading = this.tradingOf(session, account);
    const order = await trading
      .cancelOrder({ symbol, orderId })
      .catch((error: unknown) => this.refused(error, account, `order ${orderId}`));
    this.remember(session.profile.id, [order], account);
    return toOrderView(order, account);
  }

  /** Cancels every open order of one market of the account (main, or a linked sub-account). */
  async cancelAll(
    session: Pick<OrderSession, 'profile' | 'client'>,
    { symbol, account = MAIN_ACCOUNT }: MethodParsedInput<'orders.cancelAll'>,
  ): Promise<OrderView[]> {
    await this.deps.rules.checkListedSymbol(session.client, symbol);
    const trading = this.tradingOf(session, account);
    const canceled = await trading
      .cancelAllOrders({ symbol })
      .catch((error: unknown) => this.refused(error, account, `the orders on ${symbol}`));
    this.remember(session.profile.id, canceled, account);
    return canceled.map((order) => toOrderView(order, account));
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

  /** The trading endpoints with the account's own key: the profile's, or the sub-account's. */
  private tradingOf(
    session: Pick<OrderSession, 'profile' | 'client'>,
    account: string,
  ): Pick<ExchangeClient, 'trading'>['trading'] {
    if (account === MAIN_ACCOUNT) return session.client.trading;
    const client = this.deps.subAccounts.clientOf(session.profile.id, account);
    if (!client) {
      throw new AppError(
        'invalid-input',
        `${account} has no key of its own linked in this app, so its orders cannot be canceled here. Nothing was sent.`,
        'account',
      );
    }
    return client.trading;
  }

  /**
   * A sub-account's key that may not trade: said as that key's refusal, so the row it was asked
   * on tells what to do. Any other failure (an unknown outcome included, already reconciled by the
   * client) stays as it is.
   */
  private refused(error: unknown, account: string, what: string): never {
    if (account !== MAIN_ACCOUNT && error instanceof ExchangeError && error.kind === 'permission') {
      const said = error.exchangeMessage?.trim();
      throw new AppError(
        'permission',
        `The key linked to ${account} may not trade, so the exchange refused to cancel ${what}${said ? ` (${said})` : ''}. Nothing was canceled. Link a key of ${account} allowed to trade on the Sub-accounts screen to cancel its orders here.`,
      );
    }
    throw error;
  }

  private remember(profileId: string, orders: Order[], account: string = MAIN_ACCOUNT): void {
    if (orders.length === 0) return;
    this.deps.store.orders.upsertOrders(profileId, orders, account);
    this.deps.emit('data.changed', { profileId, kinds: ['orders'] });
  }
}
