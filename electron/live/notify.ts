/**
 * Notifications: every one is recorded in the store and sent to the renderer as a 'notification'
 * event; the desktop Notifier shows it only when the user's settings want that kind.
 */
import { maskNumbers } from '../../shared/format';
import type { NotificationKind, NotificationView, Settings } from '../../shared/types';
import type { Logger } from '../log';
import type { Store } from '../store';
import type { Emit } from '../api/context';

export interface Notifier {
  show(n: { kind: NotificationKind; title: string; body: string }): void;
}

export interface NotifyDeps {
  store: Store;
  profileId: string;
  emit: Emit;
  settings: () => Settings;
  now: () => number;
  log: Logger;
  notifier?: Notifier | undefined;
}

/** Which setting switches desktop notifications of a kind on or off. */
function wanted(kind: NotificationKind, settings: Settings): boolean {
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
  }
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
  if (deps.notifier && wanted(kind, settings)) {
    try {
      // A desktop notification is seen by whoever looks at the screen: privacy mode hides its amounts.
      deps.notifier.show({ kind, title, body: maskNumbers(body, settings.privacyMode) });
    } catch (error) {
      deps.log.error('The desktop notification could not be shown', error);
    }
  }
  return view;
}
