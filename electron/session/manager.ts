/**
 * The profiles and the one active session: which profile is active, its exchange client, its
 * sync engine, its one stream client (shared by the live session, alerts and the market watch)
 * and its live stream. Every change of the active profile (add, activate, remove,
 * enter demo) runs one at a time, so two clicks can never leave two sessions running.
 */
import type { SyncStorePort } from '../sync/port';
import { randomUUID } from 'node:crypto';
import type { MethodParsedInput } from '../../shared/contract';
import type {
  ConnectionState,
  OrphanedKeyView,
  ProfileView,
  RemovedProfileView,
} from '../../shared/types';
import type { Settings } from '../../shared/types';
import { inBackground } from '../core/background';
import { AppError } from '../core/app-error';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { Notifier } from '../core/notifier';
import { DEFAULT_TIMINGS, type Timings } from '../core/timings';
import { startDemoExchange, DEMO_PROFILE_NAME, type DemoExchange } from '../demo';
import { ExchangeClient } from '../exchange/client';
import type { ExchangeLimiters } from '../exchange/limits';
import { insecureUrlReason } from '../exchange/urls';
import { AlertSession } from '../alerts/session';
import { LiveSession } from '../live/live-session';
import { OrderNotices } from '../live/order-notices';
import { MarketWatch } from '../live/market-watch';
import { SharedStream } from '../exchange/shared-stream';
import { StreamClient } from '../exchange/stream';
import { SecretStoreUnavailableError, type ApiSecret, type SecretStore } from '../secrets';
import type { Store } from '../store';
import { maskApiKey } from '../store/profiles';
import type { ProfileRow } from '../store/types';
import { SyncEngine } from '../sync';
import { factsOf, MoneyJournal } from '../journal/money-journal';
import { PARENT_EMAIL_KEY } from '../transfers';
import { storedAccountInfo } from '../sync/store-port';
import { deleteOrphanedKey, keptKey, orphanedKeys, orphanedSecret } from './key-entries';
import { verifyPrivateStream } from './stream-check';
import type { SubAccountLinks } from './sub-account-links';
import type { TradeImportProgress } from '../sync/trade-import';

/**
 * Refuses, before any connection, a base or stream address that would carry the key unencrypted
 * (plain http: or ws: to another machine): a refusal of Spotfolio's own, naming the field.
 */
/**
 * Checks a key against an exchange before it is kept: its account answers (with the permissions
 * it grants) and its private stream opens. Resolves with the account's answer.
 */
async function verifyKey(
  addresses: { baseUrl: string; streamUrl: string },
  key: { apiKey: string; secretKey: string },
  limiters: ExchangeLimiters,
) {
  const verifier = new ExchangeClient({
    baseUrl: addresses.baseUrl,
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    limiters,
  });
  try {
    const info = await verifier.account.info();
    await verifyPrivateStream({ streamUrl: addresses.streamUrl, client: verifier });
    return info;
  } finally {
    await verifier.close();
  }
}

function refuseInsecureAddresses(input: { baseUrl: string; streamUrl: string }): void {
  for (const [field, kind, label] of [
    ['baseUrl', 'rest', 'The REST base URL'],
    ['streamUrl', 'stream', 'The stream URL'],
  ] as const) {
    const reason = insecureUrlReason(input[field], kind);
    if (reason !== undefined) {
      throw new AppError(
        'invalid-input',
        `Spotfolio refuses this address, nothing was sent: ${label} ${reason}.`,
        field,
      );
    }
  }
}

/** Journal entries whose money may be between accounts: a profile holding one is not removed. */
const UNFINISHED_STATUSES = ['in-progress', 'unknown', 'stopped'] as const;

/** What demo mode starts its sandbox with (tests: a seed, the simulation off). */
export type DemoOptions = NonNullable<Parameters<typeof startDemoExchange>[0]>;

const ACTIVE_PROFILE_KEY = 'activeProfileId';
/** How long a profile switch or quitting waits for sync to finish its current step. */
const SYNC_STOP_WAIT_MS = 2000;

export interface ActiveSession {
  readonly profile: ProfileRow;
  readonly client: ExchangeClient;
  readonly sync: SyncEngine;
  /**
   * The profile's one stream client: the private streams, the alerts' tickers and the watched
   * market's trades and book all go over it (one connection while they fit in 1024 streams).
   */
  readonly streams: SharedStream;
  readonly live: LiveSession;
  /** Price and balance alerts, evaluated from the streams while the session runs. */
  readonly alerts: AlertSession;
  /** The live trades and book of the symbol on screen. */
  readonly market: MarketWatch;
  /** Transfers and orders written to the record before they are sent; see journal/money-journal. */
  readonly journal: MoneyJournal;
  /** The trade imports of the linked sub-accounts (session/sub-account-links.ts), as they stand. */
  readonly subAccountImports: () => TradeImportProgress[];
}

