/**
 * The app lock's facts, the same for the main process and the renderer: what the lock's state
 * looks like, the idle times offered, the password's length limits, and which bridge methods are
 * answered while the app is locked (nothing else is).
 */

export interface LockStatus {
  /** A password is set: the app locks at start, when idle, on demand. */
  enabled: boolean;
  locked: boolean;
  /** Minutes without activity before the app locks itself; 0: never. */
  idleMinutes: number;
  /** Wrong passwords in a row (kept across restarts until the right one is given). */
  failedAttempts: number;
  /** When the next password will be checked (ms since the epoch); null: at once. */
  retryAt: number | null;
}

export interface UnlockResult {
  unlocked: boolean;
  /** Why not: the password was wrong, or it came before the wait after earlier failures ended. */
  reason?: 'wrong-password' | 'too-soon';
  status: LockStatus;
}

/** The password given again before a sensitive action. */
export interface ConfirmResult {
  confirmed: boolean;
  reason?: 'wrong-password' | 'too-soon';
  status: LockStatus;
}

/**
 * A sensitive action (a transfer, an order above the threshold in Settings, re-attaching a key,
 * changing a profile's addresses, removing a profile, exporting a report) asks for the password
 * again when it was last given longer ago than this.
 */
export const REAUTH_AFTER_MS = 3 * 60_000;

/** The idle times the Settings screen offers, in minutes; 0 turns the idle lock off. */
export const LOCK_IDLE_MINUTES = [0, 1, 5, 15, 30, 60] as const;
export const DEFAULT_LOCK_IDLE_MINUTES = 15;

export const MIN_LOCK_PASSWORD_LENGTH = 8;
export const MAX_LOCK_PASSWORD_LENGTH = 256;

/** The renderer says the user is active at most this often; the idle timer restarts on each. */
export const LOCK_ACTIVITY_REPORT_MS = 15_000;

/** The only bridge methods the main process answers while the app is locked. */
export const METHODS_WHILE_LOCKED = [
  'lock.status',
  'lock.unlock',
  'lock.lock',
  'lock.reset',
] as const;

export function answeredWhileLocked(method: string): boolean {
  return (METHODS_WHILE_LOCKED as readonly string[]).includes(method);
}

/** What the user is told before resetting a forgotten password, word for word. */
export const LOCK_RESET_EXPLANATION =
  'Your API keys are sealed with this password, so without it they cannot be opened: resetting ' +
  'deletes them from the system keychain, and you will enter your API keys again. It also ' +
  'removes the password and every profile’s local data from this computer (the profiles, ' +
  'their cached balances, orders and history, value snapshots, notifications, alerts, ledger ' +
  'notes and transfer journal) after keeping a backup copy of it in the backups folder. ' +
  'Nothing changes on the exchange.';

/** What Settings says once a password is set. */
export const LOCK_SEALED_NOTE =
  'Your API keys are sealed with this password in the system keychain. After Spotfolio starts, ' +
  'nothing is synced or signed until you unlock it the first time; while it is locked after ' +
  'that, sync and alerts go on.';

/** Words for a wait, e.g. "8 s" or "2 min". */
export function lockWaitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  return `${Math.ceil(seconds / 60)} min`;
}
