/**
 * activity.*: the recent-activity feed and the notifications, read through the activity service
 * (electron/live/activity.ts).
 */
import type { ApiContext, HandlerGroup } from './context';

export function activityHandlers(ctx: ApiContext) {
  return {
    'activity.feed': async ({ limit }) =>
      ctx.activity.feed(ctx.session.require().profile.id, limit),
    'activity.notifications': async ({ limit }) =>
      ctx.activity.notifications(ctx.session.require().profile.id, limit),
    'activity.markNotificationsRead': async () => {
      ctx.activity.markNotificationsRead(ctx.session.require().profile.id);
      return { ok: true as const };
    },
  } satisfies HandlerGroup<'activity'>;
}