export interface SessionDeps {
  store: Store;
  /** Sync's port onto the store, built once in app.ts; sync, live and alerts share it. */
  port: SyncStorePort;
  secrets: SecretStore;
  demoSecrets: SecretStore;
  /** The exchanges' rate limiters, built once in app.ts: every client of a key paces as one. */
  limiters: ExchangeLimiters;
  emit: Emit;
  log: Logger;
  settings: () => Settings;
  notifier?: Notifier;
  sandboxOptions?: DemoOptions;
  /** Time and timers of the sessions (sync, the stream client). Default: the system clock. */
  clock?: Clock;
  /** How long a session waits before looking again for what it lacks. Default: the product's. */
  timings?: Timings;
  /** A failure in the words the user sees (the bridge's mapping), for the money journal's rows. */
  describeError: (error: unknown) => string;
  /** The linked sub-accounts' keys and feeds, built in app.ts; started with each session. */
  subAccountLinks: SubAccountLinks;
}

export class SessionManager {
  private active: ActiveSession | null = null;
  private demo: DemoExchange | null = null;
  private readonly clients = new Map<string, ExchangeClient>();
  /** Clients without a key, for the public market data of profiles never active in this run. */
  private readonly marketClients = new Map<string, ExchangeClient>();
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The demo profile of the last run while this start builds its exchange afresh (see start):
   * its cached figures answer the first screen meanwhile, and its rows go once the new demo's
   * funds are in.
   */
  private standIn: ProfileRow | null = null;
  /** The start's work still under way (a demo's exchange being built), or done. */
  private starting: Promise<void> = Promise.resolve();
  private connection: { state: ConnectionState; since: number };
  private closed = false;
  private readonly clock: Clock;

  constructor(private readonly deps: SessionDeps) {
    this.clock = deps.clock ?? new SystemClock();
    this.connection = { state: 'offline', since: this.clock.now() };
  }

  current(): ActiveSession | null {
    return this.active;
  }

  /**
   * The last run's demo profile whose cached figures stand in while the demo starts again: until
   * its new exchange is up (no session yet), then until the new demo's funds are fetched.
   */
  cachedStandIn(): ProfileRow | null {
    return this.standIn;
  }

  /** Resolves once the start's work is done (at once, but while a demo's exchange is built). */
  started(): Promise<void> {
    return this.starting;
  }

  /** The active session, or a 'no-profile' error the renderer turns into "add a profile". */
  require(): ActiveSession {
    if (!this.active) {
      throw new AppError('no-profile', 'No profile is active. Add an API key or enter demo mode.');
    }
    return this.active;
  }

  activeProfileId(): string | null {
    return this.active?.profile.id ?? null;
  }

  /** The profile the page is shown: the active one, or the demo standing in while it starts. */
  private shownProfileId(): string | null {
    return this.active ? this.active.profile.id : (this.standIn?.id ?? null);
  }

  isDemo(): boolean {
    return this.active?.profile.isDemo ?? false;
  }

  connectionState(): ConnectionState {
    return this.connection.state;
  }

  list(): ProfileView[] {
    const rows = this.deps.store.profiles.list();
    // Once the new demo runs, the last run's (kept for its figures) is no longer listed.
    const retired = this.active ? this.standIn?.id : undefined;
    return rows.filter((row) => row.id !== retired).map((row) => this.toView(row));
  }

  view(id: string): ProfileView {
    const row = this.deps.store.profiles.get(id);
    if (!row) throw new AppError('not-found', 'That profile does not exist (any more).', 'id');
    return this.toView(row);
  }

  /**
   * What the active profile's key may do, as last read from the exchange: the account
   * information sync keeps (a key's permissions can change after it was added), and sub-account
   * transfers only where the exchange lets the key read the sub-accounts (a main account's key).
   */
  permissions(row: ProfileRow): Pick<ProfileView, 'canTrade' | 'canWithdraw' | 'canTransfer'> {
    const session = this.active?.profile.id === row.id ? this.active : null;
    const account = session ? storedAccountInfo(this.deps.store, row.id)?.info : undefined;
    const canTrade = account?.canTrade ?? row.canTrade;
    const canWithdraw = account?.canWithdraw ?? row.canWithdraw;
    const subAccountsRefused = session?.sync.jobStatus('subAccounts').error?.kind === 'permission';
    return { canTrade, canWithdraw, canTransfer: canTrade && !subAccountsRefused };
  }

