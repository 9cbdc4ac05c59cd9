/**
 * divide(), the one rounding of an amount: half-even to 40 significant digits and at most 40
 * places (or to the places a share states), checked against the exact quotient's digits on
 * generated amounts, and on the cases that need a rule.
 */
import DecimalJs from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSignedDecimalText } from '../../shared/decimal';
import {
  Decimal,
  DecimalSum,
  divide,
  divideProduct,
  plainDecimal,
} from '../../shared/exact-decimal';

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

/** decimal.js with room for every exact result below, and the old type's rounding. */
const Exact = DecimalJs.clone({
  precision: 400,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});

/** Amount text as the exchange and the forms send it: up to 40 digits, any places, zeros kept. */
const text = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
  )
  .map(([negative, whole, fraction]) => {
    const unsigned = fraction === undefined ? whole : `${whole}.${fraction}`;
    return negative ? `-${unsigned}` : unsigned;
  });

const rounding = fc.integer({ min: 0, max: 8 }) as fc.Arbitrary<0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8>;

describe('Decimal, against decimal.js at 400 digits', () => {
  it('adds, subtracts, multiplies, compares and takes remainders exactly', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const [x, y] = [new Decimal(a), new Decimal(b)];
        const [p, q] = [new Exact(a), new Exact(b)];
        expect(x.plus(y).toString()).toBe(p.plus(q).toString());
        expect(x.minus(y).toString()).toBe(p.minus(q).toString());
        expect(x.times(y).toString()).toBe(p.times(q).toString());
        expect(x.cmp(y)).toBe(p.cmp(q));
        expect(x.eq(y)).toBe(p.eq(q));
        expect(x.gt(y)).toBe(p.gt(q));
        expect(x.lte(y)).toBe(p.lte(q));
        if (!q.isZero()) expect(x.mod(y).toString()).toBe(p.mod(q).toString());
        expect(Decimal.max(x, y).toString()).toBe(Exact.max(p, q).toString());
        // A sum keeps its longer operand's scale; every reading of it is the normalized value's.
        const [sum, exact] = [x.plus(y), p.plus(q)];
        expect(sum.eq(new Decimal(exact.toFixed()))).toBe(true);
        expect(sum.decimalPlaces()).toBe(exact.decimalPlaces());
        expect(sum.isInteger()).toBe(exact.isInteger());
        expect(sum.toFixed(3)).toBe(exact.toFixed(3));
        expect(sum.exponent()).toBe(exact.isZero() ? 0 : exact.e);
      }),
      { numRuns: 150 },
    );
  });

  it('reads amount text and writes it back in decimal.js forms, rounded by every rule', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -3, max: 24 }), rounding, (a, places, rule) => {
        const [x, p] = [new Decimal(a), new Exact(a)];
        expect(x.toString()).toBe(p.toString());
        expect(x.toFixed()).toBe(p.toFixed());
        expect(x.decimalPlaces()).toBe(p.decimalPlaces());
        expect(x.isZero()).toBe(p.isZero());
        expect(x.isNegative()).toBe(p.isNegative() && !p.isZero());
        expect(x.isInteger()).toBe(p.isInteger());
        expect(x.abs().toString()).toBe(p.abs().toString());
        expect(x.neg().toString()).toBe(p.neg().toString());
        // decimal.js has a -0, which no amount is (+ 0 makes it 0).
        expect(x.toNumber() + 0).toBe(p.toNumber() + 0);
        expect(x.trunc().toString()).toBe(p.trunc().toString());
        expect(x.floor().toString()).toBe(p.floor().toString());
        expect(x.ceil().toString()).toBe(p.ceil().toString());
        if (!p.isZero()) expect(x.exponent()).toBe(p.e);
        expect(x.toDecimalPlaces(Math.max(0, places), rule).toString()).toBe(
          p.toDecimalPlaces(Math.max(0, places), rule).toString(),
        );
        expect(x.toFixed(Math.max(0, places), rule)).toBe(p.toFixed(Math.max(0, places), rule));
        expect(x.toSignificantDigits(Math.max(1, places + 4), rule).toString()).toBe(
          p.toSignificantDigits(Math.max(1, places + 4), rule).toString(),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('reads the other forms decimal.js read, and refuses what is no number', () => {
    expect(new Decimal('0.00000000').toString()).toBe('0');
    expect(new Decimal('-0.00').toFixed(2)).toBe('0.00');
    expect(new Decimal('-0.001').toFixed(2)).toBe('-0.00');
    expect(new Decimal('007.50').toString()).toBe('7.5');
    expect(new Decimal('+.5').toString()).toBe('0.5');
    expect(new Decimal('5.').toString()).toBe('5');
    expect(new Decimal('1e-7').toString()).toBe('0.0000001');
    expect(new Decimal('1.5E+3').toString()).toBe('1500');
    expect(new Decimal('1e12').toString()).toBe('1000000000000');
    expect(new Decimal(1e21).toString()).toBe('1000000000000000000000');
    expect(new Decimal(0.1).plus(0.2).toString()).toBe('0.3');
    expect(new Decimal(-0).toString()).toBe('0');
    expect(new Decimal('123456789012345678901234567890.123456789').plus(1).toString()).toBe(
      '123456789012345678901234567891.123456789',
    );
    expect(JSON.stringify({ a: new Decimal('1.50') })).toBe('{"a":"1.5"}');
    expect(`${new Decimal('-2.50')}`).toBe('-2.5');
    for (const bad of ['', '-', '.', 'NaN', 'Infinity', '0x1f', '1,5', ' 1', '1e', 'e5']) {
      expect(() => new Decimal(bad)).toThrow();
    }
    expect(() => new Decimal(Number.NaN)).toThrow();
    expect(() => new Decimal('1e99999')).toThrow(RangeError);
  });
});

