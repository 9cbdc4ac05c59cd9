/**
 * The app lock. Public API:
 * - AppLock: the lock's service (password, state, sealing key, confirmation before sensitive
 *   actions, what is held back while locked); LOCK_KEYS, LOCKED_NOTIFICATION, LockVault.
 * - hashPassword / verifyPassword / deriveSealKey and their scrypt parameters.
 * - followScreenLock: locks when the desktop session locks or sleeps (Linux, over D-Bus).
 * - SensitiveActions: which bridge calls ask for the password again.
 */
export {
  AppLock,
  LOCK_KEYS,
  LOCKED_NOTIFICATION,
  type AppLockOptions,
  type LockRecord,
  type LockVault,
} from './service';
export {
  deriveSealKey,
  hashPassword,
  SCRYPT_PARAMETERS,
  verifyPassword,
  type PasswordHash,
  type ScryptParameters,
  type SealParameters,
} from './password';
export { followScreenLock, signalReader, type ScreenLockFollower } from './screen-lock';
export { SensitiveActions, type SensitiveActionsDeps } from './sensitive-actions';
