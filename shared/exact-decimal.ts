/**
 * The one amount type of the project: an exact decimal, a whole coefficient times 10^-scale; the
 * coefficient is a number while it is a safe integer (below 2^53) and a BigInt beyond (see
 * Coefficient), so most arithmetic on amounts makes no BigInt, and its results are the same. Sums, differences, products and remainders of amounts are exact whatever their length; nothing
 * rounds an amount behind the caller's back. The scale is the one written or made, not normalized:
 * "1.50" is 150 × 10^-2, a sum keeps its longer operand's scale (0.25 + 0.75 is 100 × 10^-2), a
 * product the sum of its factors' (below MAX_SCALE), a quotient the places its rule keeps. Every
 * reading of the value (text, comparison, equality, places) is the normalized value's, so this is
 * invisible but for speed: amounts of one asset come with one scale and add without alignment, and
 * the ledger's hot path pays no division by ten per operation (stripping the zeros of a share's 18
 * places made its build a quarter slower).
 *
 * Division is the one operation that rounds, and only through divide() below, by a rule stated
 * once: a quotient keeps QUOTIENT_DIGITS (40) significant digits and at most QUOTIENT_PLACES (40)
 * fraction digits, rounded half-even; a share of a cost or proceeds split in proportion keeps the
 * places its caller states, also half-even. 1 / 55000 has no finite decimal: as a price of USDT in
 * BTC it is 0.0000181818181818181818181818181818181818. A quotient so made is itself an amount of
 * the widest accepted shape, so a product of it with an amount is exact again.
 *
 * Rounding to places (toDecimalPlaces, toFixed with places, toSignificantDigits) is asked for by
 * name and rule: for a figure shown or an amount the exchange accepts, never in arithmetic.
 *
 * A running sum (a position's quantity, cost or realized gains, a fee total) is accumulated in a
 * DecimalSum, changed in place: not another amount type, but how a Decimal sum is kept while it
 * grows. Its value() is the Decimal plus() and minus() step by step would make, at the largest
 * scale added since it was last read as zero (where plus() restarts at a later operand's scale
 * after any zero: the same value, read the same), made when read and kept until the next
 * change; a value read is a Decimal like any other and stays what it was as the sum goes on. In
 * between, what is added as a number goes into two number limbs (exact, nothing made), what is
 * added as a bigint into a bigint part.
 *
 * The methods are the subset of decimal.js's the project uses, with its names and results (text
 * never in exponent notation); the type used to be a decimal.js clone of precision 160, half-even.
 * decimal.js made an object of digit arrays for every operation; a coefficient and a scale are a
 * third of the work (the ledger builds 100,000 trades in this type).
 */
import { MAX_DECIMAL_LENGTH } from './decimal';

/** What a Decimal is made from: another, decimal text ("-12.5", "1e-7"), or a finite number. */
export type DecimalValue = Decimal | string | number;

/** The rounding rules, numbered as decimal.js numbers them. */
export type Rounding = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** Largest exponent accepted in text ("1e12"): far above any amount, far below a hang. */
const MAX_EXPONENT = 1000;

const POWERS: bigint[] = [1n];
for (let index = 1; index <= 4 * MAX_DECIMAL_LENGTH + 40; index++) {
  POWERS.push(POWERS[index - 1]! * 10n);
}

function power(places: number): bigint {
  return POWERS[places] ?? 10n ** BigInt(places);
}

/** Exact powers of ten as numbers, up to the last below 2^53. */
const NUMBER_POWERS: number[] = [1];
for (let index = 1; index <= 15; index++) NUMBER_POWERS.push(NUMBER_POWERS[index - 1]! * 10);

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const BIG_MAX_SAFE = BigInt(MAX_SAFE);

/**
 * A coefficient: a number while it is a safe integer (below 2^53, as nearly every amount and most
 * sums and products of them are), a bigint beyond, never both for one value (so equal values of
 * one scale are ===). Arithmetic on two numbers whose exact result is still safe is exact in
 * floating point and makes no BigInt; a BigInt is an object of its own beside the Decimal, and
 * made and collected for every operation they were a third of a ledger build.
 */
type Coefficient = number | bigint;

/**
 * A Decimal's coefficient, as its parts are kept where no Decimal is held (a table's columns):
 * only ever handed back to this file's functions (decimalOfParts, partsText, DecimalSum's
 * addParts), never computed with elsewhere.
 */
export type DecimalCoefficient = Coefficient;

/** `value` in the one form its size takes. */
function coefficientOf(value: bigint): Coefficient {
  return value >= -BIG_MAX_SAFE && value <= BIG_MAX_SAFE ? Number(value) : value;
}

/** `value` as a bigint, for the arithmetic that goes beyond 2^53. */
function big(value: Coefficient): bigint {
  return typeof value === 'number' ? BigInt(value) : value;
}

/** Whether a number (an integer) is exact: its magnitude at most 2^53 − 1. */
function safe(value: number): boolean {
  return value <= MAX_SAFE && value >= -MAX_SAFE;
}

/**
 * `n % d` for safe integers (d not zero), the sign of n's, but 0 never -0: by a division rounded
 * and one correction, not the floating-point `%`, which V8 leaves to a C call (three times the
 * cost, and the sums do one per amount added). n ÷ d rounded lies within one of the integer it is
 * truncated from, so one step brings the rest back below |d|; where the product q × d is not
 * exact (beyond 2^53), `%` answers.
 */
function remainderOf(n: number, d: number): number {
  const quotient = Math.trunc(n / d);
  const product = quotient * d;
  if (!safe(product)) return (n % d) + 0;
  const rest = n - product;
  const size = d < 0 ? -d : d;
  if (n >= 0) return rest < 0 ? rest + size : rest >= size ? rest - size : rest;
  return rest > 0 ? rest - size : rest <= -size ? rest + size : rest;
}

/** The remainder splitAt() left. */
let splitRest = 0;

