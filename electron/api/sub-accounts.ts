/**
 * subAccounts.*: the cached sub-accounts and transfer history, and transfers. The exchange moves
 * funds only between the main account and one of its sub-accounts, so a sub-to-sub move is two
 * transfers through the main account, shown as one step. When the second one fails or its outcome
 * is unknown, the answer says so and where the funds are, so the user can finish the move; an
 * unknown outcome is never retried blindly (that could move the funds twice).
 */
import { Decimal } from '../../shared/exact-decimal';
import type { MethodParsedInput } from '../../shared/contract';
import { formatAmount, formatAmountWithUnit } from '../../shared/format';
import type { SubAccountsView, TransferLeg, TransferOutcome } from '../../shared/types';
import { inBackground } from '../core/background';
import { formatDecimal, parseDecimal } from '../core/decimal';
import { sameAsset } from '../core/market';
import { notify } from '../live/notify';
import type { Store } from '../store';
import type { JournalEntryRow, JournalStepRow } from '../store';
import type { SubAccountRow } from '../store/types';
import { valueHoldings } from '../sync';
import { NothingMovedError } from '../journal/money-journal';
import type { ApiContext, HandlerGroup } from './context';
import { AppError, syncFailure } from './errors';
import { PARENT_EMAIL_KEY, type ActiveSession } from '../session/manager';

/**
 * The main account's e-mail. The API has no endpoint that names it: it is known for the demo
 * world, remembered after a transfer, or read from the transfer history (the side of a transfer
 * that is not a sub-account).
 */
export function parentEmail(store: Store, profileId: string, subs: SubAccountRow[]): string | null {
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
 * The cached sub-accounts, each valued in the user's quote asset from its balances and the cached
 * prices, the same way the main account's funds are. (The exchange's own portfolio figure is in a
 * currency of its choosing and would be shown under the wrong unit.)
 */
export function subAccountsView(
  store: Store,
  profileId: string,
  quoteAsset: string,
): SubAccountsView {
  const { rows, asOf } = store.subAccounts.list(profileId);
  return {
    quoteAsset,
    parentEmail: parentEmail(store, profileId, rows),
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
      };
    }),
    asOf,
  };
}

type TransferInput = MethodParsedInput<'subAccounts.transfer'>;

function freeBalance(
  ctx: ApiContext,
  session: ActiveSession,
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
    const fund = ctx.store.funds
      .list(session.profile.id)
      .rows.find((f) => sameAsset(f.asset, asset));
    return parseDecimal(fund?.free ?? '0', `${asset} free`);
  }
  return new Decimal(0);
}

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

export async function transfer(ctx: ApiContext, input: TransferInput): Promise<TransferOutcome> {
  const session = ctx.session.requireTrade('move funds between sub-accounts');
  const profileId = session.profile.id;
  let subs = ctx.store.subAccounts.list(profileId).rows;
  if (subs.length === 0) {
    await session.sync.refresh('subAccounts', { force: true });
    subs = ctx.store.subAccounts.list(profileId).rows;
  }
  const subEmails = new Set(subs.map((s) => s.email.toLowerCase()));
  const parent = parentEmail(ctx.store, profileId, subs);
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

  await ctx.rules.checkTransferDecimals(session.client, input);
  const available = freeBalance(ctx, session, from, asset, parent, subs);
  // Nothing held and no market trading it: an asset the exchange does not know, not a shortfall.
  if (available.isZero() && !(await ctx.rules.tradesAsset(session.client, asset))) {
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

  // Written to the journal before the first request, each leg as it completes (see
  // journal/money-journal.ts), so a process that dies half-way leaves the facts for its next start.
  const viaParent = fromIsSub && toIsSub && parent !== null;
  let entry: JournalEntryRow;
  try {
    entry = await session.live.ownTransfer(asset, () =>
      session.journal.transfer({
        asset,
        amount,
        fromEmail: from,
        toEmail: to,
        ...(viaParent ? { viaEmail: parent } : {}),
      }),
    );
  } catch (error) {
    // A first transfer that definitely did not happen is an ordinary error: nothing moved.
    if (error instanceof NothingMovedError) throw error.reason;
    throw error;
  }
  const outcome = transferOutcome(entry);
  // A successful main<->sub transfer names the main account: remember it for sub-to-sub moves.
  if (!viaParent && outcome.state === 'completed' && parent === null) {
    ctx.store.settings.set(PARENT_EMAIL_KEY, fromIsSub ? to : from, profileId);
  }

  announce(ctx, session, outcome, from, to);
  // The balances moved: re-read them in the background (sub-account endpoints are slow-paced).
  inBackground(
    Promise.all([
      session.sync.refresh('subAccounts', { force: true }),
      session.sync.refresh('transfers', { force: true }),
      session.sync.refresh('funds', { force: true }),
    ]),
    'sub-accounts: re-reading the balances after a transfer',
    ctx.log.error,
  );
  ctx.emit('data.changed', { profileId, kinds: ['subAccounts', 'funds'] });
  return outcome;
}

function announce(
  ctx: ApiContext,
  session: ActiveSession,
  outcome: TransferOutcome,
  from: string,
  to: string,
): void {
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
  notify(
    {
      store: ctx.store,
      profileId: session.profile.id,
      emit: ctx.emit,
      settings: ctx.settings,
      now: ctx.now,
      log: ctx.log,
      notifier: ctx.notifier,
    },
    'transfer',
    title,
    body,
  );
}

export function subAccountsHandlers(ctx: ApiContext) {
  return {
    'subAccounts.list': async () => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['subAccounts', 'transfers']);
      return subAccountsView(ctx.store, profile.id, ctx.settings().quoteAsset);
    },
    'subAccounts.refresh': async () => {
      const { profile, sync } = ctx.session.require();
      const startedAt = ctx.now();
      await Promise.all([
        sync.refresh('subAccounts', { force: true }),
        sync.refresh('transfers', { force: true }),
      ]);
      const failure = syncFailure(sync, 'subAccounts', startedAt);
      if (failure) throw failure;
      return subAccountsView(ctx.store, profile.id, ctx.settings().quoteAsset);
    },
    'subAccounts.transfer': (input) => transfer(ctx, input),
    'subAccounts.history': async ({ filter, offset, limit }) => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['transfers']);
      const page = ctx.store.subAccounts.transfers(profile.id, {
        asset: filter.asset,
        direction: 'desc',
        offset,
        limit,
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
        asOf: sync.jobStatus('transfers').lastSuccessAt,
      };
    },
  } satisfies HandlerGroup<'subAccounts'>;
}
