/**
 * Precompiled checks for the wire schemas of wire.ts, for the hot paths: every REST answer and
 * every stream message. zod walks a schema generically (a context, an issue list and a result per
 * field, a fresh copy of every object), which costs more than the JSON.parse before it on a small
 * payload; without these checks stream decoding measured about a quarter of its target rate.
 *
 * A check compiled here from a schema accepts only values that zod would accept and returns what
 * zod would return (objects and arrays are normalised in place, which is safe on a value fresh
 * from JSON.parse, and extra keys pass as in a loose object). Whatever it cannot vouch for (an
 * invalid value, a rare variant such as a numeric string id, a schema part it does not know)
 * gives UNSURE, and zod then decides and words the error. So the schemas stay the one definition
 * of what is accepted; test/exchange/wire-fast.test.ts checks the equivalence over every schema
 * with generated valid and invalid values.
 *
 * The compiler reads zod's schema definitions (`_zod.def`, the structure zod documents for tools
 * that walk schemas). A zod release that changes them makes parts unknown to the compiler, which
 * then leaves them to zod: slower, never wrong; the property test and the bench would show it.
 */
import type { z } from 'zod';
import { isSignedDecimalText } from '../../shared/decimal';
import {
  boolLike,
  decimal,
  decimalTextOfNumber,
  intLike,
  parseWire,
  side,
  withdrawId,
} from './wire';

/** A fast check's answer for a value it cannot vouch for. */
export const UNSURE: unique symbol = Symbol('unsure');
/** Returns the parsed (possibly normalised in place) value, or UNSURE. */
export type FastCheck = (value: unknown) => unknown;

const sideCheck: FastCheck = (v) => {
  switch (v) {
    case 'buy':
    case 'bid':
    case 'BUY':
    case 'BID':
      return 'buy';
    case 'sell':
    case 'ask':
    case 'SELL':
    case 'ASK':
      return 'sell';
    default:
      return UNSURE;
  }
};

const boolCheck: FastCheck = (v) => {
  if (typeof v === 'boolean') return v;
  // The string forms boolLike takes, with the same result.
  switch (v) {
    case 'true':
    case 'TRUE':
    case 'True':
      return true;
    case 'false':
    case 'FALSE':
    case 'False':
      return false;
    default:
      return UNSURE;
  }
};

const safeIntCheck: FastCheck = (v) => (Number.isSafeInteger(v) ? v : UNSURE);
/** The decimal schema's two forms: decimal text as it is, a finite number as its exact text. */
const decimalCheck: FastCheck = (v) => {
  if (typeof v === 'string') return isSignedDecimalText(v) ? v : UNSURE;
  if (typeof v === 'number') return decimalTextOfNumber(v) ?? UNSURE;
  return UNSURE;
};
const nonEmptyTextCheck: FastCheck = (v) => (typeof v === 'string' && v.length > 0 ? v : UNSURE);

/**
 * The schema parts with a transform, which the compiler cannot see into: each with a check for
 * its common input. The rarer forms they accept (a numeric string as integer, an integer withdraw
 * id) are left to zod. A transform missing here makes the compiler give up on every schema that
 * contains it: slower, never wrong.
 */
const LEAF_CHECKS = new Map<z.ZodType, FastCheck>([
  [decimal, decimalCheck],
  [intLike, safeIntCheck],
  [side, sideCheck],
  [boolLike, boolCheck],
  [withdrawId, nonEmptyTextCheck],
]);

/** Loosely typed view of the zod definitions the compiler reads. */
interface Def {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  innerType?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: unknown[];
  defaultValue?: unknown;
}

const defOf = (schema: z.ZodType): Def => schema._zod.def as unknown as Def;

/** How an object field may be absent: not at all, left out, or filled with a default. */
type Presence = { kind: 'required' } | { kind: 'optional' } | { kind: 'default'; value: unknown };
const required: Presence = { kind: 'required' };

function compileField(schema: z.ZodType): { check: FastCheck; presence: Presence } | undefined {
  const def = defOf(schema);
  if (LEAF_CHECKS.has(schema)) return { check: LEAF_CHECKS.get(schema)!, presence: required };
  if (def.type === 'optional' && def.innerType && !def.checks?.length) {
    const check = compile(def.innerType);
    return check && { check, presence: { kind: 'optional' } };
  }
  if (def.type === 'default' && def.innerType && !def.checks?.length) {
    const value = def.defaultValue;
    // A default object would have to be a fresh copy each time; none of the schemas has one.
    if (typeof value === 'object' && value !== null) return undefined;
    const inner = defOf(def.innerType);
    const check = compile(inner.type === 'optional' ? inner.innerType! : def.innerType);
    return check && { check, presence: { kind: 'default', value } };
  }
  const check = compile(schema);
  return check && { check, presence: required };
}

function compileString(def: Def): FastCheck | undefined {
  let min = 0;
  let max = Infinity;
  const patterns: RegExp[] = [];
  for (const c of def.checks ?? []) {
    const check = c._zod.def;
    if (check.check === 'min_length') min = Math.max(min, check.minimum as number);
    else if (check.check === 'max_length') max = Math.min(max, check.maximum as number);
    else if (check.check === 'string_format' && check.format === 'regex') {
      patterns.push(check.pattern as RegExp);
    } else return undefined;
  }
  if (patterns.some((p) => p.global || p.sticky)) return undefined;
  return (v) => {
    if (typeof v !== 'string' || v.length < min || v.length > max) return UNSURE;
    for (const p of patterns) if (!p.test(v)) return UNSURE;
    return v;
  };
}

