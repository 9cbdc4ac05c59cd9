/**
 * The active profile's orders and own trades as the cache holds them: the open orders, the order
 * history and the trades (with the fees paid over the whole filtered set), newest first, each
 * with when they were last read. A read covers one account (the main account, or a sub-account)
 * or every account (the main account and each sub-account linked to a key of its own), says
 * which, and names the sub-accounts of its scope whose orders cannot be read (none linked).
 * Asking for one also puts its reads first for a while (sync's job for the main account, each
 * linked sub-account's feed for its own), so the screen that shows it is the one brought up to
 * date. One OrderHistory, built in app.ts, serves whichever profile is active.
 */
import type { MethodParsedInput } from '../../shared/contract';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import type { AccountsCovered, OrdersPage, TradesPage } from '../../shared/types';
import { AppError } from '../core/app-error';
import type { Store } from '../store';

type OrderJob = 'openOrders' | 'orders' | 'trades';

/** What the reads need of the active profile's session: its id and its sync's jobs. */
export interface OrderHistorySession {
  readonly profile: { readonly id: string };
  readonly sync: {
    /** Runs these jobs first for a while (the screen that shows them is open). */
    focus(jobs: OrderJob[]): void;
    jobStatus(job: OrderJob): { readonly lastSuccessAt: number | null };
  };
}

/** What the reads need of the linked sub-accounts' feeds (session/sub-account-links.ts). */
export interface LinkedAccountReads {
  /** The feed of a linked sub-account reads its open orders now unless it did just now. */
  focusOrders(profileId: string): void;
  /** When a linked sub-account's open orders, order history or trades were last read; null: not yet. */
  lastReadAt(profileId: string, account: string, what: OrderJob): number | null;
}

export class OrderHistory {
  constructor(private readonly deps: { store: Store; linked: LinkedAccountReads }) {}

  /** The open orders (of one symbol, or all) of the account named, or of every account. */
  open(
    session: OrderHistorySession,
    { symbol, account }: MethodParsedInput<'orders.open'>,
  ): OrdersPage {
    const { profile, sync } = session;
    const covered = this.covered(profile.id, account);
    sync.focus(['openOrders']);
    this.deps.linked.focusOrders(profile.id);
    const rows = this.deps.store.orders.openOrders(profile.id, symbol, covered.accounts);
    return {
      ...covered,
      rows: rows.map((row) => ({ ...row })),
      total: rows.length,
      asOf: this.asOf(session, covered.accounts, 'openOrders'),
    };
  }

  /** A page of the orders, newest first, of one symbol or status or all, of the scope's accounts. */
  orders(
    session: OrderHistorySession,
    { account, symbol, status, offset, limit }: MethodParsedInput<'orders.history'>,
  ): OrdersPage {
    const { profile, sync } = session;
    const covered = this.covered(profile.id, account);
    sync.focus(['orders']);
    const page = this.deps.store.orders.ordersPage(profile.id, {
      accounts: covered.accounts,
      symbol,
      status,
      direction: 'desc',
      offset,
      limit,
    });
    return {
      ...covered,
      rows: page.rows.map((row) => ({ ...row })),
      total: page.total,
      asOf: this.asOf(session, covered.accounts, 'orders'),
    };
  }

  /** A page of the own trades, newest first, and the fees paid over every trade the filter takes. */
  trades(
    session: OrderHistorySession,
    { account, filter, offset, limit }: MethodParsedInput<'orders.trades'>,
  ): TradesPage {
    const { profile, sync } = session;
    const { store } = this.deps;
    const covered = this.covered(profile.id, account);
    sync.focus(['trades']);
    const query = {
      accounts: covered.accounts,
      symbol: filter.symbol,
      side: filter.side,
      from: filter.startTime,
      to: filter.endTime,
    };
    const page = store.orders.tradesPage(profile.id, {
      ...query,
      direction: 'desc',
      offset,
      limit,
    });
    return {
      ...covered,
      rows: page.rows.map((row) => ({ ...row })),
      total: page.total,
      asOf: this.asOf(session, covered.accounts, 'trades'),
      feesByAsset: store.orders.feesByAsset(profile.id, query),
    };
  }

  /**
   * The accounts a read of `account` covers ('main', a sub-account's e-mail, or every account
   * when left out) and the sub-accounts of that scope it cannot read: linked to no key of their
   * own. An account the profile does not have is refused, naming the field.
   */
  private covered(profileId: string, account: string | undefined): AccountsCovered {
    const { store } = this.deps;
    const subAccounts = store.subAccounts
      .list(profileId)
      .rows.map((row) => row.email.toLowerCase());
    const linked = new Set(store.subAccountKeys.links(profileId).map((link) => link.email));
    const linkedNow = subAccounts.filter((sub) => linked.has(sub));
    const profile = { subAccounts, linked: linkedNow };
    if (account === undefined) {
      return {
        accounts: [MAIN_ACCOUNT, ...linkedNow],
        unlinked: subAccounts.filter((sub) => !linked.has(sub)),
        ...profile,
      };
    }
    if (account === MAIN_ACCOUNT) return { accounts: [MAIN_ACCOUNT], unlinked: [], ...profile };
    if (!subAccounts.includes(account)) {
      throw new AppError(
        'invalid-input',
        `${account} is not a sub-account of this profile as the exchange last listed them.`,
        'account',
      );
    }
    return linked.has(account)
      ? { accounts: [account], unlinked: [], ...profile }
      : { accounts: [], unlinked: [account], ...profile };
  }

  /** When the oldest of the accounts' reads was made: the page is at least that fresh. */
  private asOf(
    session: OrderHistorySession,
    accounts: readonly string[],
    what: OrderJob,
  ): number | null {
    let oldest: number | null = null;
    for (const account of accounts) {
      const at =
        account === MAIN_ACCOUNT
          ? session.sync.jobStatus(what).lastSuccessAt
          : this.deps.linked.lastReadAt(session.profile.id, account, what);
      if (at === null) return null;
      oldest = oldest === null ? at : Math.min(oldest, at);
    }
    return oldest;
  }
}
