import { describe, expect, it } from 'vitest';
import { methodNames, methodSpec, methods, eventNames, ipcChannel } from '../../shared/contract';

describe('the bridge contract', () => {
  it('names every method once, as namespace.method', () => {
    expect(new Set(methodNames).size).toBe(methodNames.length);
    const counted = Object.values(methods).reduce((n, group) => n + Object.keys(group).length, 0);
    expect(methodNames).toHaveLength(counted);
    for (const name of methodNames) expect(name).toMatch(/^[a-zA-Z]+\.[a-zA-Z]+$/);
    expect(ipcChannel('funds.list')).toBe('spotfolio:funds.list');
  });

  it('finds no spec for names outside the contract, prototype keys included', () => {
    for (const name of [
      'funds',
      'funds.nope',
      'nope.list',
      'funds.constructor',
      'funds.__proto__',
      '.list',
    ]) {
      expect(methodSpec(name)).toBeUndefined();
    }
  });

  it('refuses extra fields on every object input', () => {
    for (const name of methodNames) {
      const spec = methodSpec(name)!;
      const parsed = spec.input.safeParse({ unexpectedField: 1 });
      expect(parsed.success, name).toBe(false);
    }
  });

  it('fills defaults for paged reads', () => {
    const parsed = methodSpec('withdrawals.list')!.input.parse({});
    expect(parsed).toEqual({
      filter: {},
      sort: { field: 'time', dir: 'desc' },
      offset: 0,
      limit: 100,
    });
  });

  it('checks amounts as decimal strings, never numbers', () => {
    const transfer = methodSpec('subAccounts.transfer')!.input;
    const base = { asset: 'USDT', fromEmail: 'a@x.io', toEmail: 'b@x.io' };
    expect(transfer.safeParse({ ...base, amount: '10.5' }).success).toBe(true);
    for (const amount of [10.5, '-1', '0', '0.000', '1e5', '1,5', ' ', 'NaN', '1.2.3']) {
      expect(transfer.safeParse({ ...base, amount }).success, String(amount)).toBe(false);
    }
    expect(transfer.parse({ ...base, amount: '1' })).toMatchObject({ asset: 'usdt' });
    expect(transfer.safeParse({ ...base, amount: '1', toEmail: 'a@x.io' }).success).toBe(false);
  });

  it('requires a stop price for stop-limit orders', () => {
    const place = methodSpec('orders.place')!.input;
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
    const add = methodSpec('profiles.add')!.input;
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
