/**
 * The tray icon: the portfolio's total value in its tooltip and menu (hidden in privacy mode),
 * re-read whenever the data changes, plus "Show" and "Quit".
 */
import { Menu, Tray, nativeImage } from 'electron';
import type { BridgeHandlers, EventName } from '../../shared/contract';
import { formatValue, privacyMask } from '../../shared/format';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock';

export interface TrayOptions {
  iconPath: string;
  handlers: Pick<BridgeHandlers, 'portfolio.summary' | 'settings.get'>;
  onEvent(listener: (event: EventName) => void): () => void;
  onShow(): void;
  onQuit(): void;
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
  const settings = await handlers['settings.get']({});
  if (settings.privacyMode) return `Total: ${privacyMask}`;
  try {
    const summary = await handlers['portfolio.summary']({});
    return `Total: ${formatValue(summary.totalValue, summary.quoteAsset)}`;
  } catch {
    return 'Total: not available';
  }
}

/** Data changes can come in bursts (live fills); the tray re-reads at most this often. */
const refreshIntervalMs = 2000;

export function createTray(options: TrayOptions): AppTray {
  const log = options.log ?? (() => undefined);
  const clock = options.clock ?? new SystemClock();
  const tray = new Tray(nativeImage.createFromPath(options.iconPath));
  let destroyed = false;
  let timer: TimerHandle | null = null;

  const render = (label: string) => {
    if (destroyed) return;
    tray.setToolTip(`Spotfolio — ${label}`);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label, enabled: false },
        { type: 'separator' },
        { label: 'Show Spotfolio', click: () => options.onShow() },
        { label: 'Quit', click: () => options.onQuit() },
      ]),
    );
  };

  const refresh = async () => {
    try {
      render(await trayTotalLabel(options.handlers));
    } catch (error) {
      log(`Tray could not read the total: ${String(error)}`);
      render('Total: not available');
    }
  };

  tray.on('click', () => options.onShow());
  render('Total: …');
  void refresh();
  const unsubscribe = options.onEvent((event) => {
    if (event !== 'data.changed' || timer) return;
    timer = clock.setTimeout(() => {
      timer = null;
      void refresh();
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
