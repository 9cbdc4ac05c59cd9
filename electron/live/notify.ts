/**
 * Notifications: every one is recorded in the store. The user's notification settings decide
 * whether it is also shown: as a toast in the window (the 'notification' event the page turns
 * into one) and as a desktop notification (the Notifier). A kind switched off is recorded and
 * listed in Activity, and shown nowhere else.
 */
import { maskNumbers } from '../../shared/format';
import type { NotificationKind, NotificationView, Settings } from '../../shared/types';
import type { Clock, TimerHandle } from '../core/clock';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import { notificationWanted, type Notifier } from '../core/notifier';
import type { Store } from '../store';
import type { NotificationRow } from '../store/types';

export interface NotifyDeps {
  store: Store;
  profileId: string;
  emit: Emit;
  settings: () => Settings;
  now: () => number;
  log: Logger;
  notifier?: Notifier | undefined;
}

export interface NotifyOptions {
  /** Notifications of one group replace each other on screen instead of stacking. */
  group?: string;
}

/** A kept notification as the page shows it. */
export function toNotificationView(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    time: row.time,
    read: row.read,
  };
}

export function notify(
  deps: NotifyDeps,
  kind: NotificationKind,
  title: string,
  body: string,
  options: NotifyOptions = {},
): NotificationView {
  const row = deps.store.notifications.add(deps.profileId, {
    kind,
    title,
    body,
    time: deps.now(),
  });
  const view = toNotificationView(row);
  if (options.group !== undefined) view.group = options.group;
  const settings = deps.settings();
  const wanted = notificationWanted(kind, settings);
  if (wanted) deps.emit('notification', view);
  deps.emit('data.changed', { profileId: deps.profileId, kinds: ['notifications'] });
  if (wanted && deps.notifier) {
    try {
      // A desktop notification is seen by whoever looks at the screen: privacy mode hides its amounts.
      deps.notifier.show({ kind, title, body: maskNumbers(body, settings.privacyMode) });
    } catch (error) {
      deps.log.error('The desktop notification could not be shown', error);
    }
  }
  return view;
}

/**
 * At most one balance notification per set of assets per window: a living market with deposits
 * and withdrawals coming in would otherwise pile them up. The first change of a set is notified
 * at once; later ones within the window are held, and the latest of them is notified when the
 * window ends (in the same group, so it replaces the one on screen), opening the next window.
 */
export const BALANCE_NOTICE_WINDOW_MS = 5000;

export class BalanceNotices {
  private readonly open = new Map<string, { timer: TimerHandle; held: string | null }>();

  constructor(
    private readonly deps: NotifyDeps,
    private readonly clock: Clock,
    private readonly windowMs = BALANCE_NOTICE_WINDOW_MS,
  ) {}

  /**
   * Balance changes made outside trading, as one live batch carried them: the assets changed
   * and the text that tells their new balances.
   */
  add(assets: readonly string[], body: string): void {
    if (assets.length === 0) return;
    const group = `balance:${[...new Set(assets.map((asset) => asset.toLowerCase()))].sort().join(',')}`;
    const window = this.open.get(group);
    if (window) {
      window.held = body;
      return;
    }
    this.show(group, body);
  }

  /** Drops what is held (the session is closing). */
  close(): void {
    for (const window of this.open.values()) this.clock.clearTimeout(window.timer);
    this.open.clear();
  }

  private show(group: string, body: string): void {
    const timer = this.clock.setTimeout(() => this.windowEnded(group), this.windowMs);
    this.open.set(group, { timer, held: null });
    try {
      notify(this.deps, 'balance', 'Balance changed', body, { group });
    } catch (error) {
      this.deps.log.error('live: could not record a balance notification', error);
    }
  }

  private windowEnded(group: string): void {
    const window = this.open.get(group);
    this.open.delete(group);
    if (window?.held != null) this.show(group, window.held);
  }
}
