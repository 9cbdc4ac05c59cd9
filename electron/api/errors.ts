/**
 * Converting anything a handler throws into the BridgeErrorPayload the renderer receives. Only
 * errors whose text we control (or the exchange's own words) reach the renderer; everything else
 * becomes a generic internal error, and its details go to the (redacted) log instead.
 */
import { ZodError } from 'zod';
import type { BridgeErrorPayload } from '../../shared/types';
import { AppError } from '../core/app-error';
import { ExchangeError } from '../exchange/errors';
import { networkCause } from '../exchange/rest';
import { SecretsSealedError, SecretStoreUnavailableError } from '../secrets';
import type { SyncEngine, SyncKind } from '../sync';

export { AppError };

export const INTERNAL_ERROR_MESSAGE =
  'Something went wrong inside Spotfolio. The details were written to the log.';

/** What the user can do about each exchange failure, in words; the exchange's own text follows. */
const EXCHANGE_ADVICE: Record<ExchangeError['kind'], string> = {
  auth: 'The exchange did not accept the API key or its signature',
  permission: 'The API key does not have the permission for this',
  'rate-limited': 'The exchange asked us to slow down; try again in a moment',
  banned: 'The exchange has temporarily blocked requests from this address',
  'invalid-input': 'The exchange rejected the request',
  'not-found': 'The exchange could not find it',
  'insufficient-balance': 'Not enough free balance',
  network: 'The exchange could not be reached',
  'unknown-outcome': 'The exchange did not confirm the outcome',
  server: 'The exchange had an internal error',
};

/** A failure to reach the exchange, in words about its cause. */
const NETWORK_CAUSES = {
  refused: "Nothing answers at the exchange's address: the connection was refused.",
  timeout: 'The exchange did not answer in time.',
  other: 'The exchange could not be reached.',
} as const;

function exchangeMessage(error: ExchangeError): string {
  if (error.kind === 'network') return NETWORK_CAUSES[networkCause(error) ?? 'other'];
  // Refused by the client's own checks: nothing went to the exchange, which said nothing.
  if (error.kind === 'invalid-input' && error.status === undefined && error.code === undefined) {
    return `Spotfolio refused this, nothing was sent: ${error.message.replace(/^Invalid input: /, '')}.`;
  }
  const advice = EXCHANGE_ADVICE[error.kind];
  const said = error.exchangeMessage?.trim();
  if (said) return `${advice}: ${said}`;
  return `${advice}.`;
}

function zodPayload(error: ZodError): BridgeErrorPayload {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  const payload: BridgeErrorPayload = {
    kind: 'invalid-input',
    message: issue?.message ?? 'The input is not valid',
  };
  if (field !== undefined) payload.field = field;
  return payload;
}

/** True when the error is one the user sees as such (not an internal failure). */
export function isExpectedError(error: unknown): boolean {
  return (
    error instanceof ZodError ||
    error instanceof ExchangeError ||
    error instanceof SecretStoreUnavailableError ||
    error instanceof SecretsSealedError ||
    error instanceof AppError
  );
}

export function toBridgeError(error: unknown): BridgeErrorPayload {
  if (error instanceof ZodError) return zodPayload(error);
  if (error instanceof AppError) {
    const payload: BridgeErrorPayload = { kind: error.kind, message: error.message };
    if (error.field !== undefined) payload.field = error.field;
    return payload;
  }
  if (error instanceof ExchangeError) {
    const payload: BridgeErrorPayload = { kind: error.kind, message: exchangeMessage(error) };
    if (error.code !== undefined) payload.code = error.code;
    if (error.field !== undefined) payload.field = error.field;
    return payload;
  }
  if (error instanceof SecretStoreUnavailableError) {
    return { kind: 'keychain', message: error.message };
  }
  if (error instanceof SecretsSealedError) return { kind: 'locked', message: error.message };
  return { kind: 'internal', message: INTERNAL_ERROR_MESSAGE };
}

/**
 * The error a sync job recorded (at or after `since`), as an error the renderer understands; sync
 * itself never throws, so a handler that waited for a refresh asks here whether it worked.
 */
export function syncFailure(
  sync: Pick<SyncEngine, 'jobStatus'>,
  kind: SyncKind,
  since = 0,
): AppError | null {
  const error = sync.jobStatus(kind).error;
  if (!error || error.at < since) return null;
  if (error.kind === 'internal') return new AppError('internal', INTERNAL_ERROR_MESSAGE);
  return new AppError(error.kind, error.message);
}
