import { describe, expect, it } from 'vitest';
import { MAX_DECIMAL_LENGTH } from '../../shared/decimal';
import { KLINE_INTERVALS, WITHDRAW_STATUSES } from '../../shared/market';
import { eventNames, ipcChannel, methodNames, methods } from '../../shared/contract';
import { methodSchema, methodSchemas } from '../../shared/contract-schemas';

describe('the bridge contract', () => {
  it('names every method once, as namespace.method', () => {
    expect(new Set(methodNames).size).toBe(methodNames.length);
    const counted = Object.values(methods).reduce((n, group) => n + Object.keys(group).length, 0);
    expect(methodNames).toHaveLength(counted);
    for (const name of methodNames) expect(name).toMatch(/^[a-zA-Z]+\.[a-zA-Z]+$/);
    // The run-time tables agree too (the compile-time check is in contract-keys.test.ts).
    expect(Object.keys(methodSchemas).sort()).toEqual([...methodNames].sort());
    expect(ipcChannel('funds.list')).toBe('spotfolio:funds.list');
  });

  it('finds no schema for names outside the contract, prototype keys included', () => {
    for (const name of [
      'funds',
      'funds.nope',
      'nope.list',
      'funds.constructor',
      'funds.__proto__',
      '.list',
      '__proto__',
      'toString',
      'constructor',
      'hasOwnProperty',
      '__proto__.toString',
      'constructor.name',
    ]) {
      expect(methodSchema(name), name).toBeUndefined();
    }
  });

  it('refuses extra fields on every object input', () => {
    for (const name of methodNames) {
      const parsed = methodSchema(name)!.safeParse({ unexpectedField: 1 });
      expect(parsed.success, name).toBe(false);
    }
  });

  it('fills defaults for paged reads', () => {
    const parsed = methodSchemas['withdrawals.list'].parse({});
    expect(parsed).toEqual({
      filter: {},
      sort: { field: 'time', dir: 'desc' },
      offset: 0,
      limit: 100,
    });
  });

  it('checks amounts as decimal strings, never numbers', () => {
    const transfer = methodSchemas['subAccounts.transfer'];
    const base = { asset: 'USDT', fromEmail: 'a@x.io', toEmail: 'b@x.io' };
    expect(transfer.safeParse({ ...base, amount: '10.5' }).success).toBe(true);
    for (const amount of [10.5, '-1', '0', '0.000', '1e5', '1,5', ' ', 'NaN', '1.2.3']) {
      expect(transfer.safeParse({ ...base, amount }).success, String(amount)).toBe(false);
    }
    expect(transfer.parse({ ...base, amount: '1' })).toMatchObject({ asset: 'usdt' });
    expect(transfer.safeParse({ ...base, amount: '1', toEmail: 'a@x.io' }).success).toBe(false);
  });

  it('normalises amounts before any handler sees them, and refuses absurd lengths', () => {
    const transfer = methodSchemas['subAccounts.transfer'];
    const base = { asset: 'usdt', fromEmail: 'a@x.io', toEmail: 'b@x.io' };
    for (const [typed, normalised] of [
      ['007.50', '7.5'],
      [' 0.000100 ', '0.0001'],
      ['12', '12'],
      ['12.000', '12'],
      ['0000000000000000000000000000000000000001', '1'],
    ] as const) {
      expect(transfer.parse({ ...base, amount: typed }).amount, typed).toBe(normalised);
    }
    const tooLong = `1.${'0'.repeat(MAX_DECIMAL_LENGTH)}1`;
    expect(transfer.safeParse({ ...base, amount: tooLong }).error?.issues[0]?.message).toBe(
      'Amount is too long',
    );
    const order = methodSchemas['orders.place'].parse({
      symbol: 'BTCUSDT',
      side: 'buy',
      type: 'stop_limit',
      quantity: '00.0010',
      price: '061250.50',
      stopPrice: '61000.000',
    });
    expect(order).toMatchObject({ quantity: '0.001', price: '61250.5', stopPrice: '61000' });
    expect(methodSchemas['settings.update'].parse({ smallBalanceThreshold: '01.00' })).toEqual({
      smallBalanceThreshold: '1',
    });
  });

  it('takes its enumerations from the one definition of each fact', () => {
    const klines = methodSchemas['market.klines'];
    for (const interval of KLINE_INTERVALS)
      expect(klines.safeParse({ symbol: 'btcusdt', interval }).success, interval).toBe(true);
    expect(klines.safeParse({ symbol: 'btcusdt', interval: '3m' }).success).toBe(false);
    const withdrawals = methodSchemas['withdrawals.list'];
    for (const status of WITHDRAW_STATUSES)
      expect(withdrawals.safeParse({ filter: { status } }).success, status).toBe(true);
    expect(withdrawals.safeParse({ filter: { status: 'canceled' } }).success).toBe(false);
  });

  it('requires a stop price for stop-limit orders', () => {
    const place = methodSchemas['orders.place'];
    const order = {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'stop_limit',
      quantity: '1',
      price: '10',
    };
    const missing = place.safeParse(order);
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.path).toEqual(['stopPrice']);
    expect(place.safeParse({ ...order, stopPrice: '9' }).success).toBe(true);
  });

  it('only accepts http(s) base URLs and ws(s) stream URLs for a profile', () => {
    const add = methodSchemas['profiles.add'];
    const good = {
      name: 'Main',
      apiKey: 'abcdefgh1234',
      secretKey: 'secretsecret',
      baseUrl: 'https://api.example.com',
      streamUrl: 'wss://stream.example.com',
    };
    expect(add.safeParse(good).success).toBe(true);
    expect(add.safeParse({ ...good, baseUrl: 'file:///etc/passwd' }).success).toBe(false);
    expect(add.safeParse({ ...good, streamUrl: 'https://stream.example.com' }).success).toBe(false);
  });

  it('lists every event once', () => {
    expect(new Set(eventNames).size).toBe(eventNames.length);
  });
});
