/**
 * alerts.*: the active profile's price and balance alerts, made and changed through the alert
 * editor (electron/alerts/editor.ts: the checks, the duplicate, the starting side).
 */
import type { ApiContext, HandlerGroup } from './context';

export function alertsHandlers(ctx: ApiContext) {
  return {
    'alerts.list': async () => ctx.alerts.list(ctx.session.require()),
    'alerts.create': (alert) => ctx.alerts.create(ctx.session.require(), alert),
    'alerts.update': ({ id, alert }) => ctx.alerts.update(ctx.session.require(), id, alert),
    'alerts.setPaused': async ({ id, paused }) =>
      ctx.alerts.setPaused(ctx.session.require(), id, paused),
    'alerts.remove': async ({ id }) => {
      ctx.alerts.remove(ctx.session.require(), id);
      return { removed: true as const };
    },
  } satisfies HandlerGroup<'alerts'>;
}
