/** Amounts in Indian rupees are grouped in lakh and crore; every other currency in thousands. */
import { describe, expect, it } from 'vitest';
import { formatAmount, formatValue, groupLakh, groupingOf } from '../../shared/format';

describe('INR formatting', () => {
  it('groups the last three digits, then pairs', () => {
    expect(groupLakh('1')).toBe('1');
    expect(groupLakh('999')).toBe('999');
    expect(groupLakh('1000')).toBe('1,000');
    expect(groupLakh('100000')).toBe('1,00,000');
    expect(groupLakh('12345678')).toBe('1,23,45,678');
    expect(groupLakh('1234567890')).toBe('1,23,45,67,890');
  });

  it('writes INR values with two decimals in lakh and crore, others in thousands', () => {
    expect(groupingOf('INR')).toBe('lakh');
    expect(groupingOf('usdt')).toBe('thousands');
    expect(formatValue('5109475.5', 'inr')).toBe('51,09,475.50 INR');
    expect(formatValue('-12345678.125', 'INR', { signed: true })).toBe('-1,23,45,678.13 INR');
    expect(formatValue('5109475.5', 'usdt')).toBe('5,109,475.50 USDT');
    expect(formatAmount('100000.25', { grouping: 'lakh' })).toBe('1,00,000.25');
  });
});
