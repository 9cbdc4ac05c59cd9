/**
 * The app lock's service: the password (kept only as a scrypt hash in the record), the lock's
 * state (core/lock.ts: idle timer, the wait after wrong passwords), the key the API secrets are
 * sealed with (derived from the password at the first unlock after a start, kept in memory while
 * the app runs, so an idle lock does not stop sync and alerts), the password asked again before a
 * sensitive action, and what the lock holds back while the app is locked: every event but
 * lock.changed (the data kinds they touched are sent as one data.changed after unlocking) and the
 * amounts in desktop notifications. The dispatcher asks isLocked() before answering any other
 * method, and confirmNeeded() before a sensitive one.
 *
 * Live data keeps flowing into the cache underneath: nothing but the dispatcher knows the lock.
 */
import type { EventName, EventPayloads } from '../../shared/contract';
import {
  DEFAULT_LOCK_IDLE_MINUTES,
  LOCK_IDLE_MINUTES,
  lockWaitText,
  REAUTH_AFTER_MS,
  type ConfirmResult,
  type LockStatus,
  type UnlockResult,
} from '../../shared/lock';
import type { DataKind } from '../../shared/types';
import { AppError } from '../core/app-error';
import type { Clock } from '../core/clock';
import type { Emit } from '../core/events';
import { LockState, type LockBackoff, type LockReason } from '../core/lock';
import type { Logger } from '../core/logger';
import type { DesktopNotification, Notifier } from '../core/notifier';
import type { SealKey } from '../secrets';
import type { JsonValue } from '../store/types';
import {
  deriveSealKey,
  hashPassword,
  isPasswordHash,
  isSealParameters,
  newSealParameters,
  SCRYPT_PARAMETERS,
  verifyPassword,
  type PasswordHash,
  type ScryptParameters,
  type SealParameters,
} from './password';

/** Keys in the record's app-wide settings. */
export const LOCK_KEYS = {
  password: 'lock.password',
  /** How the sealing key is derived from the password (its own salt). */
  seal: 'lock.seal',
  idleMinutes: 'lock.idleMinutes',
  failures: 'lock.failures',
} as const;

/** Where the lock keeps its state: the record's app-wide settings (never the discardable cache). */
export interface LockRecord {
  get<T extends JsonValue = JsonValue>(key: string): T | undefined;
  set(key: string, value: JsonValue): void;
  delete(key: string): boolean;
}

/** The part of the key vault (secrets/vault.ts) the lock drives. */
export interface LockVault {
  requireSealing(required: boolean): void;
  useKey(key: SealKey | null): void;
  hasKey(): boolean;
  reseal(to: SealKey | null): Promise<{ rewritten: number; unreadable: string[] }>;
  forgetAll(): Promise<string[]>;
}

/** The data kinds an event held back while locked touches, sent as data.changed on unlocking. */
function kindsOf<E extends EventName>(event: E, payload: EventPayloads[E]): DataKind[] {
  switch (event) {
    case 'data.changed':
      return (payload as EventPayloads['data.changed']).kinds;
    case 'live.batch':
      return ['funds', 'portfolio', 'orders', 'trades'];
    case 'notification':
      return ['notifications'];
    case 'sync.progress':
      return ['withdrawals'];
    case 'market.trades':
    case 'market.depth':
      return ['prices'];
    default:
      return [];
  }
}

/** What a desktop notification says while the app is locked: that something happened, no more. */
export const LOCKED_NOTIFICATION = {
  title: 'Spotfolio',
  body: 'Something happened in your account. Unlock Spotfolio to see it.',
} as const;

