/**
 * The composition root, in plain Node: config -> store, secrets, exchange clients (per active
 * profile), sync, live, api handlers. Electron's main process and browser mode both build the app
 * here and bind `handlers` and `onEvent` to their transport; nothing else wires parts together.
 */
import { randomBytes } from 'node:crypto';
import packageJson from '../package.json';
import { methodNames, type BridgeHandlers, type EventPayloads } from '../shared/contract';
import { METHODS_WHILE_LOCKED } from '../shared/lock';
import type { AppStatus, KeychainStatus, RecordUnavailable } from '../shared/types';
import { namedChange } from './api/changes';
import type { ApiContext } from './api/context';
import { toBridgeError } from './api/errors';
import { createHandlers } from './api/handlers';
import type { LockGate } from './api/dispatch';
import { lockGate } from './api/lock';
import { AppError } from './core/app-error';
import { nextTurn, SystemClock, Timer, type Clock } from './core/clock';
import type { Emit } from './core/events';
import type { Logger } from './core/logger';
import type { Notifier } from './core/notifier';
import { timingsOf, type Timings } from './core/timings';
import { AlertEditor } from './alerts/editor';
import { ExchangeLimiters } from './exchange/limits';
import { Activity } from './live/activity';
import { CandleScheduler, LedgerService, tradeReaders } from './ledger';
import { AllProfiles } from './ledger/all-profiles';
import { LedgerFigures } from './ledger/figures';
import { AppLock, followScreenLock, SensitiveActions } from './lock';
import { MarketCache } from './market/cache';
import { OrderDesk } from './orders/desk';
import { OrderHistory } from './orders/history';
import { ExchangeRules } from './rules/exchange-rules';
import { createLogger } from './log';
import {
  DemoSecretStore,
  KeytarSecretStore,
  KeyVault,
  SecretStoreUnavailableError,
  type Keychain,
} from './secrets';
import { SubAccountLinks } from './session/sub-account-links';
import { SessionManager, type ActiveSession, type DemoOptions } from './session/manager';
import { SettingsEditor } from './settings/editor';
import { readSettings } from './settings/stored';
import { storePort } from './sync/store-port';
import { Transfers } from './transfers';
import {
  scheduleBackups,
  startStore,
  StoreUnavailableError,
  WalCheckpoints,
  type OpenStoreResult,
} from './store';

export interface AppOptions {
  /** The app's data folder (the SQLite file lives here). */
  dataDir: string;
  mode: 'desktop' | 'browser';
  /**
   * The keychain the API keys are kept in (this data folder's entries, through a KeyVault).
   * Default: KeytarSecretStore (the OS keychain).
   */
  secrets?: Keychain;
  /** Desktop: native notifications (shell); browser: none (the 'notification' event reaches the page). */
  notifier?: Notifier;
  /**
   * 'off' (default): with no profile nothing starts, and the page offers the choice (try the
   * demo, or add an exchange key). 'auto': with no profile, start the in-process sandbox and a
   * "Demo" profile at once (tests).
   */
  demo?: 'auto' | 'off';
  /** For tests: e.g. a seed, simulation off. */
  sandboxOptions?: DemoOptions;
  /**
   * Time and timers of the app: what it stamps (profiles, notifications, connection changes) and
   * what it waits on (sync's schedule, live batching and notification windows). Default: the
   * system clock; tests pass a ManualClock and advance it instead of sleeping.
   */
  clock?: Clock;
  /** Receives log lines, already redacted. Default: the console. */
  log?: (line: string) => void;
  /** How long the app waits before looking again for what it lacks (core/timings.ts). */
  timings?: Partial<Timings>;
  /**
   * Lock when the desktop session locks or the machine sleeps (Linux, over D-Bus: lock/
   * screen-lock.ts). The entry points turn it on; tests that do not test it leave it off.
   */
  followScreenLock?: boolean;
  /**
   * The script a ledger's reader thread runs (electron/ledger/trade-reader.ts built to
   * trade-reader.cjs beside the app's bundle, or TRADE_READER_SOURCE where the app runs from its
   * TypeScript): a long history's trades are read on such threads while the main process answers.
   * Absent: every read is the main thread's.
   */
  tradeReaderScript?: string | URL;
  /**
   * The script the store's WAL checkpoint thread runs (electron/store/checkpoint-thread.ts built
   * to checkpoint-thread.cjs beside the app's bundle, or CHECKPOINT_THREAD_SOURCE where the app
   * runs from its TypeScript): the store's commits then never copy the WAL back themselves.
   * Absent: they do, as SQLite does by default.
   */
  checkpointScript?: string | URL;
}

