/**
 * Desktop notifications: what shows one on screen (the shell's native notifier on the desktop;
 * none in browser mode, where the page shows the 'notification' event itself), and which kinds
 * the user's settings let through.
 */
import type { NotificationKind, Settings } from '../../shared/types';

export interface DesktopNotification {
  kind: NotificationKind;
  title: string;
  body: string;
}

export interface Notifier {
  show(notification: DesktopNotification): void;
}

/** Whether the user's settings want a desktop notification of this kind. */
export function notificationWanted(kind: NotificationKind, settings: Settings): boolean {
  switch (kind) {
    case 'fill':
    case 'order':
      return settings.notifications.fills;
    case 'cancel':
      return settings.notifications.cancels;
    case 'balance':
      return settings.notifications.balances;
    case 'transfer':
      return settings.notifications.transfers;
    case 'alert':
      return settings.notifications.alerts;
  }
}
