/**
 * The full implementation of the bridge contract: one handler per method, assembled from the
 * area files. `satisfies BridgeHandlers` makes a missing or mistyped method a compile error.
 * Each handler is wrapped so an unexpected failure is logged (redacted) with its method name
 * before the dispatcher turns it into a generic internal error for the renderer.
 */
import type { BridgeHandlers } from '../../shared/contract';
import { activityHandlers } from './activity';
import { alertsHandlers } from './alerts';
import { appStatusHandlers } from './app-status';
import type { ApiContext } from './context';
import { depositsHandlers } from './deposits';
import { isExpectedError } from './errors';
import { exportHandlers } from './export';
import { fundsHandlers } from './funds';
import { ledgerHandlers } from './ledger';
import { journalHandlers } from './journal';
import { lockHandlers } from './lock';
import { marketHandlers } from './market';
import { ordersHandlers } from './orders';
import { accountHandlers, portfolioHandlers } from './portfolio';
import { profilesHandlers } from './profiles';
import { settingsHandlers } from './settings';
import { subAccountsHandlers } from './sub-accounts';
import { withdrawalsHandlers } from './withdrawals';

export function createHandlers(ctx: ApiContext): BridgeHandlers {
  const handlers = {
    ...appStatusHandlers(ctx),
    ...profilesHandlers(ctx),
    ...portfolioHandlers(ctx),
    ...fundsHandlers(ctx),
    ...accountHandlers(ctx),
    ...withdrawalsHandlers(ctx),
    ...depositsHandlers(ctx),
    ...subAccountsHandlers(ctx),
    ...ordersHandlers(ctx),
    ...marketHandlers(ctx),
    ...settingsHandlers(ctx),
    ...exportHandlers(ctx),
    ...activityHandlers(ctx),
    ...ledgerHandlers(ctx),
    ...alertsHandlers(ctx),
    ...journalHandlers(ctx),
    ...lockHandlers(ctx),
  } satisfies BridgeHandlers;

  const logged = {} as Record<string, (input: unknown) => Promise<unknown>>;
  for (const [name, handler] of Object.entries(handlers) as [
    string,
    (input: unknown) => Promise<unknown>,
  ][]) {
    logged[name] = async (input) => {
      try {
        return await handler(input);
      } catch (error) {
        if (isExpectedError(error)) ctx.log.warn(`${name} failed: ${(error as Error).message}`);
        else ctx.log.error(`${name} failed unexpectedly`, error);
        throw error;
      }
    };
  }
  return logged as BridgeHandlers;
}
