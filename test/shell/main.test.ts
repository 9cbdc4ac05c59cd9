import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

const created = vi.hoisted(() => ({
  options: [] as Record<string, unknown>[],
  closed: 0,
  lockCalls: 0,
}));

// The composition root (electron/app.ts) needs a data folder; main.ts is tested around it.
vi.mock('../../electron/app', async () => ({
  createApp: async (options: Record<string, unknown>) => {
    created.options.push(options);
    const { createLogger } = await import('../../electron/log');
    return {
      log: createLogger(() => undefined),
      handlers: {
        'settings.get': async () => ({ privacyMode: true }),
        'portfolio.summary': async () => ({ totalValue: '1', quoteAsset: 'usdt' }),
        'lock.status': async () => ({ enabled: false, locked: false }),
        'lock.lock': async () => {
          created.lockCalls++;
          return { enabled: true, locked: true };
        },
      },
      lock: { isLocked: () => false },
      onEvent: () => () => undefined,
      close: async () => {
        created.closed++;
      },
    };
  },
}));

import { ipcChannel, methodNames } from '../../shared/contract';
import { NativeNotifier } from '../../electron/shell/notifications';
import { LOCK_SHORTCUT } from '../../electron/shell/lock';
import {
  FakeBrowserWindow,
  fakeApp,
  globalShortcuts,
  ipcMainHandlers,
  powerMonitor,
  trays,
} from './fake-electron';

async function flush() {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('main process entry', () => {
  beforeEach(() => {
    vi.resetModules();
    fakeApp.handlers.clear();
    fakeApp.quitCalls = 0;
    fakeApp.ready = null;
    FakeBrowserWindow.created.length = 0;
    ipcMainHandlers.clear();
    trays.length = 0;
    created.options.length = 0;
    created.closed = 0;
    created.lockCalls = 0;
    powerMonitor.handlers.clear();
    globalShortcuts.clear();
  });

  it('quits at once when another instance holds the lock', async () => {
    fakeApp.lockGranted = false;
    await import('../../electron/main');
    expect(fakeApp.quitCalls).toBe(1);
    expect(fakeApp.ready).toBeNull();
    expect(fakeApp.handlers.has('second-instance')).toBe(false);
  });

  it('starts the app, binds IPC, opens the window and tray, and closes the app before quitting', async () => {
    fakeApp.lockGranted = true;
    await import('../../electron/main');
    fakeApp.ready!();
    await flush();

    expect(created.options).toHaveLength(1);
    expect(created.options[0]).toMatchObject({
      mode: 'desktop',
      dataDir: '/fake/userData/Spotfolio',
    });
    // resetModules gives main.ts its own copy of the class, so compare by name.
    expect((created.options[0]!.notifier as object).constructor.name).toBe(NativeNotifier.name);
    expect([...ipcMainHandlers.keys()].sort()).toEqual(methodNames.map(ipcChannel).sort());
    expect(FakeBrowserWindow.created).toHaveLength(1);
    const window = FakeBrowserWindow.created[0]!;
    expect(window.loaded).toBe('app://spotfolio/index.html');
    expect(trays).toHaveLength(1);
    expect(trays[0]!.tooltip).toBe('Spotfolio — Total: ••••');

    // A second launch brings the existing window forward instead of opening another.
    fakeApp.emit('second-instance');
    expect(FakeBrowserWindow.created).toHaveLength(1);
    expect(window.focused).toBe(1);

    // The OS locking the session, the machine going to sleep and the shortcut each lock the app.
    powerMonitor.emit('lock-screen');
    powerMonitor.emit('suspend');
    globalShortcuts.get(LOCK_SHORTCUT)!();
    await flush();
    expect(created.lockCalls).toBe(3);

    const event = { preventDefault: vi.fn() };
    fakeApp.emit('before-quit', event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    await flush();
    expect(powerMonitor.handlers.get('lock-screen')).toEqual([]);
    expect(powerMonitor.handlers.get('suspend')).toEqual([]);
    expect(globalShortcuts.size).toBe(0);
    expect(created.closed).toBe(1);
    expect(ipcMainHandlers.size).toBe(0);
    expect(trays[0]!.destroyed).toBe(true);
    expect(fakeApp.quitCalls).toBe(1);
    // The second before-quit (from that quit) passes through.
    const again = { preventDefault: vi.fn() };
    fakeApp.emit('before-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
  });
});
