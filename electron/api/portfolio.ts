/** portfolio.* and account.info: cache first, from the store, with sync refreshing behind. */
import type { AccountView } from '../../shared/types';
import type { AccountInfo } from '../exchange/wire';
import { portfolioSummary } from '../sync';
import { storedAccountInfo } from '../sync/store-port';
import type { ApiContext, HandlerGroup } from './context';
import { AppError, syncFailure } from './errors';

export function portfolioHandlers(ctx: ApiContext) {
  return {
    'portfolio.summary': async () => {
      const quoteAsset = ctx.settings().quoteAsset;
      // The demo restarting: the last run's cached figures, until the new one's are fetched.
      const standIn = ctx.session.cachedStandIn();
      const session = standIn ? ctx.session.current() : ctx.session.require();
      session?.sync.focus(['funds', 'prices']);
      return portfolioSummary(ctx.store, (standIn ?? session!.profile).id, quoteAsset);
    },
  } satisfies HandlerGroup<'portfolio'>;
}

export function accountHandlers(ctx: ApiContext) {
  return {
    'account.info': async () => {
      const { profile, sync } = ctx.session.require();
      const cached = storedAccountInfo(ctx.store, profile.id);
      if (cached) {
        sync.focus(['account']);
        return toAccountView(cached.info);
      }
      // Nothing cached yet (first minutes of a new profile): fetch it now.
      await sync.refresh('account', { force: true });
      const fetched = storedAccountInfo(ctx.store, profile.id);
      if (fetched) return toAccountView(fetched.info);
      throw (
        syncFailure(sync, 'account') ??
        new AppError('network', 'The account could not be read yet.')
      );
    },
  } satisfies HandlerGroup<'account'>;
}

function toAccountView(info: AccountInfo): AccountView {
  return {
    accountType: info.accountType,
    canTrade: info.canTrade,
    canWithdraw: info.canWithdraw,
    updateTime: info.updateTime,
  };
}