  /** The active session, refused with what the key may do when it lacks the trade permission. */
  requireTrade(action: string): ActiveSession {
    const session = this.require();
    if (!this.permissions(session.profile).canTrade) {
      throw new AppError(
        'permission',
        `The key of "${session.profile.name}" may read but not trade, so it cannot ${action}. ` +
          'Give the key the trade permission on the exchange, or switch to a profile whose key has it',
      );
    }
    return session;
  }

  private toView(row: ProfileRow): ProfileView {
    return { ...toProfileView(row, this.shownProfileId()), ...this.permissions(row) };
  }

  /**
   * At start-up: resume the last active profile. A demo profile stays listed across restarts;
   * its built-in exchange starts afresh when it is resumed or switched to (see resume()).
   *
   * Resuming the demo does not wait for its exchange: building the sandbox's world takes most of
   * a second or more, and the first screen needs only what the last run cached. The last run's
   * demo profile stands in (cachedStandIn) while the new one starts behind; started() resolves
   * once it runs. The build begins once `demoAfter()` resolves (the app's: once the first screen
   * was answered): its turns share the thread that answers the page, and begun at once they held
   * up those answers.
   */
  start(
    demo: 'auto' | 'off',
    demoAfter: () => Promise<void> = () => Promise.resolve(),
  ): Promise<void> {
    // A start still under way (the demo's exchange being built) is the one start.
    if (this.standIn) return this.starting;
    const { store } = this.deps;
    const profiles = store.profiles.list();
    const remembered = store.settings.get<string>(ACTIVE_PROFILE_KEY);
    const resume =
      profiles.find((p) => p.id === remembered) ?? profiles.find((p) => !p.isDemo) ?? profiles[0];
    const resumeNow = () =>
      this.serial(async () => {
        // Quit before a deferred start began: the stand-in stays for the next start (close).
        if (this.closed) return;
        if (resume) {
          try {
            await this.resume(resume);
          } catch (error) {
            // The app still opens (cached data, profile screen) when the keychain is locked.
            this.deps.log.error(`Could not resume profile ${resume.id}`, error);
          }
        } else if (demo === 'auto') {
          await this.enterDemoNow();
        }
      });
    if (!resume?.isDemo || this.active || this.closed) return resumeNow();
    this.standIn = resume;
    // A close meanwhile refuses the queue (serial): nothing is left to start then.
    const resumed = demoAfter().then(() => (this.closed ? undefined : resumeNow()));
    this.starting = resumed.finally(() => {
      // A demo that did not start leaves no stand-in: its rows went, as they always did.
      if (this.standIn && !this.active) this.dropStandIn();
    });
    return Promise.resolve();
  }

  /**
   * Adds a profile for a key, verified with the exchange first. The keychain gets no second entry
   * for a key it holds: the same key on the same exchange answers its profile, and an orphaned
   * entry of the key (or `keychainId`, one the user chose to re-attach) becomes the new profile's.
   */
  add(
    input: MethodParsedInput<'profiles.add'>,
    options: { keychainId?: string } = {},
  ): Promise<ProfileView> {
    return this.serial(async () => {
      const { store, secrets, log } = this.deps;
      refuseInsecureAddresses(input);
      log.secrets.add(input.apiKey, input.secretKey);
      const info = await verifyKey(input, input, this.deps.limiters);
      const kept = await keptKey(store, secrets, input);
      if (kept.profile && options.keychainId === undefined) {
        const existing = kept.profile;
        await secrets.set(existing.id, { apiKey: input.apiKey, secretKey: input.secretKey });
        log.info(`The key of profile ${existing.id} was added again; no new entry was made`);
        if (!this.active || this.active.profile.isDemo) await this.switchTo(existing);
        return this.toView(existing);
      }
      const reusedId = options.keychainId ?? kept.orphanId;
      const id = reusedId ?? randomUUID();
      // An entry that was there before stays: it holds the user's key whatever happens here.
      const forgetSecret = async () => {
        if (reusedId !== undefined) return;
        await secrets.delete(id).catch((cleanup: unknown) => {
          log.error(`Could not remove the secret of the unsaved profile ${id}`, cleanup);
        });
      };
      try {
        await secrets.set(id, { apiKey: input.apiKey, secretKey: input.secretKey });
      } catch (error) {
        // A keychain that failed half-way may still hold an entry; an unavailable one holds none.
        if (!(error instanceof SecretStoreUnavailableError)) await forgetSecret();
        throw error;
      }
      let row: ProfileRow;
      try {
        row = store.profiles.create({
          id,
          name: input.name,
          baseUrl: input.baseUrl,
          streamUrl: input.streamUrl,
          apiKeyMasked: maskApiKey(input.apiKey),
          canTrade: info.canTrade,
          canWithdraw: info.canWithdraw,
          isDemo: false,
          createdAt: this.clock.now(),
        });
      } catch (error) {
        await forgetSecret();
        throw error;
      }
      log.info(`Added profile ${id} (${row.apiKeyMasked})${reusedId ? ' on its kept entry' : ''}`);
      // At once, not at the next start: a first session's profile would otherwise live in one
      // file only.
      await store.backup().catch((error: unknown) => {
        log.error(`The backup of the record after adding profile ${id} failed`, error);
      });
      for (const duplicate of kept.duplicates.filter((d) => d !== id)) {
        await secrets.delete(duplicate).catch((cleanup: unknown) => {
          log.error(`Could not remove the duplicate keychain entry ${duplicate}`, cleanup);
        });
      }
      this.deps.emit('data.changed', { profileId: id, kinds: ['profiles'] });
      // A first real key, or a real key while trying the demo: switch to it.
      if (!this.active || this.active.profile.isDemo) await this.switchTo(row);
      return this.toView(row);
    });
  }

