import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../electron/api/dispatch';
import { AppError, INTERNAL_ERROR_MESSAGE } from '../../electron/api/errors';
import { ExchangeError } from '../../electron/exchange/errors';
import type { BridgeHandlers } from '../../shared/contract';

function dispatcherWith(handlers: Partial<Record<string, (input: never) => Promise<unknown>>>) {
  const logged: string[] = [];
  const received: unknown[] = [];
  const wrapped: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] = (input) => {
      received.push(input);
      return handler!(input as never);
    };
  }
  const dispatch = createDispatcher(wrapped as unknown as BridgeHandlers, {
    log: (line) => logged.push(line),
  });
  return { dispatch, logged, received };
}

const klines = async () => [];

describe('dispatch', () => {
  it('refuses a method that is not in the contract', async () => {
    const { dispatch } = dispatcherWith({});
    const names = [
      'nope.method',
      'funds',
      'toString',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      '__proto__.x',
      '__proto__.toString',
      'constructor.name',
      'app.constructor',
      'app.__proto__',
      42,
    ];
    for (const name of names) {
      const outcome = await dispatch(name, {});
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.error.kind).toBe('invalid-input');
        expect(outcome.error.message).toMatch(/^Unknown method/);
      }
    }
  });

  it('passes the parsed input (defaults filled, strings normalised) to the handler', async () => {
    const { dispatch, received } = dispatcherWith({ 'market.klines': klines });
    const outcome = await dispatch('market.klines', { symbol: ' BTCUSDT ', interval: '1h' });
    expect(outcome).toEqual({ ok: true, value: [] });
    expect(received).toEqual([{ symbol: 'btcusdt', interval: '1h', limit: 200 }]);
  });

  it('treats a missing argument as an empty object for methods without required fields', async () => {
    const { dispatch } = dispatcherWith({ 'app.status': async () => ({ version: '1' }) });
    expect(await dispatch('app.status', undefined)).toEqual({ ok: true, value: { version: '1' } });
  });

  it('names the field of a wrong type', async () => {
    const { dispatch, received } = dispatcherWith({ 'market.klines': klines });
    const outcome = await dispatch('market.klines', {
      symbol: 'btcusdt',
      interval: '1h',
      limit: 'ten',
    });
    expect(outcome).toEqual({
      ok: false,
      error: { kind: 'invalid-input', field: 'limit', message: 'limit must be an integer' },
    });
    expect(received).toEqual([]);
  });

  it('reports a wrong type as a wrong type, never as a missing field', async () => {
    const { dispatch, received } = dispatcherWith({
      'orders.cancel': async () => ({}),
      'orders.place': async () => ({}),
      'settings.update': async () => ({}),
      'withdrawals.list': async () => ({}),
      'market.depth': async () => ({}),
      'export.csv': async () => ({}),
    });
    const cases: [string, unknown, string, string][] = [
      [
        'orders.cancel',
        { symbol: 'btcusdt', orderId: '12' },
        'orderId',
        'orderId must be an integer',
      ],
      [
        'orders.cancel',
        { symbol: 'btcusdt', orderId: 1.5 },
        'orderId',
        'orderId must be an integer',
      ],
      [
        'orders.cancel',
        { symbol: 'btcusdt', orderId: null },
        'orderId',
        'orderId must be an integer',
      ],
      ['orders.cancel', { symbol: 'btcusdt' }, 'orderId', 'Missing field "orderId"'],
      ['orders.cancel', { symbol: 7, orderId: 1 }, 'symbol', 'symbol must be text'],
      [
        'orders.cancel',
        { symbol: 'btcusdt', orderId: 0 },
        'orderId',
        'orderId must be greater than 0',
      ],
      [
        'orders.place',
        { symbol: 'btcusdt', side: 'buy', type: 'limit', quantity: 0.5, price: '10' },
        'quantity',
        'Amounts are text like "12.5", not numbers',
      ],
      [
        'orders.place',
        { symbol: 'btcusdt', side: 'hold', type: 'limit', quantity: '1', price: '10' },
        'side',
        'side must be one of "buy", "sell"',
      ],
      [
        'settings.update',
        { privacyMode: 'yes' },
        'privacyMode',
        'privacyMode must be true or false',
      ],
      [
        'settings.update',
        { notifications: [] },
        'notifications',
        'notifications must be an object',
      ],
      [
        'withdrawals.list',
        { filter: { startTime: '2024' } },
        'filter.startTime',
        'filter.startTime must be an integer',
      ],
      ['withdrawals.list', { limit: 5000 }, 'limit', 'limit must be at most 1000'],
      [
        'market.depth',
        { symbol: 'btcusdt', limit: 7 },
        'limit',
        'limit must be one of 5, 10, 20, 50, 100',
      ],
      [
        'export.csv',
        { kind: 'orders' },
        'kind',
        'kind must be one of "withdrawals", "trades", "transfers"',
      ],
      ['export.csv', {}, 'kind', 'Missing field "kind"'],
    ];
    for (const [method, input, field, message] of cases) {
      expect(await dispatch(method, input), `${method} ${JSON.stringify(input)}`).toEqual({
        ok: false,
        error: { kind: 'invalid-input', field, message },
      });
    }
    expect(received).toEqual([]);
  });

  it('normalises amounts before the handler sees them', async () => {
    const { dispatch, received } = dispatcherWith({ 'orders.place': async () => ({}) });
    const outcome = await dispatch('orders.place', {
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'limit',
      quantity: '000.00100',
      price: ' 0061250.50 ',
    });
    expect(outcome).toEqual({ ok: true, value: {} });
    expect(received).toEqual([
      { symbol: 'btcusdt', side: 'buy', type: 'limit', quantity: '0.001', price: '61250.5' },
    ]);
  });

  it('names an extra field', async () => {
    const { dispatch } = dispatcherWith({ 'market.klines': klines });
    const outcome = await dispatch('market.klines', {
      symbol: 'btcusdt',
      interval: '1h',
      admin: true,
    });
    expect(outcome).toEqual({
      ok: false,
      error: { kind: 'invalid-input', field: 'admin', message: 'Unexpected field "admin"' },
    });
  });

  it('names a nested extra field', async () => {
    const { dispatch } = dispatcherWith({ 'withdrawals.list': async () => ({}) });
    const outcome = await dispatch('withdrawals.list', { filter: { coin: 'btc', evil: 1 } });
    expect(outcome).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'filter.evil' },
    });
  });

  it('names a missing field', async () => {
    const { dispatch } = dispatcherWith({ 'market.klines': klines });
    const outcome = await dispatch('market.klines', { interval: '1h' });
    expect(outcome).toEqual({
      ok: false,
      error: { kind: 'invalid-input', field: 'symbol', message: 'Missing field "symbol"' },
    });
  });

  it('keeps the schema message of a refined field', async () => {
    const { dispatch } = dispatcherWith({ 'orders.place': async () => ({}) });
    const outcome = await dispatch('orders.place', {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '1e5',
      price: '10',
    });
    expect(outcome).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'quantity',
        message: 'Enter a number like 12.5 (digits and one dot)',
      },
    });
  });

  it('refuses input that is not an object', async () => {
    const { dispatch } = dispatcherWith({ 'market.klines': klines });
    for (const input of [null, 'btcusdt', 7, ['btcusdt']]) {
      const outcome = await dispatch('market.klines', input);
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
      if (!outcome.ok) expect(outcome.error.field).toBeUndefined();
    }
  });

  it('maps an exchange error to its kind and code', async () => {
    const { dispatch } = dispatcherWith({
      'funds.refresh': async () => {
        throw new ExchangeError('insufficient-balance', 'balance', {
          code: -2010,
          exchangeMessage: 'Account has insufficient balance',
        });
      },
    });
    const outcome = await dispatch('funds.refresh', {});
    expect(outcome).toMatchObject({
      ok: false,
      error: { kind: 'insufficient-balance', code: -2010 },
    });
    if (!outcome.ok) expect(outcome.error.message).toContain('Account has insufficient balance');
  });

  it('maps an app error with its field', async () => {
    const { dispatch } = dispatcherWith({
      'profiles.activate': async () => {
        throw new AppError('not-found', 'No such profile', 'id');
      },
    });
    expect(await dispatch('profiles.activate', { id: 'p1' })).toEqual({
      ok: false,
      error: { kind: 'not-found', message: 'No such profile', field: 'id' },
    });
  });

  it('hides an unexpected error behind a generic message and logs the details', async () => {
    const { dispatch, logged } = dispatcherWith({
      'funds.list': async () => {
        throw new TypeError('cannot read x of undefined at /home/user/secret-path');
      },
    });
    expect(await dispatch('funds.list', {})).toEqual({
      ok: false,
      error: { kind: 'internal', message: INTERNAL_ERROR_MESSAGE },
    });
    expect(logged.join('\n')).toContain('Bridge call funds.list failed');
    expect(logged.join('\n')).toContain('cannot read x of undefined');
  });

  it('reports a contract method without a handler as internal, without throwing', async () => {
    const { dispatch, logged } = dispatcherWith({});
    expect(await dispatch('funds.list', {})).toMatchObject({
      ok: false,
      error: { kind: 'internal' },
    });
    expect(logged).toEqual(['Bridge method funds.list has no handler']);
  });

  it('survives a handler that throws synchronously', async () => {
    const throwing = (() => {
      throw new AppError('no-profile', 'Add a profile first');
    }) as unknown as () => Promise<unknown>;
    const { dispatch } = dispatcherWith({ 'funds.list': throwing });
    expect(await dispatch('funds.list', {})).toEqual({
      ok: false,
      error: { kind: 'no-profile', message: 'Add a profile first' },
    });
  });
});
