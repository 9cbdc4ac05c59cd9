/**
 * Which bridge calls are sensitive: with a lock password set, the dispatcher asks for it again
 * before one of these when it was last given more than a few minutes ago (shared/lock.ts). Moving
 * funds, an order worth more than the threshold in Settings, re-attaching a key, changing a
 * profile's addresses, removing a profile, writing a report out of the app, and raising that
 * threshold itself.
 *
 * The lock never reaches for what it guards: the active session and the order desk's judgement of
 * an order's value are handed to it (app.ts), as whatever has the two methods it asks for.
 */
import type { MethodName, MethodParsedInput } from '../../shared/contract';
import { Decimal } from '../../shared/exact-decimal';
import type { Settings } from '../../shared/types';
import type { ProfileRow } from '../store/types';

type OrderInput = MethodParsedInput<'orders.place'>;

export interface SensitiveActionsDeps<Session> {
  /** The record's profiles, to tell an update that moves a profile to other addresses. */
  profiles: { get(id: string): ProfileRow | null };
  settings: () => Settings;
  /** The active profile's session, if any. */
  sessions: { current(): Session | null };
  /** Whether an order is worth more than the Settings' threshold (the order desk). */
  orders: { aboveThreshold(session: Session, order: OrderInput): Promise<boolean> };
}

export class SensitiveActions<Session> {
  constructor(private readonly deps: SensitiveActionsDeps<Session>) {}

  /** The action in words ("to …"), or null when the call is not sensitive. */
  async of(method: MethodName, input: unknown): Promise<string | null> {
    switch (method) {
      case 'subAccounts.transfer':
      case 'journal.finish':
        return 'move funds';
      case 'profiles.reattachKey':
        return 're-attach a key';
      case 'subAccounts.link':
        return "link a sub-account's key";
      case 'profiles.remove':
        return 'remove a profile';
      case 'export.csv':
      case 'ledger.taxReport':
      case 'ledger.koinlyExport':
        return 'export a report';
      case 'profiles.update': {
        const update = input as MethodParsedInput<'profiles.update'>;
        const row = this.deps.profiles.get(update.id);
        const moved = row && (row.baseUrl !== update.baseUrl || row.streamUrl !== update.streamUrl);
        return moved ? 'change the addresses of a profile' : null;
      }
      case 'settings.update': {
        const patch = input as MethodParsedInput<'settings.update'>;
        const now = this.deps.settings().confirmOrdersAbove;
        const raised =
          patch.confirmOrdersAbove !== undefined &&
          new Decimal(patch.confirmOrdersAbove).gt(new Decimal(now));
        return raised ? 'raise the order value that asks for the password' : null;
      }
      case 'orders.place': {
        // Without a session orders.place refuses by itself, before anything is sent.
        const session = this.deps.sessions.current();
        const order = input as OrderInput;
        return session && (await this.deps.orders.aboveThreshold(session, order))
          ? 'place an order above the value set in Settings'
          : null;
      }
      default:
        return null;
    }
  }
}
