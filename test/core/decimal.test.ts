/** The one parser and the one formatter of amounts in the main process. */
import { describe, expect, it } from 'vitest';
import { DecimalTextError, formatDecimal, parseDecimal } from '../../electron/core/decimal';
import { isDecimalText, MAX_DECIMAL_LENGTH } from '../../shared/decimal';
import { Decimal } from '../../shared/exact-decimal';

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

/** Decimal text as an integer count of 10^-scale units, and back: BigInt arithmetic, no decimal.js. */
function scaled(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  const units = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -units : units;
}
function unscaled(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && text !== '0' ? `-${text}` : text;
}

describe('arithmetic on the widest amounts', () => {
  // The longest text the forms and the bridge accept, its digits on both sides of the dot: the
  // most significant digits an amount can carry into a sum or a product.
  const half = (MAX_DECIMAL_LENGTH - 2) / 2;
  const wide = `${'9'.repeat(half)}.${'9'.repeat(half)}1`;
  const other = `${'8'.repeat(half + 1)}.${'7'.repeat(half - 1)}3`;

  it('are of the widest admitted shape', () => {
    for (const text of [wide, other]) {
      expect(text).toHaveLength(MAX_DECIMAL_LENGTH);
      expect(isDecimalText(text)).toBe(true);
    }
  });

  it('parse, add, subtract, multiply and format without rounding', () => {
    const a = parseDecimal(wide);
    const b = parseDecimal(other);
    const scale = 2 * (half + 1);
    const [x, y] = [scaled(wide, scale), scaled(other, scale)];
    expect(formatDecimal(a.plus(b))).toBe(unscaled(x + y, scale));
    expect(formatDecimal(b.minus(a))).toBe(unscaled(y - x, scale));
    expect(formatDecimal(a.times(b))).toBe(unscaled(x * y, 2 * scale));
    // quantity × price × rate, summed with another such value: the valuation's shape.
    expect(formatDecimal(a.times(b).times(a).plus(b.times(b).times(b)))).toBe(
      unscaled(x * y * x + y * y * y, 3 * scale),
    );
    expect(formatDecimal(a.mod(parseDecimal('0.0000000000000000003')))).toBe(
      unscaled(x % scaled('0.0000000000000000003', scale), scale),
    );
  });

  it('the 23-digit amount the review named keeps its last digit through a sum', () => {
    const amount = parseDecimal('12345678901234.123456789');
    expect(formatDecimal(amount.plus(parseDecimal('1')))).toBe('12345678901235.123456789');
    expect(formatDecimal(parseDecimal('0').plus(amount).minus(amount))).toBe('0');
  });

  it('a fresh Decimal is as exact as a parsed one (one configured constructor)', () => {
    expect(new Decimal(wide).plus(other).toString()).toBe(
      unscaled(scaled(wide, 2 * half + 2) + scaled(other, 2 * half + 2), 2 * half + 2),
    );
    expect(new Decimal('0.00000001').toString()).toBe('0.00000001');
  });
});
