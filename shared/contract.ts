/**
 * The bridge contract: every method the renderer may call, with its input schema (checked in the
 * main process) and result type, and every event the main process may send, with its payload.
 * The preload, the ipcMain binding, the browser-mode bridge and the renderer's client are all
 * derived from this one object. There is no generic pass-through: a call names a method here.
 */
import { z } from 'zod';
import type {
  AccountView,
  ActivityItem,
  AppStatus,
  BackfillProgress,
  BalanceUpdate,
  CoinView,
  ConnectionState,
  CsvExport,
  DataKind,
  DepositAddressView,
  DepthView,
  FundsView,
  KlineView,
  NotificationView,
  OrderUpdate,
  OrderView,
  OwnTradeUpdate,
  Page,
  PortfolioHistory,
  PortfolioSummary,
  ProfileView,
  PublicTradeView,
  Settings,
  SubAccountsView,
  SubTransferView,
  SymbolView,
  TickerView,
  TradesPage,
  TransferOutcome,
  WithdrawView,
} from './types';

/** A method: its input schema, and its result type carried only at the type level. */
export interface MethodSpec<I extends z.ZodType, R> {
  readonly input: I;
  readonly result?: R;
}

function method<R>() {
  return <I extends z.ZodType>(input: I): MethodSpec<I, R> => ({ input });
}

// ---- Shared input pieces -------------------------------------------------------------------

const none = z.object({}).strict();

/** A positive decimal amount as a string: digits, an optional fraction, no sign or exponent. */
export const decimalInput = z
  .string()
  .trim()
  .max(40, 'Amount is too long')
  .regex(/^\d+(\.\d+)?$/, 'Enter a number like 12.5 (digits and one dot)');

export const positiveDecimalInput = decimalInput.refine(
  (value) => /[1-9]/.test(value),
  'Amount must be greater than zero',
);

export const symbolInput = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{2,24}$/, 'Unknown symbol format (e.g. btcusdt)');

export const assetInput = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]{1,16}$/, 'Unknown asset format (e.g. btc)');

export const networkInput = z
  .string()
  .trim()
  .min(1, 'Pick a network')
  .max(32, 'Network name is too long')
  .regex(/^[A-Za-z0-9_-]+$/, 'Unknown network format');

export const emailInput = z.string().trim().toLowerCase().email('Enter an e-mail address').max(254);

const urlInput = (protocols: string[], message: string) =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, message);

const timeInput = z.number().int().nonnegative().max(8_640_000_000_000);
const offsetInput = z.number().int().nonnegative().max(100_000_000).default(0);
const limitInput = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback);
const profileIdInput = z.string().min(1).max(64);
const sortDir = z.enum(['asc', 'desc']).default('desc');

export const withdrawFilterInput = z
  .object({
    coin: assetInput.optional(),
    transferType: z.enum(['onchain', 'partner']).optional(),
    status: z.enum(['success', 'failed', 'pending', 'cancelled']).optional(),
    startTime: timeInput.optional(),
    endTime: timeInput.optional(),
    search: z.string().trim().max(200).optional(),
  })
  .strict();

export const tradeFilterInput = z
  .object({
    symbol: symbolInput.optional(),
    side: z.enum(['buy', 'sell']).optional(),
    startTime: timeInput.optional(),
    endTime: timeInput.optional(),
  })
  .strict();

export const transferFilterInput = z.object({ asset: assetInput.optional() }).strict();

export const newOrderInput = z
  .object({
    symbol: symbolInput,
    side: z.enum(['buy', 'sell']),
    type: z.enum(['limit', 'stop_limit']),
    quantity: positiveDecimalInput,
    price: positiveDecimalInput,
    stopPrice: positiveDecimalInput.optional(),
  })
  .strict()
  .refine((order) => order.type !== 'stop_limit' || order.stopPrice !== undefined, {
    message: 'A stop-limit order needs a stop price',
    path: ['stopPrice'],
  });

export const settingsInput = z
  .object({
    quoteAsset: assetInput,
    theme: z.enum(['light', 'dark', 'system']),
    privacyMode: z.boolean(),
    hideSmallBalances: z.boolean(),
    smallBalanceThreshold: decimalInput,
    notifications: z
      .object({
        fills: z.boolean(),
        cancels: z.boolean(),
        balances: z.boolean(),
        transfers: z.boolean(),
      })
      .strict(),
  })
  .strict();

export const klineIntervals = [
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
] as const;

// ---- Methods ---------------------------------------------------------------------------------

