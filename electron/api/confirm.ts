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
  ctx: Pick<ApiContext, 'store' | 'session' | 'settings' | 'rules'>,
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
    case 'orders.place':
      return (await orderAboveThreshold(ctx, input as MethodParsedInput<'orders.place'>))
        ? 'place an order above the value set in Settings'
        : null;
    default:
      return null;
  }
}

/**
 * Whether an order's value (price × quantity in its market's quote asset) is above the threshold
 * in the settings' quote asset. An order whose value cannot be put in that asset (no cached price
 * between the two) counts as above it: the password is asked rather than skipped.
 */
async function orderAboveThreshold(
  ctx: Pick<ApiContext, 'store' | 'session' | 'settings' | 'rules'>,
  order: MethodParsedInput<'orders.place'>,
): Promise<boolean> {
  const session = ctx.session.current();
  if (!session) return false;
  const { quoteAsset, confirmOrdersAbove } = ctx.settings();
  const threshold = new Decimal(confirmOrdersAbove);
  const value = new Decimal(order.price).times(order.quantity);
  let market;
  try {
    market = (await ctx.rules.listedSymbols(session.client)).find(
      (s) => s.symbol.toLowerCase() === order.symbol,
    );
  } catch {
    return true;
  }
  if (!market) return false; // refused by orders.place itself, before anything is sent
  const quote = market.quoteAsset.toLowerCase();
  const wanted = quoteAsset.toLowerCase();
  if (quote === wanted) return value.gt(threshold);
  const profileId = session.profile.id;
  const direct = ctx.store.prices.get(profileId, `${quote}${wanted}`);
  if (direct) return value.times(direct.last).gt(threshold);
  const inverse = ctx.store.prices.get(profileId, `${wanted}${quote}`);
  // value / price > threshold, compared without dividing.
  if (inverse) return value.gt(threshold.times(inverse.last));
  return true;
}