/**
 * Amounts whose coefficients lie about 2^53, where a coefficient changes from a number to a
 * bigint: digits from just below to just above it, at any scale, so sums, differences, products
 * and comparisons cross the boundary both ways.
 */
const nearLimit = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: -(2n ** 20n), max: 2n ** 20n }),
    fc.constantFrom(0n, 2n ** 53n, 2n ** 52n, 10n ** 15n, 10n ** 16n),
    fc.integer({ min: 0, max: 20 }),
  )
  .map(([negative, offset, around, places]) => {
    const digits = around + offset;
    const unsigned = new Wide((digits < 0n ? -digits : digits).toString()).div(
      new Wide(10).pow(places),
    );
    return (negative ? unsigned.neg() : unsigned).toFixed();
  });

describe('Decimal about 2^53', () => {
  it('is exact where a coefficient leaves or enters the safe integers', () => {
    fc.assert(
      fc.property(fc.oneof(nearLimit, text), nearLimit, (a, b) => {
        const [x, y] = [new Decimal(a), new Decimal(b)];
        const [p, q] = [new Exact(a), new Exact(b)];
        expect(x.plus(y).toString()).toBe(p.plus(q).toString());
        expect(x.minus(y).toString()).toBe(p.minus(q).toString());
        expect(y.minus(x).toString()).toBe(q.minus(p).toString());
        expect(x.times(y).toString()).toBe(p.times(q).toString());
        expect(x.cmp(y)).toBe(p.cmp(q));
        expect(y.cmp(x)).toBe(q.cmp(p));
        expect(x.eq(y)).toBe(p.eq(q));
        // A value made two ways (a sum's, parsed) is one value whichever form its digits took.
        expect(x.plus(y).eq(new Decimal(p.plus(q).toFixed()))).toBe(true);
        expect(x.plus(y).minus(y).eq(x)).toBe(true);
        if (!q.isZero()) {
          expect(divide(x, y, 18).toFixed()).toBe(expected(a, b, 18));
          expect(x.mod(y).toString()).toBe(p.mod(q).toString());
        }
      }),
      { numRuns: 400 },
    );
    const limit = new Decimal(String(Number.MAX_SAFE_INTEGER));
    expect(limit.plus(1).toString()).toBe('9007199254740992');
    expect(limit.plus(2).toString()).toBe('9007199254740993');
    expect(limit.times(limit).toString()).toBe('81129638414606663681390495662081');
    expect(limit.plus(2).minus(2).eq(limit)).toBe(true);
    expect(new Decimal('0.09007199254740993').cmp('0.0900719925474099')).toBe(1);
    expect(new Decimal('-9007199254740993').neg().toString()).toBe('9007199254740993');
  });
});

/** An amount of `digits` at `places`, as text. */
function atPlaces(digits: bigint, places: number): string {
  const unsigned = new Wide((digits < 0n ? -digits : digits).toString()).div(
    new Wide(10).pow(places),
  );
  return (digits < 0n ? unsigned.neg() : unsigned).toFixed();
}

/**
 * A part and a whole as a ledger's shares meet them: any two amounts, or a whole that is the part
 * times a divisor of a power of ten or some other factor (a fee of a thousandth of the quantity),
 * either side of 2^53.
 */
