/**
 * Zod schemas for every REST response and stream payload of the exchange interface. The types the
 * rest of the app uses (Order, Ticker, WithdrawRecord, ...) are `z.infer` of these schemas.
 *
 * Policy: accept what a reasonable deployment sends (extra fields pass through, the documented
 * sample variants are normalised: partnerTransfer "true"/"false" -> boolean, side bid/ask ->
 * buy/sell), and reject what would corrupt the cache (a missing id, a non-numeric amount) with an
 * error that names the field.
 */
import { z } from 'zod';

/**
 * A decimal amount as the exchange sends it: digits, optional leading minus and fraction
 * (/^-?\d+(\.\d+)?$/). Scanned by hand: it runs for every amount of every stream message, and the
 * scan is cheaper than a regular expression call on such short strings.
 */
export function isDecimalString(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const end = value.length;
  let i = end > 0 && value.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const intStart = i;
  while (i < end && isDigit(value.charCodeAt(i))) i++;
  if (i === intStart) return false;
  if (i === end) return true;
  if (value.charCodeAt(i) !== 46 /* . */) return false;
  const fracStart = ++i;
  while (i < end && isDigit(value.charCodeAt(i))) i++;
  return i === end && i > fracStart;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Decimal strings stay strings. A JSON number is accepted only when its plain rendering is an exact
 * decimal (no exponent), since a deployment that sends numbers has already lost nothing more than
 * JSON itself does; "abc", "", NaN or exponent forms are rejected.
 */
export const decimal = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : value;
  if (!isDecimalString(text)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a decimal string, got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  }
  return text;
});

const integer = z.number().int();
/** Some deployments send ids/timestamps as numeric strings; accept them when they are integers. */
const intLike = z.union([integer, z.string().regex(/^-?\d+$/)]).transform((v) => Number(v));

/** side: buy/sell, also bid/ask as some samples show. */
export const side = z
  .enum(['buy', 'sell', 'bid', 'ask', 'BUY', 'SELL', 'BID', 'ASK'])
  .transform((v): 'buy' | 'sell' => {
    const lower = v.toLowerCase();
    return lower === 'buy' || lower === 'bid' ? 'buy' : 'sell';
  });

