import { describe, expect, it } from 'vitest';
import type { SubAccountsView } from '../../shared/types';
import {
  MAIN_ACCOUNT,
  checkAmount,
  freeBalance,
  isEmail,
  orderTotal,
} from '../../renderer/src/lib/validation';

describe('checkAmount', () => {
  it('accepts an amount within the free balance', () => {
    expect(checkAmount('12.5', { free: '12.5', precision: 8 })).toEqual({ ok: true });
  });

  it('explains each kind of bad amount', () => {
    expect(checkAmount('', {}).message).toBe('Enter amount');
    expect(checkAmount('1,5', {}).message).toMatch(/digits and one dot/);
    expect(checkAmount('-1', {}).message).toMatch(/digits and one dot/);
    expect(checkAmount('0.000', {}).message).toBe('Amount must be greater than zero');
    expect(checkAmount('0.123', { precision: 2 }).message).toBe(
      'Amount allows at most 2 digits after the dot',
    );
    expect(checkAmount('12.50000001', { free: '12.5', asset: 'usdt' }).message).toBe(
      'Amount is more than the free balance (12.5 USDT)',
    );
    // The free balance reads like every other figure: with separators.
    expect(checkAmount('200000', { free: '103418.4', asset: 'usdt' }).message).toBe(
      'Amount is more than the free balance (103,418.4 USDT)',
    );
    expect(checkAmount('', { label: 'Quantity' }).message).toBe('Enter quantity');
  });
});

describe('order helpers', () => {
  it('computes the total exactly', () => {
    expect(orderTotal('0.1', '0.2')).toBe('0.02');
    expect(orderTotal('3', '33333.33')).toBe('99999.99');
    expect(orderTotal('x', '1')).toBeNull();
  });

  it('keeps every digit of a total of long amounts, in plain digits', () => {
    // 23 and 20 significant digits: decimal.js's default precision (20) rounded this product.
    const quantity = '12345678901234.123456789';
    const price = '98765432109.876543210';
    const exact = BigInt('12345678901234123456789') * BigInt('98765432109876543210');
    const digits = exact.toString();
    const places = 9 + 9;
    const expected = `${digits.slice(0, -places)}.${digits.slice(-places)}`.replace(/\.?0+$/, '');
    expect(orderTotal(quantity, price)).toBe(expected);
    // Small totals too: never "1e-16".
    expect(orderTotal('0.00000001', '0.00000001')).toBe('0.0000000000000001');
  });

  it('recognises e-mail addresses', () => {
    expect(isEmail('sub1@demo.test')).toBe(true);
    expect(isEmail('not an email')).toBe(false);
  });
});

describe('freeBalance', () => {
  const view: SubAccountsView = {
    quoteAsset: 'usdt',
    parentEmail: 'main@demo.test',
    asOf: 1,
    accounts: [
      {
        email: 'sub@demo.test',
        status: 'enabled',
        value: '7.5',
        unpriced: [],
        link: null,
        createdAt: 0,
        balances: [{ asset: 'usdt', balance: '7.5' }],
      },
    ],
  };
  const mainFree = new Map([['usdt', '100']]);

  it('reads the main account from funds and a sub-account from its balances', () => {
    expect(freeBalance('main@demo.test', 'usdt', view, mainFree)).toBe('100');
    expect(freeBalance('sub@demo.test', 'usdt', view, mainFree)).toBe('7.5');
    expect(freeBalance('sub@demo.test', 'btc', view, mainFree)).toBe('0');
    expect(freeBalance('other@demo.test', 'usdt', view, mainFree)).toBeNull();
    expect(freeBalance('main@demo.test', 'usdt', undefined, mainFree)).toBeNull();
  });

  it('knows the main account before its e-mail is known, and not before its funds are', () => {
    const unnamed = { ...view, parentEmail: null };
    expect(freeBalance(MAIN_ACCOUNT, 'usdt', unnamed, mainFree)).toBe('100');
    expect(freeBalance(MAIN_ACCOUNT, 'btc', unnamed, mainFree)).toBe('0');
    expect(freeBalance(MAIN_ACCOUNT, 'usdt', unnamed, null)).toBeNull();
  });
});