const partAndWhole = fc.oneof(
  fc.tuple(fc.oneof(nearLimit, text), fc.oneof(nearLimit, text)),
  fc
    .tuple(
      fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }),
      fc.constantFrom(1n, 2n, 4n, 5n, 8n, 10n, 16n, 125n, 1000n, 3n, 7n, 1024n, 3000n),
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 12 }),
    )
    .map(([part, factor, partPlaces, wholePlaces]): [string, string] => [
      atPlaces(part, partPlaces),
      atPlaces(part * factor, wholePlaces),
    ]),
);

describe('divideProduct', () => {
  it('is divide(a.times(b), divisor, places), value and scale, about 2^53 and across scales', () => {
    fc.assert(
      fc.property(
        fc.oneof(nearLimit, text),
        partAndWhole,
        fc.oneof(fc.constant(18), fc.integer({ min: -3, max: 30 })),
        (total, [part, whole], places) => {
          const [a, b, d] = [new Decimal(total), new Decimal(part), new Decimal(whole)];
          if (d.isZero()) {
            expect(() => divideProduct(a, b, d, places)).toThrow(RangeError);
            return;
          }
          const got = divideProduct(a, b, d, places);
          const want = divide(a.times(b), d, places);
          expect(got.toFixed()).toBe(want.toFixed());
          expect(got.scale).toBe(want.scale);
          expect(typeof got.coefficient).toBe(typeof want.coefficient);
          if (places >= 0) {
            const product = new Exact(total).times(part).toFixed();
            expect(got.toFixed()).toBe(expected(product, whole, places));
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('rounds ties to the even neighbour in numbers and in BigInt, whatever the signs', () => {
    const D = (value: string) => new Decimal(value);
    expect(divideProduct(D('0.000000000000000001'), D('1'), D('2'), 18).toFixed()).toBe('0');
    expect(divideProduct(D('0.000000000000000003'), D('1'), D('2'), 18).toFixed()).toBe(
      '0.000000000000000002',
    );
    expect(divideProduct(D('-0.000000000000000003'), D('1'), D('-2'), 18).toFixed()).toBe(
      '0.000000000000000002',
    );
    expect(divideProduct(D('-5'), D('1'), D('2'), 0).toFixed()).toBe('-2');
    expect(divideProduct(D('7'), D('1'), D('-2'), 0).toFixed()).toBe('-4');
    // Past 2^53: the same ties through the BigInt path.
    expect(divideProduct(D('90071992547409930'), D('5'), D('100'), 0).toFixed()).toBe(
      '4503599627370496',
    );
    expect(divideProduct(D('90071992547409950'), D('5'), D('100'), 0).toFixed()).toBe(
      '4503599627370498',
    );
    // A fee of a thousandth: exact, a product at the places asked.
    const share = divideProduct(D('12345.6789012345'), D('0.00012345'), D('0.12345'), 18);
    expect(share.toFixed()).toBe('12.3456789012345');
    expect(share.scale).toBe(18);
  });
});

/**
 * Amounts about where a DecimalSum's number limbs carry or give up (multiples of 10^15 and 2^53,
 * far beyond them), at the scales the ledger's sums meet (a share's 18 places, a cash amount's 10).
 */
const aboutLimbs = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: -1000n, max: 1000n }),
    fc.constantFrom(10n ** 15n, 2n ** 53n, 10n ** 19n, 10n ** 27n, 2n ** 106n),
    fc.integer({ min: -9, max: 9 }),
    fc.integer({ min: 0, max: 20 }),
  )
  .map(([negative, offset, around, times, places]) => {
    const digits = around * BigInt(times) + offset;
    const unsigned = new Wide((digits < 0n ? -digits : digits).toString()).div(
      new Wide(10).pow(places),
    );
    return (negative ? unsigned.neg() : unsigned).toFixed();
  });

const summed = fc.oneof(nearLimit, text, aboutLimbs);

type SumStep = { op: 'add' | 'subtract' | 'read' | 'cmp' | 'set' | 'take'; amount: string };

const sumSteps = fc.array(
  fc.record({
    op: fc.constantFrom<SumStep['op'][]>(
      'add',
      'add',
      'subtract',
      'subtract',
      'read',
      'cmp',
      'set',
      'take',
      'take',
    ),
    amount: summed,
  }),
  { maxLength: 40 },
);

describe('DecimalSum', () => {
  it('sums exactly, as plus() and minus() step by step, about 2^53 and across scales', () => {
    fc.assert(
      fc.property(summed, sumSteps, (start, steps) => {
        const sum = new DecimalSum(new Decimal(start));
        let exact = new Exact(start);
        let stepwise = new Decimal(start);
        // Values read on the way, which must stay what they were however the sum goes on.
        const read: [Decimal, string][] = [];
        for (const { op, amount } of steps) {
          const value = new Decimal(amount);
          switch (op) {
            case 'add':
              sum.add(value);
              exact = exact.plus(amount);
              stepwise = stepwise.plus(value);
              break;
            case 'subtract':
              sum.subtract(value);
              exact = exact.minus(amount);
              stepwise = stepwise.minus(value);
              break;
            case 'set':
              sum.set(value);
              exact = new Exact(amount);
              stepwise = value;
              break;
            case 'take': {
              // subtractCovered(): taken away only where the sum holds that much.
              const covered = exact.cmp(amount) >= 0;
              expect(sum.subtractCovered(value)).toBe(covered);
              if (covered) {
                exact = exact.minus(amount);
                stepwise = stepwise.minus(value);
              }
              break;
            }
            case 'cmp':
              expect(sum.cmp(value)).toBe(exact.cmp(amount));
              expect(sum.sign()).toBe(exact.cmp(0));
              break;
            case 'read':
              read.push([sum.value(), exact.toString()]);
          }
        }
        const value = sum.value();
        expect(value.toString()).toBe(exact.toString());
        expect(value.eq(stepwise)).toBe(true);
        expect(sum.value()).toBe(value);
        for (const [earlier, was] of read) expect(earlier.toString()).toBe(was);
      }),
      { numRuns: 600 },
    );
  });

  it('compares with an amount near it while its limbs differ in sign, without making its value', () => {
    const units = fc.bigInt({ min: -(3n * 10n ** 15n), max: 3n * 10n ** 15n });
    fc.assert(
      fc.property(
        fc.array(units, { minLength: 1, maxLength: 8 }),
        units,
        fc.integer({ min: 0, max: 12 }),
        (steps, offset, places) => {
          const at = (coefficient: bigint) => new Decimal(coefficient, places);
          const sum = new DecimalSum();
          let total = 0n;
          for (const step of steps) {
            if (step < 0n) sum.subtract(at(-step));
            else sum.add(at(step));
            total += step;
          }
          const other = total + offset;
          const expected = offset > 0n ? -1 : offset < 0n ? 1 : 0;
          expect(sum.cmp(at(other))).toBe(expected);
          expect(sum.value().eq(at(total))).toBe(true);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('compares with another sum limb by limb, and a copy keeps what was copied', () => {
    const units = fc.oneof(
      fc.bigInt({ min: -(3n * 10n ** 15n), max: 3n * 10n ** 15n }),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    );
    const steps = fc.array(units, { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        steps,
        steps,
        fc.integer({ min: 0, max: 12 }),
        fc.option(fc.integer({ min: 0, max: 12 }), { freq: 4 }),
        (left, right, leftPlaces, otherPlaces) => {
          // Mostly one scale: the limbs are compared only then.
          const rightPlaces = otherPlaces ?? leftPlaces;
          const run = (units: bigint[], places: number) => {
            const sum = new DecimalSum();
            for (const unit of units) {
              if (unit < 0n) sum.subtract(new Decimal(-unit, places));
              else sum.add(new Decimal(unit, places));
            }
            return sum;
          };
          const a = run(left, leftPlaces);
          const b = run(right, rightPlaces);
          const exact = new Exact(a.value().toString()).cmp(b.value().toString());
          // Fresh sums again: value() above put their parts together.
          expect(run(left, leftPlaces).cmpSum(run(right, rightPlaces))).toBe(exact);
          const copy = new DecimalSum();
          const source = run(left, leftPlaces);
          copy.copyFrom(source);
          source.add(new Decimal(1, leftPlaces));
          expect(copy.value().eq(a.value())).toBe(true);
          expect(copy.cmpSum(source)).toBe(-1);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('adds a quotient as add(divideProduct()) does, value and scale, about 2^53 and across scales', () => {
    fc.assert(
      fc.property(
        fc.option(summed, { freq: 3 }),
        fc.oneof(nearLimit, text),
        partAndWhole,
        fc.oneof(fc.constant(18), fc.integer({ min: -3, max: 30 })),
        summed,
        (start, total, [part, whole], places, after) => {
          const [a, b, d] = [new Decimal(total), new Decimal(part), new Decimal(whole)];
          if (d.isZero()) return;
          const fresh = () =>
            start === null ? new DecimalSum() : new DecimalSum(new Decimal(start));
          const got = fresh();
          const want = fresh();
          got.addQuotient(a, b.coefficient, b.scale, d.coefficient, d.scale, places);
          want.add(divideProduct(a, b, d, places));
          const value = got.value();
          expect(value.toFixed()).toBe(want.value().toFixed());
          expect(value.scale).toBe(want.value().scale);
          expect(value.toFixed()).toBe(
            new Exact(start ?? '0').plus(divideProduct(a, b, d, places).toFixed()).toFixed(),
          );
          // The scale the sum goes on at is the same too.
          got.add(new Decimal(after));
          want.add(new Decimal(after));
          expect(got.value().toFixed()).toBe(want.value().toFixed());
          expect(got.value().scale).toBe(want.value().scale);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('keeps the scale plus() and minus() step by step keep, as its limbs carry and borrow, and takes only what it covers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('add', 'subtract', 'take'),
            fc.oneof(nearLimit, aboutLimbs, text),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        (steps) => {
          const sum = new DecimalSum();
          let stepwise = new Decimal(0);
          let zeroAt = -1;
          for (const [index, [op, amount]] of steps.entries()) {
            const value = new Decimal(amount);
            if (op === 'add') {
              sum.add(value);
              stepwise = stepwise.plus(value);
            } else if (op === 'subtract') {
              sum.subtract(value);
              stepwise = stepwise.minus(value);
            } else {
              const covered = stepwise.cmp(value) >= 0;
              expect(sum.subtractCovered(value)).toBe(covered);
              if (covered) stepwise = stepwise.minus(value);
            }
            if (stepwise.isZero()) zeroAt = index;
          }
          const value = sum.value();
          expect(value.toFixed()).toBe(stepwise.toFixed());
          // Where no step came to zero on the way, plus() and minus() keep the largest scale too.
          if (zeroAt === -1 || zeroAt === steps.length - 1)
            expect(value.scale).toBe(stepwise.scale);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('carries between its limbs and into a bigint exactly', () => {
    const sum = new DecimalSum();
    // A billion USDT at 10 places, then steps that cross 10^15 and 2^53 units both ways.
    sum.add(new Decimal('1000000000'));
    sum.subtract(new Decimal('0.0000000001'));
    expect(sum.value().toString()).toBe('999999999.9999999999');
    expect(sum.cmp(new Decimal('999999999.9999999999'))).toBe(0);
    expect(sum.cmp(new Decimal('999999999.99999999991'))).toBe(-1);
    expect(sum.cmp(new Decimal('999999999.9999999998'))).toBe(1);
    sum.add(new Decimal('0.0000000002'));
    expect(sum.value().toString()).toBe('1000000000.0000000001');
    sum.add(new Decimal('9007199254740993'));
    expect(sum.value().toString()).toBe('9007200254740993.0000000001');
    sum.subtract(new Decimal('9007200254740993.0000000001'));
    expect(sum.value().toString()).toBe('0');
    expect(sum.value()).toBe(sum.value());
  });
});

describe('plainDecimal', () => {
  it('reads exactly the text SIGNED_DECIMAL_PATTERN accepts, as the constructor reads it', () => {
    const near = fc.stringMatching(/^[-+]?[0-9.eE]{0,24}$/);
    fc.assert(
      fc.property(fc.oneof(text, nearLimit, near, fc.string()), (candidate) => {
        const value = plainDecimal(candidate);
        expect(value !== null).toBe(isSignedDecimalText(candidate));
        if (value !== null) {
          expect(value.toString()).toBe(new Exact(candidate).toString());
          expect(value.eq(new Decimal(candidate))).toBe(true);
          expect(value.decimalPlaces()).toBe(new Decimal(candidate).decimalPlaces());
        }
      }),
      { numRuns: 1000 },
    );
    for (const bad of ['', '-', '+3', '.5', '5.', '-.5', '1e5', '1.2.3', ' 1', '--1', '0x1f']) {
      expect(plainDecimal(bad)).toBeNull();
    }
    expect(plainDecimal('-0.000')!.isZero()).toBe(true);
    expect(plainDecimal('123456789012345678901.5')!.toString()).toBe('123456789012345678901.5');
    // Sixteen and seventeen digits, either side of 2^53.
    expect(plainDecimal('900719925474.0991')!.toString()).toBe('900719925474.0991');
    expect(plainDecimal('-9007199254740993')!.toString()).toBe('-9007199254740993');
    expect(plainDecimal('12345678.123456789')!.toString()).toBe('12345678.123456789');
    expect(plainDecimal('99999999.999999999')!.toString()).toBe('99999999.999999999');
  });
});
