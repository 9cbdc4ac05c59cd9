/**
 * subAccounts.*: the cached sub-accounts and transfer history, and transfers between the main
 * account and its sub-accounts (the routing, the checks and the journal: electron/transfers/), and
 * a sub-account's own key linked or unlinked (session/sub-account-links.ts).
 */
import type { ApiContext, HandlerGroup } from './context';
import { syncFailure } from './errors';

export function subAccountsHandlers(ctx: ApiContext) {
  return {
    'subAccounts.list': async () => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['subAccounts', 'transfers']);
      return ctx.transfers.view(profile.id);
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
      return ctx.transfers.view(profile.id);
    },
    'subAccounts.transfer': (input) =>
      ctx.transfers.transfer(ctx.session.requireTrade('move funds between sub-accounts'), input),
    'subAccounts.history': async ({ filter, offset, limit }) => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['transfers']);
      const page = ctx.transfers.history(profile.id, { asset: filter.asset, offset, limit });
      return { ...page, asOf: sync.jobStatus('transfers').lastSuccessAt };
    },
    'subAccounts.link': async (input) => {
      const session = ctx.session.require();
      await ctx.subAccountLinks.link(session, ctx.session.secretsFor(session.profile), input);
      return ctx.transfers.view(session.profile.id);
    },
    'subAccounts.unlink': async ({ email }) => {
      const session = ctx.session.require();
      await ctx.subAccountLinks.unlink(session, ctx.session.secretsFor(session.profile), email);
      return ctx.transfers.view(session.profile.id);
    },
  } satisfies HandlerGroup<'subAccounts'>;
}
