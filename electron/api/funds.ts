/** funds.list (cache first) and funds.refresh (re-read from the exchange now). */
import { fundsView } from '../sync';
import type { ApiContext, HandlerGroup } from './context';
import { syncFailure } from './errors';

export function fundsHandlers(ctx: ApiContext) {
  return {
    'funds.list': async () => {
      const { profile, sync } = ctx.session.require();
      sync.focus(['funds', 'prices']);
      return fundsView(ctx.store, profile.id, ctx.settings().quoteAsset, ctx.now());
    },
    'funds.refresh': async () => {
      const { profile, sync } = ctx.session.require();
      const startedAt = ctx.now();
      await Promise.all([sync.refresh('funds', { force: true }), sync.refresh('prices')]);
      const failure = syncFailure(sync, 'funds', startedAt);
      if (failure) throw failure;
      return fundsView(ctx.store, profile.id, ctx.settings().quoteAsset, ctx.now());
    },
  } satisfies HandlerGroup<'funds'>;
}
