/**
 * The bridge's input schemas: what the main process accepts for each method of the contract
 * (shared/contract.ts), checked before any handler runs. zod lives here and only here: the main
 * process imports this file; the preload and the renderer never do (they take only the types
 * derived from it, which cost nothing at run time). shared/contract.ts checks at compile time that
 * this table and the contract name exactly the same methods.
 *
 * Every fact these schemas check is defined once elsewhere in shared/: what decimal text looks
 * like (decimal.ts), how symbols, assets and networks are written, the candle intervals and the
 * withdraw statuses (market.ts), and the enumerations of types.ts.
 */
import { z } from 'zod';
import {
  DEFAULT_COOLDOWN_MINUTES,
  LINE_DIRECTIONS,
  MAX_COOLDOWN_MINUTES,
  MAX_MOVE_PERCENT,
  MIN_COOLDOWN_MINUTES,
  MOVE_DIRECTIONS,
  MOVE_WINDOWS,
} from './alerts';
import { DECIMAL_PATTERN, MAX_DECIMAL_LENGTH, normalizeDecimalText } from './decimal';
import { COST_METHODS, MAIN_ACCOUNT } from './ledger';
import { LOCK_IDLE_MINUTES, MAX_LOCK_PASSWORD_LENGTH, MIN_LOCK_PASSWORD_LENGTH } from './lock';
import {
  ASSET_PATTERN,
  KLINE_INTERVALS,
  NETWORK_PATTERN,
  SYMBOL_PATTERN,
  WITHDRAW_STATUSES,
} from './market';
import {
  CSV_DELIMITERS,
  HISTORY_RANGES,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  THEMES,
} from './types';

// ---- Shared input pieces -------------------------------------------------------------------

const none = z.object({}).strict();

/**
 * An amount as decimal text, normalised before anything uses it: "007.50" becomes "7.5", so the
 * exchange, the journal and the checks of decimals all see one spelling. A number is refused by
 * name: a float cannot carry an exact amount.
 */
export const decimalInput = z
  .string({
    error: (issue) =>
      issue.input === undefined ? undefined : 'Amounts are text like "12.5", not numbers',
  })
  .trim()
  .max(MAX_DECIMAL_LENGTH, 'Amount is too long')
  .regex(DECIMAL_PATTERN, 'Enter a number like 12.5 (digits and one dot)')
  .transform(normalizeDecimalText);

export const positiveDecimalInput = decimalInput.refine(
  (value) => value !== '0',
  'Amount must be greater than zero',
);

export const symbolInput = z
  .string()
  .trim()
  .toLowerCase()
  .regex(SYMBOL_PATTERN, 'Unknown symbol format (e.g. btcusdt)');

export const assetInput = z
  .string()
  .trim()
  .toLowerCase()
  .regex(ASSET_PATTERN, 'Unknown asset format (e.g. btc)');

/**
 * The account a ledger figure covers: 'main' or a sub-account's e-mail; left out, every account
 * together.
 */
const ledgerAccountInput = z.string().trim().toLowerCase().min(1).max(254).optional();

/** The account an order is of: 'main' or a sub-account's e-mail (left out, 'main'). */
const orderAccountInput = z
  .string("Name the account: 'main' or a sub-account's e-mail")
  .trim()
  .toLowerCase()
  .max(254, "Name the account: 'main' or a sub-account's e-mail")
  .refine(
    (value) => value === MAIN_ACCOUNT || z.email().safeParse(value).success,
    "Name the account: 'main' or a sub-account's e-mail",
  );

/** The accounts a read of orders or trades covers: one (see above), or left out, every account. */
const ordersAccountInput = orderAccountInput.optional();

export const networkInput = z
  .string()
  .trim()
  .min(1, 'Pick a network')
  .regex(NETWORK_PATTERN, 'Unknown network format');

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

const timeInput = z.int().nonnegative().max(8_640_000_000_000);
const offsetInput = z.int().nonnegative().max(100_000_000).default(0);
const limitInput = (max: number, fallback: number) => z.int().min(1).max(max).default(fallback);
const profileIdInput = z.string().min(1).max(64);
const journalIdInput = z.int().positive();
const sortDir = z.enum(['asc', 'desc']).default('desc');
const delimiterInput = z.enum(CSV_DELIMITERS).default(',');

export const withdrawFilterInput = z
  .object({
    coin: assetInput.optional(),
    transferType: z.enum(['onchain', 'partner']).optional(),
    status: z.enum(WITHDRAW_STATUSES).optional(),
    startTime: timeInput.optional(),
    endTime: timeInput.optional(),
    search: z.string().trim().max(200).optional(),
  })
  .strict();

