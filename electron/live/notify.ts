/**
 * Notifications: every one is recorded in the store and sent to the renderer as a 'notification'
 * event; the desktop Notifier shows it only when the user's settings want that kind.
 */
import { maskNumbers } from '../../shared/format';
import type { NotificationKind, NotificationView, Settings } from '../../shared/types';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import { notificationWanted, type Notifier } from '../core/notifier';
import type { Store } from '../store';

export interface NotifyDeps {
  store: Store;
  profileId: string;
  emit: Emit;
  settings: () => Settings;
  now: () => number;
  log: Logger;
  notifier?: Notifier | undefined;
}

export function notify(
  deps: NotifyDeps,
  kind: NotificationKind,
  title: string,
  body: string,
): NotificationView {
  const row = deps.store.notifications.add(deps.profileId, {
    kind,
    title,
    body,
    time: deps.now(),
  });
  const view: NotificationView = {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    time: row.time,
    read: row.read,
  };
  deps.emit('notification', view);
  deps.emit('data.changed', { profileId: deps.profileId, kinds: ['notifications'] });
  const settings = deps.settings();
  if (deps.notifier && notificationWanted(kind, settings)) {
    try {
      // A desktop notification is seen by whoever looks at the screen: privacy mode hides its amounts.
      deps.notifier.show({ kind, title, body: maskNumbers(body, settings.privacyMode) });
    } catch (error) {
      deps.log.error('The desktop notification could not be shown', error);
    }
  }
  return view;
}