/**
 * A safe integer split at a power of ten `unit` (up to 10^15): the quotient truncated, returned,
 * and the remainder (the sign of y's) left in splitRest; one division where remainderOf() and a
 * quotient of the difference were two, none below the unit (most amounts a sum adds at its own
 * scale). The quotient rounded is at most one above the truncated one in size: one step back.
 */
function splitAt(y: number, unit: number): number {
  if (y < unit && y > -unit) {
    splitRest = y;
    return 0;
  }
  let quotient = Math.trunc(y / unit);
  const product = quotient * unit;
  if (!safe(product)) {
    splitRest = (y % unit) + 0;
    return (y - splitRest) / unit;
  }
  let rest = y - product;
  if (y > 0 ? rest < 0 : rest > 0) {
    quotient += y > 0 ? -1 : 1;
    rest += y > 0 ? unit : -unit;
  }
  splitRest = rest;
  return quotient;
}

/** Marks the constructor's third argument: a coefficient already in its one form (internal). */
const RAW: unique symbol = Symbol('coefficient');

/** A product's zeros are stripped only above this scale (repeated products stay bounded). */
const MAX_SCALE = 4 * MAX_DECIMAL_LENGTH;

/** Up to this many digits a number accumulates them exactly (below 2^53). */
const SAFE_DIGITS = 15;

const EXPONENT_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/;

export class Decimal {
  static readonly ROUND_UP = 0;
  static readonly ROUND_DOWN = 1;
  static readonly ROUND_CEIL = 2;
  static readonly ROUND_FLOOR = 3;
  static readonly ROUND_HALF_UP = 4;
  static readonly ROUND_HALF_DOWN = 5;
  static readonly ROUND_HALF_EVEN = 6;
  static readonly ROUND_HALF_CEIL = 7;
  static readonly ROUND_HALF_FLOOR = 8;

  /** The coefficient (a number while a safe integer, else a bigint): value = coefficient × 10^-scale. */
  readonly coefficient: Coefficient;
  /** Fraction digits of the coefficient (≥ 0), trailing zeros included. */
  readonly scale: number;

  /**
   * A value from another, from text or a number; or, given a bigint, from a coefficient and scale
   * (Decimal.of() also strips the coefficient's trailing zeros).
   */
  constructor(value: DecimalValue | bigint, scale = 0, raw?: typeof RAW) {
    if (raw === RAW) {
      this.coefficient = value as Coefficient;
      this.scale = scale;
      return;
    }
    if (typeof value === 'bigint') {
      this.coefficient = coefficientOf(value);
      this.scale = scale;
      return;
    }
    if (value instanceof Decimal) {
      this.coefficient = value.coefficient;
      this.scale = value.scale;
      return;
    }
    const parsed = typeof value === 'number' ? parseNumber(value) : parseText(String(value));
    this.coefficient = parsed[0];
    this.scale = parsed[1];
  }

  /** A value from its coefficient and scale, normalized. */
  static of(value: bigint, scale = 0): Decimal {
    let coefficient = value;
    while (scale > 0 && coefficient % 10n === 0n) {
      if (coefficient === 0n) {
        scale = 0;
        break;
      }
      coefficient /= 10n;
      scale--;
    }
    return new Decimal(coefficient, scale);
  }

  static max(...values: DecimalValue[]): Decimal {
    let best = decimalOf(values[0]!);
    for (let index = 1; index < values.length; index++) {
      const value = decimalOf(values[index]!);
      if (value.cmp(best) > 0) best = value;
    }
    return best;
  }

  static min(...values: DecimalValue[]): Decimal {
    let best = decimalOf(values[0]!);
    for (let index = 1; index < values.length; index++) {
      const value = decimalOf(values[index]!);
      if (value.cmp(best) < 0) best = value;
    }
    return best;
  }

  plus(other: DecimalValue): Decimal {
    const b = decimalOf(other);
    const y = b.coefficient;
    if (y === 0) return this;
    const x = this.coefficient;
    if (x === 0) return b;
    return sum(x, this.scale, y, b.scale, false);
  }

  minus(other: DecimalValue): Decimal {
    const b = decimalOf(other);
    const y = b.coefficient;
    if (y === 0) return this;
    return sum(this.coefficient, this.scale, y, b.scale, true);
  }

  times(other: DecimalValue): Decimal {
    const b = decimalOf(other);
    const scale = this.scale + b.scale;
    const x = this.coefficient;
    const y = b.coefficient;
    if (typeof x === 'number' && typeof y === 'number' && scale <= MAX_SCALE) {
      // Exact when the result is safe: were the exact product beyond 2^53, so would its rounding.
      const product = x * y;
      if (safe(product)) return fromNumber(product, scale);
    }
    const product = big(x) * big(y);
    return scale > MAX_SCALE ? Decimal.of(product, scale) : made(product, scale);
  }

  /** The remainder of a division truncated toward zero (the sign of this), exact. */
  mod(other: DecimalValue): Decimal {
    const b = decimalOf(other);
    if (b.coefficient === 0) throw new RangeError('Division by zero');
    const scale = Math.max(this.scale, b.scale);
    const a = big(this.coefficient) * power(scale - this.scale);
    return Decimal.of(a % (big(b.coefficient) * power(scale - b.scale)), scale);
  }

  /** This to a whole power of at least zero, exact. */
  pow(exponent: number): Decimal {
    if (!Number.isInteger(exponent) || exponent < 0) {
      throw new RangeError(`A power of a Decimal is whole and at least 0, got ${exponent}`);
    }
    return Decimal.of(big(this.coefficient) ** BigInt(exponent), this.scale * exponent);
  }

  neg(): Decimal {
    const x = this.coefficient;
    return x === 0 ? this : new Decimal(-x, this.scale, RAW);
  }

  negated(): Decimal {
    return this.neg();
  }

  abs(): Decimal {
    const x = this.coefficient;
    return negative(x) ? new Decimal(-x, this.scale, RAW) : this;
  }

