/**
 * The composition root, in plain Node: config -> store, secrets, exchange clients (per active
 * profile), sync, live, api handlers. Electron's main process and browser mode both build the app
 * here and bind `handlers` and `onEvent` to their transport; nothing else wires parts together.
 */
import packageJson from '../package.json';
import type { BridgeHandlers } from '../shared/contract';
import type { KeychainStatus } from '../shared/types';
import type { ApiContext } from './api/context';
import { createHandlers } from './api/handlers';
import { SessionManager, type DemoOptions } from './api/session';
import { readSettings } from './api/settings';
import { SystemClock, type Clock } from './core/clock';
import type { Emit } from './core/events';
import type { Logger } from './core/logger';
import type { Notifier } from './core/notifier';
import { MarketWatch } from './live/market-watch';
import { createLogger } from './log';
import {
  DemoSecretStore,
  KeytarSecretStore,
  SecretStoreUnavailableError,
  type SecretStore,
} from './secrets';
import { openStore } from './store';

export interface AppOptions {
  /** The app's data folder (the SQLite file lives here). */
  dataDir: string;
  mode: 'desktop' | 'browser';
  /** Default: KeytarSecretStore (the OS keychain). */
  secrets?: SecretStore;
  /** Desktop: native notifications (shell); browser: none (the 'notification' event reaches the page). */
  notifier?: Notifier;
  /** 'auto' (default): with no profile, start the in-process sandbox and a "Demo" profile. */
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
}

/** Receives every event the app emits, as the transports forward them to the renderer. */
export type EventListener = Emit;

export interface SpotfolioApp {
  /** One async function per contract method, taking the parsed input. */
  handlers: BridgeHandlers;
  /** The app's logger: it knows every secret loaded so far, so the transports log through it. */
  log: Logger;
  onEvent(listener: EventListener): () => void;
  close(): Promise<void>;
}

/** Asks the keychain once at start-up whether it answers; the status bar shows the result. */
async function probeKeychain(secrets: SecretStore): Promise<KeychainStatus> {
  try {
    const probe = (secrets as { probe?: () => Promise<void> }).probe;
    if (probe) await probe.call(secrets);
    else await secrets.list();
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
  const now = () => clock.now();
  const log = createLogger(options.log);
  const { store, recovered } = openStore({ dataDir: options.dataDir });
  if (recovered) {
    log.warn(`The cache was unreadable (${recovered.reason}); moved to ${recovered.movedTo}`);
  }
  const secrets = options.secrets ?? new KeytarSecretStore();
  const listeners = new Set<EventListener>();
  const emit: Emit = (event, payload) => {
    for (const listener of listeners) {
      try {
        listener(event, payload);
      } catch (error) {
        log.error(`An event listener failed on ${event}`, error);
      }
    }
  };
  const settings = () => readSettings(store.settings);
  const market = new MarketWatch(emit, log.line);
  // The probe runs alongside the session's start rather than before it: both wait on other
  // processes (the keychain daemon; in demo mode the sandbox), and no handler can ask for the
  // status before createApp returns, by which time the probe has answered.
  let keychain: KeychainStatus = { available: false, message: 'The keychain was not asked yet.' };
  const keychainProbed = probeKeychain(secrets).then((status) => {
    keychain = status;
  });
  const session = new SessionManager({
    store,
    secrets,
    demoSecrets: new DemoSecretStore(),
    emit,
    log,
    settings,
    market,
    notifier: options.notifier,
    sandboxOptions: options.sandboxOptions,
    clock,
  });
  const ctx: ApiContext = {
    mode: options.mode,
    version: packageJson.version,
    store,
    log,
    emit,
    session,
    market,
    notifier: options.notifier,
    now,
    settings,
    keychain: () => keychain,
    ...(recovered ? { storeRecovered: recovered } : {}),
  };
  const handlers = createHandlers(ctx);

  try {
    await Promise.all([session.start(options.demo ?? 'auto'), keychainProbed]);
  } catch (error) {
    await keychainProbed;
    await session.close().catch(() => undefined);
    await market.close();
    store.close();
    throw error;
  }
  log.info(`Spotfolio ${packageJson.version} started (${options.mode} mode)`);

  let closing: Promise<void> | undefined;
  return {
    handlers,
    log,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closing ??= (async () => {
        await session.close();
        await market.close();
        listeners.clear();
        store.close();
        log.info('Spotfolio closed');
      })();
      return closing;
    },
  };
}
