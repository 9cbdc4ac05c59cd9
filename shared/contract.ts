/**
 * The bridge contract: every method the renderer may call, with its result type, and every event
 * the main process may send, with its payload. The preload, the ipcMain binding, the browser-mode
 * bridge and the renderer's client are all derived from this one object. There is no generic
 * pass-through: a call names a method here.
 *
 * This file has no run-time dependency: the preload and the renderer bundle it as it is. The input
 * schemas (zod) that the main process checks each call against live in ./contract-schemas; the
 * input types below are derived from them at compile time only (`import type`), and a
 * compile-time check at the end proves both name exactly the same methods.
 */
import type { AlertView } from './alerts';
import type { MethodInputs, MethodParsedInputs, MethodSchemas } from './contract-schemas';
import type {
  AllProfilesHistoryView,
  AllProfilesView,
  AssetLedgerView,
  InferredEntryView,
  LedgerHistoryView,
  LedgerSettingsView,
  LedgerSummaryView,
  NetWorthView,
  ReportFileView,
} from './ledger';
import type {
  AccountView,
  ActivityItem,
  AppStatus,
  BackfillProgress,
  BalanceUpdate,
  BridgeErrorPayload,
  CoinView,
  ConnectionState,
  CsvExport,
  DataKind,
  DepositAddressRequest,
  DepositAddressView,
  DepthView,
  FundsView,
  JournalEntryView,
  KlineView,
  NotificationView,
  OrderReview,
  OrphanedKeyView,
  OrderUpdate,
  OrderView,
  OrdersPage,
  OwnTradeUpdate,
  Page,
  PortfolioSummary,
  ProfileView,
  PublicTradeView,
  RemovedProfileView,
  Settings,
  SubAccountsView,
  SubTransferView,
  SymbolView,
  TickerView,
  TradesPage,
  TransferOutcome,
  WithdrawView,
} from './types';
import type { ConfirmResult, LockStatus, UnlockResult } from './lock';

/** A method's entry: its result type, carried only at the type level. */
export interface Returns<R> {
  readonly result?: R;
}

const NO_VALUE: Returns<never> = Object.freeze({});

/** The entry of a method that answers R. One shared empty object: it only carries the type. */
function returns<R>(): Returns<R> {
  return NO_VALUE;
}

// ---- Methods ---------------------------------------------------------------------------------

