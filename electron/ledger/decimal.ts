/**
 * The ledger's amounts: the project's one Decimal (shared/exact-decimal.ts), exact for sums and
 * products of accepted amounts, rounding only at a division by the rule stated there. A cost or
 * proceeds split in proportion to a quantity is such a division, kept to SPLIT_PLACES fraction
 * digits, half-even; whoever splits keeps the remainder, so no cost is lost or created by a split.
 * Text out goes through the one formatter, formatDecimal (electron/core/decimal.ts).
 */
import { Decimal, divide } from '../../shared/exact-decimal';
import { isSignedDecimalText, MAX_DECIMAL_LENGTH } from '../../shared/decimal';

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
  if (!isSignedDecimalText(text)) {
    const name = typeof owner === 'string' ? owner : owner();
    throw new Error(`${name} ${field} must be a decimal, got ${JSON.stringify(text)}`);
  }
  return new Decimal(text);
}

/** `total × part ÷ whole`, rounded half-even to SPLIT_PLACES (divide()'s rule for a share). */
export function share(total: Amount, part: Amount, whole: Amount): Amount {
  if (part.eq(whole)) return total;
  return divide(total.times(part), whole, SPLIT_PLACES);
}

/**
 * The ledger's hot path works in Units: an amount as a bigint count of 10^-UNIT_PLACES. A
 * decimal.js value is an object of digit arrays, made anew by every operation; summing, splitting
 * and comparing 100,000 trades' amounts that way spent most of a build allocating and collecting.
 * UNIT_PLACES has room for a product of two amounts of the longest accepted text, so sums,
 * differences and those products are exact, as in Decimal; a share rounds exactly as share()
 * does. Amounts leave as Decimal values (toAmount) only where something reads them.
 */
export type Units = bigint;

export const UNIT_PLACES = 2 * MAX_DECIMAL_LENGTH;

const POWERS: bigint[] = [];
for (let places = 0; places <= UNIT_PLACES; places++) POWERS.push(10n ** BigInt(places));

/** One whole unit (1) in Units. */
export const UNIT: Units = POWERS[UNIT_PLACES]!;

/** A share's result is rounded to a multiple of this (10^-SPLIT_PLACES). */
const SPLIT_STEP = POWERS[UNIT_PLACES - SPLIT_PLACES]!;

/** Up to this many digits a number accumulates them exactly (below 2^53). */
const SAFE_DIGITS = 15;

/**
 * Decimal text as Units; null when it is not signed decimal text (the same rule as amount()) or
 * has more fraction digits than UNIT_PLACES (never an exchange amount). One pass over the
 * characters, no regular expression, no string made: this runs for every amount of every entry.
 */
export function parseUnits(text: string): Units | null {
  const length = text.length;
  let index = 0;
  const negative = length > 0 && text.charCodeAt(0) === 45;
  if (negative) index = 1;
  let value = 0;
  let digits = 0;
  let fraction = -1;
  for (; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (code === 46 && fraction < 0 && digits > 0) {
      fraction = 0;
    } else {
      return null;
    }
  }
  if (digits === 0 || fraction === 0) return null;
  if (digits > SAFE_DIGITS) return parseLongUnits(text, fraction);
  const scaled = BigInt(value) * POWERS[UNIT_PLACES - (fraction < 0 ? 0 : fraction)]!;
  return negative ? -scaled : scaled;
}

/** parseUnits() of text already checked, with too many digits for a double. */
function parseLongUnits(text: string, fraction: number): Units | null {
  if (fraction < 0) return BigInt(text) * UNIT;
  const dot = text.indexOf('.');
  let end = text.length;
  while (end - dot - 1 > UNIT_PLACES && text.charCodeAt(end - 1) === 48) end--;
  if (end - dot - 1 > UNIT_PLACES) return null;
  return (
    BigInt(text.slice(0, dot) + text.slice(dot + 1, end)) * POWERS[UNIT_PLACES - (end - dot - 1)]!
  );
}

/**
 * Decimal text as Units; anything else throws naming the field and its owner, as amount() does
 * (the message is built only then).
 */
export function units(text: string, owner: string | (() => string), field: string): Units {
  return parseUnits(text) ?? refuseUnits(text, owner, field);
}

/** The error for text parseUnits() refused. */
export function refuseUnits(text: string, owner: string | (() => string), field: string): never {
  amount(text, owner, field);
  const name = typeof owner === 'string' ? owner : owner();
  throw new Error(
    `${name} ${field} has more than ${UNIT_PLACES} fraction digits: ${JSON.stringify(text)}`,
  );
}

/** Units as exact decimal text, as formatDecimal() writes the same amount. */
export function unitsText(value: Units): string {
  if (value === 0n) return '0';
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  let text: string;
  if (digits.length > UNIT_PLACES) {
    const point = digits.length - UNIT_PLACES;
    const fraction = trimZeros(digits.slice(point));
    text = fraction ? `${digits.slice(0, point)}.${fraction}` : digits.slice(0, point);
  } else {
    text = `0.${trimZeros(digits.padStart(UNIT_PLACES, '0'))}`;
  }
  return negative ? `-${text}` : text;
}

function trimZeros(fraction: string): string {
  let end = fraction.length;
  while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
  return fraction.slice(0, end);
}

/** Units as a ledger amount. */
export function toAmount(value: Units): Amount {
  return value === 0n ? ZERO : new Decimal(unitsText(value));
}

/**
 * `a × b`, exact. A product of two texts the ledger accepts always fits UNIT_PLACES; one that does
 * not (a price with scores of fraction digits) throws rather than round.
 */
export function timesUnits(a: Units, b: Units): Units {
  if (b === UNIT) return a;
  if (a === UNIT) return b;
  const product = a * b;
  const result = product / UNIT;
  if (result * UNIT !== product) {
    throw new Error(`A product of amounts has more than ${UNIT_PLACES} fraction digits`);
  }
  return result;
}

/** share() in Units: `total × part ÷ whole`, rounded half-even to SPLIT_PLACES, the same result. */
export function shareUnits(total: Units, part: Units, whole: Units): Units {
  if (part === whole) return total;
  // In 10^-SPLIT_PLACES steps the share is total × part ÷ (whole × 10^(UNIT_PLACES - SPLIT_PLACES)).
  const scaled = total * part;
  const negative = scaled < 0n !== whole < 0n;
  const dividend = scaled < 0n ? -scaled : scaled;
  const divisor = (whole < 0n ? -whole : whole) * SPLIT_STEP;
  let quotient = dividend / divisor;
  const twiceRemainder = (dividend - quotient * divisor) * 2n;
  if (twiceRemainder > divisor || (twiceRemainder === divisor && (quotient & 1n) === 1n)) {
    quotient += 1n;
  }
  return (negative ? -quotient : quotient) * SPLIT_STEP;
}