/** Receives every event the app emits, as the transports forward them to the renderer. */
export type EventListener = Emit;

export interface SpotfolioApp {
  /** One async function per contract method, taking the parsed input. */
  handlers: BridgeHandlers;
  /** The app's logger: it knows every secret loaded so far, so the transports log through it. */
  log: Logger;
  /**
   * The transports' dispatchers ask it before every call: while locked only lock.* is answered,
   * and a sensitive call may have to wait for the password to be given again.
   */
  lock: LockGate;
  onEvent(listener: EventListener): () => void;
  close(): Promise<void>;
}

/** The figure a start shows first: the Portfolio's total. */
const FIRST_SCREEN_TOTAL = 'portfolio.summary';

/**
 * The first screen's reads, answered from the record as soon as the app is created: a demo
 * resumed at start builds its exchange behind them (SessionManager.start), and every other call
 * waits until it runs. The lock's own methods never wait.
 */
const ANSWERED_WHILE_STARTING: ReadonlySet<string> = new Set<string>([
  'app.status',
  'settings.get',
  'profiles.list',
  FIRST_SCREEN_TOTAL,
  ...METHODS_WHILE_LOCKED,
]);

/**
 * When a resumed demo's exchange is built (SessionManager.start): its world is built in turns of
 * the thread that answers the page, so it begins once the first screen's answers have gone out
 * (the turn after the last of them, the total among them), or as soon as a call needs the new
 * demo, or at the latest `atLatestMs` after the start when no page asks for either (one opened
 * locked).
 */
function demoBuildGate(clock: Clock, atLatestMs: number) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let done = false;
  const timer = new Timer(clock, () => now());
  const now = () => {
    done = true;
    timer.cancel();
    release();
  };
  return {
    /** Asked only by a start that builds a demo behind the stand-in: the latest time is then set. */
    released: () => {
      if (!done) timer.startIfIdle(atLatestMs);
      return released;
    },
    now,
    /** After this turn: the answer just given is written out before the build's first slice. */
    afterThisTurn: () => void nextTurn().then(now),
  };
}

/** At the latest, how long after the start a resumed demo's exchange is built. */
const DEMO_BUILD_AT_LATEST_MS = 1000;

/**
 * The handlers, each but the first screen's waiting for the session's start to be done (and
 * letting a resumed demo's build begin at once). Once the total has been answered, the build
 * begins after the last of the first screen's calls then on their way (the page sends them
 * together) has been answered too.
 */
function afterStart(
  handlers: BridgeHandlers,
  started: () => Promise<void>,
  demoBuild: ReturnType<typeof demoBuildGate>,
): BridgeHandlers {
  const gated = { ...handlers } as Record<string, (input: unknown) => Promise<unknown>>;
  let firstScreenCalls = 0;
  let totalAnswered = false;
  for (const [name, handler] of Object.entries(gated)) {
    if (ANSWERED_WHILE_STARTING.has(name)) {
      gated[name] = (input) => {
        firstScreenCalls++;
        const answer = handler(input);
        const answered = () => {
          firstScreenCalls--;
          totalAnswered ||= name === FIRST_SCREEN_TOTAL;
          if (totalAnswered && firstScreenCalls === 0) demoBuild.afterThisTurn();
        };
        // Watched beside, not chained: the answer goes out in no more turns than before.
        answer.then(answered, answered);
        return answer;
      };
      continue;
    }
    gated[name] = async (input) => {
      demoBuild.now();
      await started();
      return handler(input);
    };
  }
  return gated as unknown as BridgeHandlers;
}