export interface AppLockOptions {
  record: LockRecord;
  clock: Clock;
  /** The app's emit; lock.changed and the data.changed sent on unlocking go out through it. */
  emit: Emit;
  log: Pick<Logger, 'info' | 'warn'>;
  /** This data folder's API keys in the keychain, sealed while a password is set. */
  vault: LockVault;
  /**
   * A backup of the record that rotation never removes, taken before the reset removes anything;
   * answers its path. The reset does not go on when it fails.
   */
  backup(): Promise<string>;
  /** Removes every profile's local data (the reset, after the backup and the keys). */
  forgetProfiles(): Promise<void>;
  /** The keys can be read now (the first unlock after a start): what waits on them may start. */
  onKeysAvailable?(): void;
  backoff?: LockBackoff;
  /** Tests use a cheaper scrypt; the app always uses SCRYPT_PARAMETERS. */
  scrypt?: Readonly<ScryptParameters>;
}

export class AppLock {
  private readonly state: LockState;
  private readonly held = new Set<DataKind>();
  /** One password check at a time: parallel guesses would each slip past the wait. */
  private checking: Promise<unknown> = Promise.resolve();
  /** When the password was last given (unlock, set, confirmed); null: not since the start. */
  private provedAt: number | null = null;

  constructor(private readonly options: AppLockOptions) {
    const stored = options.record.get(LOCK_KEYS.failures);
    const failures =
      stored && typeof stored === 'object' && !Array.isArray(stored)
        ? (stored as { count?: JsonValue; lastAt?: JsonValue })
        : {};
    this.state = new LockState({
      clock: options.clock,
      enabled: this.storedHash() !== null,
      idleMs: this.idleMinutes() * 60_000,
      failures: typeof failures.count === 'number' ? failures.count : 0,
      lastFailureAt: typeof failures.lastAt === 'number' ? failures.lastAt : null,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      onChange: (reason) => this.changed(reason),
    });
    this.state.start();
    options.vault.requireSealing(this.state.enabled);
  }

  isLocked(): boolean {
    return this.state.locked;
  }

  status(): LockStatus {
    return {
      enabled: this.state.enabled,
      locked: this.state.locked,
      idleMinutes: this.idleMinutes(),
      failedAttempts: this.state.failures,
      retryAt: this.state.retryAt(),
    };
  }

  /** Locks now (menu, tray, shortcut, the OS locking the session); false when no password is set. */
  lock(reason: LockReason = 'user'): boolean {
    return this.state.lock(reason);
  }

  /**
   * Whether an event may reach the page now. While locked only lock.changed does; the kinds the
   * others touched are remembered and sent as one data.changed after unlocking.
   */
  admits<E extends EventName>(event: E, payload: EventPayloads[E]): boolean {
    if (!this.state.locked || event === 'lock.changed') return true;
    for (const kind of kindsOf(event, payload)) this.held.add(kind);
    return false;
  }

  /** The notifier the live session uses: while locked it says only that something happened. */
  guardNotifier(notifier: Notifier | undefined): Notifier | undefined {
    if (!notifier) return undefined;
    return {
      show: (notification: DesktopNotification) =>
        notifier.show(
          this.state.locked ? { kind: notification.kind, ...LOCKED_NOTIFICATION } : notification,
        ),
    };
  }

  async unlock(password: string): Promise<UnlockResult> {
    return this.serialCheck(async () => {
      const stored = this.storedHash();
      if (!stored) {
        this.state.recordSuccess();
        return { unlocked: true, status: this.status() };
      }
      if (!this.state.checkAttempt().allowed) {
        return { unlocked: false, reason: 'too-soon' as const, status: this.status() };
      }
      if (await verifyPassword(password, stored)) {
        const firstUnlock = !this.options.vault.hasKey();
        if (firstUnlock) await this.openVault(password);
        this.proved();
        this.state.recordSuccess();
        this.options.log.info('The app was unlocked');
        if (firstUnlock) this.options.onKeysAvailable?.();
        return { unlocked: true, status: this.status() };
      }
      this.state.recordFailure();
      this.options.log.warn(`Wrong lock password (${this.state.failures} in a row)`);
      return { unlocked: false, reason: 'wrong-password' as const, status: this.status() };
    });
  }