/** boolean, also "true"/"false" as one sample shows. */
const boolLike = z
  .union([z.boolean(), z.enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False'])])
  .transform((v) => (typeof v === 'boolean' ? v : v.toLowerCase() === 'true'));

export const orderStatus = z.enum(['idle', 'wait', 'done', 'cancel']);
export const orderType = z.enum(['limit', 'stop_limit']);
export const klineInterval = z.enum([
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '12h',
  '1d',
  '1w',
]);
export type KlineInterval = z.infer<typeof klineInterval>;
export type OrderStatus = z.infer<typeof orderStatus>;
export type OrderType = z.infer<typeof orderType>;
export type Side = 'buy' | 'sell';

// ---------------------------------------------------------------------------------------------
// REST resources

export const emptyObject = z.looseObject({});

export const systemStatusSchema = z.looseObject({ status: z.string(), message: z.string() });
export type SystemStatus = z.infer<typeof systemStatusSchema>;

export const serverTimeSchema = z.looseObject({ serverTime: intLike });

export const symbolFilterSchema = z.looseObject({
  filterType: z.string(),
  minPrice: decimal.optional(),
  tickSize: decimal.optional(),
});
export type SymbolFilter = z.infer<typeof symbolFilterSchema>;

export const symbolInfoSchema = z.looseObject({
  symbol: z.string().min(1),
  status: z.string(),
  baseAsset: z.string(),
  quoteAsset: z.string(),
  baseAssetPrecision: integer,
  quoteAssetPrecision: integer,
  orderTypes: z.array(z.string()),
  isSpotTradingAllowed: boolLike,
  filters: z.array(symbolFilterSchema),
});
export type SymbolInfo = z.infer<typeof symbolInfoSchema>;

export const exchangeInfoSchema = z.looseObject({
  timezone: z.string(),
  serverTime: intLike,
  symbols: z.array(symbolInfoSchema),
});
export type ExchangeInfo = z.infer<typeof exchangeInfoSchema>;

export const tickerSchema = z.looseObject({
  symbol: z.string().min(1),
  baseAsset: z.string(),
  quoteAsset: z.string(),
  openPrice: decimal,
  lowPrice: decimal,
  highPrice: decimal,
  lastPrice: decimal,
  volume: decimal,
  bidPrice: decimal,
  askPrice: decimal,
  at: intLike,
});
export type Ticker = z.infer<typeof tickerSchema>;

/** [start time, open, high, low, close, base volume]; prices normalised to decimal strings. */
export const klineSchema = z
  .tuple([intLike, decimal, decimal, decimal, decimal, decimal])
  .rest(z.unknown());
export type Kline = z.infer<typeof klineSchema>;

const priceLevel = z.tuple([decimal, decimal]).rest(z.unknown());
export const orderBookSchema = z.looseObject({
  lastUpdateAt: intLike,
  asks: z.array(priceLevel),
  bids: z.array(priceLevel),
});
export type OrderBook = z.infer<typeof orderBookSchema>;

export const publicTradeSchema = z.looseObject({
  id: intLike,
  price: decimal,
  qty: decimal,
  quoteQty: decimal,
  time: intLike,
  isBuyerMaker: boolLike,
});
export type PublicTrade = z.infer<typeof publicTradeSchema>;

export const orderSchema = z.looseObject({
  id: intLike,
  clientOrderId: z.string(),
  symbol: z.string().min(1),
  price: decimal,
  stopPrice: decimal.optional(),
  origQty: decimal,
  executedQty: decimal,
  status: orderStatus,
  type: orderType,
  side,
  createdTime: intLike,
  updatedTime: intLike,
});
export type Order = z.infer<typeof orderSchema>;

export const ownTradeSchema = z.looseObject({
  id: intLike,
  symbol: z.string().min(1),
  fee: decimal,
  feeCurrency: z.string(),
  quoteQty: decimal,
  price: decimal,
  qty: decimal,
  orderId: intLike,
  side,
  isBuyerMaker: boolLike,
  time: intLike,
});
export type OwnTrade = z.infer<typeof ownTradeSchema>;

export const accountInfoSchema = z.looseObject({
  accountType: z.string(),
  canTrade: boolLike,
  canWithdraw: boolLike,
  updateTime: intLike,
});
export type AccountInfo = z.infer<typeof accountInfoSchema>;

export const fundSchema = z.looseObject({
  asset: z.string().min(1),
  free: decimal,
  locked: decimal,
  reservedFee: decimal.optional(),
});
export type Fund = z.infer<typeof fundSchema>;

export const networkInfoSchema = z.looseObject({
  coin: z.string(),
  depositEnable: boolLike,
  isDefault: boolLike,
  confirmations: intLike,
  name: z.string(),
  network: z.string().min(1),
  withdrawEnable: boolLike,
  withdrawFee: decimal,
  withdrawIntegerMultiple: decimal.optional(),
  withdrawMax: decimal,
  withdrawMin: decimal,
  memoRequired: boolLike,
});
export type NetworkInfo = z.infer<typeof networkInfoSchema>;

export const coinInfoSchema = z.looseObject({
  coin: z.string().min(1),
  rapidListed: boolLike,
  name: z.string(),
  partnerTransferEnable: boolLike,
  partnerTransferFee: decimal,
  minPartnerTransfer: decimal,
  networkList: z.array(networkInfoSchema),
});
export type CoinInfo = z.infer<typeof coinInfoSchema>;

/** Withdraw record times are "YYYY-MM-DD HH:MM:SS" in UTC. */
const dateTimeText = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/, 'expected YYYY-MM-DD HH:MM:SS');

/** Withdraw ids are strings; a deployment that sends integers gets them as strings too. */
const withdrawId = z.union([z.string().min(1), integer]).transform((v) => String(v));

export const withdrawRecordSchema = z.looseObject({
  id: withdrawId,
  partnerTransfer: boolLike,
  address: z.string().optional(),
  amount: decimal,
  createdAt: dateTimeText,
  lastUpdated: dateTimeText,
  coin: z.string().min(1),
  withdrawOrderId: z.string().optional(),
  network: z.string().optional(),
  status: intLike,
  transactionFee: decimal,
  failureInfo: z.string().optional().default(''),
  txId: z.string().optional(),
});
export type WithdrawRecord = z.infer<typeof withdrawRecordSchema>;

/** createdAt of a withdraw record as ms (the text is UTC). */
export function withdrawTimeMs(text: string): number {
  return Date.parse(text.replace(' ', 'T') + 'Z');
}

export const depositAddressSchema = z.looseObject({
  address: z.string().min(1),
  coin: z.string(),
  tag: z.string().optional().default(''),
  url: z.string().optional().default(''),
});
export type DepositAddress = z.infer<typeof depositAddressSchema>;

export const subTransferResultSchema = z.looseObject({ status: z.string(), txnId: intLike });
export type SubTransferResult = z.infer<typeof subTransferResultSchema>;

export const subTransferRecordSchema = z.looseObject({
  asset: z.string().min(1),
  from: z.string(),
  to: z.string(),
  qty: decimal,
  status: z.string(),
  time: intLike,
  txnId: intLike,
});
export type SubTransferRecord = z.infer<typeof subTransferRecordSchema>;

export const subAccountRecordSchema = z.looseObject({
  action: z.string(),
  balance: z.array(z.looseObject({ balance: decimal, symbol: z.string() })),
  created_at: intLike,
  email: z.string().min(1),
  emailVerification: z.string(),
  portfolio: decimal,
  status: z.string(),
});
export type SubAccountRecord = z.infer<typeof subAccountRecordSchema>;

export const authTokenSchema = z.looseObject({
  auth_key: z.string().min(1),
  timeout_duration: intLike,
});
export type AuthToken = z.infer<typeof authTokenSchema>;

export const errorBodySchema = z.looseObject({ code: intLike, message: z.string() });

// ---------------------------------------------------------------------------------------------
// Stream payloads

export const streamTradeSchema = z.looseObject({
  E: intLike,
  S: side,
  a: intLike,
  b: intLike,
  m: boolLike,
  p: decimal,
  q: decimal,
  s: z.string().min(1),
  t: intLike,
});
export type StreamTrade = z.infer<typeof streamTradeSchema>;
export const tradesPayloadSchema = z.looseObject({ trades: z.array(streamTradeSchema) });
export type TradesPayload = z.infer<typeof tradesPayloadSchema>;

export const tickerEventSchema = z.looseObject({
  E: intLike,
  T: z.string().optional(),
  U: z.string(),
  a: decimal,
  b: decimal,
  c: decimal,
  h: decimal,
  l: decimal,
  o: decimal,
  q: decimal,
  s: z.string().min(1),
  u: z.string(),
});
export type TickerEvent = z.infer<typeof tickerEventSchema>;
export const tickersPayloadSchema = z.array(tickerEventSchema);

export const klineEventSchema = z.looseObject({
  E: intLike,
  s: z.string().min(1),
  t: intLike,
  T: intLike,
  i: z.string(),
  o: decimal,
  c: decimal,
  h: decimal,
  l: decimal,
  v: decimal,
});
export type KlineEvent = z.infer<typeof klineEventSchema>;

export const depthEventSchema = z.looseObject({
  E: intLike,
  a: z.array(priceLevel),
  b: z.array(priceLevel),
  s: z.string().min(1),
});
export type DepthEvent = z.infer<typeof depthEventSchema>;

export const accountPositionEventSchema = z.looseObject({
  B: z.array(z.looseObject({ a: z.string().min(1), b: decimal, l: decimal })),
  E: intLike,
});
export type AccountPositionEvent = z.infer<typeof accountPositionEventSchema>;

export const orderUpdateEventSchema = z.looseObject({
  E: intLike,
  O: intLike,
  S: side,
  V: decimal,
  X: orderStatus,
  i: intLike,
  c: z.string(),
  m: boolLike,
  o: orderType,
  p: decimal,
  q: decimal,
  s: z.string().min(1),
  v: decimal,
  z: decimal,
});
export type OrderUpdateEvent = z.infer<typeof orderUpdateEventSchema>;

export const ownTradeEventSchema = z.looseObject({
  E: intLike,
  S: side,
  U: z.string(),
  a: intLike,
  b: intLike,
  f: decimal,
  m: boolLike,
  o: intLike,
  c: z.string(),
  p: decimal,
  q: decimal,
  s: z.string().min(1),
  t: intLike,
  w: decimal,
});
export type OwnTradeEvent = z.infer<typeof ownTradeEventSchema>;

/** Control replies: connected, subscribed, unsubscribed, pong, error. */
export const controlMessageSchema = z.looseObject({
  event: z.string(),
  id: intLike.optional(),
  data: z.unknown().optional(),
  result: z.unknown().optional(),
});
export type ControlMessage = z.infer<typeof controlMessageSchema>;

export const streamErrorDataSchema = z.looseObject({ code: intLike, message: z.string() });

// ---------------------------------------------------------------------------------------------
// Parsing with a clear error

export class WireError extends Error {
  constructor(
    readonly what: string,
    readonly field: string,
    detail: string,
  ) {
    super(`Invalid ${what}: field "${field}" ${detail}`);
    this.name = 'WireError';
  }
}

/**
 * Parses `value` with `schema`; on failure throws a WireError naming the first bad field. Values in
 * the shape the exchange normally sends pass through the schema's precompiled check (see
 * fastCheckFor); anything else, invalid input included, goes through zod itself.
 */
export function parseWire<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const fast = fastCheckFor(schema);
  if (fast !== undefined) {
    const checked = fast(value);
    if (checked !== UNSURE) return checked as z.output<S>;
  }
  return parseWireSlow(schema, value, what);
}