  /** Keychain entries no profile uses (the record lost or restored from an older backup). */
  orphanedKeys(): Promise<OrphanedKeyView[]> {
    return orphanedKeys(this.deps.store, this.deps.secrets);
  }

  /** A profile for an orphaned entry's key, verified as on adding; the entry stays the key's. */
  async reattachKey(input: MethodParsedInput<'profiles.reattachKey'>): Promise<ProfileView> {
    const { id, ...place } = input;
    const secret = await orphanedSecret(this.deps.store, this.deps.secrets, id);
    return this.add({ ...place, ...secret }, { keychainId: id });
  }

  deleteOrphanedKey(id: string): Promise<{ deleted: true }> {
    return this.serial(() => deleteOrphanedKey(this.deps.store, this.deps.secrets, id));
  }

  activate(id: string): Promise<ProfileView> {
    return this.serial(async () => {
      const row = this.deps.store.profiles.get(id);
      if (!row) throw new AppError('not-found', 'That profile does not exist (any more).', 'id');
      if (row.isDemo) return this.enterDemoNow();
      if (this.active?.profile.id !== id) await this.switchTo(row);
      return this.toView(row);
    });
  }

  /**
   * Changes a profile's name and addresses. New addresses are checked first with the profile's
   * own key, the way add() checks them (REST, then the private stream); nothing is saved when a
   * check fails. The active profile's session starts again on the new addresses.
   */
  update(input: MethodParsedInput<'profiles.update'>): Promise<ProfileView> {
    return this.serial(async () => {
      const { store, log } = this.deps;
      const row = store.profiles.get(input.id);
      if (!row) throw new AppError('not-found', 'That profile does not exist (any more).', 'id');
      const urlsChanged = input.baseUrl !== row.baseUrl || input.streamUrl !== row.streamUrl;
      if (row.isDemo && urlsChanged) {
        throw new AppError(
          'invalid-input',
          "The demo's addresses belong to its built-in exchange; only its name can change.",
          input.baseUrl !== row.baseUrl ? 'baseUrl' : 'streamUrl',
        );
      }
      let permissions: { canTrade: boolean; canWithdraw: boolean } | undefined;
      if (urlsChanged) refuseInsecureAddresses(input);
      if (urlsChanged) {
        const credentials = await this.secretsFor(row).get(row.id);
        if (!credentials) {
          throw new AppError(
            'auth',
            `The key of "${row.name}" is missing from the keychain. Remove the profile and add the key again.`,
          );
        }
        const info = await verifyKey(input, credentials, this.deps.limiters);
        permissions = { canTrade: info.canTrade, canWithdraw: info.canWithdraw };
      }
      const wasActive = this.active?.profile.id === row.id;
      if (urlsChanged && wasActive) await this.stopSession();
      // The client belongs to the REST address; a new one is made for the new address.
      if (urlsChanged) await this.closeClient(row.id);
      const updated = store.profiles.update(row.id, {
        name: input.name,
        baseUrl: input.baseUrl,
        streamUrl: input.streamUrl,
        ...permissions,
      });
      log.info(`Updated profile ${row.id}${urlsChanged ? ' (new addresses, verified)' : ''}`);
      if (wasActive) {
        if (urlsChanged) await this.startSession(updated);
        else this.active = { ...this.active!, profile: updated };
      }
      this.deps.emit('data.changed', { profileId: row.id, kinds: ['profiles'] });
      return this.toView(updated);
    });
  }

