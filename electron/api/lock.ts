/**
 * The app lock in the main process: the password (kept only as a scrypt hash in the record), the
 * lock's state (core/lock.ts: idle timer, the wait after wrong passwords), the lock.* handlers,
 * and what the lock holds back while the app is locked: every event but lock.changed (the data
 * kinds they touched are sent as one data.changed after unlocking) and the amounts in desktop
 * notifications. The dispatcher asks isLocked() before answering any other method.
 *
 * Live data keeps flowing into the cache underneath: nothing below the api layer knows the lock.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { EventName, EventPayloads } from '../../shared/contract';
import {
  DEFAULT_LOCK_IDLE_MINUTES,
  LOCK_IDLE_MINUTES,
  lockWaitText,
  type LockStatus,
  type UnlockResult,
} from '../../shared/lock';
import type { DataKind } from '../../shared/types';
import type { Clock } from '../core/clock';
import type { Emit } from '../core/events';
import { LockState, type LockBackoff, type LockReason } from '../core/lock';
import type { Logger } from '../core/logger';
import type { DesktopNotification, Notifier } from '../core/notifier';
import type { JsonValue } from '../store/types';
import type { ApiContext, HandlerGroup } from './context';
import { AppError } from './errors';

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 needs 32 MiB of memory and about 0.1 s per check on a
 * laptop (the cost OWASP names for scrypt), with a 16-byte random salt and a 32-byte result. The
 * parameters are stored beside each hash, so raising them later still checks older hashes.
 */
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
  keyLength: number;
  saltLength: number;
}

export const SCRYPT_PARAMETERS: Readonly<ScryptParameters> = {
  N: 2 ** 15,
  r: 8,
  p: 1,
  keyLength: 32,
  saltLength: 16,
};

/** The stored form of the password: no password is kept, only this. */
export interface PasswordHash {
  algorithm: 'scrypt';
  N: number;
  r: number;
  p: number;
  keyLength: number;
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
}

/** Keys in the record's app-wide settings. */
export const LOCK_KEYS = {
  password: 'lock.password',
  idleMinutes: 'lock.idleMinutes',
  failures: 'lock.failures',
} as const;

/** Where the lock keeps its state: the record's app-wide settings (never the discardable cache). */
export interface LockRecord {
  get<T extends JsonValue = JsonValue>(key: string): T | undefined;
  set(key: string, value: JsonValue): void;
  delete(key: string): boolean;
}

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** scrypt needs 128 * N * r * p bytes; Node refuses more than maxmem, 32 MiB by default. */
function scryptOptions(hash: Pick<PasswordHash, 'N' | 'r' | 'p'>): ScryptOptions {
  return { N: hash.N, r: hash.r, p: hash.p, maxmem: 256 * hash.N * hash.r * hash.p };
}

export async function hashPassword(
  password: string,
  parameters: Readonly<ScryptParameters> = SCRYPT_PARAMETERS,
): Promise<PasswordHash> {
  const salt = randomBytes(parameters.saltLength);
  const key = await scryptAsync(password, salt, parameters.keyLength, scryptOptions(parameters));
  return {
    algorithm: 'scrypt',
    N: parameters.N,
    r: parameters.r,
    p: parameters.p,
    keyLength: parameters.keyLength,
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
  };
}

/** Recomputes the hash with the stored salt and parameters and compares in constant time. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await scryptAsync(
    password,
    Buffer.from(stored.salt, 'base64'),
    expected.length,
    scryptOptions(stored),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

function isPasswordHash(value: JsonValue | undefined): value is PasswordHash & JsonValue {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, JsonValue>;
  return (
    record.algorithm === 'scrypt' &&
    typeof record.salt === 'string' &&
    typeof record.hash === 'string' &&
    [record.N, record.r, record.p, record.keyLength].every(
      (n) => typeof n === 'number' && Number.isSafeInteger(n) && n > 0,
    )
  );
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
  /** Removes every profile's local data, leaving the keys in the keychain (the reset). */
  forgetProfiles(): Promise<void>;
  backoff?: LockBackoff;
  /** Tests use a cheaper scrypt; the app always uses SCRYPT_PARAMETERS. */
  scrypt?: Readonly<ScryptParameters>;
}

export class AppLock {
  private readonly state: LockState;
  private readonly held = new Set<DataKind>();
  /** One password check at a time: parallel guesses would each slip past the wait. */
  private checking: Promise<unknown> = Promise.resolve();

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
        this.state.recordSuccess();
        this.options.log.info('The app was unlocked');
        return { unlocked: true, status: this.status() };
      }
      this.state.recordFailure();
      this.options.log.warn(`Wrong lock password (${this.state.failures} in a row)`);
      return { unlocked: false, reason: 'wrong-password' as const, status: this.status() };
    });
  }

  /** Sets or changes the password; a set one must be given as `current` first. */
  async setPassword(password: string, current?: string): Promise<LockStatus> {
    return this.serialCheck(async () => {
      await this.requireCurrent(current);
      const hash = await hashPassword(password, this.options.scrypt ?? SCRYPT_PARAMETERS);
      const wasEnabled = this.state.enabled;
      this.options.record.set(LOCK_KEYS.password, hash as unknown as JsonValue);
      this.options.log.info(
        wasEnabled ? 'The lock password was changed' : 'A lock password was set',
      );
      this.state.setEnabled(true);
      return this.status();
    });
  }

  async removePassword(current: string): Promise<LockStatus> {
    return this.serialCheck(async () => {
      await this.requireCurrent(current);
      this.options.record.delete(LOCK_KEYS.password);
      this.options.record.delete(LOCK_KEYS.failures);
      this.options.log.info('The lock password was removed');
      this.state.setEnabled(false);
      return this.status();
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
   * A forgotten password: every profile's local data goes, then the password. The keys stay in
   * the keychain, where profiles.orphanedKeys finds them to be attached again.
   */
  async reset(): Promise<LockStatus> {
    return this.serialCheck(async () => {
      await this.options.forgetProfiles();
      this.options.record.delete(LOCK_KEYS.password);
      this.options.record.delete(LOCK_KEYS.failures);
      this.options.log.warn('The lock was reset: the profiles’ local data was removed');
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

export function lockHandlers(ctx: Pick<ApiContext, 'lock'>) {
  const { lock } = ctx;
  return {
    'lock.status': async () => lock.status(),
    'lock.unlock': ({ password }) => lock.unlock(password),
    'lock.lock': async () => {
      if (!lock.lock('user') && !lock.isLocked()) {
        throw new AppError(
          'invalid-input',
          'Set a password in Settings first: without one Spotfolio cannot be locked.',
        );
      }
      return lock.status();
    },
    'lock.setPassword': ({ password, current }) => lock.setPassword(password, current),
    'lock.removePassword': ({ current }) => lock.removePassword(current),
    'lock.setIdle': async ({ idleMinutes }) => lock.setIdle(idleMinutes),
    'lock.activity': async () => {
      lock.activity();
      return { ok: true as const };
    },
    'lock.reset': () => lock.reset(),
  } satisfies HandlerGroup<'lock'>;
}
