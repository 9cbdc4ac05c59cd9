/** Which notification kinds reach the desktop follows the user's switches. */
import { describe, expect, it } from 'vitest';
import { notificationWanted } from '../../electron/core/notifier';
import type { NotificationKind, Settings } from '../../shared/types';

function settingsWith(notifications: Settings['notifications']): Settings {
  return { notifications } as Settings;
}

describe('notificationWanted', () => {
  it('maps each kind to its switch', () => {
    const only = (key: keyof Settings['notifications']) =>
      settingsWith({
        fills: false,
        cancels: false,
        balances: false,
        transfers: false,
        alerts: false,
        [key]: true,
      });
    const wanted = (settings: Settings) =>
      (['fill', 'order', 'cancel', 'balance', 'transfer', 'alert'] as NotificationKind[]).filter(
        (kind) => notificationWanted(kind, settings),
      );
    expect(wanted(only('fills'))).toEqual(['fill', 'order']);
    expect(wanted(only('cancels'))).toEqual(['cancel']);
    expect(wanted(only('balances'))).toEqual(['balance']);
    expect(wanted(only('transfers'))).toEqual(['transfer']);
    expect(wanted(only('alerts'))).toEqual(['alert']);
  });
});