/**
 * Turns generated code into a check. Objects, arrays and tuples get code of their own rather than
 * one shared loop over field checks: a shared loop's call site sees every field's check and is
 * megamorphic, which measured several times slower than the straight-line code. The code only
 * ever contains key names from the schemas above (as JSON string literals), never input. Where
 * code generation is not allowed the schema simply has no fast check and zod does the work.
 */
function generate(args: Record<string, unknown>, body: string): FastCheck | undefined {
  const names = Object.keys(args);
  try {
    const factory = new Function(
      ...names,
      `'use strict';\nreturn function check(v) {\n${body}\n};`,
    ) as (...values: unknown[]) => FastCheck;
    return factory(...names.map((name) => args[name]));
  } catch {
    return undefined;
  }
}

/** Code that runs check `fn` on `x` and either fails with UNSURE or writes a changed value. */
const checkCode = (fn: string, target: string) =>
  `o = ${fn}(x); if (o === UNSURE) return UNSURE; if (o !== x) ${target} = o;`;

function compileObject(def: Def): FastCheck | undefined {
  // Only loose objects: a stripping or strict object would not return the input's extra keys.
  if (!def.shape || !def.catchall || defOf(def.catchall).type !== 'unknown') return undefined;
  const args: Record<string, unknown> = { UNSURE, hasOwn: Object.hasOwn };
  const lines = [
    // zod leaves __proto__ out of its copy; checking in place cannot.
    `if (typeof v !== 'object' || v === null || Array.isArray(v) || hasOwn(v, '__proto__')) return UNSURE;`,
    'let x, o;',
  ];
  for (const [index, key] of Object.keys(def.shape).entries()) {
    if (key === '__proto__') return undefined;
    const field = compileField(def.shape[key]!);
    if (!field) return undefined;
    const fn = `c${index}`;
    args[fn] = field.check;
    const target = `v[${JSON.stringify(key)}]`;
    lines.push(`x = ${target};`);
    switch (field.presence.kind) {
      case 'required':
        lines.push(`if (x === undefined) return UNSURE;`, checkCode(fn, target));
        break;
      case 'optional':
        lines.push(`if (x !== undefined) { ${checkCode(fn, target)} }`);
        break;
      case 'default':
        args[`d${index}`] = field.presence.value;
        lines.push(`if (x === undefined) ${target} = d${index}; else { ${checkCode(fn, target)} }`);
        break;
    }
  }
  lines.push('return v;');
  return generate(args, lines.join('\n'));
}

function compileArray(def: Def): FastCheck | undefined {
  const element = def.element && compile(def.element);
  if (!element) return undefined;
  return generate(
    { UNSURE, element },
    `if (!Array.isArray(v)) return UNSURE;
let x, o;
for (let i = 0; i < v.length; i++) { x = v[i]; ${checkCode('element', 'v[i]')} }
return v;`,
  );
}

function compileTuple(def: Def): FastCheck | undefined {
  if (!def.items) return undefined;
  const restAny = !!def.rest && defOf(def.rest).type === 'unknown';
  if (def.rest && !restAny) return undefined;
  const count = def.items.length;
  const args: Record<string, unknown> = { UNSURE };
  const lines = [
    `if (!Array.isArray(v) || v.length < ${count}${restAny ? '' : ` || v.length > ${count}`}) return UNSURE;`,
    'let x, o;',
  ];
  for (const [index, item] of def.items.entries()) {
    const check = defOf(item).type === 'optional' ? undefined : compile(item);
    if (!check) return undefined;
    args[`c${index}`] = check;
    lines.push(`x = v[${index}];`, checkCode(`c${index}`, `v[${index}]`));
  }
  lines.push('return v;');
  return generate(args, lines.join('\n'));
}

/** Builds the check for a schema, or undefined when some part of it is beyond the compiler. */
function compile(schema: z.ZodType): FastCheck | undefined {
  const leaf = LEAF_CHECKS.get(schema);
  if (leaf) return leaf;
  const def = defOf(schema);
  if (def.type === 'string') return compileString(def);
  // Any check on a non-string (a refinement, a bound) is something the compiler cannot see into.
  if (def.checks?.length) {
    const onlySafeInt =
      def.type === 'number' &&
      def.checks.every(
        (c) => c._zod.def.check === 'number_format' && c._zod.def.format === 'safeint',
      );
    return onlySafeInt ? safeIntCheck : undefined;
  }
  switch (def.type) {
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : UNSURE);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : UNSURE);
    case 'unknown':
      return (v) => v;
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return (v) => (allowed.has(v) ? v : UNSURE);
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return (v) => (allowed.has(v) ? v : UNSURE);
    }
    case 'object':
      return compileObject(def);
    case 'array':
      return compileArray(def);
    case 'tuple':
      return compileTuple(def);
    default:
      return undefined;
  }
}

const compiledChecks = new WeakMap<z.ZodType, FastCheck | null>();

/** The precompiled check of a schema (compiled on first use), or undefined if it has none. */
export function fastCheckFor(schema: z.ZodType): FastCheck | undefined {
  let check = compiledChecks.get(schema);
  if (check === undefined) {
    check = compile(schema) ?? null;
    compiledChecks.set(schema, check);
  }
  return check ?? undefined;
}

/**
 * Parses `value` with `schema` as parseWire does, through the schema's precompiled check when it
 * can vouch for the value; on failure throws parseWire's WireError naming the first bad field.
 */
export function parseWireFast<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const check = fastCheckFor(schema);
  if (check !== undefined) {
    const checked = check(value);
    if (checked !== UNSURE) return checked as z.output<S>;
  }
  return parseWire(schema, value, what);
}