export const methods = {
  app: {
    status: method<AppStatus>()(none),
  },
  profiles: {
    list: method<ProfileView[]>()(none),
    /** Verifies the key against the exchange first; stores nothing on failure. */
    add: method<ProfileView>()(
      z
        .object({
          name: z.string().trim().min(1, 'Give the profile a name').max(60),
          apiKey: z.string().trim().min(8, 'The API key looks too short').max(256),
          secretKey: z.string().trim().min(8, 'The secret key looks too short').max(256),
          baseUrl: urlInput(['http:', 'https:'], 'Base URL must be an http(s) address'),
          streamUrl: urlInput(['ws:', 'wss:'], 'Stream URL must be a ws(s) address'),
        })
        .strict(),
    ),
    remove: method<{ removed: true }>()(z.object({ id: profileIdInput }).strict()),
    activate: method<ProfileView>()(z.object({ id: profileIdInput }).strict()),
    /** Starts the built-in sandbox exchange and a clearly labelled demo profile. */
    enterDemo: method<ProfileView>()(none),
  },
  portfolio: {
    summary: method<PortfolioSummary>()(none),
    history: method<PortfolioHistory>()(
      z.object({ range: z.enum(['day', 'week', 'month', 'year', 'all']) }).strict(),
    ),
  },
  funds: {
    list: method<FundsView>()(none),
    refresh: method<FundsView>()(none),
  },
  account: {
    info: method<AccountView>()(none),
  },
  withdrawals: {
    list: method<Page<WithdrawView>>()(
      z
        .object({
          filter: withdrawFilterInput.default({}),
          sort: z
            .object({ field: z.enum(['time', 'amount']).default('time'), dir: sortDir })
            .strict()
            .default({ field: 'time', dir: 'desc' }),
          offset: offsetInput,
          limit: limitInput(1000, 100),
        })
        .strict(),
    ),
    /** Coins that appear in the cached history, for the filter. */
    coins: method<string[]>()(none),
    backfill: method<BackfillProgress>()(z.object({ since: timeInput.optional() }).strict()),
    backfillStatus: method<BackfillProgress>()(none),
  },
  deposits: {
    coins: method<{ coins: CoinView[]; asOf: number | null }>()(none),
    address: method<DepositAddressView>()(
      z.object({ coin: assetInput, network: networkInput }).strict(),
    ),
  },
  subAccounts: {
    list: method<SubAccountsView>()(none),
    refresh: method<SubAccountsView>()(none),
    /** Main to sub, sub to main, or sub to sub as two transfers through the main account. */
    transfer: method<TransferOutcome>()(
      z
        .object({
          asset: assetInput,
          amount: positiveDecimalInput,
          fromEmail: emailInput,
          toEmail: emailInput,
        })
        .strict()
        .refine((t) => t.fromEmail !== t.toEmail, {
          message: 'Source and destination must differ',
          path: ['toEmail'],
        }),
    ),
    history: method<Page<SubTransferView>>()(
      z
        .object({
          filter: transferFilterInput.default({}),
          offset: offsetInput,
          limit: limitInput(1000, 100),
        })
        .strict(),
    ),
  },
  orders: {
    open: method<Page<OrderView>>()(z.object({ symbol: symbolInput.optional() }).strict()),
    history: method<Page<OrderView>>()(
      z
        .object({
          symbol: symbolInput.optional(),
          status: z.enum(['idle', 'wait', 'done', 'cancel']).optional(),
          offset: offsetInput,
          limit: limitInput(1000, 100),
        })
        .strict(),
    ),
    trades: method<TradesPage>()(
      z
        .object({
          filter: tradeFilterInput.default({}),
          offset: offsetInput,
          limit: limitInput(1000, 100),
        })
        .strict(),
    ),
    /** Checks the order with the exchange's test endpoint; nothing is placed. */
    test: method<{ ok: true }>()(newOrderInput),
    place: method<OrderView>()(newOrderInput),
    cancel: method<OrderView>()(
      z.object({ symbol: symbolInput, orderId: z.number().int().positive() }).strict(),
    ),
    cancelAll: method<{ canceled: OrderView[] }>()(z.object({ symbol: symbolInput }).strict()),
  },
  market: {
    symbols: method<SymbolView[]>()(none),
    tickers: method<TickerView[]>()(none),
    klines: method<KlineView[]>()(
      z
        .object({
          symbol: symbolInput,
          interval: z.enum(klineIntervals),
          limit: limitInput(2000, 200),
        })
        .strict(),
    ),
    depth: method<DepthView>()(
      z
        .object({
          symbol: symbolInput,
          limit: z
            .union([z.literal(5), z.literal(10), z.literal(20), z.literal(50), z.literal(100)])
            .default(20),
        })
        .strict(),
    ),
    trades: method<PublicTradeView[]>()(
      z.object({ symbol: symbolInput, limit: limitInput(1000, 50) }).strict(),
    ),
    /** Starts live trades and depth events for one symbol (the symbol page); replaces the previous one. */
    watch: method<{ symbol: string }>()(z.object({ symbol: symbolInput }).strict()),
    unwatch: method<{ symbol: null }>()(none),
  },
  settings: {
    get: method<Settings>()(none),
    update: method<Settings>()(settingsInput.partial().strict()),
  },
  export: {
    csv: method<CsvExport>()(
      z.discriminatedUnion('kind', [
        z
          .object({
            kind: z.literal('withdrawals'),
            filter: withdrawFilterInput.default({}),
            delimiter: z.enum([',', ';', '\t']).default(','),
          })
          .strict(),
        z
          .object({
            kind: z.literal('trades'),
            filter: tradeFilterInput.default({}),
            delimiter: z.enum([',', ';', '\t']).default(','),
          })
          .strict(),
        z
          .object({
            kind: z.literal('transfers'),
            filter: transferFilterInput.default({}),
            delimiter: z.enum([',', ';', '\t']).default(','),
          })
          .strict(),
      ]),
    ),
  },
  activity: {
    feed: method<ActivityItem[]>()(z.object({ limit: limitInput(500, 100) }).strict()),
    notifications: method<NotificationView[]>()(z.object({ limit: limitInput(500, 100) }).strict()),
    markNotificationsRead: method<{ ok: true }>()(none),
  },
} as const;