export const methods = {
  app: {
    status: returns<AppStatus>(),
  },
  profiles: {
    list: returns<ProfileView[]>(),
    /** Verifies the key against the exchange first; stores nothing on failure. */
    add: returns<ProfileView>(),
    /** Changes a profile's name and addresses; new addresses are verified first, like add. */
    update: returns<ProfileView>(),
    remove: returns<{ removed: true }>(),
    activate: returns<ProfileView>(),
    /** Starts the built-in sandbox exchange and a clearly labelled demo profile. */
    enterDemo: returns<ProfileView>(),
    /** Keychain entries of Spotfolio's that no profile uses (found with the keychain's search). */
    orphanedKeys: returns<OrphanedKeyView[]>(),
    /** Makes a profile for an orphaned entry's key, verified as on adding; no new entry is made. */
    reattachKey: returns<ProfileView>(),
    /** Deletes an orphaned entry from the keychain. */
    deleteOrphanedKey: returns<{ deleted: true }>(),
    /** Profiles the user removed, whose record rows are kept: restorable. */
    removed: returns<RemovedProfileView[]>(),
    /** Brings a removed profile back with all it had, given its key again (verified first). */
    restore: returns<ProfileView>(),
  },
  portfolio: {
    summary: returns<PortfolioSummary>(),
  },
  funds: {
    list: returns<FundsView>(),
    refresh: returns<FundsView>(),
  },
  account: {
    info: returns<AccountView>(),
  },
  withdrawals: {
    list: returns<Page<WithdrawView>>(),
    /** Coins that appear in the cached history, for the filter. */
    coins: returns<string[]>(),
    backfill: returns<BackfillProgress>(),
    backfillStatus: returns<BackfillProgress>(),
  },
  deposits: {
    coins: returns<{ coins: CoinView[]; asOf: number | null }>(),
    address: returns<DepositAddressView>(),
    /** Addresses asked for and not here yet, with when a queued one goes out. */
    pending: returns<DepositAddressRequest[]>(),
    /** Cancels a queued address request before it reaches the exchange. */
    cancel: returns<{ canceled: boolean }>(),
  },
  subAccounts: {
    list: returns<SubAccountsView>(),
    refresh: returns<SubAccountsView>(),
    /** Main to sub, sub to main, or sub to sub as two transfers through the main account. */
    transfer: returns<TransferOutcome>(),
    history: returns<Page<SubTransferView>>(),
    /**
     * Links a sub-account to its own API key (read-only is enough), checked with the exchange to
     * be that sub-account's; kept in the OS keychain. The ledger then reads its trades.
     */
    link: returns<SubAccountsView>(),
    /** Removes the link and its keychain entry; labels and cost bases stay. */
    unlink: returns<SubAccountsView>(),
  },
  orders: {
    /** The open orders of the account named, or every account's; each row says its account. */
    open: returns<OrdersPage>(),
    history: returns<OrdersPage>(),
    trades: returns<TradesPage>(),
    /**
     * Checks the order locally (tick size, quantity step, limits, a stop on the right side of the
     * last price, the free balance) and then with the exchange's test endpoint; nothing is placed.
     */
    test: returns<OrderReview>(),
    place: returns<OrderView>(),
    cancel: returns<OrderView>(),
    cancelAll: returns<{ canceled: OrderView[] }>(),
  },
  market: {
    symbols: returns<SymbolView[]>(),
    tickers: returns<TickerView[]>(),
    klines: returns<KlineView[]>(),
    depth: returns<DepthView>(),
    trades: returns<PublicTradeView[]>(),
    /** Starts live trades and depth events for one symbol (the symbol page); replaces the previous one. */
    watch: returns<{ symbol: string }>(),
    unwatch: returns<{ symbol: null }>(),
  },
  settings: {
    get: returns<Settings>(),
    /** Changes some settings; a quote asset must be one the exchange lists. */
    update: returns<Settings>(),
  },
  export: {
    csv: returns<CsvExport>(),
  },
  journal: {
    /** The active profile's entries the user must see: unfinished, stopped, or settled after a restart. */
    list: returns<JournalEntryView[]>(),
    /** Checks the unfinished entries with the exchange now (also done at start-up and on reconnect). */
    check: returns<JournalEntryView[]>(),
    /** Sends the missing leg of a stopped transfer (or the whole move when nothing left). */
    finish: returns<JournalEntryView>(),
    /** Leaves the funds where they are (stopped) or acknowledges a settled entry. */
    resolve: returns<JournalEntryView>(),
  },
  /** The app lock: the only methods answered while the app is locked are named in shared/lock.ts. */
  lock: {
    status: returns<LockStatus>(),
    /** Checks the password in the main process; repeated failures make the next try wait. */
    unlock: returns<UnlockResult>(),
    lock: returns<LockStatus>(),
    /** Sets or changes the password (the current one is asked for when one is set). */
    setPassword: returns<LockStatus>(),
    /** The password given again before a sensitive action (see shared/lock.ts). */
    confirm: returns<ConfirmResult>(),
    removePassword: returns<LockStatus>(),
    setIdle: returns<LockStatus>(),
    /** The user did something: the idle timer starts again. */
    activity: returns<{ ok: true }>(),
    /** Forgotten password: a kept backup, then the keys, every profile's local data and the password go. */
    reset: returns<LockStatus>(),
  },
  alerts: {
    /** The active profile's alerts, each with when it last fired. */
    list: returns<AlertView[]>(),
    /** Checks the market or asset with the exchange and refuses a duplicate. */
    create: returns<AlertView>(),
    /** Changes an alert; it starts afresh (its side is seen again, a fired one-shot re-arms). */
    update: returns<AlertView>(),
    /** Pauses, or resumes (re-arming a fired one-shot alert). */
    setPaused: returns<AlertView>(),
    remove: returns<{ removed: true }>(),
  },
  activity: {
    feed: returns<ActivityItem[]>(),
    notifications: returns<NotificationView[]>(),
    markNotificationsRead: returns<{ ok: true }>(),
  },
  ledger: {
    /** P&L per asset and in total in the reporting currency, what it includes, the import's progress. */
    summary: returns<LedgerSummaryView>(),
    /** Main account plus every sub-account, each valued. */
    netWorth: returns<NetWorthView>(),
    /**
     * One asset: figures, lots, its entries (inferred ones labelled) and holdings over time, by
     * the method asked for (the profile's setting when none is).
     */
    asset: returns<AssetLedgerView>(),
    /** The value history from the ledger's holdings at the prices of the time. */
    history: returns<LedgerHistoryView>(),
    inferred: returns<InferredEntryView[]>(),
    /** The user's label and cost basis of an inferred entry (null clears it). */
    annotate: returns<InferredEntryView>(),
    /**
     * A label and cost that new records changed, looked at again: kept with the entry as it is
     * now (`keep`), or removed (`remove`).
     */
    review: returns<{ ok: true }>(),
    settings: returns<LedgerSettingsView>(),
    setMethod: returns<LedgerSettingsView>(),
    /** Writes the tax-year report's CSV; answers where it went and its summary. */
    taxReport: returns<ReportFileView>(),
    /** Writes the whole ledger in Koinly's universal format. */
    koinlyExport: returns<ReportFileView>(),
    /** Opens the folder reports are written to in the system's file manager. */
    openExportsFolder: returns<{ folder: string }>(),
    /**
     * Every profile together (each its every account): net worth, allocation, the P&L card's
     * figures and each profile's share, in the Settings' quote asset; who is left out and why.
     */
    allProfiles: returns<AllProfilesView>(),
    /** The value history of every profile together. */
    allProfilesHistory: returns<AllProfilesHistoryView>(),
  },
} as const;

