/**
 * subAccounts.*: the cached sub-accounts and transfer history, and transfers between the main
 * account and its sub-accounts (the routing, the checks and the journal: electron/transfers/).
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
  } satisfies HandlerGroup<'subAccounts'>;
}
