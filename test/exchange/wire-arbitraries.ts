/**
 * fast-check generators of wire values from the zod schemas of wire.ts themselves, so the
 * equivalence test covers every schema and every field without restating them. Two modes:
 * - 'common': the forms the exchange normally sends (integers as numbers, withdraw ids as text),
 *   which the precompiled checks are meant to vouch for;
 * - 'any': every form the schemas accept, variants included (numeric-string ids, integer
 *   withdraw ids, odd extra keys such as "__proto__"), which the checks may leave to zod.
 * Invalid values come from `mutated`: a valid value with one slot deleted or replaced by a near
 * miss ("1e5", "", 1.5, "7", null, ...).
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { SIGNED_DECIMAL_PATTERN } from '../../shared/decimal';
import { decimal, intLike, withdrawId } from '../../electron/exchange/wire';

export type Mode = 'common' | 'any';

/** The parts of zod's schema definitions the generators read. */
interface Def {
  type: string;
  checks?: {
    _zod: { def: { check: string; format?: string; minimum?: number; pattern?: RegExp } };
  }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, unknown>;
  values?: unknown[];
}

const defOf = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;

const json = fc.jsonValue({ maxDepth: 2 });

const decimalText = fc.stringMatching(SIGNED_DECIMAL_PATTERN).filter((s) => s.length <= 40);
const finiteNumber = fc.double({ noNaN: true, noDefaultInfinity: true });

function leaf(schema: z.ZodType, mode: Mode): fc.Arbitrary<unknown> | undefined {
  if (schema === decimal) {
    return fc.oneof(decimalText, finiteNumber, fc.integer(), fc.constantFrom(1e-7, 1e21, -0, 0.1));
  }
  if (mode === 'common' && schema === intLike) return fc.maxSafeInteger();
  if (mode === 'common' && schema === withdrawId) return fc.string({ minLength: 1 });
  return undefined;
}

function stringOf(def: Def): fc.Arbitrary<string> {
  let minLength = 0;
  let pattern: RegExp | undefined;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length') minLength = c.minimum ?? 0;
    else if (c.check === 'string_format' && c.format === 'regex') pattern = c.pattern;
    else throw new Error(`no generator for string check ${c.check}`);
  }
  return pattern
    ? fc.stringMatching(pattern).filter((s) => s.length >= minLength)
    : fc.string({ minLength, maxLength: minLength + 12 });
}

/** Whether an object field may be left out (optional, or filled with a default). */
const mayBeAbsent = (schema: z.ZodType) => ['optional', 'default'].includes(defOf(schema).type);

const EXTRA_KEYS_COMMON = ['extra', 'note', 'E2', 'x'];
const EXTRA_KEYS_ANY = [...EXTRA_KEYS_COMMON, '__proto__', 'constructor', 'toString'];

function objectOf(def: Def, mode: Mode): fc.Arbitrary<unknown> {
  const shape = def.shape ?? {};
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    fields[key] = validInput(field, mode);
    if (!mayBeAbsent(field)) requiredKeys.push(key);
  }
  const base = fc.record(fields, { requiredKeys });
  const loose = def.catchall !== undefined && defOf(def.catchall).type === 'unknown';
  if (!loose) return base;
  const keys = (mode === 'common' ? EXTRA_KEYS_COMMON : EXTRA_KEYS_ANY).filter(
    (k) => !(k in shape),
  );
  const extras = fc.array(fc.tuple(fc.constantFrom(...keys), json), { maxLength: 2 });
  return fc.tuple(base, extras).map(([value, extra]) => {
    const out = { ...(value as Record<string, unknown>) };
    // defineProperty: a "__proto__" extra must be an own key, as JSON.parse makes it.
    for (const [key, v] of extra) {
      Object.defineProperty(out, key, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  });
}

/** Values `schema` accepts (in the given mode), as JSON would carry them. */
export function validInput(schema: z.ZodType, mode: Mode): fc.Arbitrary<unknown> {
  const special = leaf(schema, mode);
  if (special) return special;
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringOf(def);
    case 'number':
      return def.checks?.some((c) => c._zod.def.format === 'safeint')
        ? fc.maxSafeInteger()
        : finiteNumber;
    case 'boolean':
      return fc.boolean();
    case 'unknown':
      return json;
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => validInput(option, mode)));
    case 'pipe':
      return validInput(def.in!, mode);
    case 'optional':
    case 'default':
      return validInput(def.innerType!, mode);
    case 'object':
      return objectOf(def, mode);
    case 'array':
      return fc.array(validInput(def.element!, mode), { maxLength: 3 });
    case 'tuple': {
      const items = fc.tuple(...(def.items ?? []).map((item) => validInput(item, mode)));
      if (!def.rest) return items;
      return fc
        .tuple(items, fc.array(json, { maxLength: 2 }))
        .map(([head, rest]) => [...head, ...rest]);
    }
    default:
      throw new Error(`no generator for zod type "${def.type}": teach wire-arbitraries.ts`);
  }
}

/** Values one step off: what a buggy or hostile deployment might send in any one place. */
const NEAR_MISSES: unknown[] = [
  '',
  ' ',
  '1e5',
  '1,5',
  '-',
  '.5',
  '5.',
  '+1',
  'NaN',
  'Infinity',
  '0x1f',
  '１',
  '7',
  '-7',
  '007',
  '9007199254740993',
  1.5,
  -1,
  2 ** 53,
  1e21,
  1e-7,
  0,
  'true',
  'TRUE',
  'yes',
  'buy',
  'BID',
  'up',
  'wait',
  '2026-01-02 03:04:05',
  '2026-01-02T03:04:05Z',
  null,
  true,
  [],
  {},
  [1],
];

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

function slotsOf(value: unknown, out: Slot[] = []): Slot[] {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      out.push({ parent: value, key: index });
      slotsOf(item, out);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      out.push({ parent: value as Record<string, unknown>, key });
      slotsOf((value as Record<string, unknown>)[key], out);
    }
  }
  return out;
}

type Mutation = { kind: 'delete' } | { kind: 'replace'; with: unknown } | { kind: 'proto' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ kind: 'delete' }),
  fc.constantFrom(...NEAR_MISSES).map((v): Mutation => ({ kind: 'replace', with: v })),
  json.map((v): Mutation => ({ kind: 'replace', with: v })),
  fc.constant<Mutation>({ kind: 'proto' }),
);

/** A JSON round trip: the value exactly as JSON.parse would hand it over. */
export function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

function mutate(value: unknown, at: number, change: Mutation): unknown {
  const root = asJson(value);
  const slots = slotsOf(root);
  if (slots.length === 0 || at % (slots.length + 1) === slots.length) {
    return change.kind === 'replace' ? change.with : change.kind === 'delete' ? undefined : root;
  }
  const { parent, key } = slots[at % (slots.length + 1)]!;
  if (change.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else if (change.kind === 'replace') {
    (parent as Record<string | number, unknown>)[key] = asJson(change.with);
  } else {
    const target = (parent as Record<string | number, unknown>)[key];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
      Object.defineProperty(target, '__proto__', {
        value: 1,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return asJson(root);
}

/** Valid values of `schema` with one slot changed: mostly invalid, sometimes still valid. */
export function mutatedInput(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fc
    .tuple(validInput(schema, 'any'), fc.nat(), mutation)
    .map(([value, at, change]) => mutate(value, at, change));
}
