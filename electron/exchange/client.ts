/**
 * ExchangeClient: a typed method for every endpoint of the interface, grouped by area.
 *
 * Every input is validated with zod before anything is sent (bad input -> 'invalid-input', nothing
 * on the wire). Every answer is parsed with the schemas of wire.ts. Writes whose outcome is unknown
 * (5xx, timeout, connection lost, unreadable answer) are reconciled against the exchange's records
 * before the caller hears anything; writes are never sent twice.
 */
import { randomBytes } from 'node:crypto';
import Decimal from 'decimal.js';
import { z } from 'zod';
import { ExchangeError, invalidInput } from './errors';
import { ENDPOINTS, outcomeUnknown, RestTransport, type Params, type SentRequest } from './rest';
import { RateLimiter, type EndpointName } from './limits';
import {
  accountInfoSchema,
  authTokenSchema,
  coinInfoSchema,
  depositAddressSchema,
  emptyObject,
  exchangeInfoSchema,
  fundSchema,
  isDecimalString,
  klineInterval,
  klineSchema,
  orderBookSchema,
  orderSchema,
  ownTradeSchema,
  publicTradeSchema,
  serverTimeSchema,
  subAccountRecordSchema,
  subTransferRecordSchema,
  subTransferResultSchema,
  systemStatusSchema,
  tickerSchema,
  WireError,
  withdrawRecordSchema,
  type AccountInfo,
  type AuthToken,
  type CoinInfo,
  type DepositAddress,
  type ExchangeInfo,
  type Fund,
  type Kline,
  type KlineInterval,
  type Order,
  type OrderBook,
  type OwnTrade,
  type PublicTrade,
  type SubAccountRecord,
  type SubTransferRecord,
  type SubTransferResult,
  type SystemStatus,
  type Ticker,
  type WithdrawRecord,
} from './wire';

