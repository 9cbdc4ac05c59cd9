/**
 * divide(), the one rounding of an amount: half-even to 40 significant digits and at most 40
 * places (or to the places a share states), checked against the exact quotient's digits on
 * generated amounts, and on the cases that need a rule.
 */
import DecimalJs from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divide } from '../../shared/exact-decimal';

const Wide = DecimalJs.clone({ precision: 400, rounding: DecimalJs.ROUND_DOWN });

/** The quotient rounded half-even at `places`, from its truncated digits and whether any follow. */
function expected(a: string, b: string, places?: number): string {
  const truncated = new Wide(a).div(b);
  const exact = truncated.times(b).eq(a);
  const kept = places ?? Math.min(40, 39 - truncated.e);
  const down = truncated.toDecimalPlaces(kept, DecimalJs.ROUND_DOWN);
  const rest = truncated.minus(down).abs().times(new Wide(10).pow(kept));
  const half = rest.cmp(0.5);
  const odd = down.abs().times(new Wide(10).pow(kept)).mod(2).eq(1);
  const up = half > 0 || (half === 0 && (!exact || odd));
  const step = new Wide(10).pow(-kept);
  const rounded = up ? down.plus(truncated.isNegative() ? step.neg() : step) : down;
  return rounded.isZero() ? '0' : rounded.toFixed();
}

const amount = fc
  .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 18 }))
  .map(([digits, places]) => new Wide(digits.toString()).div(new Wide(10).pow(places)).toFixed());
const nonZero = amount.filter((text) => !new Wide(text).isZero());

describe('divide', () => {
  it('rounds a quotient half-even to 40 significant digits, at most 40 places', () => {
    fc.assert(
      fc.property(amount, nonZero, (a, b) => {
        expect(divide(a, b).toFixed()).toBe(expected(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('rounds a share half-even to the places it states', () => {
    fc.assert(
      fc.property(amount, nonZero, fc.integer({ min: 0, max: 18 }), (a, b, places) => {
        expect(divide(a, b, places).toFixed()).toBe(expected(a, b, places));
      }),
      { numRuns: 500 },
    );
  });

  it('inverts a price with no finite decimal, and ties go to the even digit', () => {
    expect(divide(1, 55000).toFixed()).toBe('0.0000181818181818181818181818181818181818');
    expect(divide(2, 3).toFixed()).toBe('0.6666666666666666666666666666666666666667');
    expect(divide(-1, 3).toFixed()).toBe('-0.3333333333333333333333333333333333333333');
    expect(divide('2.5', 1, 0).toFixed()).toBe('2');
    expect(divide('3.5', 1, 0).toFixed()).toBe('4');
    expect(divide('-2.5', 1, 0).toFixed()).toBe('-2');
    // A quotient that rounds up into one more digit keeps 40 significant digits.
    expect(divide('9.99999999999999999999999999999999999999999', 1).toFixed()).toBe('10');
    expect(() => divide(1, 0)).toThrow(RangeError);
  });
});
