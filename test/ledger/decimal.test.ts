/**
 * The ledger's one rounding step: a share by proportion, half-even at 18 places; and the Units
 * the hot path computes in, against Decimal (decimal.js) on random amounts: the same text.
 */
import { formatDecimal } from '../../electron/core/decimal';
import { Decimal } from '../../shared/exact-decimal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amount,
  parseUnits,
  share,
  shareUnits,
  timesUnits,
  toAmount,
  units,
  unitsText,
} from '../../electron/ledger';
import { isSignedDecimalText, MAX_DECIMAL_LENGTH } from '../../shared/decimal';

const D = (text: string) => new Decimal(text);

describe('share', () => {
  it('is exact when it can be and rounds half-even at 18 places when not', () => {
    expect(formatDecimal(share(D('1200'), D('0.2997'), D('0.5994')))).toBe('600');
    expect(formatDecimal(share(D('1'), D('1'), D('3')))).toBe('0.333333333333333333');
    expect(formatDecimal(share(D('2'), D('1'), D('3')))).toBe('0.666666666666666667');
    // Exactly half a unit of the 18th place: to the even neighbour.
    expect(formatDecimal(share(D('0.000000000000000001'), D('1'), D('2')))).toBe('0');
    expect(formatDecimal(share(D('0.000000000000000003'), D('1'), D('2')))).toBe(
      '0.000000000000000002',
    );
    expect(formatDecimal(share(D('-2'), D('1'), D('3')))).toBe('-0.666666666666666667');
    expect(formatDecimal(share(D('5'), D('7'), D('7')))).toBe('5');
  });

  it('refuses text that is not a decimal, naming the field', () => {
    expect(() => amount('1e3', 'trade:ETHUSDT:1', 'qty')).toThrow(
      'trade:ETHUSDT:1 qty must be a decimal, got "1e3"',
    );
    expect(formatDecimal(amount('-0.50', 'x', 'y'))).toBe('-0.5');
  });
});

/**
 * Decimal text as the exchange, the store and a person write it: a sign or not, leading and
 * trailing zeros, from 1 digit to the longest accepted text, short ones more often (most amounts
 * take the double path of the parser, long ones the BigInt one).
 */
const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const decimalTextArb = fc
  .tuple(
    fc.boolean(),
    fc.oneof(digits(1, 6), digits(1, 20)),
    fc.option(fc.oneof(digits(1, 10), digits(1, 19)), { nil: undefined }),
  )
  .map(([negative, whole, fraction]) => {
    const text = `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`;
    return text.length > MAX_DECIMAL_LENGTH ? text.slice(0, MAX_DECIMAL_LENGTH) : text;
  })
  .filter((text) => isSignedDecimalText(text));

const U = (text: string) => units(text, 'test', 'value');

describe('Units against decimal.js', () => {
  it('reads and writes every decimal text as decimal.js does', () => {
    fc.assert(
      fc.property(decimalTextArb, (text) => {
        expect(unitsText(U(text))).toBe(formatDecimal(D(text)));
        expect(toAmount(U(text)).eq(D(text))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what amount() refuses', () => {
    const near = fc.string({ unit: fc.constantFrom(...'-.0123456789e+ '), maxLength: 12 });
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ maxLength: 8 })), (text) => {
        expect(parseUnits(text) === null).toBe(!isSignedDecimalText(text));
      }),
      { numRuns: 2000 },
    );
    expect(() => units('1e3', 'trade:ETHUSDT:1', 'qty')).toThrow(
      'trade:ETHUSDT:1 qty must be a decimal, got "1e3"',
    );
  });

  it('adds, subtracts and multiplies exactly, as decimal.js does', () => {
    fc.assert(
      fc.property(decimalTextArb, decimalTextArb, (a, b) => {
        expect(unitsText(U(a) + U(b))).toBe(formatDecimal(D(a).plus(D(b))));
        expect(unitsText(U(a) - U(b))).toBe(formatDecimal(D(a).minus(D(b))));
        expect(unitsText(timesUnits(U(a), U(b)))).toBe(formatDecimal(D(a).times(D(b))));
      }),
      { numRuns: 2000 },
    );
  });

  it('splits with the same rounding as share()', () => {
    fc.assert(
      fc.property(decimalTextArb, decimalTextArb, decimalTextArb, (total, part, whole) => {
        fc.pre(!D(whole).isZero());
        expect(unitsText(shareUnits(U(total), U(part), U(whole)))).toBe(
          formatDecimal(share(D(total), D(part), D(whole))),
        );
      }),
      { numRuns: 2000 },
    );
    // Ties at the 18th place go to the even neighbour, either sign.
    for (const [total, part, whole] of [
      ['0.000000000000000001', '1', '2'],
      ['0.000000000000000003', '1', '2'],
      ['-0.000000000000000003', '1', '2'],
      ['0.000000000000000003', '-1', '2'],
      ['2', '1', '3'],
      ['-2', '1', '-3'],
    ] as const) {
      expect(unitsText(shareUnits(U(total), U(part), U(whole)))).toBe(
        formatDecimal(share(D(total), D(part), D(whole))),
      );
    }
  });
});