export interface ExchangeClientOptions {
  baseUrl: string;
  apiKey?: string;
  secretKey?: string;
  /** default 5000 */
  recvWindow?: number;
  /** default 10000; a timeout on a write = unknown outcome (reconciled) */
  timeoutMs?: number;
  /** the local clock (tests skew it); default Date.now */
  now?: () => number;
  /** default true (pacing on); benches turn it off */
  rateLimits?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Input schemas

const symbol = z
  .string({ error: 'must be a string' })
  .regex(/^[a-z0-9]{2,32}$/, 'must be a lowercase symbol such as btcusdt');
const positiveDecimal = z
  .string({ error: 'must be a decimal string such as "0.5"' })
  .superRefine((value, ctx) => {
    if (!isDecimalString(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a decimal string such as "0.5"' });
    } else if (!new Decimal(value).gt(0)) {
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
const clientOrderIdInput = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"');
const email = z.string({ error: 'must be a string' }).email('must be an e-mail address');
const asset = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9]{1,20}$/, 'must be an asset name such as BTC');

const newOrderSchema = z
  .object({
    symbol,
    side: z.enum(['buy', 'sell'], { error: 'must be "buy" or "sell"' }),
    type: z.enum(['limit', 'stop_limit'], { error: 'must be "limit" or "stop_limit"' }),
    quantity: positiveDecimal,
    price: positiveDecimal,
    stopPrice: positiveDecimal.optional(),
    clientOrderId: clientOrderIdInput.optional(),
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
export type NewOrder = z.input<typeof newOrderSchema>;

const orderRef = {
  orderId: id.optional(),
  clientOrderId: clientOrderIdInput.optional(),
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

const NINETY_DAYS_MS = 90 * 86_400_000;

const inputs = {
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
  newOrder: newOrderSchema,
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
  cancelAll: z.object({ symbol }),
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
  depositAddress: z.object({
    coin: asset,
    network: z.string({ error: 'must be a string' }).min(1, 'must not be empty'),
  }),
  transfer: z.object({
    currency: asset,
    amount: positiveDecimal,
    fromEmail: email,
    toEmail: email,
  }),
  allOrdersFrom: z.object({
    symbol,
    fromOrderId: id.optional(),
    onPage: z.function().optional(),
  }),
  allMyTradesFrom: z.object({
    symbol: symbol.optional(),
    fromId: id.optional(),
    onPage: z.function().optional(),
  }),
  withdrawHistory: z
    .object({
      startTime: timeMs,
      endTime: timeMs,
      coin: asset.optional(),
      onWindow: z.function().optional(),
    })
    .superRefine(windowCheck),
};

function validate<S extends z.ZodType>(schema: S, input: unknown, method: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'parameters';
  const message =
    issue.message.startsWith('Invalid input') && issue.path.length === 0
      ? 'must be an object'
      : issue.message;
  throw invalidInput(field, `${message} (${method})`);
}

/** Array schemas built once (building zod schemas per call is measurable on hot paths). */
const coinInfoListSchema = z.array(coinInfoSchema);
const fundListSchema = z.array(fundSchema);
const klineListSchema = z.array(klineSchema);
const orderListSchema = z.array(orderSchema);
const ownTradeListSchema = z.array(ownTradeSchema);
const publicTradeListSchema = z.array(publicTradeSchema);
const subAccountRecordListSchema = z.array(subAccountRecordSchema);
const subTransferRecordListSchema = z.array(subTransferRecordSchema);
const tickerListSchema = z.array(tickerSchema);
const withdrawRecordListSchema = z.array(withdrawRecordSchema);

// ---------------------------------------------------------------------------------------------
// Window math for the withdraw history

/** Each window spans < 90 days, as the exchange requires when both startTime and endTime are sent. */
export const WITHDRAW_WINDOW_MS = 89 * 86_400_000;

/**
 * Splits the inclusive range [startTime, endTime] into disjoint inclusive windows shorter than 90
 * days, newest first, that cover it exactly.
 */
export function withdrawWindows(
  startTime: number,
  endTime: number,
  windowMs = WITHDRAW_WINDOW_MS,
): { windowStart: number; windowEnd: number }[] {
  const windows: { windowStart: number; windowEnd: number }[] = [];
  let windowEnd = endTime;
  while (windowEnd >= startTime) {
    const windowStart = Math.max(startTime, windowEnd - windowMs + 1);
    windows.push({ windowStart, windowEnd });
    windowEnd = windowStart - 1;
  }
  return windows;
}

// ---------------------------------------------------------------------------------------------

/** Limiters are shared per base URL: the exchange counts per key (and per IP), not per client. */
const sharedLimiters = new Map<string, RateLimiter>();
function limiterFor(baseUrl: string): RateLimiter {
  const key = new URL(baseUrl).origin;
  let limiter = sharedLimiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter();
    sharedLimiters.set(key, limiter);
  }
  return limiter;
}

const PAGE_LIMIT = 1000;
/** Delay between reconciliation reads; the limiter paces them further where needed. */
const RECONCILE_POLL_MS = 250;
/** Slack for clock offset error when comparing our send time with the exchange's record times. */
const RECONCILE_TIME_SLACK_MS = 2000;

function generateClientOrderId(): string {
  return randomBytes(16).toString('hex');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ExchangeClient {
  private readonly rest: RestTransport;
  private readonly limiter: RateLimiter | undefined;
  private readonly apiKey: string | undefined;
  private readonly recvWindow: number;
  private readonly now: () => number;

  readonly general: {
    ping(): Promise<Record<string, unknown>>;
    systemStatus(): Promise<SystemStatus>;
    time(): Promise<{ serverTime: number }>;
    exchangeInfo(): Promise<ExchangeInfo>;
  };
  readonly market: {
    tickers(): Promise<Ticker[]>;
    ticker(p: { symbol: string }): Promise<Ticker>;
    klines(p: {
      symbol: string;
      interval?: KlineInterval;
      limit?: number;
      startTime?: number;
      endTime?: number;
    }): Promise<Kline[]>;
    depth(p: {
      symbol: string;
      limit?: 1 | 5 | 10 | 20 | 50 | 100 | 500 | 1000;
    }): Promise<OrderBook>;
    trades(p: { symbol: string; limit?: number }): Promise<PublicTrade[]>;
    historicalTrades(p: {
      symbol: string;
      limit?: number;
      fromId?: number;
    }): Promise<PublicTrade[]>;
  };
  readonly trading: {
    placeOrder(p: NewOrder): Promise<Order>;
    testOrder(p: NewOrder): Promise<void>;
    getOrder(p: { orderId?: number; clientOrderId?: string }): Promise<Order>;
    openOrders(p?: {
      symbol?: string;
      orderId?: number;
      startTime?: number;
      endTime?: number;
    }): Promise<Order[]>;
    allOrders(p: {
      symbol: string;
      orderId?: number;
      startTime?: number;
      endTime?: number;
      limit?: number;
    }): Promise<Order[]>;
    cancelOrder(p: { symbol: string; orderId?: number; clientOrderId?: string }): Promise<Order>;
    cancelAllOrders(p: { symbol: string }): Promise<Order[]>;
    myTrades(p?: {
      symbol?: string;
      orderId?: number;
      fromId?: number;
      limit?: number;
      startTime?: number;
      endTime?: number;
    }): Promise<OwnTrade[]>;
  };
  readonly account: { info(): Promise<AccountInfo>; funds(): Promise<Fund[]> };
  readonly wallet: {
    coins(): Promise<CoinInfo[]>;
    withdraws(p?: {
      coin?: string;
      transferType?: 1 | 2;
      withdrawOrderId?: string;
      status?: 0 | 1 | 2 | 3;
      offset?: number;
      limit?: number;
      startTime?: number;
      endTime?: number;
    }): Promise<WithdrawRecord[]>;
    depositAddress(p: { coin: string; network: string }): Promise<DepositAddress>;
  };
  readonly subAccounts: {
    transfer(p: {
      currency: string;
      amount: string;
      fromEmail: string;
      toEmail: string;
    }): Promise<SubTransferResult>;
    transferHistory(): Promise<SubTransferRecord[]>;
    accounts(): Promise<SubAccountRecord[]>;
  };
  readonly auth: { createAuthToken(): Promise<AuthToken> };

  constructor(options: ExchangeClientOptions) {
    const base = z
      .object({
        baseUrl: z.url({ error: 'must be an http(s) URL' }),
        apiKey: z.string().min(1, 'must not be empty').optional(),
        secretKey: z.string().min(1, 'must not be empty').optional(),
        recvWindow: z.number().int().min(1).max(60_000, 'must be at most 60000').optional(),
        timeoutMs: z.number().int().positive().optional(),
        now: z.function().optional(),
        rateLimits: z.boolean().optional(),
      })
      .safeParse(options);
    if (!base.success) {
      const issue = base.error.issues[0]!;
      throw invalidInput(issue.path.map(String).join('.') || 'options', issue.message);
    }
    this.apiKey = options.apiKey;
    this.recvWindow = options.recvWindow ?? 5000;
    this.now = options.now ?? Date.now;
    this.limiter = options.rateLimits === false ? undefined : limiterFor(options.baseUrl);
    const restOptions: ConstructorParameters<typeof RestTransport>[0] = {
      baseUrl: options.baseUrl,
      recvWindow: this.recvWindow,
      timeoutMs: options.timeoutMs ?? 10_000,
      now: this.now,
    };
    if (options.apiKey !== undefined) restOptions.apiKey = options.apiKey;
    if (options.secretKey !== undefined) restOptions.secretKey = options.secretKey;
    if (this.limiter) restOptions.limiter = this.limiter;
    this.rest = new RestTransport(restOptions);

    this.general = {
      ping: () => this.get('ping', {}, emptyObject),
      systemStatus: () => this.get('systemStatus', {}, systemStatusSchema),
      time: () => this.get('time', {}, serverTimeSchema),
      exchangeInfo: () => this.get('exchangeInfo', {}, exchangeInfoSchema),
    };

    this.market = {
      tickers: () => this.get('tickers', {}, tickerListSchema),
      ticker: async (p) => {
        const v = validate(inputs.ticker, p, 'market.ticker');
        return this.get('ticker', { symbol: v.symbol }, tickerSchema);
      },
      klines: async (p) => {
        const v = validate(inputs.klines, p, 'market.klines');
        return this.get(
          'klines',
          {
            symbol: v.symbol,
            interval: v.interval,
            limit: v.limit,
            startTime: v.startTime,
            endTime: v.endTime,
          },
          klineListSchema,
        );
      },
      depth: async (p) => {
        const v = validate(inputs.depth, p, 'market.depth');
        return this.get('depth', { symbol: v.symbol, limit: v.limit }, orderBookSchema);
      },
      trades: async (p) => {
        const v = validate(inputs.trades, p, 'market.trades');
        return this.get('trades', { symbol: v.symbol, limit: v.limit }, publicTradeListSchema);
      },
      historicalTrades: async (p) => {
        const v = validate(inputs.historicalTrades, p, 'market.historicalTrades');
        return this.get(
          'historicalTrades',
          { symbol: v.symbol, limit: v.limit, fromId: v.fromId },
          publicTradeListSchema,
        );
      },
    };

    this.trading = {
      placeOrder: (p) => this.placeOrder(p),
      testOrder: async (p) => {
        const v = validate(inputs.newOrder, p, 'trading.testOrder');
        await this.get('testOrder', orderParams(v, v.clientOrderId), emptyObject);
      },
      getOrder: async (p) => {
        const v = validate(inputs.getOrder, p, 'trading.getOrder');
        return this.get(
          'getOrder',
          { orderId: v.orderId, clientOrderId: v.clientOrderId },
          orderSchema,
        );
      },
      openOrders: async (p) => {
        const v = validate(inputs.openOrders, p, 'trading.openOrders') ?? {};
        return this.get(
          'openOrders',
          { symbol: v.symbol, orderId: v.orderId, startTime: v.startTime, endTime: v.endTime },
          orderListSchema,
        );
      },
      allOrders: async (p) => {
        const v = validate(inputs.allOrders, p, 'trading.allOrders');
        return this.get(
          'allOrders',
          {
            symbol: v.symbol,
            orderId: v.orderId,
            startTime: v.startTime,
            endTime: v.endTime,
            limit: v.limit,
          },
          orderListSchema,
        );
      },
      cancelOrder: (p) => this.cancelOrder(p),
      cancelAllOrders: async (p) => {
        const v = validate(inputs.cancelAll, p, 'trading.cancelAllOrders');
        try {
          return await this.get('cancelAllOrders', { symbol: v.symbol }, orderListSchema);
        } catch (error) {
          if (!outcomeUnknown(error) && !(error instanceof WireError)) throw error;
          // Which orders were canceled cannot be recovered from the exchange's records exactly.
          throw new ExchangeError(
            'unknown-outcome',
            `Cancel-all on ${v.symbol}: the exchange did not confirm (${describe(error)}); re-read the open orders`,
            { cause: error },
          );
        }
      },
      myTrades: async (p) => {
        const v = validate(inputs.myTrades, p, 'trading.myTrades') ?? {};
        return this.get(
          'myTrades',
          {
            symbol: v.symbol,
            orderId: v.orderId,
            fromId: v.fromId,
            limit: v.limit,
            startTime: v.startTime,
            endTime: v.endTime,
          },
          ownTradeListSchema,
        );
      },
    };

    this.account = {
      info: () => this.get('account', {}, accountInfoSchema),
      funds: () => this.get('funds', {}, fundListSchema),
    };

    this.wallet = {
      coins: () => this.get('coins', {}, coinInfoListSchema),
      withdraws: async (p) => {
        const v = validate(inputs.withdraws, p, 'wallet.withdraws') ?? {};
        return this.get(
          'withdraws',
          {
            coin: v.coin,
            transferType: v.transferType,
            withdrawOrderId: v.withdrawOrderId,
            status: v.status,
            offset: v.offset,
            limit: v.limit,
            startTime: v.startTime,
            endTime: v.endTime,
          },
          withdrawRecordListSchema,
        );
      },
      depositAddress: async (p) => {
        const v = validate(inputs.depositAddress, p, 'wallet.depositAddress');
        return this.get(
          'depositAddress',
          { coin: v.coin, network: v.network },
          depositAddressSchema,
        );
      },
    };

    this.subAccounts = {
      transfer: (p) => this.transfer(p),
      transferHistory: () => this.get('subTransferHistory', {}, subTransferRecordListSchema),
      accounts: () => this.get('subAccounts', {}, subAccountRecordListSchema),
    };

    this.auth = {
      createAuthToken: () => this.get('createAuthToken', {}, authTokenSchema),
    };
  }

  /** Server clock offset in ms (server - local), measured from /time. */
  get clockOffsetMs(): number {
    return this.rest.offsetMs;
  }

  /** How long (ms) a call to this endpoint would wait in the pacing queue right now. */
  queueWaitMs(endpoint: EndpointName): number {
    if (!this.limiter) return 0;
    const key = ENDPOINTS[endpoint].security === 'NONE' ? 'ip' : (this.apiKey ?? 'ip');
    return this.limiter.queueWaitMs(endpoint, key);
  }

  async close(): Promise<void> {
    await this.rest.close();
  }

  // -------------------------------------------------------------------------------------------
  // Paging helpers

  /** Every order of a symbol from fromOrderId on (ascending ids); onPage gets the running count. */
  async allOrdersFrom(p: {
    symbol: string;
    fromOrderId?: number;
    onPage?: (n: number) => void;
  }): Promise<Order[]> {
    const v = validate(inputs.allOrdersFrom, p, 'allOrdersFrom');
    const out: Order[] = [];
    let from = v.fromOrderId ?? 1;
    for (;;) {
      const page = await this.trading.allOrders({
        symbol: v.symbol,
        orderId: from,
        limit: PAGE_LIMIT,
      });
      const fresh = page.filter((o) => o.id >= from);
      out.push(...fresh);
      p.onPage?.(out.length);
      if (page.length < PAGE_LIMIT || fresh.length === 0) return out;
      from = Math.max(...fresh.map((o) => o.id)) + 1;
    }
  }

  /** Every own trade from fromId on (ascending ids); onPage gets the running count. */
  async allMyTradesFrom(p: {
    symbol?: string;
    fromId?: number;
    onPage?: (n: number) => void;
  }): Promise<OwnTrade[]> {
    const v = validate(inputs.allMyTradesFrom, p, 'allMyTradesFrom');
    const out: OwnTrade[] = [];
    let from = v.fromId ?? 1;
    for (;;) {
      const query: { symbol?: string; fromId: number; limit: number } = {
        fromId: from,
        limit: PAGE_LIMIT,
      };
      if (v.symbol !== undefined) query.symbol = v.symbol;
      const page = await this.trading.myTrades(query);
      const fresh = page.filter((t) => t.id >= from);
      out.push(...fresh);
      p.onPage?.(out.length);
      if (page.length < PAGE_LIMIT || fresh.length === 0) return out;
      from = Math.max(...fresh.map((t) => t.id)) + 1;
    }
  }

  /**
   * Walks [startTime, endTime] in windows < 90 days (newest first), offset-paging inside each
   * window. Records are deduplicated by id: a withdrawal created while paging shifts the
   * newest-first order by one, which can repeat a record but never skip one.
   */
  async withdrawHistory(p: {
    startTime: number;
    endTime: number;
    coin?: string;
    onWindow?: (w: {
      done: number;
      total: number;
      windowStart: number;
      windowEnd: number;
      records: WithdrawRecord[];
    }) => void | Promise<void>;
  }): Promise<WithdrawRecord[]> {
    const v = validate(inputs.withdrawHistory, p, 'withdrawHistory');
    const windows = withdrawWindows(v.startTime, v.endTime);
    const seen = new Set<string>();
    const out: WithdrawRecord[] = [];
    let done = 0;
    for (const { windowStart, windowEnd } of windows) {
      const records: WithdrawRecord[] = [];
      for (let offset = 0; ;) {
        const query: Parameters<ExchangeClient['wallet']['withdraws']>[0] = {
          startTime: windowStart,
          endTime: windowEnd,
          offset,
          limit: PAGE_LIMIT,
        };
        if (v.coin !== undefined) query.coin = v.coin;
        const page = await this.wallet.withdraws(query);
        for (const record of page) {
          if (seen.has(record.id)) continue;
          seen.add(record.id);
          records.push(record);
        }
        if (page.length < PAGE_LIMIT) break;
        offset += page.length;
      }
      out.push(...records);
      done++;
      await p.onWindow?.({ done, total: windows.length, windowStart, windowEnd, records });
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // Writes with reconciliation

  private async placeOrder(p: NewOrder): Promise<Order> {
    const v = validate(inputs.newOrder, p, 'trading.placeOrder');
    const clientOrderId = v.clientOrderId ?? generateClientOrderId();
    const sent: SentRequest = {};
    try {
      return await this.get('placeOrder', orderParams(v, clientOrderId), orderSchema, sent);
    } catch (error) {
      if (!outcomeUnknown(error) && !(error instanceof WireError)) throw error;
      const matches = (order: Order) =>
        order.clientOrderId === clientOrderId &&
        order.symbol === v.symbol &&
        order.side === v.side &&
        order.type === v.type &&
        new Decimal(order.origQty).eq(v.quantity) &&
        new Decimal(order.price).eq(v.price) &&
        (sent.timestamp === undefined ||
          order.createdTime >= sent.timestamp - RECONCILE_TIME_SLACK_MS - this.recvWindow);
      const found = await this.reconcile(error, sent, `order ${clientOrderId}`, async () => {
        try {
          const order = await this.trading.getOrder({ clientOrderId });
          return matches(order) ? order : undefined;
        } catch (lookupError) {
          if (lookupError instanceof ExchangeError && lookupError.kind === 'not-found')
            return undefined;
          throw lookupError;
        }
      });
      if (found) return found;
      throw notApplied(error, `The order (clientOrderId ${clientOrderId}) was not placed`);
    }
  }

  private async cancelOrder(p: {
    symbol: string;
    orderId?: number;
    clientOrderId?: string;
  }): Promise<Order> {
    const v = validate(inputs.cancelOrder, p, 'trading.cancelOrder');
    const sent: SentRequest = {};
    try {
      return await this.get(
        'cancelOrder',
        { symbol: v.symbol, orderId: v.orderId, clientOrderId: v.clientOrderId },
        orderSchema,
        sent,
      );
    } catch (error) {
      if (!outcomeUnknown(error) && !(error instanceof WireError)) throw error;
      const ref: { orderId?: number; clientOrderId?: string } =
        v.clientOrderId !== undefined
          ? { clientOrderId: v.clientOrderId }
          : { orderId: v.orderId! };
      const label =
        v.clientOrderId !== undefined ? `clientOrderId ${v.clientOrderId}` : `orderId ${v.orderId}`;
      let finishedOtherwise: Order | undefined;
      const canceled = await this.reconcile(error, sent, `cancel of ${label}`, async () => {
        const order = await this.trading.getOrder(ref);
        if (order.status === 'cancel') return order;
        if (order.status === 'done') {
          finishedOtherwise = order;
          return order;
        }
        return undefined;
      });
      if (canceled && canceled.status === 'cancel') return canceled;
      if (finishedOtherwise) {
        throw new ExchangeError(
          'not-found',
          `Order ${label} was filled before it could be canceled`,
          {
            cause: error,
          },
        );
      }
      throw notApplied(error, `The order (${label}) was not canceled; it is still open`);
    }
  }

  private async transfer(p: {
    currency: string;
    amount: string;
    fromEmail: string;
    toEmail: string;
  }): Promise<SubTransferResult> {
    const v = validate(inputs.transfer, p, 'subAccounts.transfer');
    // The snapshot comes first, so an identical earlier transfer is never taken for this one.
    const before = await this.subAccounts.transferHistory();
    const known = new Set(before.map((r) => r.txnId));
    const sent: SentRequest = {};
    try {
      return await this.get(
        'subTransfer',
        { currency: v.currency, amount: v.amount, fromEmail: v.fromEmail, toEmail: v.toEmail },
        subTransferResultSchema,
        sent,
      );
    } catch (error) {
      if (!outcomeUnknown(error) && !(error instanceof WireError)) throw error;
      const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
      const found = await this.reconcile(
        error,
        sent,
        `transfer of ${v.amount} ${v.currency}`,
        async () => {
          const history = await this.subAccounts.transferHistory();
          const sentAt = (sent.timestamp ?? this.rest.serverNow()) - RECONCILE_TIME_SLACK_MS;
          return history
            .filter(
              (r) =>
                !known.has(r.txnId) &&
                same(r.asset, v.currency) &&
                same(r.from, v.fromEmail) &&
                same(r.to, v.toEmail) &&
                new Decimal(r.qty).eq(v.amount) &&
                r.time >= sentAt,
            )
            .sort((a, b) => a.time - b.time)[0];
        },
      );
      if (found) return { status: found.status, txnId: found.txnId };
      throw notApplied(error, `The transfer of ${v.amount} ${v.currency} was not made`);
    }
  }

  /**
   * Looks for the effect of a write whose answer was lost. `lookup` returns the effect or undefined.
   * Not seeing it is only conclusive once the request's timestamp has left recvWindow at the
   * exchange (the exchange refuses to process it after that), so lookups repeat until then. If
   * the lookups themselves keep failing, the outcome stays unknown.
   */
  private async reconcile<T>(
    original: unknown,
    sent: SentRequest,
    what: string,
    lookup: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const stamp = sent.timestamp ?? this.rest.serverNow();
    const conclusiveAt = stamp + this.recvWindow + 1000 + this.rest.offsetUncertaintyMs;
    let lastFailure: unknown = undefined;
    for (;;) {
      try {
        const found = await lookup();
        if (found !== undefined) return found;
        lastFailure = undefined;
      } catch (error) {
        lastFailure = error;
      }
      if (this.rest.serverNow() > conclusiveAt) break;
      await sleep(RECONCILE_POLL_MS);
    }
    if (lastFailure !== undefined) {
      throw new ExchangeError(
        'unknown-outcome',
        `The ${what} may or may not have happened: the exchange did not confirm (${describe(original)}) and checking failed (${describe(lastFailure)})`,
        { cause: original },
      );
    }
    return undefined;
  }

  // -------------------------------------------------------------------------------------------

  private get<S extends z.ZodType>(
    endpoint: EndpointName,
    params: Params,
    schema: S,
    sent?: SentRequest,
  ): Promise<z.output<S>> {
    return this.rest.call(endpoint, params, schema, sent);
  }
}

function orderParams(
  v: z.output<typeof newOrderSchema>,
  clientOrderId: string | undefined,
): Params {
  return {
    symbol: v.symbol,
    side: v.side,
    type: v.type,
    quantity: v.quantity,
    price: v.price,
    stopPrice: v.stopPrice,
    clientOrderId,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The write is known not to have happened: keep the original failure's kind and details. */
function notApplied(original: unknown, message: string): ExchangeError {
  if (original instanceof ExchangeError) {
    const init: ConstructorParameters<typeof ExchangeError>[2] = { cause: original };
    if (original.status !== undefined) init.status = original.status;
    if (original.code !== undefined) init.code = original.code;
    if (original.exchangeMessage !== undefined) init.exchangeMessage = original.exchangeMessage;
    return new ExchangeError(original.kind, `${message} (${original.message})`, init);
  }
  return new ExchangeError('server', `${message} (${describe(original)})`, { cause: original });
}
