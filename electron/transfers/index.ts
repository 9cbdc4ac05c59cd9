/**
 * Transfers between the main account and its sub-accounts, and the sub-accounts as the screens
 * show them. The exchange moves funds only between the main account and one of its sub-accounts,
 * so a sub-to-sub move is two transfers through the main account, shown as one step. When the
 * second one fails or its outcome is unknown, the answer says so and where the funds are, so the
 * user can finish the move; an unknown outcome is never retried blindly (that could move the funds
 * twice). One Transfers, built in app.ts, serves whichever profile is active.
 */
import type { MethodParsedInput } from '../../shared/contract';
import { Decimal } from '../../shared/exact-decimal';
import { formatAmount, formatAmountWithUnit } from '../../shared/format';
import type {
  Settings,
  SubAccountsView,
  SubAccountView,
  SubTransferView,
  TransferLeg,
  TransferOutcome,
} from '../../shared/types';
import { AppError } from '../core/app-error';
import { inBackground } from '../core/background';
import { formatDecimal, parseDecimal } from '../core/decimal';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import { sameAsset } from '../core/market';
import type { Notifier } from '../core/notifier';
import type { ExchangeClient } from '../exchange/client';
import { NothingMovedError, type MoneyJournal } from '../journal/money-journal';
import type { LiveSession } from '../live/live-session';
import { notify } from '../live/notify';
import type { ExchangeRules } from '../rules/exchange-rules';
import type { JournalEntryRow, JournalStepRow, Store } from '../store';
import type { SubAccountRow } from '../store/types';
import { valueHoldings, type SyncEngine } from '../sync';

/** Per-profile setting: the main account's e-mail, needed to route sub-to-sub transfers. */
export const PARENT_EMAIL_KEY = 'parentEmail';

/** What a transfer needs of the active profile's session. */
export interface TransferSession {
  readonly profile: { readonly id: string };
  readonly client: ExchangeClient;
  readonly sync: SyncEngine;
  readonly live: LiveSession;
  readonly journal: MoneyJournal;
}

export interface TransfersDeps {
  store: Store;
  rules: ExchangeRules;
  emit: Emit;
  log: Logger;
  settings: () => Settings;
  now: () => number;
  notifier?: Notifier | undefined;
}

type TransferInput = MethodParsedInput<'subAccounts.transfer'>;

const LEG_STATUS: Record<JournalStepRow['status'], TransferLeg['status']> = {
  done: 'success',
  'not-made': 'failed',
  sending: 'unknown',
  pending: 'not-sent',
};

/** The journal entry of a transfer as the bridge's outcome (the legs, where the funds are). */
export function transferOutcome(entry: JournalEntryRow): TransferOutcome {
  const legs = entry.steps.map((step) => {
    const leg: TransferLeg = {
      fromEmail: step.fromEmail ?? '',
      toEmail: step.toEmail ?? '',
      status: LEG_STATUS[step.status],
    };
    if (step.ref !== null) leg.txnId = Number(step.ref);
    if (step.message !== null && step.status !== 'done') leg.message = step.message;
    return leg;
  });
  const state =
    entry.status === 'completed'
      ? 'completed'
      : entry.status === 'stopped'
        ? 'partial'
        : entry.status === 'not-made'
          ? 'failed'
          : 'unknown';
  return {
    state,
    legs,
    asset: entry.asset,
    amount: entry.amount,
    fundsAt: state === 'unknown' ? null : entry.fundsAt,
    journalId: entry.id,
  };
}

function linkView(
  link: { apiKeyMasked: string; linkedAt: number } | undefined,
): SubAccountView['link'] {
  return link ? { apiKeyMasked: link.apiKeyMasked, linkedAt: link.linkedAt } : null;
}

export class Transfers {
  constructor(private readonly deps: TransfersDeps) {}