  /** -1, 0 or 1 as this is below, equal to or above `other`. */
  cmp(other: DecimalValue): -1 | 0 | 1 {
    const b = decimalOf(other);
    const a = this.coefficient;
    const c = b.coefficient;
    if (typeof a === 'number' && typeof c === 'number') {
      if (this.scale === b.scale || a < 0 !== c < 0 || a === 0 || c === 0) {
        return a < c ? -1 : a > c ? 1 : 0;
      }
      const shift = this.scale - b.scale;
      const left = shift > 0 ? a : a * (NUMBER_POWERS[-shift] ?? Infinity);
      const right = shift > 0 ? c * (NUMBER_POWERS[shift] ?? Infinity) : c;
      if (safe(left) && safe(right)) return left < right ? -1 : left > right ? 1 : 0;
    } else if (this.scale === b.scale) {
      // One form each: the bigint is the larger in magnitude, so its sign decides.
      if (typeof a === 'bigint' && typeof c === 'bigint') return a < c ? -1 : a > c ? 1 : 0;
      return typeof a === 'bigint' ? (a < 0n ? -1 : 1) : (c as bigint) < 0n ? 1 : -1;
    }
    const x = big(a);
    const y = big(c);
    const left = this.scale > b.scale ? x : x * power(b.scale - this.scale);
    const right = this.scale > b.scale ? y * power(this.scale - b.scale) : y;
    return left < right ? -1 : left > right ? 1 : 0;
  }

  comparedTo(other: DecimalValue): -1 | 0 | 1 {
    return this.cmp(other);
  }

  eq(other: DecimalValue): boolean {
    const b = decimalOf(other);
    return this.scale === b.scale ? this.coefficient === b.coefficient : this.cmp(b) === 0;
  }

  equals(other: DecimalValue): boolean {
    return this.eq(other);
  }

  gt(other: DecimalValue): boolean {
    return this.cmp(other) > 0;
  }

  gte(other: DecimalValue): boolean {
    return this.cmp(other) >= 0;
  }

  lt(other: DecimalValue): boolean {
    return this.cmp(other) < 0;
  }

  lte(other: DecimalValue): boolean {
    return this.cmp(other) <= 0;
  }

  isZero(): boolean {
    return this.coefficient === 0;
  }

  isNegative(): boolean {
    return negative(this.coefficient);
  }

  isNeg(): boolean {
    return negative(this.coefficient);
  }

  isPositive(): boolean {
    const x = this.coefficient;
    return typeof x === 'number' ? x > 0 : x > 0n;
  }

  isPos(): boolean {
    return this.isPositive();
  }

  isInteger(): boolean {
    return this.scale === 0 || big(this.coefficient) % power(this.scale) === 0n;
  }

  /** Fraction digits of the value (1.50 has 1). */
  decimalPlaces(): number {
    return Decimal.of(big(this.coefficient), this.scale).scale;
  }

  /** The power of ten of the leading digit (0.5229 → -1, 60123 → 4; 0 → 0). */
  exponent(): number {
    return this.coefficient === 0 ? 0 : digitCount(this.coefficient) - 1 - this.scale;
  }

  /** Rounded to `places` fraction digits (may be below 0: to tens, hundreds) by `rounding`. */
  toDecimalPlaces(places: number, rounding: Rounding = Decimal.ROUND_HALF_EVEN): Decimal {
    if (places >= this.scale) return this;
    const drop = this.scale - places;
    const coefficient = roundDivide(big(this.coefficient), power(drop), rounding);
    return places >= 0
      ? Decimal.of(coefficient, places)
      : Decimal.of(coefficient * power(-places), 0);
  }

  /** Rounded to `digits` significant digits by `rounding`. */
  toSignificantDigits(digits: number, rounding: Rounding = Decimal.ROUND_HALF_EVEN): Decimal {
    if (this.coefficient === 0) return this;
    const length = digitCount(this.coefficient);
    return this.toDecimalPlaces(digits - length + this.scale, rounding);
  }

  trunc(): Decimal {
    return this.toDecimalPlaces(0, Decimal.ROUND_DOWN);
  }

  floor(): Decimal {
    return this.toDecimalPlaces(0, Decimal.ROUND_FLOOR);
  }

  ceil(): Decimal {
    return this.toDecimalPlaces(0, Decimal.ROUND_CEIL);
  }

  /** The nearest number (for a chart or a proportion, never for arithmetic on amounts). */
  toNumber(): number {
    return Number(this.toString());
  }

  /**
   * Plain decimal text, never exponent notation; with `places`, rounded by `rounding` and written
   * with exactly that many fraction digits ("-0.00" for a negative amount that rounds to zero, as
   * decimal.js writes it).
   */
  toFixed(places?: number, rounding: Rounding = Decimal.ROUND_HALF_EVEN): string {
    if (places === undefined) return this.toString();
    const rounded = this.toDecimalPlaces(places, rounding);
    const text = plain(magnitude(rounded.coefficient), rounded.scale);
    const padded =
      places === 0
        ? text
        : `${rounded.scale === 0 ? `${text}.` : text}${'0'.repeat(places - rounded.scale)}`;
    return negative(this.coefficient) ? `-${padded}` : padded;
  }

  toString(): string {
    const below = negative(this.coefficient);
    let text = plain(magnitude(this.coefficient), this.scale);
    if (this.scale > 0) {
      let end = text.length;
      while (text.charCodeAt(end - 1) === 48) end--;
      if (text.charCodeAt(end - 1) === 46) end--;
      text = text.slice(0, end);
    }
    return below && text !== '0' ? `-${text}` : text;
  }

  toJSON(): string {
    return this.toString();
  }

  valueOf(): string {
    return this.toString();
  }
}

/** A value made by arithmetic, at the scale it was made at (zero at scale 0). */
function made(coefficient: bigint, scale: number): Decimal {
  return coefficient === 0n ? ZERO_VALUE : new Decimal(coefficientOf(coefficient), scale, RAW);
}

