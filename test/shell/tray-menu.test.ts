import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

import { appMenuTemplate } from '../../electron/shell/menu';
import { createTray, trayTotalLabel } from '../../electron/shell/tray';
import { AppError } from '../../electron/api/errors';
import { ManualClock } from '../../electron/core/clock';
import type { EventName } from '../../shared/contract';
import { trays } from './fake-electron';

function handlers(privacyMode: boolean, summary: () => Promise<unknown>) {
  return {
    'settings.get': async () => ({ privacyMode }),
    'portfolio.summary': summary,
    'lock.status': async () => ({ enabled: false, locked: false }),
  } as never;
}

describe('tray total', () => {
  it('shows the total in the quote asset', async () => {
    const label = await trayTotalLabel(
      handlers(false, async () => ({ totalValue: '12345.678', quoteAsset: 'usdt' })),
    );
    expect(label).toBe('Total: 12,345.68 USDT');
  });

  it('hides the amount in privacy mode without reading the portfolio', async () => {
    const summary = vi.fn(async () => ({ totalValue: '1', quoteAsset: 'usdt' }));
    const label = await trayTotalLabel(handlers(true, summary));
    expect(label).toBe('Total: ••••');
    expect(summary).not.toHaveBeenCalled();
  });

  it('says so when there is no total (no profile yet)', async () => {
    const label = await trayTotalLabel(
      handlers(false, async () => {
        throw new AppError('no-profile', 'Add a profile');
      }),
    );
    expect(label).toBe('Total: not available');
  });
});

describe('tray refresh', () => {
  it('re-reads the total at most once per 2 s of data changes, and stops when destroyed', async () => {
    const clock = new ManualClock(0);
    let listener: ((event: EventName) => void) | undefined;
    const summary = vi.fn(async () => ({ totalValue: '10', quoteAsset: 'usdt' }));
    const tray = createTray({
      iconPath: '/tray.png',
      handlers: handlers(false, summary),
      onEvent: (fn) => {
        listener = fn;
        return () => (listener = undefined);
      },
      onShow: () => undefined,
      onQuit: () => undefined,
      clock,
    });
    await vi.waitFor(() => expect(summary).toHaveBeenCalledTimes(1));
    expect(trays.at(-1)!.tooltip).toBe('Spotfolio — Total: 10.00 USDT');
    for (let i = 0; i < 50; i++) listener!('data.changed');
    listener!('notification');
    clock.advance(1999);
    expect(summary).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await vi.waitFor(() => expect(summary).toHaveBeenCalledTimes(2));
    listener!('data.changed');
    tray.destroy();
    clock.advance(5000);
    expect(summary).toHaveBeenCalledTimes(2);
    expect(listener).toBeUndefined();
    expect(trays.at(-1)!.destroyed).toBe(true);
  });
});

describe('app menu', () => {
  it('offers developer tools only in unpackaged builds', () => {
    const flat = (packaged: boolean) =>
      JSON.stringify(
        appMenuTemplate({ isMac: false, isPackaged: packaged, onShow: () => undefined }),
      );
    expect(flat(false)).toContain('toggleDevTools');
    expect(flat(true)).not.toContain('toggleDevTools');
  });

  it('has the macOS app menu only on macOS', () => {
    const mac = appMenuTemplate({ isMac: true, isPackaged: true, onShow: () => undefined });
    const linux = appMenuTemplate({ isMac: false, isPackaged: true, onShow: () => undefined });
    expect(mac[0]).toEqual({ role: 'appMenu' });
    expect(linux.some((item) => item.role === 'appMenu')).toBe(false);
  });
});