export const tradeFilterInput = z
  .object({
    symbol: symbolInput.optional(),
    side: z.enum(ORDER_SIDES).optional(),
    startTime: timeInput.optional(),
    endTime: timeInput.optional(),
  })
  .strict();

export const transferFilterInput = z.object({ asset: assetInput.optional() }).strict();

export const newOrderInput = z
  .object({
    symbol: symbolInput,
    side: z.enum(ORDER_SIDES),
    type: z.enum(ORDER_TYPES),
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
    theme: z.enum(THEMES),
    privacyMode: z.boolean(),
    hideSmallBalances: z.boolean(),
    smallBalanceThreshold: decimalInput,
    priceWarningPercent: z
      .string({ error: 'Price warning distance must be a percentage like 10, as text' })
      .trim()
      .max(MAX_DECIMAL_LENGTH, 'Price warning distance is too long')
      .regex(DECIMAL_PATTERN, 'Price warning distance must be a percentage like 10')
      .transform(normalizeDecimalText)
      .refine((value) => value !== '0', 'Price warning distance must be greater than 0 %'),
    confirmOrdersAbove: decimalInput,
    notifications: z
      .object({
        fills: z.boolean(),
        cancels: z.boolean(),
        balances: z.boolean(),
        transfers: z.boolean(),
        // Settings saved before alerts existed have no switch for them: alerts are shown.
        alerts: z.boolean().default(true),
      })
      .strict(),
  })
  .strict();

/** An alert's line: a positive decimal, named in the error by what it is. */
const alertThreshold = (what: string) =>
  z
    .string({ error: `${what} must be a positive decimal like 12.5` })
    .trim()
    .max(MAX_DECIMAL_LENGTH, `${what} is too long`)
    .regex(DECIMAL_PATTERN, `${what} must be a positive decimal like 12.5 (digits and one dot)`)
    .transform(normalizeDecimalText)
    .refine((value) => value !== '0', `${what} must be greater than zero`);

const alertTiming = {
  repeat: z.boolean().default(false),
  cooldownMinutes: z
    .int('The cool-down is a whole number of minutes')
    .min(MIN_COOLDOWN_MINUTES, `The cool-down is at least ${MIN_COOLDOWN_MINUTES} minute`)
    .max(MAX_COOLDOWN_MINUTES, `The cool-down is at most ${MAX_COOLDOWN_MINUTES} minutes (7 days)`)
    .default(DEFAULT_COOLDOWN_MINUTES),
};

/** What an alert watches and how it fires, one shape per kind (shared/alerts.ts). */
export const alertInput = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('price'),
      symbol: symbolInput,
      direction: z.enum(LINE_DIRECTIONS),
      threshold: alertThreshold('The price'),
      ...alertTiming,
    })
    .strict(),
  z
    .object({
      kind: z.literal('price-move'),
      symbol: symbolInput,
      direction: z.enum(MOVE_DIRECTIONS),
      threshold: alertThreshold('The move').refine(
        // Normalised text has no leading zeros: fewer integer digits is a smaller number.
        (value) => (value.split('.')[0] ?? '').length < MAX_MOVE_PERCENT.length,
        `The move must be less than ${MAX_MOVE_PERCENT} %`,
      ),
      window: z.enum(MOVE_WINDOWS),
      ...alertTiming,
    })
    .strict(),
  z
    .object({
      kind: z.literal('balance'),
      asset: assetInput,
      direction: z.enum(LINE_DIRECTIONS),
      threshold: alertThreshold('The amount'),
      ...alertTiming,
    })
    .strict(),
  z
    .object({
      kind: z.literal('portfolio'),
      asset: assetInput,
      direction: z.enum(LINE_DIRECTIONS),
      threshold: alertThreshold('The value'),
      ...alertTiming,
    })
    .strict(),
  z
    .object({
      kind: z.literal('withdrawal'),
      asset: assetInput.nullable().default(null),
      ...alertTiming,
    })
    .strict(),
]);

const alertIdInput = z.int().positive();

// ---- One schema per method -------------------------------------------------------------------

