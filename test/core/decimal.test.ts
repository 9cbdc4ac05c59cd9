/** The one parser and the one formatter of amounts in the main process. */
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { DecimalTextError, formatDecimal, parseDecimal } from '../../electron/core/decimal';

describe('parseDecimal', () => {
  it('reads decimal text, signed or not, exactly', () => {
    expect(parseDecimal('12.50').toFixed()).toBe('12.5');
    expect(parseDecimal('-0.000000000000000001').toFixed()).toBe('-0.000000000000000001');
    expect(parseDecimal('123456789012345678901234567890.5').toFixed()).toBe(
      '123456789012345678901234567890.5',
    );
  });

  it('refuses what decimal.js alone would take, naming the field', () => {
    for (const text of ['1e3', '0x1f', 'NaN', 'Infinity', ' 1', '1.', '.5', '+1', '', 1.5, null]) {
      expect(() => parseDecimal(text, 'price')).toThrow(DecimalTextError);
    }
    expect(() => parseDecimal('1e3', 'price')).toThrow('price must be a decimal, got "1e3"');
  });
});

describe('formatDecimal', () => {
  it('writes plain text without exponent or trailing zeros', () => {
    expect(formatDecimal(new Decimal('1e-12'))).toBe('0.000000000001');
    expect(formatDecimal(new Decimal('1e25'))).toBe('10000000000000000000000000');
    expect(formatDecimal(new Decimal('12.5000'))).toBe('12.5');
    expect(formatDecimal(new Decimal('100'))).toBe('100');
  });

  it('rounds half up to the places asked for, and never writes "-0"', () => {
    expect(formatDecimal(new Decimal('2.345'), 2)).toBe('2.35');
    expect(formatDecimal(new Decimal('-2.345'), 2)).toBe('-2.35');
    expect(formatDecimal(new Decimal('1.999'), 2)).toBe('2');
    expect(formatDecimal(new Decimal('-0.0001'), 2)).toBe('0');
  });

  it('gives back what parseDecimal read', () => {
    for (const text of ['0', '1', '0.1', '-7.25', '99999999999999999999.00000000000000000001']) {
      expect(formatDecimal(parseDecimal(text))).toBe(text);
    }
  });
});
