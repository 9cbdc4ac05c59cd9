import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

import { appMenuTemplate } from '../../electron/shell/menu';
import { trayTotalLabel } from '../../electron/shell/tray';
import { AppError } from '../../electron/api/errors';

function handlers(privacyMode: boolean, summary: () => Promise<unknown>) {
  return {
    'settings.get': async () => ({ privacyMode }),
    'portfolio.summary': summary,
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
