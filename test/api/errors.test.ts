/** toBridgeError: what each kind of failure looks like to the renderer. */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { AppError, INTERNAL_ERROR_MESSAGE, toBridgeError } from '../../electron/api/errors';
import { ExchangeError } from '../../electron/exchange/errors';
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
