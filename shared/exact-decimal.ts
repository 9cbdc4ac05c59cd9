/**
 * The one decimal.js of the project. decimal.js rounds the result of every operation to
 * `precision` significant digits: 20 by default, so "12345678901234.123456789" (23 digits, decimal
 * text the exchange and the forms accept) plus 1 came out as 12345678901235.123457. Here the
 * precision has room for a product of four amounts of the longest accepted text (quantity × price
 * × rate, and more), so sums, differences, products and remainders of amounts never round.
 *
 * Division is the one operation that rounds, and only through divide() below, by a rule stated
 * once: a quotient keeps QUOTIENT_DIGITS (40) significant digits and at most QUOTIENT_PLACES (40)
 * fraction digits, rounded half-even; a share of a cost or proceeds split in proportion keeps the
 * places its caller states, also half-even. 1 / 55000 has no finite decimal: as a price of USDT in
 * BTC it is 0.0000181818181818181818181818181818181818. A quotient so made is itself an amount of
 * the widest accepted shape, so a product of it with an amount is exact again.
 *
 * Import Decimal from here, never from 'decimal.js' (lint enforces it): a value made by another
 * constructor does its arithmetic at that constructor's precision.
 */
import DecimalJs from 'decimal.js';
import { MAX_DECIMAL_LENGTH } from './decimal';

export const Decimal = DecimalJs.clone({
  precision: 4 * MAX_DECIMAL_LENGTH,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

export type Decimal = DecimalJs;

/** Significant digits a quotient keeps. */
export const QUOTIENT_DIGITS = MAX_DECIMAL_LENGTH;

/** Fraction digits a quotient keeps at most (a price far below one keeps fewer significant). */
export const QUOTIENT_PLACES = MAX_DECIMAL_LENGTH;

const LIMIT = 10n ** BigInt(QUOTIENT_DIGITS);

/**
 * decimal.js constructors that divide to a given number of significant digits, half-even: used
 * inside divide() only, their values made ours before they leave (a value of one of them would
 * round every later operation to its digits).
 */
const dividers: (typeof DecimalJs)[] = [];

function dividerOf(digits: number): typeof DecimalJs {
  return (dividers[digits] ??= DecimalJs.clone({
    precision: digits,
    rounding: DecimalJs.ROUND_HALF_EVEN,
  }));
}

/**
 * `dividend ÷ divisor`, rounded half-even to QUOTIENT_DIGITS significant digits and at most
 * QUOTIENT_PLACES fraction digits; with `places`, rounded half-even to that many fraction digits.
 * The only rounding of an amount in the project. Throws on a zero divisor.
 *
 * decimal.js divides correctly rounded to its constructor's significant digits, so the quotient
 * is made by the constructor of as many digits as the rule keeps for the quotient's magnitude:
 * 10^(a.e − b.e) or the place below, tried in that order (a quotient that rounds up into the place
 * above is the same under either). No text is made; a quotient too small for one digit under the
 * rule (|q| < 10^−places) is found in BigInt arithmetic.
 */
export function divide(
  dividend: DecimalJs.Value,
  divisor: DecimalJs.Value,
  places?: number,
): Decimal {
  const a = ours(dividend) ? dividend : new Decimal(dividend);
  const b = ours(divisor) ? divisor : new Decimal(divisor);
  if (b.isZero()) throw new RangeError('Division by zero');
  if (a.isZero()) return new Decimal(0);
  const exponent = a.e - b.e;
  const digits = keptDigits(exponent, places);
  if (digits >= 1) {
    const quotient = new (dividerOf(digits))(a).div(b);
    if (quotient.e >= exponent) return new Decimal(quotient);
    const fewer = keptDigits(exponent - 1, places);
    if (fewer === digits) return new Decimal(quotient);
    if (fewer >= 1) return new Decimal(new (dividerOf(fewer))(a).div(b));
  }
  return divideScaled(a, b, places);
}

/** The significant digits the rule keeps of a quotient whose leading digit is at 10^exponent. */
function keptDigits(exponent: number, places: number | undefined): number {
  return places === undefined
    ? Math.min(QUOTIENT_DIGITS, QUOTIENT_PLACES + exponent + 1)
    : places + exponent + 1;
}

/** Whether `value` is a value of this module's Decimal (not of another decimal.js constructor). */
function ours(value: DecimalJs.Value): value is Decimal {
  return value instanceof Decimal && value.constructor === Decimal;
}

/** divide() in BigInt arithmetic, for a quotient below the rule's last place. */
function divideScaled(a: Decimal, b: Decimal, places?: number): Decimal {
  const negative = a.isNegative() !== b.isNegative();
  const [numerator, numeratorPlaces] = integerOf(a);
  const [denominator, denominatorPlaces] = integerOf(b);
  // The quotient's leading digit is at 10^(a.e - b.e) or the place below: start from the lower,
  // and keep one place less when the quotient came out a digit longer.
  let kept = places ?? Math.min(QUOTIENT_PLACES, QUOTIENT_DIGITS - (a.e - b.e));
  let quotient = scaledQuotient(numerator, numeratorPlaces, denominator, denominatorPlaces, kept);
  if (places === undefined && quotient >= LIMIT) {
    kept--;
    quotient = scaledQuotient(numerator, numeratorPlaces, denominator, denominatorPlaces, kept);
  }
  if (quotient === 0n) return new Decimal(0);
  return new Decimal(`${negative ? '-' : ''}${quotient}e${-kept}`);
}

/** |value| as an integer and the power of ten it is scaled by. */
function integerOf(value: Decimal): [bigint, number] {
  const places = value.decimalPlaces();
  return [BigInt(value.abs().toFixed(places).replace('.', '')), places];
}

/** (n / 10^np) ÷ (d / 10^dp) × 10^kept, rounded half-even to an integer. */
function scaledQuotient(n: bigint, np: number, d: bigint, dp: number, kept: number): bigint {
  const shift = dp + kept - np;
  const dividend = shift >= 0 ? n * 10n ** BigInt(shift) : n;
  const divisor = shift >= 0 ? d : d * 10n ** BigInt(-shift);
  const quotient = dividend / divisor;
  const twice = (dividend - quotient * divisor) * 2n;
  return twice > divisor || (twice === divisor && (quotient & 1n) === 1n)
    ? quotient + 1n
    : quotient;
}