/** made() for a safe number (-0 is 0). */
function fromNumber(coefficient: number, scale: number): Decimal {
  return coefficient === 0 ? ZERO_VALUE : new Decimal(coefficient, scale, RAW);
}

const ZERO_VALUE = new Decimal(0, 0, RAW);

/** x × 10^-xs ± y × 10^-ys (y not zero), at the larger scale. */
function sum(x: Coefficient, xs: number, y: Coefficient, ys: number, subtract: boolean): Decimal {
  if (typeof x === 'number' && typeof y === 'number') {
    if (xs === ys) {
      // Both safe already (a number coefficient is): only the result to check.
      const result = subtract ? x - y : x + y;
      if (safe(result)) return fromNumber(result, xs);
    }
    // Aligned and added in floating point, taken only where every step is a safe integer (then
    // exact: an exact result beyond 2^53 would round to one beyond it too).
    const left = xs >= ys ? x : x * (NUMBER_POWERS[ys - xs] ?? Infinity);
    const right = xs >= ys ? y * (NUMBER_POWERS[xs - ys] ?? Infinity) : y;
    if (safe(left) && safe(right)) {
      const result = subtract ? left - right : left + right;
      if (safe(result)) return fromNumber(result, xs >= ys ? xs : ys);
    }
  }
  const a = big(x);
  const b = big(y);
  if (xs === ys) return made(subtract ? a - b : a + b, xs);
  return xs > ys
    ? made(subtract ? a - b * power(xs - ys) : a + b * power(xs - ys), xs)
    : made(subtract ? a * power(ys - xs) - b : a * power(ys - xs) + b, ys);
}

/** The base of a DecimalSum's number limbs: a part below it shifted by up to 15 places stays safe. */
const LIMB = 1e15;

/**
 * A running sum of Decimals, changed in place: a position's quantity, cost or realized gains, a fee
 * total. Its value is exactly the one plus() and minus() step by step would make (at the largest
 * scale added), read as a Decimal made when asked and kept until the next change. Not a second
 * amount type: what it holds is only ever read as a Decimal, and a value read stays what it was
 * however the sum goes on (so a checkpoint holds value(), never the sum).
 *
 * Why: a sum beyond 2^53 at its scale (a cash position of a billion USDT at 10 places, a cost at
 * a share's 18 places) made a BigInt, often two, and a Decimal at every step. Here a number added
 * goes into two number limbs (high × 10^15 + low), exact with no object made; a bigint added goes
 * into a bigint part as one sum; the parts are put together only when the value is read.
 */
export class DecimalSum {
  /** value = (big + high × LIMB + low) × 10^-scale, |low| < LIMB, |high| < 2^53 − 1. */
  private big = 0n;
  private high = 0;
  private low = 0;
  private scale = 0;
  /** The value last made, while `current`. */
  private cached: Decimal = ZERO_VALUE;
  private current = true;

  constructor(start?: Decimal) {
    if (start !== undefined) this.set(start);
  }

  /** The sum now, as a Decimal (the same one until the sum changes). */
  value(): Decimal {
    if (this.current) return this.cached;
    const { high, low, scale } = this;
    const small = high * LIMB;
    // Each step exact where its result is safe (a safe result of safe integers is exact).
    const total =
      safe(small) && safe(small + low)
        ? this.big === 0n
          ? small + low
          : this.big + BigInt(small + low)
        : this.big + BigInt(high) * BIG_LIMB + BigInt(low);
    const value = typeof total === 'number' ? fromNumber(total, scale) : made(total, scale);
    this.setParts(value.coefficient);
    if (value.coefficient === 0) this.scale = 0;
    this.cached = value;
    this.current = true;
    return value;
  }

  /** Becomes `value` (itself what value() gives next). */
  set(value: Decimal): void {
    this.setParts(value.coefficient);
    this.scale = value.scale;
    this.cached = value;
    this.current = true;
  }

  add(value: Decimal): void {
    this.addCoefficient(value.coefficient, value.scale, false);
  }

  /**
   * Adds (or with `subtract` takes away) the amount of a coefficient (in its one form: a number
   * while safe) and scale: the parts of a Decimal, kept as columns where no Decimal is held.
   */
  addParts(coefficient: number | bigint, scale: number, subtract: boolean): void {
    this.addCoefficient(coefficient, scale, subtract);
  }

  subtract(value: Decimal): void {
    this.addCoefficient(value.coefficient, value.scale, true);
  }

  /**
   * Adds divideProduct(a, b, divisor, places), b and the divisor given as parts (coefficient and
   * scale, as a table keeps them): the same value at the same scale, made only where it is not
   * exact. Where the divisor is b times a divisor of a power of ten (a fee of a thousandth of the
   * quantity) it is a × factor at `places`, beyond 2^53 at a share's 18 places, and goes into the
   * limbs as a × (the factor without its zeros) at the fewer places they leave.
   */
  addQuotient(
    a: Decimal,
    y: DecimalCoefficient,
    ys: number,
    d: DecimalCoefficient,
    ds: number,
    places: number,
  ): void {
    const x = a.coefficient;
    const shift = places + ds - a.scale - ys;
    if (
      typeof x === 'number' &&
      typeof y === 'number' &&
      typeof d === 'number' &&
      x !== 0 &&
      y !== 0 &&
      places >= 0 &&
      shift >= 0 &&
      shift <= 15 &&
      remainderOf(d, y) === 0
    ) {
      const ten = NUMBER_POWERS[shift]!;
      const whole = d / y;
      if (remainderOf(ten, whole) === 0) {
        const factor = ten / whole;
        const zeros = factorZeros(factor);
        const coefficient = x * (factor / NUMBER_POWERS[zeros]!);
        if (safe(coefficient)) {
          this.addAt(coefficient, places - zeros, places);
          return;
        }
      }
    }
    this.add(divideProduct(a, decimalOfParts(y, ys), decimalOfParts(d, ds), places));
  }

