/**
 * Zod schemas for every REST response and stream payload of the exchange interface. The types the
 * rest of the app uses (Order, Ticker, WithdrawRecord, ...) are `z.infer` of these schemas.
 *
 * Policy: accept what a reasonable deployment sends (extra fields pass through, the documented
 * sample variants are normalised: partnerTransfer "true"/"false" -> boolean, side bid/ask ->
 * buy/sell, amounts as JSON numbers -> decimal text), and reject what would corrupt the cache (a
 * missing id, a non-numeric amount) with an error that names the field.
 *
 * These schemas are the one definition of what is accepted. The hot paths (every REST answer,
 * every stream message) parse through wire-fast.ts, which compiles checks from them that give the
 * same answers as zod, proven by a property test over every schema exported here.
 */
import { Decimal } from '../../shared/exact-decimal';
import { z } from 'zod';
import { isSignedDecimalText } from '../../shared/decimal';
import { KLINE_INTERVALS, type KlineInterval } from '../../shared/market';
import { formatDecimal } from '../core/decimal';

export type { KlineInterval };

/**
 * The exact decimal text of a JSON number: its shortest round-trip digits, never in exponent form
 * (1e-7 -> "0.0000001"). A number that is not finite has no decimal text: undefined.
 */
export function decimalTextOfNumber(value: number): string | undefined {
  return Number.isFinite(value) ? formatDecimal(new Decimal(value)) : undefined;
}

/**
 * An amount as the exchange sends it, always yielded as decimal text (an optional leading minus,
 * digits, an optional fraction). Text must already be decimal text: "abc", "", "1e5" are
 * rejected. A JSON number is taken at its exact value (the interface sends klines as numbers).
 */
export const decimal = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? decimalTextOfNumber(value) : value;
  if (text === undefined || !isSignedDecimalText(text)) {
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
export const intLike = z.union([integer, z.string().regex(/^-?\d+$/)]).transform((v) => Number(v));

/** side: buy/sell, also bid/ask as some samples show. */
export const side = z
  .enum(['buy', 'sell', 'bid', 'ask', 'BUY', 'SELL', 'BID', 'ASK'])
  .transform((v): 'buy' | 'sell' => {
    const lower = v.toLowerCase();
    return lower === 'buy' || lower === 'bid' ? 'buy' : 'sell';
  });

/** boolean, also "true"/"false" as one sample shows. */
export const boolLike = z
  .union([z.boolean(), z.enum(['true', 'false', 'TRUE', 'FALSE', 'True', 'False'])])
  .transform((v) => (typeof v === 'boolean' ? v : v.toLowerCase() === 'true'));

export const orderStatus = z.enum(['idle', 'wait', 'done', 'cancel']);
export const orderType = z.enum(['limit', 'stop_limit']);
export const klineInterval = z.enum(KLINE_INTERVALS);
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

/**
 * [start time, open, high, low, close, base volume]. The interface sends six JSON numbers; some
 * deployments send the amounts as strings. Either way the amounts come out as decimal text.
 */
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
export const withdrawId = z.union([z.string().min(1), integer]).transform((v) => String(v));

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

/** The body of an error answer: REST errors and stream error replies share it. */
export const errorBodySchema = z.looseObject({ code: intLike, message: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The list answers, built once (building zod schemas per call is measurable on hot paths). */
export const coinInfoListSchema = z.array(coinInfoSchema);
export const fundListSchema = z.array(fundSchema);
export const klineListSchema = z.array(klineSchema);
export const orderListSchema = z.array(orderSchema);
export const ownTradeListSchema = z.array(ownTradeSchema);
export const publicTradeListSchema = z.array(publicTradeSchema);
export const subAccountRecordListSchema = z.array(subAccountRecordSchema);
export const subTransferRecordListSchema = z.array(subTransferRecordSchema);
export const tickerListSchema = z.array(tickerSchema);
export const withdrawRecordListSchema = z.array(withdrawRecordSchema);

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

export const streamErrorDataSchema = errorBodySchema;

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

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
