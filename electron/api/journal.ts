/**
 * journal.*: the money journal of the active profile. What the user must see (movements not
 * settled yet, a transfer stopped half-way, and what a check after a restart found), a check with
 * the exchange now, and the two choices for a stopped transfer: finish it (send the missing leg)
 * or leave the funds where they are. Start-up and each reconnect run the check by themselves.
 */
import type { JournalEntryView } from '../../shared/types';
import { JournalActionError, toJournalView } from '../journal/money-journal';
import type { ApiContext, HandlerGroup } from './context';
import { AppError } from './errors';

function asAppError(error: unknown): unknown {
  return error instanceof JournalActionError
    ? new AppError('invalid-input', error.message, error.field)
    : error;
}

export function journalHandlers(ctx: ApiContext) {
  const visible = (profileId: string): JournalEntryView[] =>
    ctx.store.journal.visible(profileId).map(toJournalView);

  return {
    'journal.list': async () => visible(ctx.session.require().profile.id),
    'journal.check': async () => {
      const { profile, journal } = ctx.session.require();
      await journal.check();
      return visible(profile.id);
    },
    'journal.finish': async ({ id }) => {
      // Finishing sends the missing transfer: the same permission as the transfer itself.
      const { profile, journal, sync } = ctx.session.requireTrade('finish a stopped transfer');
      try {
        const entry = await journal.finish(id);
        ctx.transfers.moved({ sync }, 'journal: re-reading the balances after a finished transfer');
        ctx.emit('data.changed', {
          profileId: profile.id,
          kinds: ['journal', 'subAccounts', 'funds'],
        });
        return toJournalView(entry);
      } catch (error) {
        throw asAppError(error);
      }
    },
    'journal.resolve': async ({ id }) => {
      const { journal } = ctx.session.require();
      try {
        return toJournalView(journal.resolve(id));
      } catch (error) {
        throw asAppError(error);
      }
    },
  } satisfies HandlerGroup<'journal'>;
}