  remove(id: string): Promise<{ removed: true }> {
    return this.serial(async () => {
      const { store, log } = this.deps;
      const row = store.profiles.get(id);
      if (!row) throw new AppError('not-found', 'That profile does not exist (any more).', 'id');
      // Money that may be between accounts must be settled first: a removed profile's entries
      // are no longer checked with the exchange.
      const unfinished = store.journal.withStatus(id, UNFINISHED_STATUSES);
      if (unfinished.length > 0) {
        const facts = unfinished.map((entry) => entry.facts ?? factsOf(entry)).join(' ');
        throw new AppError(
          'invalid-input',
          `"${row.name}" has ${unfinished.length === 1 ? 'a money movement' : `${unfinished.length} money movements`} ` +
            `not finished: ${facts} Finish ${unfinished.length === 1 ? 'it' : 'them'} or leave the funds where they are ` +
            `(Money movements to check, with this profile active), then remove the profile.`,
          'id',
        );
      }
      // Before anything is touched: a backup that fails stops the removal.
      if (!row.isDemo) await store.backupBefore('profile-removal');
      const wasActive = this.active?.profile.id === id;
      if (wasActive) await this.stopSession();
      await this.closeClient(id);
      await this.deps.subAccountLinks.forget(id, this.secretsFor(row));
      await this.secretsFor(row).delete(id);
      // The demo's rows belong to its built-in exchange, which is gone; the user's are archived,
      // restorable from Settings.
      if (row.isDemo) store.profiles.delete(id);
      else store.profiles.archive(id, this.clock.now());
      if (row.isDemo) await this.stopDemo();
      log.info(`Removed profile ${id}`);
      this.deps.emit('data.changed', { profileId: id, kinds: ['profiles'] });
      if (wasActive) {
        const rest = store.profiles.list();
        const next = rest.find((p) => !p.isDemo) ?? rest[0];
        if (next) await this.resume(next);
        else store.settings.delete(ACTIVE_PROFILE_KEY);
      }
      return { removed: true as const };
    });
  }

  /** Profiles the user removed, restorable with their key. */
  removedProfiles(): RemovedProfileView[] {
    return this.deps.store.profiles
      .removed()
      .map(({ id, name, baseUrl, apiKeyMasked, createdAt, removedAt }) => ({
        id,
        name,
        baseUrl,
        apiKeyMasked,
        createdAt,
        removedAt,
      }));
  }

  /**
   * Brings a removed profile back with every row it had (labels, cost bases, alerts, journal).
   * Its keychain entry went with the removal, so its key is given again: the same key as before
   * (its masked form must match), verified with the exchange as on adding.
   */
  restoreRemoved(input: MethodParsedInput<'profiles.restore'>): Promise<ProfileView> {
    return this.serial(async () => {
      const { store, secrets, log } = this.deps;
      const row = store.profiles.removed().find((p) => p.id === input.id);
      if (!row) {
        throw new AppError('not-found', 'That removed profile does not exist (any more).', 'id');
      }
      if (maskApiKey(input.apiKey) !== row.apiKeyMasked) {
        throw new AppError(
          'invalid-input',
          `This is not the key "${row.name}" had (${row.apiKeyMasked}). Add a new key as a new profile instead.`,
          'apiKey',
        );
      }
      log.secrets.add(input.apiKey, input.secretKey);
      const info = await verifyKey(row, input, this.deps.limiters);
      await secrets.set(row.id, { apiKey: input.apiKey, secretKey: input.secretKey });
      const restored = store.profiles.restore(row.id, {
        canTrade: info.canTrade,
        canWithdraw: info.canWithdraw,
      });
      log.info(`Restored the removed profile ${row.id}`);
      this.deps.emit('data.changed', { profileId: row.id, kinds: ['profiles'] });
      if (!this.active || this.active.profile.isDemo) await this.switchTo(restored);
      return this.toView(restored);
    });
  }

  enterDemo(): Promise<ProfileView> {
    return this.serial(() => this.enterDemoNow());
  }

