/**
 * The desktop's ways of locking the app besides the button on the page: the OS locking the
 * session or the machine going to sleep (someone else may be at the keyboard when it wakes), and
 * a global shortcut that works while another program has the focus. The menu and tray items are
 * in menu.ts and tray.ts. Each only asks the main process to lock; it decides (no password: no
 * lock).
 */
import { globalShortcut, powerMonitor } from 'electron';

/** Locks from anywhere on the desktop. */
export const LOCK_SHORTCUT = 'CommandOrControl+Shift+L';
/** The menu's accelerator, while Spotfolio has the focus. */
export const LOCK_MENU_ACCELERATOR = 'CmdOrCtrl+L';

export interface LockHooksOptions {
  /** Asks the app to lock; `cause` is for the log. */
  lock(cause: 'system' | 'shortcut'): void;
  log?: (line: string) => void;
  shortcut?: string;
}

/** Installs the hooks; the returned function removes them (before quitting). */
export function installLockHooks(options: LockHooksOptions): () => void {
  const log = options.log ?? (() => undefined);
  const shortcut = options.shortcut ?? LOCK_SHORTCUT;
  const onPowerEvent = () => options.lock('system');
  powerMonitor.on('lock-screen', onPowerEvent);
  powerMonitor.on('suspend', onPowerEvent);
  let registered = false;
  try {
    registered = globalShortcut.register(shortcut, () => options.lock('shortcut'));
  } catch (error) {
    log(`The lock shortcut ${shortcut} could not be registered: ${String(error)}`);
  }
  if (!registered) {
    log(`The lock shortcut ${shortcut} is taken by another program; the menu and tray still lock`);
  }
  return () => {
    powerMonitor.removeListener('lock-screen', onPowerEvent);
    powerMonitor.removeListener('suspend', onPowerEvent);
    if (registered) globalShortcut.unregister(shortcut);
  };
}
