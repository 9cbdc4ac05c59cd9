/** toBridgeError: what each kind of failure looks like to the renderer. */
import { z } from 'zod';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../electron/exchange';
import { AppError, INTERNAL_ERROR_MESSAGE, toBridgeError } from '../../electron/api/errors';
import { ExchangeError, invalidInput } from '../../electron/exchange/errors';
import { SecretStoreUnavailableError } from '../../electron/secrets';

describe('toBridgeError', () => {
  it('names the field of invalid input', () => {
    const result = z
      .object({ amount: z.string().min(1, 'Enter an amount') })
      .safeParse({ amount: '' });
    expect(result.success).toBe(false);
    expect(toBridgeError(result.error)).toEqual({
      kind: 'invalid-input',
      message: 'Enter an amount',
      field: 'amount',
    });
  });

  it('keeps the exchange error kind, code and the exchange own words', () => {
    const error = new ExchangeError('insufficient-balance', 'POST /sapi/v1/order failed', {
      code: 2002,
      status: 400,
      exchangeMessage: 'Not enough USDT balance to execute this order',
    });
    expect(toBridgeError(error)).toEqual({
      kind: 'insufficient-balance',
      code: 2002,
      message: 'Not enough free balance: Not enough USDT balance to execute this order',
    });
  });

  it('tells a refusal of the client own checks from the exchange rejecting the request', () => {
    expect(toBridgeError(invalidInput('baseUrl', 'must be an https: URL'))).toEqual({
      kind: 'invalid-input',
      field: 'baseUrl',
      message: 'Spotfolio refused this, nothing was sent: baseUrl must be an https: URL.',
    });
    const answered = new ExchangeError('invalid-input', 'POST /sapi/v1/order failed', {
      code: 1999,
      status: 400,
      exchangeMessage: 'price does not have a valid value',
    });
    expect(toBridgeError(answered)).toEqual({
      kind: 'invalid-input',
      code: 1999,
      message: 'The exchange rejected the request: price does not have a valid value',
    });
  });

  it('maps an unavailable keychain to keychain with its advice', () => {
    const error = new SecretStoreUnavailableError('Unlock the login keyring', 'locked');
    expect(toBridgeError(error)).toEqual({ kind: 'keychain', message: 'Unlock the login keyring' });
  });

  it('passes app errors through with their field', () => {
    expect(toBridgeError(new AppError('no-profile', 'No profile is active.'))).toEqual({
      kind: 'no-profile',
      message: 'No profile is active.',
    });
    expect(toBridgeError(new AppError('insufficient-balance', 'Too much', 'amount'))).toEqual({
      kind: 'insufficient-balance',
      message: 'Too much',
      field: 'amount',
    });
  });

  it('hides the details of anything else', () => {
    const payload = toBridgeError(new Error('SQLITE_BUSY at /home/user/secret-path'));
    expect(payload).toEqual({ kind: 'internal', message: INTERNAL_ERROR_MESSAGE });
    expect(toBridgeError('a thrown string')).toEqual({
      kind: 'internal',
      message: INTERNAL_ERROR_MESSAGE,
    });
  });
});

describe('a failure to reach the exchange', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function listen(server: Server): Promise<number> {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    return (server.address() as { port: number }).port;
  }

  async function failureAt(port: number): Promise<unknown> {
    const client = new ExchangeClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'k',
      secretKey: 's',
      rateLimits: false,
      timeoutMs: 200,
    });
    cleanups.push(() => client.close());
    return client.market.ticker({ symbol: 'btcusdt' }).catch((error: unknown) => error);
  }

  it('is said once, in words about its cause: refused, or no answer in time', async () => {
    const closed = createServer();
    const port = await listen(closed);
    await new Promise<void>((done) => closed.close(() => done()));
    expect(toBridgeError(await failureAt(port))).toEqual({
      kind: 'network',
      message: "Nothing answers at the exchange's address: the connection was refused.",
    });

    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => silent.close(() => done()));
    });
    expect(toBridgeError(await failureAt(await listen(silent)))).toEqual({
      kind: 'network',
      message: 'The exchange did not answer in time.',
    });
  });
});
