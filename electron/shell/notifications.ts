/**
 * Native desktop notifications. The app decides which kinds to show (per the user's settings)
 * and calls show(); this only puts them on screen, clicking one brings the window forward.
 */
import { Notification } from 'electron';
import type { DesktopNotification, Notifier } from '../core/notifier';

export class NativeNotifier implements Notifier {
  constructor(private readonly onClick: () => void = () => undefined) {}

  show(n: DesktopNotification): void {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title: n.title, body: n.body, silent: false });
    notification.on('click', () => this.onClick());
    notification.show();
  }
}