  /** Adds coefficient × 10^-scale (not zero) as an amount at `atScale` (≥ scale) would be added. */
  private addAt(coefficient: number, scale: number, atScale: number): void {
    if (this.current && this.cached.coefficient === 0) {
      // From zero the sum takes the scale of what comes (see addCoefficient): `atScale`.
      this.scale = atScale;
      this.current = false;
    } else if (atScale > this.scale) {
      this.rescale(atScale);
    }
    this.addCoefficient(coefficient, scale, false);
  }

  /** Below, at or above zero: the limbs' sign (|low| < LIMB), a value made only past them. */
  sign(): -1 | 0 | 1 {
    if (this.big !== 0n && !this.fold()) return this.value().cmp(ZERO_VALUE);
    const lead = this.high !== 0 ? this.high : this.low;
    return lead < 0 ? -1 : lead > 0 ? 1 : 0;
  }

  /** Becomes what `other` holds now (its parts copied: no value made). */
  copyFrom(other: DecimalSum): void {
    this.big = other.big;
    this.high = other.high;
    this.low = other.low;
    this.scale = other.scale;
    this.cached = other.cached;
    this.current = other.current;
  }

  /** value().cmp(other.value()), limb by limb while both are in number limbs at one scale. */
  cmpSum(other: DecimalSum): -1 | 0 | 1 {
    if (this.big !== 0n || other.big !== 0n || this.scale !== other.scale) {
      return this.value().cmp(other.value());
    }
    // |low − other.low| < 2 × LIMB: where the highs differ by 3 or more they decide, and below
    // that the difference is exact.
    const dh = this.high - other.high;
    const difference = dh >= 3 || dh <= -3 ? dh : dh * LIMB + (this.low - other.low);
    return difference < 0 ? -1 : difference > 0 ? 1 : 0;
  }

  /** value().cmp(other), without making the value while both are in number limbs. */
  cmp(other: Decimal): -1 | 0 | 1 {
    const y = other.coefficient;
    const shift = this.scale - other.scale;
    if ((this.big !== 0n && !this.fold()) || typeof y !== 'number' || shift < 0 || shift > 15) {
      return this.value().cmp(other);
    }
    // `other` split into limbs as add() splits it: the sign of (high − h) × LIMB + (low − l), where
    // |low − l| < 2 × LIMB, so where |high − h| ≥ 3 its term decides however it rounds, and
    // below that every step is exact.
    const h = splitAt(y, NUMBER_POWERS[15 - shift]!);
    const dh = this.high - h;
    const dl = this.low - splitRest * NUMBER_POWERS[shift]!;
    const difference = dh === 0 ? dl : dh * LIMB + dl;
    return difference < 0 ? -1 : difference > 0 ? 1 : 0;
  }

  /**
   * Takes `value` away where the sum holds at least that much, and says whether it did: cmp() and
   * subtract() with the amount split into limbs once (a position giving what a trade takes).
   */
  subtractCovered(value: Decimal): boolean {
    const y = value.coefficient;
    const shift = this.scale - value.scale;
    if (
      (this.big !== 0n && !this.fold()) ||
      typeof y !== 'number' ||
      y === 0 ||
      shift < 0 ||
      shift > 15 ||
      (this.current && this.cached.coefficient === 0)
    ) {
      return this.subtractIfCovered(value);
    }
    // As cmp() compares and addCoefficient() takes away: `high` strictly inside the safe integers.
    const h = splitAt(y, NUMBER_POWERS[15 - shift]!);
    const l = splitRest * NUMBER_POWERS[shift]!;
    const dh = this.high - h;
    if (dh >= MAX_SAFE || dh <= -MAX_SAFE) return this.subtractIfCovered(value);
    const low = this.low - l;
    // |low| < 2 × LIMB: where |dh| ≥ 3 its sign decides, below that the sum is exact.
    if ((dh === 0 ? low : dh * LIMB + low) < 0) return false;
    this.setLimbs(dh, low);
    this.current = false;
    return true;
  }

  private subtractIfCovered(value: Decimal): boolean {
    if (this.cmp(value) < 0) return false;
    this.subtract(value);
    return true;
  }

  /**
   * The bigint part moved into the limbs, where the whole sum fits them (|high| below 2^52): so a
   * sum that once passed 2^53 at its scale (a cash position credited a billion USDT at 10 places)
   * is compared and signed in numbers from then on, not by a value made at every step. Only where
   * it is compared: a sum only read (a cost, a realized sum at 18 places) keeps adding bigints.
   */
  private fold(): boolean {
    const total = this.big + BigInt(this.high) * BIG_LIMB + BigInt(this.low);
    if (total > BIG_FOLD || total < -BIG_FOLD) return false;
    const low = total % BIG_LIMB;
    this.big = 0n;
    this.high = Number((total - low) / BIG_LIMB);
    this.low = Number(low);
    return true;
  }

  /** The parts holding exactly `coefficient` (at the sum's scale). */
  private setParts(coefficient: Coefficient): void {
    if (typeof coefficient === 'number') {
      this.big = 0n;
      this.high = splitAt(coefficient, LIMB);
      this.low = splitRest;
    } else {
      this.big = coefficient;
      this.high = 0;
      this.low = 0;
    }
  }

  private addCoefficient(y: Coefficient, scale: number, subtract: boolean): void {
    if (y === 0) return;
    if (this.current && this.cached.coefficient === 0) {
      // From zero the sum takes the scale of what comes, as ZERO.plus(value) does.
      this.scale = scale;
    } else if (scale > this.scale) {
      this.rescale(scale);
    }
    this.current = false;
    const shift = this.scale - scale;
    if (typeof y === 'number' && shift <= 15) {
      // y × 10^shift in limbs, each part exact: |rest| < 10^(15 − shift), y − rest a multiple of unit.
      const h = splitAt(y, NUMBER_POWERS[15 - shift]!);
      const l = splitRest * NUMBER_POWERS[shift]!;
      const high = subtract ? this.high - h : this.high + h;
      // Strictly inside the safe integers, so setLimbs's carry keeps it safe (and so exact).
      if (high < MAX_SAFE && high > -MAX_SAFE) {
        this.setLimbs(high, subtract ? this.low - l : this.low + l);
        return;
      }
    }
    const aligned = shift === 0 ? big(y) : big(y) * power(shift);
    this.big = subtract ? this.big - aligned : this.big + aligned;
  }

