/** profiles.*: list, add (verified against the exchange first), remove, activate, enter demo. */
import type { ApiContext, HandlerGroup } from './context';

export function profilesHandlers(ctx: ApiContext) {
  return {
    'profiles.list': async () => ctx.session.list(),
    'profiles.add': (input) => ctx.session.add(input),
    'profiles.remove': ({ id }) => ctx.session.remove(id),
    'profiles.activate': ({ id }) => ctx.session.activate(id),
    'profiles.enterDemo': () => ctx.session.enterDemo(),
  } satisfies HandlerGroup<'profiles'>;
}
