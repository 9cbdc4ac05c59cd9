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

/** A decimal amount as the exchange sends it: a string of digits, optional sign and fraction. */
const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_PATTERN.test(value);
}

/**
 * Decimal strings stay strings. A JSON number is accepted only when its plain rendering is an exact
 * decimal (no exponent), since a deployment that sends numbers has already lost nothing more than
 * JSON itself does; "abc", "", NaN or exponent forms are rejected.
 */
export const decimal = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : value;
  if (!DECIMAL_PATTERN.test(text)) {
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

export const withdrawRecordSchema = z.looseObject({
  id: z.union([z.string().min(1), integer]).transform((v) => String(v)),
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

/** Parses `value` with `schema`; on failure throws a WireError naming the first bad field. */
export function parseWire<S extends z.ZodType>(
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
// Fast path for the high-volume stream payloads. Checks the same rules as the schemas above on the
// common shape (numbers as numbers, decimals as strings) and normalises in place; anything else
// returns undefined and goes through the zod schema, which produces the precise error.

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

function fastSide(v: unknown): 'buy' | 'sell' | undefined {
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
      return undefined;
  }
}

function fastBool(v: unknown): boolean | undefined {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  return undefined;
}

function fastTrade(t: Record<string, unknown>): boolean {
  const s = fastSide(t.S);
  const m = fastBool(t.m);
  if (s === undefined || m === undefined) return false;
  if (!isInt(t.E) || !isInt(t.a) || !isInt(t.b) || !isInt(t.t) || !isText(t.s)) return false;
  if (!isDecimalString(t.p) || !isDecimalString(t.q)) return false;
  t.S = s;
  t.m = m;
  return true;
}

function fastOrderUpdate(o: Record<string, unknown>): boolean {
  const s = fastSide(o.S);
  const m = fastBool(o.m);
  if (s === undefined || m === undefined) return false;
  if (!isInt(o.E) || !isInt(o.O) || !isInt(o.i) || !isText(o.s) || typeof o.c !== 'string') {
    return false;
  }
  if (o.X !== 'idle' && o.X !== 'wait' && o.X !== 'done' && o.X !== 'cancel') return false;
  if (o.o !== 'limit' && o.o !== 'stop_limit') return false;
  if (
    !isDecimalString(o.V) ||
    !isDecimalString(o.p) ||
    !isDecimalString(o.q) ||
    !isDecimalString(o.v) ||
    !isDecimalString(o.z)
  ) {
    return false;
  }
  o.S = s;
  o.m = m;
  return true;
}

function fastOwnTrade(o: Record<string, unknown>): boolean {
  const s = fastSide(o.S);
  const m = fastBool(o.m);
  if (s === undefined || m === undefined) return false;
  if (!isInt(o.E) || !isInt(o.a) || !isInt(o.b) || !isInt(o.o) || !isInt(o.t)) return false;
  if (!isText(o.s) || typeof o.U !== 'string' || typeof o.c !== 'string') return false;
  if (
    !isDecimalString(o.f) ||
    !isDecimalString(o.p) ||
    !isDecimalString(o.q) ||
    !isDecimalString(o.w)
  ) {
    return false;
  }
  o.S = s;
  o.m = m;
  return true;
}

function fastAccount(o: Record<string, unknown>): boolean {
  if (!isInt(o.E) || !Array.isArray(o.B)) return false;
  for (const b of o.B as unknown[]) {
    if (typeof b !== 'object' || b === null) return false;
    const r = b as Record<string, unknown>;
    if (!isText(r.a) || !isDecimalString(r.b) || !isDecimalString(r.l)) return false;
  }
  return true;
}

/**
 * Validates and normalises (in place) a trades, orderUpdate, ownTrade or account payload in its
 * common shape. Returns false when the payload needs the full schema (variant or invalid).
 */
export function fastStreamPayload(
  kind: 'trades' | 'order' | 'ownTrade' | 'account',
  data: unknown,
): boolean {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const record = data as Record<string, unknown>;
  switch (kind) {
    case 'trades': {
      const trades = record.trades;
      if (!Array.isArray(trades)) return false;
      // Normalised values are valid schema input too, so a fallback after a partial pass is safe.
      for (const t of trades as unknown[]) {
        if (typeof t !== 'object' || t === null || !fastTrade(t as Record<string, unknown>)) {
          return false;
        }
      }
      return true;
    }
    case 'order':
      return fastOrderUpdate(record);
    case 'ownTrade':
      return fastOwnTrade(record);
    case 'account':
      return fastAccount(record);
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