  /**
   * The main account's e-mail. The API has no endpoint that names it: it is known for the demo
   * world, remembered after a transfer, or read from the transfer history (the side of a transfer
   * that is not a sub-account).
   */
  parentEmail(profileId: string, subs: SubAccountRow[]): string | null {
    const { store } = this.deps;
    const remembered = store.settings.get<string>(PARENT_EMAIL_KEY, profileId);
    if (typeof remembered === 'string' && remembered) return remembered;
    const subEmails = new Set(subs.map((s) => s.email.toLowerCase()));
    const { rows } = store.subAccounts.transfers(profileId, { limit: 20 });
    for (const transfer of rows) {
      for (const email of [transfer.fromEmail, transfer.toEmail]) {
        if (!subEmails.has(email.toLowerCase())) return email.toLowerCase();
      }
    }
    return null;
  }

  /**
   * The cached sub-accounts, each valued in the user's quote asset from its balances and the
   * cached prices, the same way the main account's funds are. (The exchange's own portfolio figure
   * is in a currency of its choosing and would be shown under the wrong unit.)
   */
  view(profileId: string): SubAccountsView {
    const { store } = this.deps;
    const { quoteAsset } = this.deps.settings();
    const { rows, asOf } = store.subAccounts.list(profileId);
    const links = new Map(store.subAccountKeys.links(profileId).map((l) => [l.email, l]));
    return {
      quoteAsset,
      parentEmail: this.parentEmail(profileId, rows),
      accounts: rows.map((row) => {
        const { value, unpriced } = valueHoldings(
          store,
          profileId,
          quoteAsset,
          row.balances.map((b) => ({ asset: b.asset, amount: b.balance })),
        );
        return {
          email: row.email,
          status: row.status,
          value,
          unpriced,
          createdAt: row.createdAt,
          balances: row.balances.map((b) => ({ asset: b.asset, balance: b.balance })),
          link: linkView(links.get(row.email.toLowerCase())),
        };
      }),
      asOf,
    };
  }

  /** A page of the cached transfer history, newest first. */
  history(
    profileId: string,
    query: { asset?: string | undefined; offset: number; limit: number },
  ): { rows: SubTransferView[]; total: number } {
    const page = this.deps.store.subAccounts.transfers(profileId, {
      asset: query.asset,
      direction: 'desc',
      offset: query.offset,
      limit: query.limit,
    });
    return {
      rows: page.rows.map((row) => ({
        txnId: row.txnId,
        asset: row.asset,
        fromEmail: row.fromEmail,
        toEmail: row.toEmail,
        qty: row.qty,
        status: row.status,
        time: row.time,
      })),
      total: page.total,
    };
  }