  /**
   * Sets or changes the password; a set one must be given as `current` first. The keys in the
   * keychain are sealed again under the new password's key before the new hash is kept.
   */
  async setPassword(password: string, current?: string): Promise<LockStatus> {
    return this.serialCheck(async () => {
      await this.requireCurrent(current);
      const parameters = this.options.scrypt ?? SCRYPT_PARAMETERS;
      const hash = await hashPassword(password, parameters);
      const seal = newSealParameters(parameters);
      const key = await deriveSealKey(password, seal);
      const wasEnabled = this.state.enabled;
      this.resealed(await this.options.vault.reseal(key));
      this.options.record.set(LOCK_KEYS.password, hash as unknown as JsonValue);
      this.options.record.set(LOCK_KEYS.seal, seal as unknown as JsonValue);
      this.options.log.info(
        wasEnabled ? 'The lock password was changed' : 'A lock password was set',
      );
      this.proved();
      this.state.setEnabled(true);
      return this.status();
    });
  }

  /** Removes the password; the keys in the keychain are written back unsealed first. */
  async removePassword(current: string): Promise<LockStatus> {
    return this.serialCheck(async () => {
      await this.requireCurrent(current);
      this.resealed(await this.options.vault.reseal(null));
      this.options.record.delete(LOCK_KEYS.password);
      this.options.record.delete(LOCK_KEYS.seal);
      this.options.record.delete(LOCK_KEYS.failures);
      this.options.log.info('The lock password was removed');
      this.provedAt = null;
      this.state.setEnabled(false);
      return this.status();
    });
  }

  /**
   * Whether a sensitive action must ask for the password again: one is set and it was last given
   * (unlocking, setting it, confirming) more than REAUTH_AFTER_MS ago.
   */
  confirmNeeded(): boolean {
    if (!this.state.enabled) return false;
    return this.provedAt === null || this.options.clock.now() - this.provedAt > REAUTH_AFTER_MS;
  }

  /** The password given again before a sensitive action; wrong ones count as at unlock. */
  async confirm(password: string): Promise<ConfirmResult> {
    return this.serialCheck(async () => {
      const stored = this.storedHash();
      if (!stored) return { confirmed: true, status: this.status() };
      if (!this.state.checkAttempt().allowed) {
        return { confirmed: false, reason: 'too-soon' as const, status: this.status() };
      }
      if (await verifyPassword(password, stored)) {
        this.proved();
        this.state.recordSuccess();
        return { confirmed: true, status: this.status() };
      }
      this.state.recordFailure();
      this.options.log.warn(
        `Wrong password to confirm an action (${this.state.failures} in a row)`,
      );
      return { confirmed: false, reason: 'wrong-password' as const, status: this.status() };
    });
  }

  setIdle(idleMinutes: number): LockStatus {
    this.options.record.set(LOCK_KEYS.idleMinutes, idleMinutes);
    this.state.setIdleMs(idleMinutes * 60_000);
    return this.status();
  }

  activity(): void {
    this.state.activity();
  }

  /**
   * A forgotten password. Without it the sealed keys cannot be opened, so the reset can only
   * forget: a kept backup of the record first (nothing the user wrote is lost), then this
   * folder's keys in the keychain, every profile's local data, and the password. The user enters
   * the keys again. Nothing is removed when the backup or the keychain fails.
   */
  async reset(): Promise<LockStatus> {
    return this.serialCheck(async () => {
      const { vault, log, record } = this.options;
      const backup = await this.options.backup();
      const removed = await vault.forgetAll();
      vault.useKey(null);
      vault.requireSealing(false);
      await this.options.forgetProfiles();
      record.delete(LOCK_KEYS.password);
      record.delete(LOCK_KEYS.seal);
      record.delete(LOCK_KEYS.failures);
      log.warn(
        `The lock was reset: ${removed.length} key(s) removed from the keychain, the profiles’ ` +
          `local data removed (a backup of the record is at ${backup})`,
      );
      this.provedAt = null;
      this.held.add('profiles');
      this.state.setEnabled(false);
      return this.status();
    });
  }