/** How long after the start the lock begins to follow the desktop session's lock. */
const SCREEN_LOCK_FOLLOW_AFTER_MS = 1000;

/** Something started after `ms` on the clock; stopping it before then means it never starts. */
function later(clock: Clock, ms: number, start: () => { stop(): void }): { stop(): void } {
  let started: { stop(): void } | undefined;
  const timer = new Timer(clock, () => (started = start()));
  timer.start(ms);
  return {
    stop() {
      timer.cancel();
      started?.stop();
    },
  };
}

/** Where the record keeps this data folder's install id (in its keychain entries' names). */
const INSTALL_ID_KEY = 'installId';

/** Asks the keychain once at start-up whether it answers; the status bar shows the result. */
async function probeKeychain(secrets: Keychain): Promise<KeychainStatus> {
  try {
    const probe = (secrets as { probe?: () => Promise<void> }).probe;
    if (probe) await probe.call(secrets);
    else await secrets.all();
    return { available: true };
  } catch (error) {
    if (error instanceof SecretStoreUnavailableError) {
      return { available: false, message: error.message };
    }
    return { available: false, message: 'The keychain did not answer.' };
  }
}

export async function createApp(options: AppOptions): Promise<SpotfolioApp> {
  const clock = options.clock ?? new SystemClock();
  const timings = timingsOf(options.timings);
  const now = () => clock.now();
  const log = createLogger(options.log);
  const secrets = options.secrets ?? new KeytarSecretStore();
  let opened: OpenStoreResult;
  try {
    opened = await startStore({
      dataDir: options.dataDir,
      now,
      // Entries in the keychain mean profiles were added: an empty record file is then damage.
      recordExpected: () =>
        secrets.all().then(
          (entries) => entries.length > 0,
          () => false,
        ),
    });
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    log.error(`The record could not be opened: ${error.details.message}`, error.cause);
    return unavailableApp(options, log, error.details);
  }
  const { store, notices, recovered } = opened;
  // This data folder's keychain entries are named after its install id, kept in its record.
  let installId = store.settings.get<string>(INSTALL_ID_KEY);
  if (typeof installId !== 'string' || !/^[0-9a-f]{32}$/.test(installId)) {
    installId = randomBytes(16).toString('hex');
    store.settings.set(INSTALL_ID_KEY, installId);
  }
  const vault = new KeyVault({ keychain: secrets, installId });
  try {
    const claimed = await vault.claim(new Set(store.profiles.list().map((p) => p.id)));
    if (claimed.length > 0) log.info(`Keychain entries of ${claimed.join(', ')} claimed`);
  } catch (error) {
    log.warn(`The keychain's older entries could not be claimed now: ${String(error)}`);
  }
  for (const notice of notices) {
    if (notice.kind === 'cache-rebuilt') {
      log.warn(`The cache was unreadable (${notice.reason}); moved to ${notice.movedTo}, rebuilt`);
    } else if (notice.kind === 'record-restored') {
      log.warn(
        `The record was unusable (${notice.reason}); kept at ${notice.movedTo ?? '(none)'}; ` +
          `restored ${notice.backupPath}`,
      );
    } else {
      log.warn(`The record was unusable (${notice.reason}) and no backup could be restored`);
    }
  }
  // A backup of the record once a day while the app runs (one was taken at this start).
  const stopBackups = scheduleBackups(
    () => store.backup(),
    clock,
    (error) => log.error('The daily backup of the record failed', error),
  );
  const listeners = new Set<EventListener>();
  const emit: Emit = (event, given) => {
    // A change names the reads it makes stale (api/changes.ts), whoever emitted it.
    const payload =
      event === 'data.changed'
        ? (namedChange(given as EventPayloads['data.changed']) as typeof given)
        : given;
    // While locked no data reaches a page; the lock sends what changed after unlocking.
    if (!lock.admits(event, payload)) return;
    for (const listener of listeners) {
      try {
        listener(event, payload);
      } catch (error) {
        log.error(`An event listener failed on ${event}`, error);
      }
    }
  };
  const lock: AppLock = new AppLock({
    record: store.settings,
    clock,
    emit,
    log,
    vault,
    backup: async () => (await store.backupBefore('reset')).path,
    forgetProfiles: () => session.forgetLocalData(),
    // After a start with a password set, the profile's session waits for the first unlock.
    onKeysAvailable: () => {
      if (session.current()) return;
      session.start('off').catch((error: unknown) => {
        log.error('The profile could not be resumed after unlocking', error);
      });
    },
  });
  // Followed a moment after the start: spawning the two bus monitors (50-250 ms of this process
  // on a loaded 2-core machine) is no part of answering the first screen.
  const screenLock =
    options.followScreenLock && process.platform === 'linux'
      ? later(clock, SCREEN_LOCK_FOLLOW_AFTER_MS, () =>
          followScreenLock({
            onLocked: (cause) => {
              log.info(
                lock.lock('system')
                  ? `Locked with the desktop session (${cause})`
                  : `The desktop session locked (${cause}); no lock password is set, so nothing to lock`,
              );
            },
            log: (line) => log.warn(line),
          }),
        )
      : null;
  const notifier = lock.guardNotifier(options.notifier);
  const settings = () => readSettings(store.settings);
  // The probe runs alongside the session's start rather than before it: both wait on other
  // processes (the keychain daemon; in demo mode the sandbox), and no handler can ask for the
  // status before createApp returns, by which time the probe has answered.
  let keychain: KeychainStatus = { available: false, message: 'The keychain was not asked yet.' };
  const keychainProbed = probeKeychain(secrets).then((status) => {
    keychain = status;
  });
  // Sync's port onto the store: built here once, shared by every service that reads what sync
  // keeps (no module-level cache of it anywhere).
  const syncPort = storePort(store);
  // The exchanges' rate limiters: one per exchange for every client the app makes (the exchange
  // counts per key and per IP, not per client), built here once.
  const limiters = new ExchangeLimiters();
  // The sub-accounts linked to their own key: checked, kept and read with it (one per app).
  const subAccountLinks = new SubAccountLinks({
    store,
    port: syncPort,
    limiters,
    clock,
    emit,
    log,
  });
  const session = new SessionManager({
    port: syncPort,
    store,
    secrets: vault,
    demoSecrets: new DemoSecretStore(),
    limiters,
    emit,
    log,
    settings,
    notifier,
    sandboxOptions: options.sandboxOptions,
    clock,
    timings,
    describeError: (error) => toBridgeError(error).message,
    subAccountLinks,
  });
  const readers = options.tradeReaderScript ? tradeReaders(options.tradeReaderScript) : undefined;
  const ledger = new LedgerService(store, now, readers ? { readers } : {});
  const rules = new ExchangeRules(clock);
  const candles = new CandleScheduler({
    store,
    ledger,
    emit,
    log,
    clock,
    retryMs: timings.priceRetryMs,
  });
  const ledgerFigures = new LedgerFigures({ store, ledger, candles, emit, log, settings, now });
  const allProfiles = new AllProfiles({
    store,
    ledger,
    candles,
    currency: () => settings().quoteAsset,
    methodOf: (profileId) => ledgerFigures.settingsOf(profileId).method,
    active: () => session.current(),
    marketClient: (profileId) => session.marketClient(profileId),
    now,
  });
  const orders = new OrderDesk({
    store,
    subAccounts: subAccountLinks,
    rules,
    emit,
    log,
    settings,
  });
  const ctx: ApiContext = {
    mode: options.mode,
    version: packageJson.version,
    store,
    log,
    emit,
    session,
    marketCache: new MarketCache({ store, port: syncPort, emit, log, clock }),
    syncPort,
    ledgerFigures,
    allProfiles,
    rules,
    orders,
    orderHistory: new OrderHistory({ store, linked: subAccountLinks }),
    alerts: new AlertEditor({ store, rules, port: syncPort, emit, log, now }),
    transfers: new Transfers({ store, rules, emit, log, settings, now, notifier }),
    subAccountLinks,
    activity: new Activity({ store, emit }),
    settingsEditor: new SettingsEditor({ record: store.settings, rules, sessions: session, emit }),
    notifier,
    lock,
    sensitiveActions: new SensitiveActions<ActiveSession>({
      profiles: store.profiles,
      settings,
      sessions: session,
      orders,
    }),
    now,
    settings,
    keychain: () => keychain,
    ...(recovered ? { storeRecovered: recovered } : {}),
    ...(notices.length > 0 ? { storeNotices: notices } : {}),
  };
  const demoBuild = demoBuildGate(clock, DEMO_BUILD_AT_LATEST_MS);
  const handlers = afterStart(createHandlers(ctx), () => session.started(), demoBuild);

  try {
    await Promise.all([session.start(options.demo ?? 'off', demoBuild.released), keychainProbed]);
  } catch (error) {
    await keychainProbed;
    await session.close().catch(() => undefined);
    demoBuild.now();
    limiters.close();
    screenLock?.stop();
    lock.dispose();
    stopBackups();
    await readers?.close();
    store.close();
    throw error;
  }
  log.info(`Spotfolio ${packageJson.version} started (${options.mode} mode)`);
  // Started once the app has started, not beside the first screen's answers (answered while it
  // starts): until the thread is ready the store checkpoints on its own, as it would without it.
  const checkpoints = options.checkpointScript
    ? new WalCheckpoints(store, { script: options.checkpointScript, log })
    : undefined;

  let closing: Promise<void> | undefined;
  return {
    handlers,
    log,
    lock: lockGate(ctx),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closing ??= (async () => {
        await session.close();
        // A demo build not begun yet never begins now (the session is closed): its timer goes.
        demoBuild.now();
        limiters.close();
        screenLock?.stop();
        lock.dispose();
        listeners.clear();
        stopBackups();
        await readers?.close();
        await checkpoints?.close();
        store.close();
        log.info('Spotfolio closed');
      })();
      return closing;
    },
  };
}

