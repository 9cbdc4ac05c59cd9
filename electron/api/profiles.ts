/**
 * profiles.*: list, add and update (the key, REST and stream addresses verified with the exchange
 * first), remove (softly: restorable from the removed list), activate, enter demo; keychain entries whose profile is gone, offered back to
 * re-attach or delete (see key-entries.ts).
 */
import type { ApiContext, HandlerGroup } from './context';

export function profilesHandlers(ctx: ApiContext) {
  return {
    'profiles.list': async () => ctx.session.list(),
    'profiles.add': (input) => ctx.session.add(input),
    'profiles.update': (input) => ctx.session.update(input),
    'profiles.remove': ({ id }) => ctx.session.remove(id),
    'profiles.activate': ({ id }) => ctx.session.activate(id),
    'profiles.enterDemo': () => ctx.session.enterDemo(),
    'profiles.orphanedKeys': () => ctx.session.orphanedKeys(),
    'profiles.reattachKey': (input) => ctx.session.reattachKey(input),
    'profiles.deleteOrphanedKey': ({ id }) => ctx.session.deleteOrphanedKey(id),
    'profiles.removed': async () => ctx.session.removedProfiles(),
    'profiles.restore': (input) => ctx.session.restoreRemoved(input),
  } satisfies HandlerGroup<'profiles'>;
}
