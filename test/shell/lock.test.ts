/**
 * The desktop shell's lock hooks with the stand-in electron module: the OS locking the session
 * and the machine suspending lock the app, so does the global shortcut; the menu and the tray
 * offer "Lock Spotfolio"; the tray shows no amount while locked and hides it as soon as the lock
 * closes, without waiting for its re-read pacing.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

import type { MenuItemConstructorOptions } from 'electron';
import type { EventName } from '../../shared/contract';
import type { LockStatus } from '../../shared/lock';
import { ManualClock } from '../../electron/core/clock';
import { installLockHooks, LOCK_MENU_ACCELERATOR, LOCK_SHORTCUT } from '../../electron/shell/lock';
import { appMenuTemplate } from '../../electron/shell/menu';
import { createTray, lockedTrayLabel, trayTotalLabel } from '../../electron/shell/tray';
import { globalShortcut, globalShortcuts, powerMonitor, trays } from './fake-electron';

beforeEach(() => {
  powerMonitor.handlers.clear();
  globalShortcuts.clear();
  globalShortcut.taken.clear();
});

describe('lock hooks', () => {
  it('locks when the OS locks the session or the machine suspends, and on the shortcut', () => {
    const causes: string[] = [];
    const remove = installLockHooks({ lock: (cause) => causes.push(cause) });
    powerMonitor.emit('lock-screen');
    powerMonitor.emit('suspend');
    powerMonitor.emit('resume');
    globalShortcuts.get(LOCK_SHORTCUT)!();
    expect(causes).toEqual(['system', 'system', 'shortcut']);

    remove();
    powerMonitor.emit('lock-screen');
    powerMonitor.emit('suspend');
    expect(causes).toHaveLength(3);
    expect(globalShortcuts.has(LOCK_SHORTCUT)).toBe(false);
  });

  it('says so when another program holds the shortcut, and still locks on power events', () => {
    globalShortcut.taken.add(LOCK_SHORTCUT);
    const lines: string[] = [];
    const causes: string[] = [];
    const remove = installLockHooks({
      lock: (cause) => causes.push(cause),
      log: (l) => lines.push(l),
    });
    expect(lines.join('\n')).toContain(`${LOCK_SHORTCUT} is taken by another program`);
    powerMonitor.emit('suspend');
    expect(causes).toEqual(['system']);
    // Not ours to remove.
    remove();
    expect(globalShortcut.taken.has(LOCK_SHORTCUT)).toBe(true);
  });
});

describe('menu and tray', () => {
  it('has a "Lock Spotfolio" menu item with its accelerator when the app can lock', () => {
    const onLock = vi.fn();
    const file = appMenuTemplate({
      isMac: false,
      isPackaged: true,
      onShow: () => undefined,
      onLock,
    }).find((item) => item.label === 'File')!.submenu as MenuItemConstructorOptions[];
    const item = file.find((entry) => entry.label === 'Lock Spotfolio')!;
    expect(item.accelerator).toBe(LOCK_MENU_ACCELERATOR);
    (item.click as () => void)();
    expect(onLock).toHaveBeenCalledOnce();

    const without = appMenuTemplate({ isMac: false, isPackaged: true, onShow: () => undefined });
    expect(JSON.stringify(without)).not.toContain('Lock Spotfolio');
  });

  it('shows no amount while locked and never reads the portfolio then', async () => {
    const summary = vi.fn(async () => ({ totalValue: '12345.678', quoteAsset: 'usdt' }));
    const label = await trayTotalLabel({
      'lock.status': async () => ({ enabled: true, locked: true }) as LockStatus,
      'settings.get': async () => ({ privacyMode: false }),
      'portfolio.summary': summary,
    } as never);
    expect(label).toBe(lockedTrayLabel);
    expect(summary).not.toHaveBeenCalled();
  });

  it('hides the total as soon as the app locks, and offers to lock while unlocked', async () => {
    let lock: LockStatus = {
      enabled: true,
      locked: false,
      idleMinutes: 15,
      failedAttempts: 0,
      retryAt: null,
    };
    let listener: ((event: EventName) => void) | undefined;
    const onLock = vi.fn();
    createTray({
      iconPath: '/tray.png',
      handlers: {
        'lock.status': async () => lock,
        'settings.get': async () => ({ privacyMode: false }),
        'portfolio.summary': async () => ({ totalValue: '10', quoteAsset: 'usdt' }),
      } as never,
      onEvent: (fn) => {
        listener = fn;
        return () => undefined;
      },
      onShow: () => undefined,
      onQuit: () => undefined,
      onLock,
      clock: new ManualClock(0),
    });
    const record = trays.at(-1)!;
    await vi.waitFor(() => expect(record.tooltip).toBe('Spotfolio — Total: 10.00 USDT'));
    const items = () => record.menu as MenuItemConstructorOptions[];
    const lockItem = () => items().find((item) => item.label === 'Lock Spotfolio')!;
    expect(lockItem().enabled).toBe(true);
    (lockItem().click as () => void)();
    expect(onLock).toHaveBeenCalledOnce();

    lock = { ...lock, locked: true };
    listener!('lock.changed');
    await vi.waitFor(() => expect(record.tooltip).toBe(`Spotfolio — ${lockedTrayLabel}`));
    expect(JSON.stringify(items())).not.toContain('10.00');
    expect(lockItem().enabled).toBe(false);
  });
});