/**
 * The app when the record cannot be opened (a migration failed, a newer version wrote it, it is
 * locked): nothing else starts, no empty record is made in its place, and every call but
 * app.status is refused, so the page shows what happened, where the files are and what to do.
 */
function unavailableApp(
  options: AppOptions,
  log: Logger,
  details: RecordUnavailable,
): SpotfolioApp {
  const status: AppStatus = {
    version: packageJson.version,
    mode: options.mode,
    activeProfileId: null,
    demo: false,
    connection: 'offline',
    rest: { state: 'unknown', since: null },
    keychain: { available: false, message: 'Not asked: your data could not be opened.' },
    pacingWaitMs: 0,
    recordUnavailable: details,
  };
  const refuse = (): Promise<never> =>
    Promise.reject(new AppError('internal', `${details.message} ${details.help}`));
  const handlers = Object.fromEntries(
    methodNames.map((name) => [
      name,
      name === 'app.status' ? () => Promise.resolve(status) : refuse,
    ]),
  ) as unknown as BridgeHandlers;
  log.info(`Spotfolio ${packageJson.version} started without its data (${options.mode} mode)`);
  return {
    handlers,
    log,
    lock: { isLocked: () => false },
    onEvent: () => () => undefined,
    close: () => Promise.resolve(),
  };
}