/** The zod path of parseWire, for callers that already tried the fast check. */
export function parseWireSlow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const field = path.length > 0 ? path.map(String).join('.') : '(root)';
  const received = valueAt(value, path);
  const detail =
    received === undefined
      ? 'is missing'
      : `${issue?.message ?? 'is invalid'} (got ${JSON.stringify(received)?.slice(0, 60)})`;
  throw new WireError(what, field, detail);
}

// ---------------------------------------------------------------------------------------------
// Precompiled checks. zod walks a schema generically (a context, an issue list and a result per
// field, a fresh copy of every object), which costs more than the JSON.parse before it on a small
// payload. The check compiled here from the same schema accepts only values that zod would accept
// and returns what zod would return (objects and arrays are normalised in place, which is safe on
// a value fresh from JSON.parse, and extra keys pass as in a loose object). Whatever it cannot
// vouch for (an invalid value, a rare variant such as a numeric string id, a schema part it does
// not know) gives UNSURE, and zod then decides and words the error. So the schemas stay the one
// definition of what is accepted; the checks only make the common case cheap.

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
const decimalTextCheck: FastCheck = (v) => (isDecimalString(v) ? v : UNSURE);
const nonEmptyTextCheck: FastCheck = (v) => (typeof v === 'string' && v.length > 0 ? v : UNSURE);

/**
 * The schema parts with a transform, which the compiler cannot see into: each with a check for
 * its common input. The other forms they accept (a number as decimal, a numeric string as
 * integer, an integer withdraw id) are left to zod. A transform missing here makes the compiler
 * give up on every schema that contains it: slower, never wrong.
 */
const LEAF_CHECKS = new Map<z.ZodType, FastCheck>([
  [decimal, decimalTextCheck],
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

const STREAM_SCHEMAS = {
  trades: tradesPayloadSchema,
  order: orderUpdateEventSchema,
  ownTrade: ownTradeEventSchema,
  account: accountPositionEventSchema,
} as const;

/**
 * Validates and normalises (in place) a trades, orderUpdate, ownTrade or account payload in its
 * common shape. Returns false when the payload needs the full schema (variant or invalid).
 */
export function fastStreamPayload(kind: keyof typeof STREAM_SCHEMAS, data: unknown): boolean {
  const check = fastCheckFor(STREAM_SCHEMAS[kind]);
  return check !== undefined && check(data) !== UNSURE;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
