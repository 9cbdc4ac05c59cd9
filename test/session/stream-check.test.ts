/**
 * The stream URL check against the real sandbox, whose create_auth_token allows one call a second
 * per key: a token the key's own live session took this second (re-adding the key of a profile in
 * use, or an app that has just stopped) costs the check a short wait, not a refusal.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ExchangeError } from '../../electron/exchange/errors';
import type { ExchangeClient } from '../../electron/exchange/client';
import { startSandbox, type Sandbox } from '../../electron/sandbox';
import { verifyPrivateStream } from '../../electron/session/stream-check';
import { clientFor, parentOf } from '../exchange/helpers';

let sandbox: Sandbox;
let client: ExchangeClient;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 77, simulation: false });
  // The client's own pacing would wait for the next second itself; the check meets the
  // exchange's refusal, as it does when another client of the key took the second.
  client = clientFor(sandbox, parentOf(sandbox).trade, { rateLimits: false });
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

it('waits out a rate-limited auth token once, then confirms the private stream', async () => {
  // Tokens until the exchange refuses one: this second's is taken (two calls may straddle a
  // second on a loaded machine).
  let refused: unknown;
  for (let call = 0; call < 5 && refused === undefined; call++) {
    refused = await client.auth.createAuthToken().then(
      () => undefined,
      (error: unknown) => error,
    );
  }
  expect(refused).toBeInstanceOf(ExchangeError);
  expect((refused as ExchangeError).kind).toBe('rate-limited');
  await expect(
    verifyPrivateStream({ streamUrl: sandbox.streamUrl, client }),
  ).resolves.toBeUndefined();
});
