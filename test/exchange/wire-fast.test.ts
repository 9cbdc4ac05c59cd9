/**
 * The precompiled checks of wire-fast.ts against zod itself, over every schema wire.ts exports:
 * on generated valid values (common forms and every variant) and on mutated ones, the check
 * either stays out (UNSURE) or gives exactly zod's parsed value, never accepts what zod rejects,
 * and parseWireFast answers exactly as parseWire does (same value, or the same WireError).
 */
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
    expect(error).toBeInstanceOf(wire.WireError);
    return { ok: false, error: (error as Error).message };
  }
}

/** Compares the fast path with zod on one input; true when the precompiled check vouched. */
function agree(schema: z.ZodType, input: unknown): boolean {
  const expected = schema.safeParse(structuredClone(input));
  const check = fastCheckFor(schema);
  const fast = check ? check(structuredClone(input)) : UNSURE;
  if (!expected.success) expect(fast).toBe(UNSURE);
  else if (fast !== UNSURE) expect(fast).toStrictEqual(expected.data);
  expect(outcome(() => parseWireFast(schema, structuredClone(input), 'value'))).toStrictEqual(
    outcome(() => wire.parseWire(schema, structuredClone(input), 'value')),
  );
  return fast !== UNSURE;
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
        expect(schema.safeParse(structuredClone(input)).success).toBe(true);
        if (agree(schema, input)) vouched++;
      }),
      { numRuns: 100 },
    );
    // Where a check exists it must earn its keep: it vouches for every common-form value.
    if (fastCheckFor(schema)) expect(vouched).toBe(runs);
  });

  it.each(schemas)('%s: values in every accepted form', (_name, schema) => {
    fc.assert(
      fc.property(validInput(schema, 'any').map(asJson), (input) => {
        expect(schema.safeParse(structuredClone(input)).success).toBe(true);
        agree(schema, input);
      }),
      { numRuns: 100 },
    );
  });

  it.each(schemas)('%s: mutated values', (_name, schema) => {
    let rejected = 0;
    fc.assert(
      fc.property(mutatedInput(schema), (input) => {
        if (!schema.safeParse(structuredClone(input)).success) rejected++;
        agree(schema, input);
      }),
      { numRuns: 150 },
    );
    expect(rejected).toBeGreaterThan(0);
  });
});