  /**
   * Removes every profile with its local data (record and cache): resetting a forgotten lock
   * password. The lock's reset has taken the kept backup of the record before it calls this (a
   * backup that fails stops the reset before anything is touched) and removes the keys itself.
   */
  forgetLocalData(): Promise<void> {
    return this.serial(async () => {
      const { store, log } = this.deps;
      await this.stopSession();
      await Promise.all([...this.clients.keys()].map((id) => this.closeClient(id)));
      await this.stopDemo();
      // Profiles removed earlier go too: the reset leaves no profile's data (the backup has it).
      const rows = [...store.profiles.list(), ...store.profiles.removed()];
      store.transaction(() => {
        for (const row of rows) store.profiles.delete(row.id);
        store.settings.delete(ACTIVE_PROFILE_KEY);
      });
      log.info(`Removed the local data of ${rows.length} profile(s)`);
      this.deps.emit('data.changed', { profileId: null, kinds: ['profiles'] });
    });
  }

  /**
   * A client for a profile's public market data (the candles its ledger's prices of the time
   * need), whether or not it is active: its own client when it has one, else one without a key
   * for its exchange, kept for the app's lifetime and pacing through the exchange's one limiter.
   * Null for a profile no longer listed, and for the demo's while it is not active (its exchange
   * runs only then).
   */
  marketClient(profileId: string): Pick<ExchangeClient, 'market'> | null {
    const own = this.clients.get(profileId);
    if (own) return own;
    const row = this.deps.store.profiles.get(profileId);
    if (!row || (row.isDemo && this.active?.profile.id !== profileId) || this.closed) return null;
    let client = this.marketClients.get(profileId);
    if (!client) {
      client = new ExchangeClient({ baseUrl: row.baseUrl, limiters: this.deps.limiters });
      this.marketClients.set(profileId, client);
    }
    return client;
  }

  async close(): Promise<void> {
    await this.serial(async () => {
      this.closed = true;
      // Not dropped by stopSession: see keepStandInAtQuit.
      const standIn = this.standIn;
      this.standIn = null;
      const fresh = this.active?.profile;
      await this.stopSession();
      if (standIn && fresh) this.keepStandInAtQuit(standIn, fresh);
      await this.deps.subAccountLinks.close();
      await Promise.all([...this.clients.keys()].map((id) => this.closeClient(id)));
      const keyless = [...this.marketClients.values()];
      this.marketClients.clear();
      await Promise.all(keyless.map((client) => client.close()));
      await this.stopDemo();
    });
  }

  // -------------------------------------------------------------------------------------------

  private async enterDemoNow(): Promise<ProfileView> {
    const { store } = this.deps;
    const existing = store.profiles.list().find((p) => p.isDemo && p.id !== this.standIn?.id);
    if (existing && this.demo) {
      if (this.active?.profile.id !== existing.id) await this.switchTo(existing);
      return this.toView(existing);
    }
    // The last run's demo, standing in for the first screen, stays until the new one's funds are
    // in (retireStandIn); any other is gone with its exchange.
    for (const row of store.profiles.list()) {
      if (row.isDemo && row.id !== this.standIn?.id) store.profiles.delete(row.id);
    }
    this.demo ??= await startDemoExchange(this.deps.sandboxOptions);
    const demo = this.demo;
    const id = `demo-${randomUUID()}`;
    await this.deps.demoSecrets.set(id, { apiKey: demo.apiKey, secretKey: demo.secretKey });
    const row = store.profiles.create({
      id,
      name: DEMO_PROFILE_NAME,
      baseUrl: demo.baseUrl,
      streamUrl: demo.streamUrl,
      apiKeyMasked: maskApiKey(demo.apiKey),
      canTrade: true,
      canWithdraw: true,
      isDemo: true,
      createdAt: this.clock.now(),
    });
    store.settings.set(PARENT_EMAIL_KEY, demo.parentEmail, id);
    this.deps.log.info(`Demo mode: sandbox at ${demo.baseUrl}`);
    this.deps.emit('data.changed', { profileId: id, kinds: ['profiles'] });
    await this.switchTo(row);
    if (this.standIn) this.retireStandIn(this.active!);
    return this.toView(row);
  }

  /**
   * The stand-in's rows go once the new demo's funds and prices are fetched (or could not be):
   * until then its figures answer portfolio.summary, so the total on screen never falls back to a
   * skeleton or to a total of funds not yet priced.
   */
  private retireStandIn(session: ActiveSession): void {
    const retire = async () => {
      // Sync keeps and reports its own failures; the stand-in goes all the same.
      await Promise.all([
        session.sync.refresh('funds').catch(() => undefined),
        session.sync.refresh('prices').catch(() => undefined),
      ]);
      await this.serial(async () => this.dropStandIn()).catch(() => undefined);
    };
    inBackground(retire(), 'demo: retiring the last run', this.deps.log.error);
  }