export const methodSchemas = {
  'app.status': none,

  'profiles.list': none,
  'profiles.add': z
    .object({
      name: z.string().trim().min(1, 'Give the profile a name').max(60),
      apiKey: z.string().trim().min(8, 'The API key looks too short').max(256),
      secretKey: z.string().trim().min(8, 'The secret key looks too short').max(256),
      baseUrl: urlInput(['http:', 'https:'], 'Base URL must be an http(s) address'),
      streamUrl: urlInput(['ws:', 'wss:'], 'Stream URL must be a ws(s) address'),
    })
    .strict(),
  'profiles.update': z
    .object({
      id: profileIdInput,
      name: z.string().trim().min(1, 'Give the profile a name').max(60),
      baseUrl: urlInput(['http:', 'https:'], 'Base URL must be an http(s) address'),
      streamUrl: urlInput(['ws:', 'wss:'], 'Stream URL must be a ws(s) address'),
    })
    .strict(),
  'profiles.remove': z.object({ id: profileIdInput }).strict(),
  'profiles.removed': none,
  'profiles.restore': z
    .object({
      id: profileIdInput,
      apiKey: z.string().trim().min(8, 'The API key looks too short').max(256),
      secretKey: z.string().trim().min(8, 'The secret key looks too short').max(256),
    })
    .strict(),
  'profiles.activate': z.object({ id: profileIdInput }).strict(),
  'profiles.enterDemo': none,
  'profiles.orphanedKeys': none,
  'profiles.reattachKey': z
    .object({
      id: profileIdInput,
      name: z.string().trim().min(1, 'Give the profile a name').max(60),
      baseUrl: urlInput(['http:', 'https:'], 'Base URL must be an http(s) address'),
      streamUrl: urlInput(['ws:', 'wss:'], 'Stream URL must be a ws(s) address'),
    })
    .strict(),
  'profiles.deleteOrphanedKey': z.object({ id: profileIdInput }).strict(),

  'portfolio.summary': none,

  'funds.list': none,
  'funds.refresh': none,

  'account.info': none,

  'withdrawals.list': z
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
  'withdrawals.coins': none,
  'withdrawals.backfill': z.object({ since: timeInput.optional() }).strict(),
  'withdrawals.backfillStatus': none,

  'deposits.coins': none,
  'deposits.address': z.object({ coin: assetInput, network: networkInput }).strict(),
  'deposits.pending': none,
  'deposits.cancel': z.object({ coin: assetInput, network: networkInput }).strict(),

  'subAccounts.list': none,
  'subAccounts.refresh': none,
  'subAccounts.transfer': z
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
  'subAccounts.history': z
    .object({
      filter: transferFilterInput.default({}),
      offset: offsetInput,
      limit: limitInput(1000, 100),
    })
    .strict(),
  'subAccounts.link': z
    .object({
      email: emailInput,
      apiKey: z
        .string()
        .trim()
        .min(1, "Enter the sub-account's API key")
        .min(8, 'The API key looks too short')
        .max(256),
      secretKey: z
        .string()
        .trim()
        .min(1, "Enter the sub-account's secret key")
        .min(8, 'The secret key looks too short')
        .max(256),
    })
    .strict(),
  'subAccounts.unlink': z.object({ email: emailInput }).strict(),

  'orders.open': z.object({ symbol: symbolInput.optional(), account: ordersAccountInput }).strict(),
  'orders.history': z
    .object({
      account: ordersAccountInput,
      symbol: symbolInput.optional(),
      status: z.enum(ORDER_STATUSES).optional(),
      offset: offsetInput,
      limit: limitInput(1000, 100),
    })
    .strict(),
  'orders.trades': z
    .object({
      account: ordersAccountInput,
      filter: tradeFilterInput.default({}),
      offset: offsetInput,
      limit: limitInput(1000, 100),
    })
    .strict(),
  'orders.test': newOrderInput,
  'orders.place': newOrderInput,
  'orders.cancel': z
    .object({
      symbol: symbolInput,
      orderId: z.int().positive(),
      account: orderAccountInput.optional(),
    })
    .strict(),
  'orders.cancelAll': z
    .object({ symbol: symbolInput, account: orderAccountInput.optional() })
    .strict(),

  'market.symbols': none,
  'market.tickers': none,
  'market.klines': z
    .object({
      symbol: symbolInput,
      interval: z.enum(KLINE_INTERVALS),
      limit: limitInput(2000, 200),
    })
    .strict(),
  'market.depth': z
    .object({ symbol: symbolInput, limit: z.literal([5, 10, 20, 50, 100]).default(20) })
    .strict(),
  'market.trades': z.object({ symbol: symbolInput, limit: limitInput(1000, 50) }).strict(),
  'market.watch': z.object({ symbol: symbolInput }).strict(),
  'market.unwatch': none,

  'settings.get': none,
  'settings.update': settingsInput.partial().strict(),

  'export.csv': z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('withdrawals'),
        filter: withdrawFilterInput.default({}),
        delimiter: delimiterInput,
      })
      .strict(),
    z
      .object({
        kind: z.literal('trades'),
        filter: tradeFilterInput.default({}),
        delimiter: delimiterInput,
      })
      .strict(),
    z
      .object({
        kind: z.literal('transfers'),
        filter: transferFilterInput.default({}),
        delimiter: delimiterInput,
      })
      .strict(),
  ]),

  'journal.list': none,
  'journal.check': none,
  'journal.finish': z.object({ id: journalIdInput }).strict(),
  'journal.resolve': z.object({ id: journalIdInput }).strict(),

  'lock.status': none,
  'lock.unlock': z.object({ password: z.string().max(MAX_LOCK_PASSWORD_LENGTH) }).strict(),
  'lock.lock': none,
  'lock.setPassword': z
    .object({
      current: z.string().max(MAX_LOCK_PASSWORD_LENGTH).optional(),
      password: z
        .string()
        .min(
          MIN_LOCK_PASSWORD_LENGTH,
          `The password needs at least ${MIN_LOCK_PASSWORD_LENGTH} characters`,
        )
        .max(MAX_LOCK_PASSWORD_LENGTH),
    })
    .strict(),
  'lock.confirm': z.object({ password: z.string().max(MAX_LOCK_PASSWORD_LENGTH) }).strict(),
  'lock.removePassword': z.object({ current: z.string().max(MAX_LOCK_PASSWORD_LENGTH) }).strict(),
  'lock.setIdle': z
    .object({
      idleMinutes: z
        .int()
        .refine((minutes) => (LOCK_IDLE_MINUTES as readonly number[]).includes(minutes), {
          message: `idleMinutes must be one of ${LOCK_IDLE_MINUTES.join(', ')}`,
        }),
    })
    .strict(),
  'lock.activity': none,
  'lock.reset': z.object({ confirm: z.literal(true) }).strict(),

  'alerts.list': none,
  'alerts.create': alertInput,
  'alerts.update': z.object({ id: alertIdInput, alert: alertInput }).strict(),
  'alerts.setPaused': z.object({ id: alertIdInput, paused: z.boolean() }).strict(),
  'alerts.remove': z.object({ id: alertIdInput }).strict(),

  'activity.feed': z.object({ limit: limitInput(500, 100) }).strict(),
  'activity.notifications': z.object({ limit: limitInput(500, 100) }).strict(),
  'activity.markNotificationsRead': none,

  'ledger.summary': z
    .object({ account: ledgerAccountInput, range: z.enum(HISTORY_RANGES).optional() })
    .strict(),
  'ledger.netWorth': z.object({ account: ledgerAccountInput }).strict(),
  'ledger.asset': z
    .object({
      asset: assetInput,
      method: z.enum(COST_METHODS).optional(),
      account: ledgerAccountInput,
    })
    .strict(),
  'ledger.history': z.object({ range: z.enum(HISTORY_RANGES) }).strict(),
  'ledger.allProfiles': z.object({ range: z.enum(HISTORY_RANGES).optional() }).strict(),
  'ledger.allProfilesHistory': z.object({ range: z.enum(HISTORY_RANGES) }).strict(),
  'ledger.inferred': none,
  'ledger.annotate': z
    .object({
      id: z.string().trim().min(1).max(400),
      label: z.string().trim().max(120).nullable().optional(),
      costBasis: z
        .object({ amount: decimalInput, currency: assetInput })
        .strict()
        .nullable()
        .optional(),
    })
    .strict(),
  'ledger.review': z
    .object({ id: z.string().trim().min(1).max(400), action: z.enum(['keep', 'remove']) })
    .strict(),
  'ledger.settings': none,
  'ledger.setMethod': z.object({ method: z.enum(COST_METHODS) }).strict(),
  'ledger.taxReport': z
    .object({
      year: z.int('Enter a year such as 2024').min(2009).max(2100),
      method: z.enum(COST_METHODS).optional(),
      longTermAfterDays: z.int('Enter whole days').min(0).max(36_500).default(365),
    })
    .strict(),
  'ledger.koinlyExport': none,
  'ledger.openExportsFolder': none,
} satisfies Record<`${string}.${string}`, z.ZodType>;

export type MethodSchemas = typeof methodSchemas;
type SchemaName = keyof MethodSchemas;

/** What the renderer passes to each method (fields with defaults may be left out). */
export type MethodInputs = { [K in SchemaName]: z.input<MethodSchemas[K]> };
/** What each handler receives after validation (defaults filled in, text normalised). */
export type MethodParsedInputs = { [K in SchemaName]: z.output<MethodSchemas[K]> };

/**
 * The schema of a method, or undefined for any name the table does not hold as its own:
 * "__proto__", "toString" or "constructor" find nothing here.
 */
export function methodSchema(name: string): z.ZodType | undefined {
  return Object.hasOwn(methodSchemas, name) ? methodSchemas[name as SchemaName] : undefined;
}
