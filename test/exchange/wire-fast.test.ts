/**
 * The precompiled checks of wire-fast.ts against zod itself, over every schema wire.ts exports:
 * on generated valid values (common forms and every variant) and on mutated ones, the check
 * either stays out (UNSURE) or gives exactly zod's parsed value, never accepts what zod rejects,
 * and parseWireFast answers exactly as parseWire does (same value, or the same WireError).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as wire from '../../electron/exchange/wire';
import { fastCheckFor, parseWireFast, UNSURE } from '../../electron/exchange/wire-fast';
import { asJson, mutatedInput, validInput } from './wire-arbitraries';

const schemas: [string, z.ZodType][] = [];
for (const [name, value] of Object.entries(wire) as [string, unknown][]) {
  if (value instanceof z.ZodType) schemas.push([name, value]);
}

/** The schemas the hot paths parse through: each must have a precompiled check. */
const HOT = [
  'tradesPayloadSchema',
  'tickersPayloadSchema',
  'klineEventSchema',
  'depthEventSchema',
  'accountPositionEventSchema',
  'orderUpdateEventSchema',
  'ownTradeEventSchema',
  'accountInfoSchema',
  'orderSchema',
  'orderListSchema',
  'fundListSchema',
  'klineListSchema',
  'withdrawRecordListSchema',
  'coinInfoListSchema',
  'tickerListSchema',
  'serverTimeSchema',
];

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (!(error instanceof wire.WireError)) throw error;
    return { ok: false, error: error.message };
  }
}

/**
 * Compares the fast path with zod on one input; true when the precompiled check vouched. Plain
 * comparisons in this loop (it runs ~40,000 times; vitest's matchers made the file take 14 s),
 * with the pair shown by the matcher only when they differ.
 */
function agree(schema: z.ZodType, input: unknown): boolean {
  const expected = schema.safeParse(structuredClone(input));
  const check = fastCheckFor(schema);
  const fast = check ? check(structuredClone(input)) : UNSURE;
  if (!expected.success) {
    if (fast !== UNSURE) expect(fast, 'the fast check accepted what zod rejects').toBe(UNSURE);
  } else if (fast !== UNSURE && !isDeepStrictEqual(fast, expected.data)) {
    expect(fast).toStrictEqual(expected.data);
  }
  const viaFast = outcome(() => parseWireFast(schema, structuredClone(input), 'value'));
  const viaZod = outcome(() => wire.parseWire(schema, structuredClone(input), 'value'));
  if (!isDeepStrictEqual(viaFast, viaZod)) expect(viaFast).toStrictEqual(viaZod);
  return fast !== UNSURE;
}

function rejectedValid(input: unknown): never {
  expect.fail(`zod rejects a generated valid value: ${JSON.stringify(input)}`);
}

describe('wire-fast agrees with zod', () => {
  it('covers every schema of wire.ts, and every hot-path schema has a precompiled check', () => {
    expect(schemas.length).toBeGreaterThan(40);
    for (const name of HOT) {
      const schema = schemas.find(([n]) => n === name)?.[1];
      expect(schema, name).toBeDefined();
      expect(fastCheckFor(schema!), name).toBeDefined();
    }
  });

  it.each(schemas)('%s: values in the common forms', (_name, schema) => {
    let vouched = 0;
    let runs = 0;
    fc.assert(
      fc.property(validInput(schema, 'common').map(asJson), (input) => {
        runs++;
        if (!schema.safeParse(structuredClone(input)).success) rejectedValid(input);
        if (agree(schema, input)) vouched++;
      }),
      { numRuns: 50 },
    );
    // Where a check exists it must earn its keep: it vouches for every common-form value.
    if (fastCheckFor(schema)) expect(vouched).toBe(runs);
  });

  it.each(schemas)('%s: values in every accepted form', (_name, schema) => {
    fc.assert(
      fc.property(validInput(schema, 'any').map(asJson), (input) => {
        if (!schema.safeParse(structuredClone(input)).success) rejectedValid(input);
        agree(schema, input);
      }),
      { numRuns: 50 },
    );
  });

  it.each(schemas)('%s: mutated values', (_name, schema) => {
    let rejected = 0;
    fc.assert(
      fc.property(mutatedInput(schema), (input) => {
        if (!schema.safeParse(structuredClone(input)).success) rejected++;
        agree(schema, input);
      }),
      { numRuns: 75 },
    );
    expect(rejected).toBeGreaterThan(0);
  });
});
