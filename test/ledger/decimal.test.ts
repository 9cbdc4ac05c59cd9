/**
 * The ledger's one rounding step: a share by proportion, half-even at 18 places, on fixed cases
 * and against integer arithmetic (BigInt, no decimal.js) on random amounts.
 */
import { formatDecimal } from '../../electron/core/decimal';
import { Decimal } from '../../shared/exact-decimal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amount, share, SPLIT_PLACES } from '../../electron/ledger';
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

/** Decimal text as an integer and the power of ten it is scaled by. */
function scaled(text: string): [bigint, number] {
  const [whole, fraction = ''] = text.split('.');
  return [BigInt(whole! + fraction), fraction.length];
}

/** `total × part ÷ whole` half-even at SPLIT_PLACES, in BigInt, as text formatDecimal writes. */
function referenceShare(total: string, part: string, whole: string): string {
  const [t, tp] = scaled(total);
  const [p, pp] = scaled(part);
  const [w, wp] = scaled(whole);
  // (t·p / 10^(tp+pp)) ÷ (w / 10^wp) × 10^SPLIT_PLACES = t·p·10^(wp+SPLIT_PLACES) ÷ (w·10^(tp+pp))
  let dividend = t * p * 10n ** BigInt(wp + SPLIT_PLACES);
  let divisor = w * 10n ** BigInt(tp + pp);
  const negative = dividend < 0n !== divisor < 0n;
  if (dividend < 0n) dividend = -dividend;
  if (divisor < 0n) divisor = -divisor;
  let quotient = dividend / divisor;
  const twice = (dividend - quotient * divisor) * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n === 1n)) quotient += 1n;
  if (quotient === 0n) return '0';
  const digits = quotient.toString().padStart(SPLIT_PLACES + 1, '0');
  const point = digits.length - SPLIT_PLACES;
  const fraction = digits.slice(point).replace(/0+$/, '');
  const text = fraction ? `${digits.slice(0, point)}.${fraction}` : digits.slice(0, point);
  return negative ? `-${text}` : text;
}

describe('share against integer arithmetic', () => {
  it('splits exactly where it can and rounds half-even at 18 places where not', () => {
    fc.assert(
      fc.property(decimalTextArb, decimalTextArb, decimalTextArb, (total, part, whole) => {
        fc.pre(!D(whole).isZero());
        expect(formatDecimal(share(D(total), D(part), D(whole)))).toBe(
          referenceShare(total, part, whole),
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
      expect(formatDecimal(share(D(total), D(part), D(whole)))).toBe(
        referenceShare(total, part, whole),
      );
    }
  });
});
