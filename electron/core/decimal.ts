/**
 * Arithmetic on amounts: decimal text in, the project's Decimal (shared/exact-decimal.ts) out, and
 * back. The one parser and the one formatter of the main process; what counts as decimal text is
 * the pattern of shared/decimal.ts, which the renderer checks by too. The Decimal constructor alone
 * would also take "1e3" or "+.5".
 */
import { Decimal } from '../../shared/exact-decimal';
import { isSignedDecimalText } from '../../shared/decimal';
import type { DecimalText } from '../../shared/types';

/** Text that is not a (signed) decimal where an amount was expected. */
export class DecimalTextError extends Error {
  constructor(what: string, value: unknown) {
    super(`${what} must be a decimal, got ${JSON.stringify(value)}`);
    this.name = 'DecimalTextError';
  }
}

/** Decimal text ("12.5", "-0.01") as a Decimal; anything else throws naming `what`. */
export function parseDecimal(text: unknown, what = 'amount'): Decimal {
  if (!isSignedDecimalText(text)) throw new DecimalTextError(what, text);
  return new Decimal(text);
}

/**
 * A Decimal as decimal text: never exponent notation, no trailing zeros in the fraction,
 * rounded half up to `places` fraction digits when given.
 */
export function formatDecimal(value: Decimal, places?: number): DecimalText {
  const rounded =
    places === undefined ? value : value.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  const text = rounded.toFixed();
  const trimmed = text.includes('.') ? text.replace(/\.?0+$/, '') : text;
  // -0.0001 rounded to 2 places is "-0", which is no amount anyone writes.
  return trimmed === '-0' ? '0' : trimmed;
}
