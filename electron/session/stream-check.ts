/**
 * Checks a profile's stream URL the way the live session will use it, before the profile is
 * saved: connect, create the private stream's auth token over REST, subscribe the private
 * streams and wait for the exchange's acknowledgement. A REST URL and key that work say nothing
 * about the stream URL, and a wrong one would otherwise only show later as a stream that never
 * comes up.
 */
import { ExchangeError } from '../exchange/errors';
import type { ExchangeClient } from '../exchange/client';
import { PRIVATE_STREAMS, StreamClient } from '../exchange/stream';
import { AppError } from '../core/app-error';
import { retry, SystemClock, type Clock, type TimerHandle } from '../core/clock';

/** How long the whole check may take: a stream that answers does so in well under a second. */
export const STREAM_CHECK_TIMEOUT_MS = 10_000;

/** The longest rate-limit wait the check sits out once (create_auth_token allows 1 a second). */
const AUTH_TOKEN_RETRY_MAX_MS = 3_000;

export interface StreamCheckOptions {
  streamUrl: string;
  /** A client of the same key and REST URL, for the auth token. */
  client: Pick<ExchangeClient, 'auth'>;
  timeoutMs?: number;
  /** Default: the system clock. */
  clock?: Clock;
}

/**
 * Resolves once the exchange has acknowledged the private streams at streamUrl; otherwise
 * rejects with an AppError on the field 'streamUrl' that says what went wrong.
 */
export async function verifyPrivateStream(options: StreamCheckOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? STREAM_CHECK_TIMEOUT_MS;
  const clock = options.clock ?? new SystemClock();
  const fail = (kind: 'network' | 'auth' | 'invalid-input', why: string) =>
    new AppError(kind, `The stream URL was not accepted: ${why}`, 'streamUrl');
  let stream: StreamClient;
  try {
    stream = new StreamClient({
      streamUrl: options.streamUrl,
      clock,
      authKeyProvider: () => createAuthToken(options.client, clock),
      // Two failed connection attempts are enough to call the address wrong here.
      timing: { offlineAfterAttempts: 2, backoffBaseMs: 200, ackTimeoutMs: timeoutMs },
    });
  } catch (error) {
    throw fail('invalid-input', error instanceof Error ? error.message : String(error));
  }
  let timer: TimerHandle | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      stream.on('state', (state) => {
        if (state === 'offline') {
          reject(fail('network', `nothing at ${options.streamUrl} accepted a stream connection.`));
        }
      });
      timer = clock.setTimeout(
        () =>
          reject(
            fail(
              'network',
              `the stream at ${options.streamUrl} did not confirm the subscription within ` +
                `${Math.round(timeoutMs / 1000)} s.`,
            ),
          ),
        timeoutMs,
      );
      stream.subscribe([...PRIVATE_STREAMS]).then(resolve, (error: unknown) => {
        if (error instanceof ExchangeError && error.kind === 'auth') {
          reject(fail('auth', 'the stream refused the auth token this key created.'));
        } else if (error instanceof ExchangeError && error.kind !== 'invalid-input') {
          reject(fail('network', error.message));
        } else {
          reject(fail('invalid-input', error instanceof Error ? error.message : String(error)));
        }
      });
    });
  } finally {
    clock.clearTimeout(timer);
    await stream.close();
  }
}

/**
 * The auth token, asked for once more after a short rate-limit wait: the exchange allows one a
 * second per key, and the key's own live session (re-adding the key of a profile in use, or an
 * app that has just stopped) may have taken this second's.
 */
function createAuthToken(client: Pick<ExchangeClient, 'auth'>, clock: Clock) {
  const waitAsked = (error: unknown) =>
    error instanceof ExchangeError && error.kind === 'rate-limited'
      ? (error.retryAfterMs ?? 1_000)
      : undefined;
  return retry(clock, () => client.auth.createAuthToken(), {
    backoff: { firstMs: 1_000, maxMs: AUTH_TOKEN_RETRY_MAX_MS, jitter: 'none' },
    retryable: (error, failures) => {
      const waitMs = waitAsked(error);
      return failures === 1 && waitMs !== undefined && waitMs <= AUTH_TOKEN_RETRY_MAX_MS;
    },
    atLeastMs: waitAsked,
  });
}
