/**
 * The ledger's arithmetic. Sums and products of amounts must be exact, and decimal.js rounds every
 * result to its `precision` significant digits (20 by default, which already rounds a 12-digit
 * quantity times a 10-digit price). The ledger therefore works in its own clone with room for any
 * product of two amounts of the longest accepted text (MAX_DECIMAL_LENGTH), so additions and
 * multiplications never round. Only a division rounds: a cost or proceeds split in proportion to a
 * quantity, kept to SPLIT_PLACES fraction digits; whoever splits keeps the remainder, so no cost
 * is lost or created by a split.
 */
import Decimal from 'decimal.js';
import { isSignedDecimalText, MAX_DECIMAL_LENGTH } from '../../shared/decimal';

export const LedgerDecimal = Decimal.clone({
  precision: 4 * MAX_DECIMAL_LENGTH + 20,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

export type Amount = Decimal;

/** Fraction digits of a cost or proceeds share computed by proportion. */
export const SPLIT_PLACES = 18;

export const ZERO: Amount = new LedgerDecimal(0);
export const ONE: Amount = new LedgerDecimal(1);

/**
 * Decimal text ("12.5", "-0.01") as a ledger amount; anything else throws naming the field and
 * its owner (the message is built only then: this runs for every amount of every entry).
 */
export function amount(text: string, owner: string | (() => string), field: string): Amount {
  if (!isSignedDecimalText(text)) {
    const name = typeof owner === 'string' ? owner : owner();
    throw new Error(`${name} ${field} must be a decimal, got ${JSON.stringify(text)}`);
  }
  return new LedgerDecimal(text);
}

const SPLIT_SCALE = new LedgerDecimal(10).pow(SPLIT_PLACES);
const SPLIT_UNIT = new LedgerDecimal(`1e-${SPLIT_PLACES}`);

/**
 * `total × part ÷ whole`, rounded half-even to SPLIT_PLACES. Computed as an integer division of
 * the scaled product, which decimal.js does digit by digit only as far as the integer part: a
 * division at the clone's full precision would compute (and allocate) some 180 digits to keep 18.
 */
export function share(total: Amount, part: Amount, whole: Amount): Amount {
  if (part.eq(whole)) return total;
  const scaled = total.times(part).times(SPLIT_SCALE);
  const divisor = whole.abs();
  let quotient = scaled.abs().dividedToIntegerBy(divisor);
  const twiceRemainder = scaled.abs().minus(quotient.times(divisor)).times(2);
  const half = twiceRemainder.cmp(divisor);
  if (half > 0 || (half === 0 && quotient.mod(2).eq(1))) quotient = quotient.plus(1);
  const negative = scaled.isNegative() !== whole.isNegative() && !quotient.isZero();
  return (negative ? quotient.negated() : quotient).times(SPLIT_UNIT);
}

/** Exact decimal text: never an exponent, no trailing fraction zeros, never "-0". */
export function decimalText(value: Amount): string {
  const text = value.toFixed();
  const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
  return trimmed === '-0' ? '0' : trimmed;
}
