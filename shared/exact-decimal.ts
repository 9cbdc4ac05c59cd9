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
 * `dividend ÷ divisor`, rounded half-even to QUOTIENT_DIGITS significant digits and at most
 * QUOTIENT_PLACES fraction digits; with `places`, rounded half-even to that many fraction digits.
 * The only rounding of an amount in the project. Throws on a zero divisor.
 */
export function divide(
  dividend: DecimalJs.Value,
  divisor: DecimalJs.Value,
  places?: number,
): Decimal {
  const a = new Decimal(dividend);
  const b = new Decimal(divisor);
  if (b.isZero()) throw new RangeError('Division by zero');
  if (a.isZero()) return new Decimal(0);
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
