/**
 * Which bridge calls are sensitive: with a lock password set, the dispatcher asks for it again
 * before one of these when it was last given more than a few minutes ago (shared/lock.ts). Moving
 * funds, an order worth more than the threshold in Settings, re-attaching a key, changing a
 * profile's addresses, removing a profile, writing a report out of the app, and raising that
 * threshold itself.
 */
import type { MethodName, MethodParsedInput } from '../../shared/contract';
import { Decimal } from '../../shared/exact-decimal';
import type { ApiContext } from './context';

/** The action in words ("to …"), or null when the call is not sensitive. */
export async function sensitiveAction(
  ctx: Pick<ApiContext, 'store' | 'session' | 'settings' | 'orders'>,
  method: MethodName,
  input: unknown,
): Promise<string | null> {
  switch (method) {
    case 'subAccounts.transfer':
    case 'journal.finish':
      return 'move funds';
    case 'profiles.reattachKey':
      return 're-attach a key';
    case 'profiles.remove':
      return 'remove a profile';
    case 'export.csv':
    case 'ledger.taxReport':
    case 'ledger.koinlyExport':
      return 'export a report';
    case 'profiles.update': {
      const update = input as MethodParsedInput<'profiles.update'>;
      const row = ctx.store.profiles.get(update.id);
      const moved = row && (row.baseUrl !== update.baseUrl || row.streamUrl !== update.streamUrl);
      return moved ? 'change the addresses of a profile' : null;
    }
    case 'settings.update': {
      const patch = input as MethodParsedInput<'settings.update'>;
      const now = ctx.settings().confirmOrdersAbove;
      const raised =
        patch.confirmOrdersAbove !== undefined &&
        new Decimal(patch.confirmOrdersAbove).gt(new Decimal(now));
      return raised ? 'raise the order value that asks for the password' : null;
    }
    case 'orders.place': {
      // Without a session orders.place refuses by itself, before anything is sent.
      const session = ctx.session.current();
      const order = input as MethodParsedInput<'orders.place'>;
      return session && (await ctx.orders.aboveThreshold(session, order))
        ? 'place an order above the value set in Settings'
        : null;
    }
    default:
      return null;
  }
}
