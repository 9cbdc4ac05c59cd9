/**
 * What each client method accepts, as zod schemas: the one definition of the methods' parameters.
 * Every method validates its input here before anything is sent (bad input -> an 'invalid-input'
 * ExchangeError naming the field, nothing on the wire), and each method's parameter type is the
 * schema's z.input. The rules for symbols, assets, networks, client order ids, amounts and candle
 * intervals are the shared ones every layer checks by.
 */
import { z } from 'zod';
import { isDecimalText, isPositiveDecimalText } from '../../shared/decimal';
import {
  ASSET_PATTERN,
  CLIENT_ORDER_ID_PATTERN,
  KLINE_INTERVALS,
  NETWORK_PATTERN,
  SYMBOL_PATTERN,
} from '../../shared/market';
import { invalidInput } from './errors';
import type { WithdrawRecord } from './wire';

const symbol = z
  .string({ error: 'must be a string' })
  .regex(SYMBOL_PATTERN, 'must be a lowercase symbol such as btcusdt');
const positiveDecimal = z
  .string({ error: 'must be a decimal string such as "0.5"' })
  .superRefine((value, ctx) => {
    if (!isDecimalText(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a decimal string such as "0.5"' });
    } else if (!isPositiveDecimalText(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
    }
  });
const id = z
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .nonnegative('must not be negative');
const timeMs = z
  .number({ error: 'must be a time in ms' })
  .int('must be an integer ms time')
  .nonnegative('must not be negative');
const limitUpTo = (max: number) =>
  z
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`);
const clientOrderId = z
  .string({ error: 'must be a string' })
  .regex(CLIENT_ORDER_ID_PATTERN, 'must be 1-64 letters, digits, "_" or "-"');
const email = z.string({ error: 'must be a string' }).email('must be an e-mail address');
const asset = z
  .string({ error: 'must be a string' })
  .regex(ASSET_PATTERN, 'must be an asset name such as BTC');
const network = z
  .string({ error: 'must be a string' })
  .regex(NETWORK_PATTERN, 'must be a network name such as ERC20');
const klineInterval = z.enum(KLINE_INTERVALS, {
  error: `must be one of ${KLINE_INTERVALS.join(', ')}`,
});

/** A callback parameter (progress reports of the paging helpers); checked to be a function. */
const callback = <F extends (...args: never[]) => unknown>() =>
  z.custom<F>((value) => typeof value === 'function', 'must be a function');

const orderRef = {
  orderId: id.optional(),
  clientOrderId: clientOrderId.optional(),
};
const needsOrderRef = (ref: { orderId?: number; clientOrderId?: string }, ctx: z.RefinementCtx) => {
  if (ref.orderId === undefined && ref.clientOrderId === undefined) {
    ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'or clientOrderId is required' });
  }
};

const windowCheck = (p: { startTime?: number; endTime?: number }, ctx: z.RefinementCtx) => {
  if (p.startTime !== undefined && p.endTime !== undefined && p.startTime > p.endTime) {
    ctx.addIssue({ code: 'custom', path: ['startTime'], message: 'must not be after endTime' });
  }
};

/** The exchange refuses a withdraw query whose window spans 90 days or more. */
const NINETY_DAYS_MS = 90 * 86_400_000;

export const newOrderInput = z
  .object({
    symbol,
    side: z.enum(['buy', 'sell'], { error: 'must be "buy" or "sell"' }),
    type: z.enum(['limit', 'stop_limit'], { error: 'must be "limit" or "stop_limit"' }),
    quantity: positiveDecimal,
    price: positiveDecimal,
    stopPrice: positiveDecimal.optional(),
    clientOrderId: clientOrderId.optional(),
  })
  .superRefine((order, ctx) => {
    if (order.type === 'stop_limit' && order.stopPrice === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['stopPrice'],
        message: 'is required for stop_limit orders',
      });
    }
    if (order.type === 'limit' && order.stopPrice !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['stopPrice'],
        message: 'is only allowed on stop_limit orders',
      });
    }
  });

/** One page of the withdraw history walk, as withdrawHistory reports it. */
export interface WithdrawWindowReport {
  done: number;
  total: number;
  windowStart: number;
  windowEnd: number;
  records: WithdrawRecord[];
}

export const inputs = {
  ticker: z.object({ symbol }),
  klines: z
    .object({
      symbol,
      interval: klineInterval.optional(),
      limit: limitUpTo(2000).optional(),
      startTime: timeMs.optional(),
      endTime: timeMs.optional(),
    })
    .superRefine(windowCheck),
  depth: z.object({
    symbol,
    limit: z
      .literal([1, 5, 10, 20, 50, 100, 500, 1000], {
        error: 'must be one of 1, 5, 10, 20, 50, 100, 500, 1000',
      })
      .optional(),
  }),
  trades: z.object({ symbol, limit: limitUpTo(1000).optional() }),
  historicalTrades: z.object({ symbol, limit: limitUpTo(1000).optional(), fromId: id.optional() }),
  newOrder: newOrderInput,
  getOrder: z.object(orderRef).superRefine(needsOrderRef),
  openOrders: z
    .object({
      symbol: symbol.optional(),
      orderId: id.optional(),
      startTime: timeMs.optional(),
      endTime: timeMs.optional(),
    })
    .superRefine(windowCheck)
    .optional(),
  allOrders: z
    .object({
      symbol,
      orderId: id.optional(),
      startTime: timeMs.optional(),
      endTime: timeMs.optional(),
      limit: limitUpTo(1000).optional(),
    })
    .superRefine(windowCheck),
  cancelOrder: z.object({ symbol, ...orderRef }).superRefine(needsOrderRef),
  cancelAllOrders: z.object({ symbol }),
  myTrades: z
    .object({
      symbol: symbol.optional(),
      orderId: id.optional(),
      fromId: id.optional(),
      limit: limitUpTo(1000).optional(),
      startTime: timeMs.optional(),
      endTime: timeMs.optional(),
    })
    .superRefine(windowCheck)
    .optional(),
  withdraws: z
    .object({
      coin: asset.optional(),
      transferType: z.union([z.literal(1), z.literal(2)], { error: 'must be 1 or 2' }).optional(),
      withdrawOrderId: z
        .string({ error: 'must be a string' })
        .min(1, 'must not be empty')
        .optional(),
      status: z
        .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
          error: 'must be 0, 1, 2 or 3',
        })
        .optional(),
      offset: z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .nonnegative('must not be negative')
        .optional(),
      limit: limitUpTo(1000).optional(),
      startTime: timeMs.optional(),
      endTime: timeMs.optional(),
    })
    .superRefine((p, ctx) => {
      windowCheck(p, ctx);
      if (
        p.startTime !== undefined &&
        p.endTime !== undefined &&
        p.endTime - p.startTime >= NINETY_DAYS_MS
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['endTime'],
          message: 'must be less than 90 days after startTime',
        });
      }
    })
    .optional(),
  depositAddress: z.object({ coin: asset, network }),
  transfer: z.object({
    currency: asset,
    amount: positiveDecimal,
    fromEmail: email,
    toEmail: email,
  }),
  allOrdersFrom: z.object({
    symbol,
    fromOrderId: id.optional(),
    onPage: callback<(count: number) => void>().optional(),
  }),
  allMyTradesFrom: z.object({
    symbol: symbol.optional(),
    fromId: id.optional(),
    onPage: callback<(count: number) => void>().optional(),
  }),
  withdrawHistory: z
    .object({
      startTime: timeMs,
      endTime: timeMs,
      coin: asset.optional(),
      onWindow: callback<(report: WithdrawWindowReport) => void | Promise<void>>().optional(),
    })
    .superRefine(windowCheck),
};

type Inputs = typeof inputs;
/** The parameter type of the client method validated by `inputs[K]`. */
export type InputOf<K extends keyof Inputs> = z.input<Inputs[K]>;
/** What the method works with once its input passed validation. */
export type ValidOf<K extends keyof Inputs> = z.output<Inputs[K]>;

export type NewOrder = InputOf<'newOrder'>;

/** Validates a method's input; throws 'invalid-input' naming the field and the method. */
export function validate<K extends keyof Inputs>(
  kind: K,
  input: unknown,
  method: string,
): ValidOf<K> {
  const result = inputs[kind].safeParse(input);
  if (result.success) return result.data as ValidOf<K>;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'parameters';
  const message =
    issue.message.startsWith('Invalid input') && issue.path.length === 0
      ? 'must be an object'
      : issue.message;
  throw invalidInput(field, `${message} (${method})`);
}