  /** The limbs `high`, `low` (|low| < 2 × LIMB) kept with the carry that brings |low| below LIMB. */
  private setLimbs(high: number, low: number): void {
    if (low >= LIMB) {
      low -= LIMB;
      high += 1;
    } else if (low <= -LIMB) {
      low += LIMB;
      high -= 1;
    }
    this.high = high;
    this.low = low;
  }

  /** The sum at a larger scale: its parts put together, then shifted. */
  private rescale(scale: number): void {
    const total = this.big + BigInt(this.high) * BIG_LIMB + BigInt(this.low);
    this.big = total * power(scale - this.scale);
    this.high = 0;
    this.low = 0;
    this.scale = scale;
  }
}

const BIG_LIMB = 10n ** 15n;

/** The largest sum fold() moves into the limbs: its high limb stays below 2^52. */
const BIG_FOLD = 2n ** 52n * BIG_LIMB;

/** `value` as a Decimal, without a copy when it is one. */
function decimalOf(value: DecimalValue): Decimal {
  return value instanceof Decimal ? value : new Decimal(value);
}

/**
 * Whether a coefficient is below zero, each form compared with its own zero (a bigint compared
 * with a number is a runtime call in V8, not an inline comparison).
 */
function negative(value: Coefficient): boolean {
  return typeof value === 'number' ? value < 0 : value < 0n;
}

/** |value| (either form). */
function magnitude(value: Coefficient): Coefficient {
  return negative(value) ? -value : value;
}

