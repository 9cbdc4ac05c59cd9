/** app.status: what the status bar and the first-run screen need to know. */
import type { AppStatus } from '../../shared/types';
import { ENDPOINT_LIMITS, type EndpointName } from '../exchange/limits';
import type { ApiContext, HandlerGroup } from './context';

const ENDPOINTS = Object.keys(ENDPOINT_LIMITS) as EndpointName[];

export function appStatusHandlers(ctx: ApiContext) {
  return {
    'app.status': async () => {
      const session = ctx.session.current();
      // The demo's exchange still starting: its last run's profile is the one shown.
      const standIn = session ? null : ctx.session.cachedStandIn();
      const pacingWaitMs = session
        ? Math.max(0, ...ENDPOINTS.map((endpoint) => session.client.queueWaitMs(endpoint)))
        : 0;
      const status: AppStatus = {
        version: ctx.version,
        mode: ctx.mode,
        activeProfileId: session?.profile.id ?? standIn?.id ?? null,
        demo: session?.profile.isDemo ?? standIn?.isDemo ?? false,
        connection: standIn ? 'connecting' : ctx.session.connectionState(),
        rest: session ? session.sync.restStatus() : { state: 'unknown', since: null },
        keychain: ctx.keychain(),
        pacingWaitMs,
      };
      if (ctx.storeRecovered) status.storeRecovered = ctx.storeRecovered;
      if (ctx.storeNotices?.length) status.storeNotices = ctx.storeNotices;
      return status;
    },
  } satisfies HandlerGroup<'app'>;
}