// ---- Events ----------------------------------------------------------------------------------

/**
 * A live stream's `data.changed` of one kind goes out at most this often (ms), so the page asks
 * again per change, not per fill; the page's paced answers wait this long for a change to come
 * with (lib/query.ts).
 */
export const LIVE_CHANGES_EVERY_MS = 250;

export interface EventPayloads {
  'data.changed': {
    profileId: string | null;
    kinds: DataKind[];
    /**
     * The reads whose answers the change makes stale, named by the main process (which knows
     * what it wrote) when it sends the event; the page marks exactly these stale.
     */
    queries?: MethodName[];
    /** Given by the emitter only: the read whose own answer made the change (never stale by it). */
    answered?: MethodName;
  };
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
  /** The lock's state changed; while locked it is the only event sent. */
  'lock.changed': LockStatus;
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
  'lock.changed',
] as const satisfies readonly EventName[];

// ---- Derived types ---------------------------------------------------------------------------

export type Methods = typeof methods;
export type Namespace = keyof Methods;
export type MethodName<N extends Namespace = Namespace> = N extends Namespace
  ? `${N}.${Extract<keyof Methods[N], string>}`
  : never;

type EntryOf<K extends string> = K extends `${infer N}.${infer M}`
  ? N extends Namespace
    ? M extends keyof Methods[N]
      ? Methods[N][M]
      : never
    : never
  : never;

/** What the renderer passes (defaults may be left out). */
export type MethodInput<K extends MethodName> = K extends keyof MethodInputs
  ? MethodInputs[K]
  : never;
/** What the main process receives after validation (defaults filled in, amounts normalised). */
export type MethodParsedInput<K extends MethodName> = K extends keyof MethodParsedInputs
  ? MethodParsedInputs[K]
  : never;
export type MethodResult<K extends MethodName> = EntryOf<K> extends Returns<infer R> ? R : never;

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

/** The envelope every call's answer travels in, over IPC and over browser mode's WebSocket. */
export type CallOutcome<R> = { ok: true; value: R } | { ok: false; error: BridgeErrorPayload };

/** IPC channel names are derived, never written by hand. */
export const ipcChannel = (name: MethodName): string => `spotfolio:${name}`;
export const ipcEventChannel = 'spotfolio:event';

/** The largest call browser mode accepts in one WebSocket message. */
export const maxCallBytes = 256 * 1024;

// ---- The compile-time check: the schemas and the contract name the same methods --------------

/**
 * B itself, when B has exactly the keys of A; otherwise a compile error that names the key B lacks
 * ("Property 'orders.x' is missing") or has in excess ("… is not assignable to type 'never'").
 */
export type WithKeysOf<
  A,
  B extends { [K in keyof A]: unknown } & { [K in Exclude<keyof B, keyof A>]: never },
> = B;

/** Every method of the contract has an input schema, and every schema is a method of the contract. */
export type SchemasMatchContract = WithKeysOf<Record<MethodName, unknown>, MethodSchemas>;