  private dropStandIn(): void {
    const standIn = this.standIn;
    if (!standIn) return;
    this.standIn = null;
    this.deps.store.profiles.delete(standIn.id);
    // The figures shown were the stand-in's: the new demo's funds and prices replace them.
    this.deps.emit('data.changed', {
      profileId: this.activeProfileId(),
      kinds: ['profiles', 'funds', 'prices'],
    });
  }

  /**
   * Quitting before the new demo's figures came in: the last run's demo stays (the next start
   * shows its figures again) and the new one, which has none yet, goes with its exchange.
   */
  private keepStandInAtQuit(standIn: ProfileRow, fresh: ProfileRow): void {
    if (!fresh.isDemo) return;
    this.deps.store.profiles.delete(fresh.id);
    this.deps.store.settings.set(ACTIVE_PROFILE_KEY, standIn.id);
  }

  /** Starts a stored profile's session; the demo's starts its built-in exchange afresh first. */
  private async resume(row: ProfileRow): Promise<void> {
    if (row.isDemo) await this.enterDemoNow();
    else await this.startSession(row);
  }

  private async switchTo(row: ProfileRow): Promise<void> {
    await this.stopSession();
    await this.startSession(row);
  }

  private async startSession(row: ProfileRow): Promise<void> {
    const { store, emit, log } = this.deps;
    const clock = this.clock;
    const credentials = await this.secretsFor(row).get(row.id);
    if (!credentials) {
      throw new AppError(
        'auth',
        `The key of "${row.name}" is missing from the keychain. Remove the profile and add the key again.`,
      );
    }
    log.secrets.add(credentials.apiKey, credentials.secretKey);
    const client = this.clientFor(row, credentials);
    // The profile's one stream client, for every stream of the session; its state is the
    // connection state the app shows, told once here.
    const streams = new SharedStream(
      new StreamClient({
        streamUrl: row.streamUrl,
        clock,
        authKeyProvider: () => client.auth.createAuthToken(),
      }),
    );
    streams.onState((state) => this.setConnection(row.id, state));
    streams.client.on('malformed', (error) =>
      log.warn(`stream: dropped a malformed message: ${error.message}`),
    );
    const alerts = new AlertSession({
      store,
      port: this.deps.port,
      profileId: row.id,
      streams,
      client,
      emit,
      clock,
      log,
      settings: this.deps.settings,
      notifier: this.deps.notifier,
      refreshWithdrawals: () => sync.refresh('withdrawals', { force: true }),
      withdrawalWatchMs: (this.deps.timings ?? DEFAULT_TIMINGS).withdrawalWatchMs,
    });
    // Alerts hear what sync and the private stream tell (balances, funds, withdrawals) first-hand.
    const sessionEmit: Emit = (event, payload) => {
      emit(event, payload);
      alerts.observe(event, payload);
    };
    const sync = new SyncEngine({
      store,
      port: this.deps.port,
      client,
      profileId: row.id,
      emit: sessionEmit,
      clock,
      log: log.line,
      quoteAsset: () => this.deps.settings().quoteAsset,
    });
    // The fills and cancels of the main account and of each linked sub-account are told by one
    // set of rules, keyed by account (live/order-notices.ts).
    const notices = new OrderNotices({
      notify: {
        store,
        profileId: row.id,
        emit: sessionEmit,
        settings: this.deps.settings,
        now: () => clock.now(),
        log,
        notifier: this.deps.notifier,
      },
      clock,
      port: this.deps.port,
    });
    const live = new LiveSession({
      store,
      port: this.deps.port,
      profileId: row.id,
      streams,
      sync,
      emit: sessionEmit,
      clock,
      log,
      settings: this.deps.settings,
      notifier: this.deps.notifier,
      notices,
    });
    const journal = new MoneyJournal({
      store,
      client,
      profileId: row.id,
      clock,
      emit,
      log: log.line,
      describeError: this.deps.describeError,
    });
    const market = new MarketWatch(streams, emit);
    const links = this.deps.subAccountLinks;
    this.active = {
      profile: row,
      client,
      sync,
      streams,
      live,
      journal,
      alerts,
      market,
      subAccountImports: () => links.importProgress(row.id),
    };
    store.settings.set(ACTIVE_PROFILE_KEY, row.id);
    sync.start();
    live.start();
    inBackground(
      links.start(row, this.secretsFor(row), {
        notices,
        transfersMoved: () => {
          inBackground(
            sync.refresh('transfers', { force: true }),
            'sync: re-reading the transfers after a sub-account balance moved',
            this.deps.log.error,
          );
        },
      }),
      'sub-accounts: starting the linked feeds',
      this.deps.log.error,
    );
    inBackground(alerts.start(), 'alerts: starting', this.deps.log.error);
    this.checkJournal(journal);
    emit('data.changed', { profileId: row.id, kinds: ['profiles'] });
  }