/** The digits of a non-negative coefficient at `scale`, with its dot. */
function plain(magnitude: Coefficient, scale: number): string {
  const digits = magnitude.toString();
  if (scale === 0) return digits;
  if (digits.length > scale) {
    return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return `0.${digits.padStart(scale, '0')}`;
}

function digitCount(value: Coefficient): number {
  return magnitude(value).toString().length;
}

/** `numerator ÷ divisor` (divisor above 0) to a whole number by `rounding`. */
function roundDivide(numerator: bigint, divisor: bigint, rounding: Rounding): bigint {
  const quotient = numerator / divisor;
  const remainder = numerator % divisor;
  if (remainder === 0n) return quotient;
  const belowZero = numerator < 0n;
  const step = belowZero ? -1n : 1n;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  let away: boolean;
  switch (rounding) {
    case Decimal.ROUND_UP:
      away = true;
      break;
    case Decimal.ROUND_DOWN:
      away = false;
      break;
    case Decimal.ROUND_CEIL:
      away = !belowZero;
      break;
    case Decimal.ROUND_FLOOR:
      away = belowZero;
      break;
    default: {
      if (twice !== divisor) {
        away = twice > divisor;
        break;
      }
      away =
        rounding === Decimal.ROUND_HALF_UP
          ? true
          : rounding === Decimal.ROUND_HALF_DOWN
            ? false
            : rounding === Decimal.ROUND_HALF_EVEN
              ? (quotient & 1n) !== 0n
              : rounding === Decimal.ROUND_HALF_CEIL
                ? !belowZero
                : belowZero;
    }
  }
  return away ? quotient + step : quotient;
}

/**
 * Decimal text as coefficient and scale: "-12.50", "+3", ".5", "5.", or with an exponent ("1e-7",
 * "1.5E+3", as a JavaScript number prints). Anything else (empty, "NaN", "Infinity", "0x1f")
 * throws. One pass over the characters for the plain form: this runs for every amount read.
 */
function parseText(text: string): [Coefficient, number] {
  const length = text.length;
  let index = 0;
  const first = length > 0 ? text.charCodeAt(0) : 0;
  const belowZero = first === 45;
  if (belowZero || first === 43) index = 1;
  let value = 0;
  let digits = 0;
  let fraction = -1;
  const start = index;
  for (; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (code === 46 && fraction < 0) {
      fraction = 0;
    } else {
      return parseExponentText(text);
    }
  }
  if (digits === 0) throw invalid(text);
  if (fraction < 0) fraction = 0;
  if (digits <= SAFE_DIGITS) {
    if (value === 0) return [0, 0];
    return [belowZero ? -value : value, fraction];
  }
  const body = text.slice(start);
  const dot = body.indexOf('.');
  const coefficient = BigInt(dot < 0 ? body : body.slice(0, dot) + body.slice(dot + 1));
  if (coefficient === 0n) return [0, 0];
  return [coefficientOf(belowZero ? -coefficient : coefficient), fraction];
}

/**
 * Signed plain decimal text (shared/decimal.ts's SIGNED_DECIMAL_PATTERN: "-12.50", "3", not "+3",
 * ".5", "5." or an exponent) as a Decimal, or null for anything else: the check and the read in
 * one pass over the characters, for amounts read by the hundred thousand (a ledger's trades).
 */
export function plainDecimal(text: string): Decimal | null {
  if (!readPlainParts(text)) return null;
  const coefficient = plainParts.coefficient;
  if (coefficient === 0) return ZERO_VALUE;
  return new Decimal(coefficient, plainParts.scale, RAW);
}

/**
 * A plain decimal's parts as read by readPlainParts: the coefficient in its one form and the
 * places written (a zero keeps them too: "0.00000000" is 0 at scale 8, so its text comes back as
 * written). One object, overwritten by each read: the caller copies the parts out at once (into
 * the columns of a table of amounts), so a read makes no value.
 */
export const plainParts: { coefficient: DecimalCoefficient; scale: number } = {
  coefficient: 0,
  scale: 0,
};

/**
 * plainDecimal() without the Decimal: whether `text` (or its characters from `start` up to `end`)
 * is signed plain decimal text, its parts left in plainParts. For amounts kept as columns (a
 * ledger's trades) rather than as an object each, read where they stand in a longer text.
 */
export function readPlainParts(text: string, start = 0, end = text.length): boolean {
  let index = start < end && text.charCodeAt(start) === 45 ? start + 1 : start;
  const belowZero = index > start;
  // The first SAFE_DIGITS digits, and any after them apart (a number holds 15 digits exactly).
  let value = 0;
  let rest = 0;
  let digits = 0;
  let fraction = -1;
  for (; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      if (digits < SAFE_DIGITS) value = value * 10 + (code - 48);
      else rest = rest * 10 + (code - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (code === 46 && fraction < 0 && digits > 0) {
      fraction = 0;
    } else {
      return false;
    }
  }
  if (digits === 0 || fraction === 0) return false;
  const scale = fraction < 0 ? 0 : fraction;
  plainParts.scale = scale;
  if (digits > SAFE_DIGITS) {
    // Sixteen or seventeen digits (an amount of 10 places above a million) are mostly below 2^53.
    const shifted = digits - SAFE_DIGITS <= 2 ? value * NUMBER_POWERS[digits - SAFE_DIGITS]! : NaN;
    if (!safe(shifted) || !safe(shifted + rest)) {
      const body = text.slice(belowZero ? start + 1 : start, end);
      const dot = body.indexOf('.');
      const whole = BigInt(dot < 0 ? body : body.slice(0, dot) + body.slice(dot + 1));
      plainParts.coefficient = coefficientOf(belowZero ? -whole : whole);
      return true;
    }
    value = shifted + rest;
  }
  plainParts.coefficient = value === 0 ? 0 : belowZero ? -value : value;
  return true;
}

function parseExponentText(text: string): [Coefficient, number] {
  const match = EXPONENT_TEXT.exec(text);
  if (!match) throw invalid(text);
  const [, sign, whole = '', fraction = ''] = match;
  if (whole.length + fraction.length === 0) throw invalid(text);
  const exponent = Number(match[4]);
  if (Math.abs(exponent) > MAX_EXPONENT) {
    throw new RangeError(`Decimal exponent beyond ±${MAX_EXPONENT}: ${JSON.stringify(text)}`);
  }
  let coefficient = BigInt(whole + fraction);
  if (sign === '-') coefficient = -coefficient;
  const scale = fraction.length - exponent;
  if (coefficient === 0n) return [0, 0];
  return scale >= 0
    ? [coefficientOf(coefficient), scale]
    : [coefficientOf(coefficient * power(-scale)), 0];
}

function parseNumber(value: number): [Coefficient, number] {
  if (!Number.isFinite(value)) throw invalid(String(value));
  if (Number.isSafeInteger(value)) return [value === 0 ? 0 : value, 0];
  return parseText(String(value));
}

function invalid(text: string): Error {
  return new Error(`[DecimalError] Invalid argument: ${text}`);
}

/** Significant digits a quotient keeps. */
export const QUOTIENT_DIGITS = MAX_DECIMAL_LENGTH;

/** Fraction digits a quotient keeps at most (a price far below one keeps fewer significant). */
export const QUOTIENT_PLACES = MAX_DECIMAL_LENGTH;

const LIMIT = power(QUOTIENT_DIGITS);

/**
 * `dividend ÷ divisor`, rounded half-even to QUOTIENT_DIGITS significant digits and at most
 * QUOTIENT_PLACES fraction digits; with `places`, rounded half-even to that many fraction digits.
 * The only rounding of an amount in the project. Throws on a zero divisor.
 *
 * The quotient's leading digit is at 10^(a.e − b.e) or the place below, where x.e is the place of
 * x's leading digit: it is made for the lower first, and once more from the exact operands with
 * one place fewer when it came out a digit longer (never rounded twice).
 */
export function divide(dividend: DecimalValue, divisor: DecimalValue, places?: number): Decimal {
  const a = decimalOf(dividend);
  const b = decimalOf(divisor);
  if (b.coefficient === 0) throw new RangeError('Division by zero');
  if (a.coefficient === 0) return a;
  const below = negative(a.coefficient) !== negative(b.coefficient);
  const n = big(magnitude(a.coefficient));
  const d = big(magnitude(b.coefficient));
  let kept: number;
  if (places === undefined) {
    const exponent = digitCount(n) - a.scale - (digitCount(d) - b.scale);
    kept = Math.min(QUOTIENT_PLACES, QUOTIENT_DIGITS - exponent);
  } else {
    kept = places;
  }
  let quotient = scaledQuotient(n, a.scale, d, b.scale, kept);
  if (places === undefined && quotient >= LIMIT) {
    kept--;
    quotient = scaledQuotient(n, a.scale, d, b.scale, kept);
  }
  const signed = below ? -quotient : quotient;
  return kept >= 0 ? made(signed, kept) : made(signed * power(-kept), 0);
}

/**
 * `a × b ÷ divisor`, rounded half-even to `places` fraction digits: divide(a.times(b), divisor,
 * places), value and scale, without the product made as a value. A share of a cost or proceeds
 * (a lot's part, a fee's part of a trade) is one of these per disposal or fee; where the divisor is
 * the part times a divisor of a power of ten (a fee of a thousandth of the quantity) the share is
 * exact, a product, and where the whole numerator is a safe integer it is divided in numbers;
 * otherwise once in BigInt, its remainder deciding the rounding.
 */
export function divideProduct(a: Decimal, b: Decimal, divisor: Decimal, places: number): Decimal {
  const d = divisor.coefficient;
  if (d === 0) throw new RangeError('Division by zero');
  const x = a.coefficient;
  const y = b.coefficient;
  if (x === 0 || y === 0) return ZERO_VALUE;
  // The quotient's coefficient at `places`: x × y × 10^shift ÷ d.
  const shift = places + divisor.scale - a.scale - b.scale;
  if (places >= 0 && typeof x === 'number' && typeof y === 'number' && typeof d === 'number') {
    if (shift >= 0 && shift <= 15) {
      const ten = NUMBER_POWERS[shift]!;
      // d = y × m and m divides 10^shift: x × (10^shift / m), exact.
      if (remainderOf(d, y) === 0 && remainderOf(ten, d / y) === 0) {
        const factor = ten / (d / y);
        const exact = x * factor;
        // Not safe as a number, so beyond 2^53 exactly (a safe product is exact): a bigint as is.
        return safe(exact)
          ? fromNumber(exact, places)
          : new Decimal(BigInt(x) * bigFactor(factor), places, RAW);
      }
      const product = x * y;
      const numerator = product * ten;
      if (safe(product) && safe(numerator)) {
        return fromNumber(numberHalfEven(numerator, d), places);
      }
    } else if (shift < 0 && shift >= -15) {
      const product = x * y;
      const scaled = d * NUMBER_POWERS[-shift]!;
      if (safe(product) && safe(scaled)) return fromNumber(numberHalfEven(product, scaled), places);
    }
  }
  const below = (negative(x) !== negative(y)) !== negative(d);
  const size = magnitude(d);
  const quotient = bigHalfEven(
    scaledProduct(magnitude(x), magnitude(y), shift),
    shift < 0 ? big(size) * power(-shift) : big(size),
    shift >= 0 && typeof size === 'number' ? size : NaN,
  );
  const signed = below ? -quotient : quotient;
  if (places < 0) return made(signed * power(-places), 0);
  // A share of an 18-place cost is mostly beyond 2^53: one comparison says so.
  return quotient > BIG_MAX_SAFE ? new Decimal(signed, places, RAW) : made(signed, places);
}

/** The zeros a factor of addQuotient's ends in (one factor mostly: kept with its count). */
let zerosOf = 1;
let zerosCount = 0;

function factorZeros(factor: number): number {
  if (factor !== zerosOf) {
    let zeros = 0;
    let rest = factor;
    while (zeros < 15 && remainderOf(rest, 10) === 0) {
      rest /= 10;
      zeros++;
    }
    zerosOf = factor;
    zerosCount = zeros;
  }
  return zerosCount;
}

/** The last factor divideProduct() made a bigint of (a build's fee shares mostly have one). */
let lastFactor = 1;
let lastBigFactor = 1n;

function bigFactor(factor: number): bigint {
  if (factor !== lastFactor) {
    lastFactor = factor;
    lastBigFactor = BigInt(factor);
  }
  return lastBigFactor;
}

/** `n ÷ d` (safe integers, d not zero) rounded half-even to a whole number, exact in numbers. */
function numberHalfEven(n: number, d: number): number {
  const remainder = remainderOf(n, d);
  const quotient = (n - remainder) / d;
  if (remainder === 0) return quotient;
  const twice = Math.abs(remainder) * 2;
  const divisor = Math.abs(d);
  if (twice < divisor || (twice === divisor && quotient % 2 === 0)) return quotient;
  return n < 0 !== d < 0 ? quotient - 1 : quotient + 1;
}

/**
 * x × y × 10^shift (x, y ≥ 0; 10^shift only when shift > 0) as a bigint: where a factor times
 * 10^shift is still a safe number it is scaled in numbers, so one BigInt product is made, not two.
 */
function scaledProduct(x: Coefficient, y: Coefficient, shift: number): bigint {
  if (shift <= 0) return big(x) * big(y);
  if (shift <= 15) {
    const ten = NUMBER_POWERS[shift]!;
    if (typeof y === 'number' && y * ten <= MAX_SAFE) return big(x) * BigInt(y * ten);
    if (typeof x === 'number' && x * ten <= MAX_SAFE) return BigInt(x * ten) * big(y);
  }
  return big(x) * big(y) * power(shift);
}

/**
 * `n ÷ d` (n ≥ 0, d > 0) rounded half-even to a whole number; `size`: d as a number where it is
 * safe (else NaN), so the remainder, below it, is doubled and compared in numbers.
 */
function bigHalfEven(n: bigint, d: bigint, size: number): bigint {
  const quotient = n / d;
  const remainder = n % d;
  if (remainder === 0n) return quotient;
  if (size === size) {
    const twice = Number(remainder) * 2;
    return twice > size || (twice === size && (quotient & 1n) === 1n) ? quotient + 1n : quotient;
  }
  const twice = remainder + remainder;
  return twice > d || (twice === d && (quotient & 1n) === 1n) ? quotient + 1n : quotient;
}

/** (n / 10^np) ÷ (d / 10^dp) × 10^kept, rounded half-even to a whole number. */
function scaledQuotient(n: bigint, np: number, d: bigint, dp: number, kept: number): bigint {
  const shift = dp + kept - np;
  const dividend = shift >= 0 ? n * power(shift) : n;
  const divisor = shift >= 0 ? d : d * power(-shift);
  return roundDivide(dividend, divisor, Decimal.ROUND_HALF_EVEN);
}

/**
 * decimalOfParts(x, xs).minus(decimalOfParts(y, ys)), value and scale, the operands never made:
 * a trade's net amount from its table's columns.
 */
export function differenceOfParts(
  x: DecimalCoefficient,
  xs: number,
  y: DecimalCoefficient,
  ys: number,
): Decimal {
  return y === 0 ? decimalOfParts(x, xs) : sum(x, xs, y, ys, true);
}

/** The amount of a coefficient (in its one form, as plainParts holds it) and scale. */
export function decimalOfParts(coefficient: number | bigint, scale: number): Decimal {
  if (typeof coefficient === 'bigint') return made(coefficient, scale);
  return fromNumber(coefficient, scale);
}

/**
 * The text of a coefficient and scale with every place (the exchange's text back from the parts
 * readPlainParts read: "0.10" stays "0.10", "0.00000000" stays itself).
 */
export function partsText(coefficient: number | bigint, scale: number): string {
  const text = plain(magnitude(coefficient), scale);
  return negative(coefficient) ? `-${text}` : text;
}
