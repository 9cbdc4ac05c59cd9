/**
 * lock.*: the app lock's methods over the lock service (electron/lock/), and the gate the
 * transports' dispatchers ask before every call: while locked only the lock's own methods are
 * answered; a sensitive call (lock/sensitive-actions.ts) asks for the password again when it is
 * due.
 */
import type { MethodName } from '../../shared/contract';
import { AppError } from '../core/app-error';
import type { ApiContext, HandlerGroup } from './context';
import type { LockGate } from './dispatch';

export function lockGate(ctx: ApiContext): LockGate {
  return {
    isLocked: () => ctx.lock.isLocked(),
    confirmNeeded: async (method: MethodName, input: unknown) =>
      ctx.lock.confirmNeeded() ? ctx.sensitiveActions.of(method, input) : null,
  };
}

export function lockHandlers(ctx: Pick<ApiContext, 'lock'>) {
  const { lock } = ctx;
  return {
    'lock.status': async () => lock.status(),
    'lock.unlock': ({ password }) => lock.unlock(password),
    'lock.lock': async () => {
      if (!lock.lock('user') && !lock.isLocked()) {
        throw new AppError(
          'invalid-input',
          'Set a password in Settings first: without one Spotfolio cannot be locked.',
        );
      }
      return lock.status();
    },
    'lock.setPassword': ({ password, current }) => lock.setPassword(password, current),
    'lock.confirm': ({ password }) => lock.confirm(password),
    'lock.removePassword': ({ current }) => lock.removePassword(current),
    'lock.setIdle': async ({ idleMinutes }) => lock.setIdle(idleMinutes),
    'lock.activity': async () => {
      lock.activity();
      return { ok: true as const };
    },
    'lock.reset': () => lock.reset(),
  } satisfies HandlerGroup<'lock'>;
}