  /**
   * Checks the route and the funds, then moves them through the money journal (written before
   * the first request, each leg as it completes, so a process that dies half-way leaves the facts
   * for its next start).
   */
  async transfer(session: TransferSession, input: TransferInput): Promise<TransferOutcome> {
    const { store, rules } = this.deps;
    const profileId = session.profile.id;
    let subs = store.subAccounts.list(profileId).rows;
    if (subs.length === 0) {
      await session.sync.refresh('subAccounts', { force: true });
      subs = store.subAccounts.list(profileId).rows;
    }
    const subEmails = new Set(subs.map((s) => s.email.toLowerCase()));
    const parent = this.parentEmail(profileId, subs);
    const { fromEmail: from, toEmail: to, asset, amount } = input;
    const fromIsSub = subEmails.has(from);
    const toIsSub = subEmails.has(to);

    if (!fromIsSub && !toIsSub) {
      throw new AppError(
        'invalid-input',
        'Transfers go between the main account and its sub-accounts; neither e-mail is a sub-account.',
        'toEmail',
      );
    }
    if (fromIsSub !== toIsSub) {
      const mainSide = fromIsSub ? to : from;
      if (parent !== null && mainSide !== parent) {
        throw new AppError(
          'invalid-input',
          `${mainSide} is neither the main account (${parent}) nor one of its sub-accounts.`,
          fromIsSub ? 'toEmail' : 'fromEmail',
        );
      }
    } else if (parent === null) {
      throw new AppError(
        'invalid-input',
        'A transfer between two sub-accounts goes through the main account, whose e-mail is not ' +
          'known yet. Make one transfer between the main account and a sub-account first.',
        'fromEmail',
      );
    }

    await rules.checkTransferDecimals(session.client, input);
    const available = this.freeBalance(profileId, from, asset, parent, subs);
    // Nothing held and no market trading it: an asset the exchange does not know, not a shortfall.
    if (available.isZero() && !(await rules.tradesAsset(session.client, asset))) {
      throw new AppError(
        'invalid-input',
        `${asset.toUpperCase()} is not an asset of this exchange: no market trades it and ${from} holds none.`,
        'asset',
      );
    }
    if (available.lt(amount)) {
      throw new AppError(
        'insufficient-balance',
        `Not enough ${asset.toUpperCase()} in ${from}: ${formatAmount(formatDecimal(available))} available, ` +
          `${formatAmount(amount)} requested.`,
        'amount',
      );
    }

    const viaParent = fromIsSub && toIsSub && parent !== null;
    // What the transfer does to the main account's balance, step by step: its own changes,
    // told once by its outcome, not again as balance changes (live/transfer-claims.ts).
    const mainChanges = viaParent ? [amount, `-${amount}`] : fromIsSub ? [amount] : [`-${amount}`];
    const claim = session.live.claimTransfer(asset, mainChanges);
    let entry: JournalEntryRow;
    try {
      entry = await session.journal.transfer({
        asset,
        amount,
        fromEmail: from,
        toEmail: to,
        ...(viaParent ? { viaEmail: parent } : {}),
      });
    } catch (error) {
      claim.drop();
      // A first transfer that definitely did not happen is an ordinary error: nothing moved.
      if (error instanceof NothingMovedError) throw error.reason;
      throw error;
    }
    // A step not made, or never sent, moves nothing: its change will not come. One done, or
    // sent with no answer (it may have happened), may still come over the stream.
    claim.settle(entry.steps.map((step) => step.status === 'done' || step.status === 'sending'));
    const outcome = transferOutcome(entry);
    // A successful main<->sub transfer names the main account: remember it for sub-to-sub moves.
    if (!viaParent && outcome.state === 'completed' && parent === null) {
      store.settings.set(PARENT_EMAIL_KEY, fromIsSub ? to : from, profileId);
    }

    this.announce(profileId, outcome, from, to);
    this.moved(session, 'sub-accounts: re-reading the balances after a transfer');
    this.deps.emit('data.changed', { profileId, kinds: ['subAccounts', 'funds'] });
    return outcome;
  }

  /**
   * Funds moved (a transfer, or the missing leg of a stopped one): the balances are re-read in the
   * background, since the sub-account endpoints are slow-paced and the answer does not wait.
   */
  moved(session: Pick<TransferSession, 'sync'>, what: string): void {
    inBackground(
      Promise.all([
        session.sync.refresh('subAccounts', { force: true }),
        session.sync.refresh('transfers', { force: true }),
        session.sync.refresh('funds', { force: true }),
      ]),
      what,
      this.deps.log.error,
    );
  }

  private freeBalance(
    profileId: string,
    email: string,
    asset: string,
    parent: string | null,
    subs: SubAccountRow[],
  ): Decimal {
    const sub = subs.find((s) => s.email.toLowerCase() === email);
    if (sub) {
      const balance = sub.balances.find((b) => sameAsset(b.asset, asset));
      return parseDecimal(balance?.balance ?? '0', `${email} ${asset} balance`);
    }
    if (parent === null || email === parent) {
      const fund = this.deps.store.funds
        .list(profileId)
        .rows.find((f) => sameAsset(f.asset, asset));
      return parseDecimal(fund?.free ?? '0', `${asset} free`);
    }
    return new Decimal(0);
  }

  private announce(profileId: string, outcome: TransferOutcome, from: string, to: string): void {
    const what = formatAmountWithUnit(outcome.amount, outcome.asset);
    const [title, body] =
      outcome.state === 'completed'
        ? ['Transfer completed', `${what} moved from ${from} to ${to}.`]
        : outcome.state === 'partial'
          ? [
              'Transfer not finished',
              `${what} left ${from} but did not reach ${to}; it is in the main account ` +
                `${outcome.fundsAt}. Transfer it from there to ${to} to finish.`,
            ]
          : [
              'Transfer outcome unknown',
              `The exchange did not confirm moving ${what} from ${from} to ${to}. Check the ` +
                'transfer history before trying again.',
            ];
    const { store, emit, settings, now, log, notifier } = this.deps;
    notify({ store, profileId, emit, settings, now, log, notifier }, 'transfer', title, body);
  }
}
