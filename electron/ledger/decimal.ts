/**
 * The ledger's amounts: the project's one Decimal (shared/exact-decimal.ts), exact for sums and
 * products of accepted amounts, rounding only at a division by the rule stated there. A cost or
 * proceeds split in proportion to a quantity is such a division, kept to SPLIT_PLACES fraction
 * digits, half-even; whoever splits keeps the remainder, so no cost is lost or created by a split.
 * Text out goes through the one formatter, formatDecimal (electron/core/decimal.ts).
 *
 * Every operation makes a value, so the hot path reads each amount once (a trade's, by source.ts as
 * it reads the rows: TradeEntry's `amounts`), reuses the values it holds (ONE, ZERO, a price)
 * rather than making equal ones, asks a sign where that is the question (isBelowZero) rather
 * than comparing with a made zero, and keeps a sum that only grows or shrinks step by step (a
 * position's quantity, cost and realized, a fee total) in a DecimalSum, changed in place and made
 * a value only when read.
 */
import {
  Decimal,
  decimalOfParts,
  divideProduct,
  plainDecimal,
  type DecimalCoefficient,
  type DecimalSum,
} from '../../shared/exact-decimal';

export type Amount = Decimal;

/** Fraction digits of a cost or proceeds share computed by proportion. */
export const SPLIT_PLACES = 18;

export const ZERO: Amount = new Decimal(0);
export const ONE: Amount = new Decimal(1);

/**
 * Decimal text ("12.5", "-0.01") as an amount; anything else throws naming the field and its
 * owner (the message is built only then: this runs for every amount of every entry).
 */
export function amount(text: string, owner: string | (() => string), field: string): Amount {
  const value = plainDecimal(text);
  if (value === null) {
    const name = typeof owner === 'string' ? owner : owner();
    throw new Error(`${name} ${field} must be a decimal, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** `total × part ÷ whole`, rounded half-even to SPLIT_PLACES (divide()'s rule for a share). */
export function share(total: Amount, part: Amount, whole: Amount): Amount {
  if (part === whole || part.eq(whole)) return total;
  return divideProduct(total, part, whole, SPLIT_PLACES);
}

/** share() of a part known to differ from the whole (a lot taken in part): no look for the whole. */
export function shareOfPart(total: Amount, part: Amount, whole: Amount): Amount {
  return divideProduct(total, part, whole, SPLIT_PLACES);
}

/**
 * share(total, part, whole) added to `sum`, part and whole given as parts (coefficient and scale,
 * as a trade's table keeps them), the share made as a value only where it is not exact (see
 * DecimalSum.addQuotient): for a share only summed (a buy's fee value, while no records are kept).
 */
export function addShare(
  sum: DecimalSum,
  total: Amount,
  part: DecimalCoefficient,
  partScale: number,
  whole: DecimalCoefficient,
  wholeScale: number,
): void {
  const all =
    partScale === wholeScale
      ? part === whole
      : decimalOfParts(part, partScale).eq(decimalOfParts(whole, wholeScale));
  if (all) sum.add(total);
  else sum.addQuotient(total, part, partScale, whole, wholeScale, SPLIT_PLACES);
}

/** `a × b`, exact; one of them ONE (the reporting asset's price of itself) makes nothing new. */
export function times(a: Amount, b: Amount): Amount {
  if (b === ONE) return a;
  if (a === ONE) return b;
  return a.times(b);
}

/** Below zero: a sign read, no value made. */
export function isBelowZero(value: Amount): boolean {
  return value.isNegative();
}

/** Above zero: a sign read, no value made. */
export function isAboveZero(value: Amount): boolean {
  return value.isPositive();
}

/** `−value` (zero is itself: a Decimal has no "-0"). */
export function negated(value: Amount): Amount {
  return value.neg();
}
