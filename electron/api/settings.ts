/** settings.get / settings.update: the user's preferences, changed through the settings editor. */
import type { ApiContext, HandlerGroup } from './context';

export function settingsHandlers(ctx: ApiContext) {
  return {
    'settings.get': async () => ctx.settings(),
    'settings.update': (input) => ctx.settingsEditor.update(input),
  } satisfies HandlerGroup<'settings'>;
}
