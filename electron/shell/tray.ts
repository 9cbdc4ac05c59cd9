/**
 * The tray icon: the portfolio's total value in its tooltip and menu (hidden in privacy mode, and
 * not even read while the app is locked), re-read whenever the data changes, plus "Show", "Lock"
 * (when a password is set) and "Quit".
 */
import { inBackground, lineErrorLog } from '../core/background';
import { Menu, Tray, nativeImage } from 'electron';
import type { BridgeHandlers, EventName } from '../../shared/contract';
import { formatValue, privacyMask } from '../../shared/format';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock';

export interface TrayOptions {
  iconPath: string;
  handlers: Pick<BridgeHandlers, 'portfolio.summary' | 'settings.get' | 'lock.status'>;
  onEvent(listener: (event: EventName) => void): () => void;
  onShow(): void;
  onQuit(): void;
  /** Locks the app now (the tray's "Lock Spotfolio"). */
  onLock?(): void;
  log?: (line: string) => void;
  /** Paces the re-reads. Default: the system clock. */
  clock?: Clock;
}

export interface AppTray {
  /** Re-reads the total now. */
  refresh(): Promise<void>;
  destroy(): void;
}

/** The line the tray shows: the total, or a mask in privacy mode, or why there is none. */
export async function trayTotalLabel(handlers: TrayOptions['handlers']): Promise<string> {
  if ((await handlers['lock.status']({})).locked) return lockedTrayLabel;
  const settings = await handlers['settings.get']({});
  if (settings.privacyMode) return `Total: ${privacyMask}`;
  try {
    const summary = await handlers['portfolio.summary']({});
    return `Total: ${formatValue(summary.totalValue, summary.quoteAsset)}`;
  } catch {
    return 'Total: not available';
  }
}

export const lockedTrayLabel = 'Spotfolio is locked';

/** Data changes can come in bursts (live fills); the tray re-reads at most this often. */
const refreshIntervalMs = 2000;

export function createTray(options: TrayOptions): AppTray {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? new SystemClock();
  const tray = new Tray(nativeImage.createFromPath(options.iconPath));
  let destroyed = false;
  let timer: TimerHandle | null = null;

  const render = (label: string, canLock: boolean) => {
    if (destroyed) return;
    tray.setToolTip(`Spotfolio — ${label}`);
    const onLock = options.onLock;
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label, enabled: false },
        { type: 'separator' },
        { label: 'Show Spotfolio', click: () => options.onShow() },
        ...(onLock ? [{ label: 'Lock Spotfolio', enabled: canLock, click: () => onLock() }] : []),
        { label: 'Quit', click: () => options.onQuit() },
      ]),
    );
  };

  const refresh = async () => {
    let canLock = false;
    try {
      const lock = await options.handlers['lock.status']({});
      canLock = lock.enabled && !lock.locked;
      render(await trayTotalLabel(options.handlers), canLock);
    } catch (error) {
      log(`Tray could not read the total: ${String(error)}`);
      render('Total: not available', canLock);
    }
  };

  tray.on('click', () => options.onShow());
  render('Total: …', false);
  const errorLog = lineErrorLog(log);
  inBackground(refresh(), 'Tray: reading the total', errorLog);
  const unsubscribe = options.onEvent((event) => {
    // Locking hides the amount at once, not after the pacing's wait.
    if (event === 'lock.changed')
      return inBackground(refresh(), 'Tray: reading the total', errorLog);
    if (event !== 'data.changed' || timer) return;
    timer = clock.setTimeout(() => {
      timer = null;
      inBackground(refresh(), 'Tray: reading the total', errorLog);
    }, refreshIntervalMs);
  });

  return {
    refresh,
    destroy() {
      destroyed = true;
      unsubscribe();
      if (timer) clock.clearTimeout(timer);
      tray.destroy();
    },
  };
}