// ---- Events ----------------------------------------------------------------------------------

export interface EventPayloads {
  'data.changed': { profileId: string | null; kinds: DataKind[] };
  'sync.progress': { profileId: string; job: 'withdrawBackfill'; progress: BackfillProgress };
  /** Live private-stream events, coalesced to at most one batch per animation frame. */
  'live.batch': {
    profileId: string;
    orders: OrderUpdate[];
    trades: OwnTradeUpdate[];
    balances: BalanceUpdate[];
  };
  'connection.state': { profileId: string | null; state: ConnectionState; since: number };
  'market.trades': { symbol: string; trades: PublicTradeView[] };
  'market.depth': DepthView;
  notification: NotificationView;
}

export type EventName = keyof EventPayloads;

export const eventNames = [
  'data.changed',
  'sync.progress',
  'live.batch',
  'connection.state',
  'market.trades',
  'market.depth',
  'notification',
] as const satisfies readonly EventName[];

// ---- Derived types ---------------------------------------------------------------------------

export type Methods = typeof methods;
export type Namespace = keyof Methods;
export type MethodName<N extends Namespace = Namespace> = N extends Namespace
  ? `${N}.${Extract<keyof Methods[N], string>}`
  : never;

type SpecOf<K extends string> = K extends `${infer N}.${infer M}`
  ? N extends Namespace
    ? M extends keyof Methods[N]
      ? Methods[N][M]
      : never
    : never
  : never;

/** What the renderer passes (defaults may be left out). */
export type MethodInput<K extends MethodName> =
  SpecOf<K> extends MethodSpec<infer I, unknown> ? z.input<I> : never;
/** What the main process receives after validation (defaults filled in). */
export type MethodParsedInput<K extends MethodName> =
  SpecOf<K> extends MethodSpec<infer I, unknown> ? z.output<I> : never;
export type MethodResult<K extends MethodName> =
  SpecOf<K> extends MethodSpec<z.ZodType, infer R> ? R : never;

/** An object type with no fields: an input it extends has no required field. */
type NoRequiredFields = Record<never, never>;

/** The shape of window.spotfolio: one named function per method, and typed event listeners. */
export type SpotfolioBridge = {
  [N in Namespace]: {
    [M in Extract<keyof Methods[N], string>]: (
      ...args: NoRequiredFields extends MethodInput<`${N}.${M}` & MethodName>
        ? [input?: MethodInput<`${N}.${M}` & MethodName>]
        : [input: MethodInput<`${N}.${M}` & MethodName>]
    ) => Promise<MethodResult<`${N}.${M}` & MethodName>>;
  };
} & {
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};

/** The main-process implementation: one async function per method, taking the parsed input. */
export type BridgeHandlers = {
  [K in MethodName]: (input: MethodParsedInput<K>) => Promise<MethodResult<K>>;
};

/** Every method name, in a stable order, for the derivations. */
export const methodNames: MethodName[] = Object.entries(methods).flatMap(([ns, group]) =>
  Object.keys(group).map((name) => `${ns}.${name}` as MethodName),
);

export function methodSpec(name: string): MethodSpec<z.ZodType, unknown> | undefined {
  const dot = name.indexOf('.');
  if (dot < 0) return undefined;
  const group = (methods as Record<string, Record<string, MethodSpec<z.ZodType, unknown>>>)[
    name.slice(0, dot)
  ];
  if (!group || !Object.hasOwn(group, name.slice(dot + 1))) return undefined;
  return group[name.slice(dot + 1)];
}

/** The envelope every call's answer travels in, over IPC and over browser mode's WebSocket. */
export type CallOutcome<R> =
  { ok: true; value: R } | { ok: false; error: import('./types').BridgeErrorPayload };

/** IPC channel names are derived, never written by hand. */
export const ipcChannel = (name: MethodName): string => `spotfolio:${name}`;
export const ipcEventChannel = 'spotfolio:event';

/** The largest call browser mode accepts in one WebSocket message. */
export const maxCallBytes = 256 * 1024;