  private async stopSession(): Promise<void> {
    const session = this.active;
    if (!session) return;
    // Leaving the new demo before its funds came in: the last run's is not needed any more.
    this.dropStandIn();
    this.active = null;
    this.setConnection(null, 'offline');
    // The stream client first: its sockets and timers go, and no message reaches the parts
    // closing after it (which then have no stream to let go one by one).
    await session.streams.close();
    await this.deps.subAccountLinks.stop();
    await session.market.close();
    await session.live.close();
    await session.alerts.close();
    // Sync finishes the step it is in; a step queued behind the exchange's pacing (a back-off
    // can last minutes) must not hold up a profile switch or quitting, so the wait is bounded.
    let timer: TimerHandle | undefined;
    const stopped = await Promise.race([
      session.sync.stop().then(() => true),
      new Promise<false>((resolve) => {
        timer = this.clock.setTimeout(() => resolve(false), SYNC_STOP_WAIT_MS);
      }),
    ]);
    this.clock.clearTimeout(timer);
    if (!stopped) {
      this.deps.log.warn(
        `sync of profile ${session.profile.id} was still waiting on the exchange after ` +
          `${SYNC_STOP_WAIT_MS} ms; its pending requests are abandoned`,
      );
    }
  }

  /** Closes the profile's client (on remove and on quit; a switch keeps it, see clientFor). */
  private async closeClient(profileId: string): Promise<void> {
    const client = this.clients.get(profileId);
    this.clients.delete(profileId);
    if (client) await client.close();
  }

  private async stopDemo(): Promise<void> {
    const demo = this.demo;
    this.demo = null;
    if (demo) await demo.close();
  }

  /**
   * One client per profile for the app's lifetime: its pacing queues and back-off state belong to
   * the API key, so switching away and back must not start a fresh client that knows nothing of
   * a back-off the exchange is still enforcing (that is how a 429 becomes a 418 ban).
   */
  private clientFor(row: ProfileRow, credentials: ApiSecret): ExchangeClient {
    let client = this.clients.get(row.id);
    if (!client) {
      client = new ExchangeClient({
        baseUrl: row.baseUrl,
        apiKey: credentials.apiKey,
        secretKey: credentials.secretKey,
        limiters: this.deps.limiters,
      });
      this.clients.set(row.id, client);
    }
    return client;
  }

  /** Where a profile's keys are kept: the keychain, or memory for the demo's sandbox keys. */
  secretsFor(row: ProfileRow): SecretStore {
    return row.isDemo ? this.deps.demoSecrets : this.deps.secrets;
  }

  /** Reconciles what an earlier run left unfinished (at start-up and on each reconnect). */
  private checkJournal(journal: MoneyJournal): void {
    journal.check().catch((error: unknown) => {
      this.deps.log.error('The money journal could not be checked with the exchange', error);
    });
  }

  private setConnection(profileId: string | null, state: ConnectionState): void {
    if (profileId !== this.activeProfileId() && profileId !== null) return;
    if (this.connection.state === state) return;
    if (state === 'live' && this.active) this.checkJournal(this.active.journal);
    this.connection = { state, since: this.clock.now() };
    this.deps.emit('connection.state', { profileId, state, since: this.connection.since });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed) {
      return Promise.reject(new AppError('internal', 'Spotfolio is shutting down.'));
    }
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

export function toProfileView(row: ProfileRow, activeId: string | null): ProfileView {
  return {
    id: row.id,
    name: row.name,
    baseUrl: row.baseUrl,
    streamUrl: row.streamUrl,
    apiKeyMasked: row.apiKeyMasked,
    canTrade: row.canTrade,
    canWithdraw: row.canWithdraw,
    canTransfer: row.canTrade,
    isDemo: row.isDemo,
    createdAt: row.createdAt,
    active: row.id === activeId,
  };
}