  dispose(): void {
    this.state.dispose();
  }

  private idleMinutes(): number {
    const stored = this.options.record.get(LOCK_KEYS.idleMinutes);
    return typeof stored === 'number' && (LOCK_IDLE_MINUTES as readonly number[]).includes(stored)
      ? stored
      : DEFAULT_LOCK_IDLE_MINUTES;
  }

  /**
   * Derives the sealing key from the password and gives it to the vault, which seals what is not
   * sealed yet (keys kept before the password, or before this version). The derivation's salt is
   * made at the first unlock of a password set by an older version.
   */
  private async openVault(password: string): Promise<void> {
    const { record, vault, log } = this.options;
    let seal = this.storedSeal();
    if (!seal) {
      seal = newSealParameters(this.options.scrypt ?? SCRYPT_PARAMETERS);
      record.set(LOCK_KEYS.seal, seal as unknown as JsonValue);
    }
    const key = await deriveSealKey(password, seal);
    vault.useKey(key);
    try {
      this.resealed(await vault.reseal(key));
    } catch (error) {
      // The keychain may be down; the key stays in memory and the entries are sealed next time.
      log.warn(`The keys could not be sealed in the keychain now: ${String(error)}`);
    }
  }

  private resealed(result: { rewritten: number; unreadable: string[] }): void {
    if (result.rewritten > 0) {
      this.options.log.info(`${result.rewritten} key(s) in the keychain sealed anew`);
    }
    if (result.unreadable.length > 0) {
      this.options.log.warn(
        `Keychain entries of ${result.unreadable.join(', ')} are sealed with another password; ` +
          'their keys must be entered again',
      );
    }
  }

  private proved(): void {
    this.provedAt = this.options.clock.now();
  }

  private storedSeal(): SealParameters | null {
    const stored = this.options.record.get(LOCK_KEYS.seal);
    return isSealParameters(stored) ? stored : null;
  }

  private storedHash(): PasswordHash | null {
    const stored = this.options.record.get(LOCK_KEYS.password);
    return isPasswordHash(stored) ? stored : null;
  }

  /** A set password must be named before it is changed or removed; failures count as at unlock. */
  private async requireCurrent(current: string | undefined): Promise<void> {
    const stored = this.storedHash();
    if (!stored) return;
    const check = this.state.checkAttempt();
    if (!check.allowed) {
      throw new AppError(
        'rate-limited',
        `Too many wrong passwords: try again in ${lockWaitText(check.retryAt - this.options.clock.now())}.`,
        'current',
      );
    }
    if (current === undefined || !(await verifyPassword(current, stored))) {
      this.state.recordFailure();
      throw new AppError('invalid-input', 'The current password is not right.', 'current');
    }
    this.proved();
    this.state.recordSuccess();
  }

  private serialCheck<T>(task: () => Promise<T>): Promise<T> {
    const run = this.checking.then(task, task);
    this.checking = run.catch(() => undefined);
    return run;
  }

  private changed(reason: LockReason | 'unlock' | 'failure' | 'settings'): void {
    const { record } = this.options;
    if (this.state.failures > 0) {
      record.set(LOCK_KEYS.failures, {
        count: this.state.failures,
        lastAt: this.state.lastFailure,
      });
    } else {
      record.delete(LOCK_KEYS.failures);
    }
    if (reason !== 'failure' && reason !== 'settings' && reason !== 'unlock') {
      this.options.log.info(`The app was locked (${reason})`);
    }
    this.options.emit('lock.changed', this.status());
    if (!this.state.locked && this.held.size > 0) {
      const kinds = [...this.held];
      this.held.clear();
      this.options.emit('data.changed', { profileId: null, kinds });
    }
  }
}
