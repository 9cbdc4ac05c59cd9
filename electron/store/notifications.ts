/** In-app notifications (fills, cancels, balance changes, transfers), newest first. */
import type Database from 'better-sqlite3';
import type { NotificationInput, NotificationKind, NotificationRow } from './types';
import { integerMs, StoreInputError } from './util';

const KINDS = new Set<NotificationKind>([
  'fill',
  'cancel',
  'balance',
  'transfer',
  'order',
  'alert',
]);

type NotificationDbRow = Omit<NotificationRow, 'read'> & { read: number };

const toRow = (row: NotificationDbRow): NotificationRow => ({ ...row, read: row.read === 1 });

export class NotificationsRepository {
  private readonly insertStatement;
  private readonly listStatement;
  private readonly listUnreadStatement;
  private readonly markReadStatement;
  private readonly markAllReadStatement;
  private readonly unreadCountStatement;
  private readonly pruneStatement;

  constructor(db: Database.Database) {
    this.insertStatement = db.prepare<[string, string, string, string, number]>(
      'INSERT INTO notifications (profile_id, kind, title, body, time) VALUES (?, ?, ?, ?, ?)',
    );
    this.listStatement = db.prepare<[string, number], NotificationDbRow>(
      `SELECT id, kind, title, body, time, read FROM notifications WHERE profile_id = ?
       ORDER BY time DESC, id DESC LIMIT ?`,
    );
    this.listUnreadStatement = db.prepare<[string, number], NotificationDbRow>(
      `SELECT id, kind, title, body, time, read FROM notifications
       WHERE profile_id = ? AND read = 0 ORDER BY time DESC, id DESC LIMIT ?`,
    );
    this.markReadStatement = db.prepare<[string, number]>(
      'UPDATE notifications SET read = 1 WHERE profile_id = ? AND id = ? AND read = 0',
    );
    this.markAllReadStatement = db.prepare<[string]>(
      'UPDATE notifications SET read = 1 WHERE profile_id = ? AND read = 0',
    );
    this.unreadCountStatement = db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM notifications WHERE profile_id = ? AND read = 0',
    );
    // Keeps the newest `keep` notifications of the profile.
    this.pruneStatement = db.prepare<[string, string, number]>(
      `DELETE FROM notifications WHERE profile_id = ? AND id NOT IN (
         SELECT id FROM notifications WHERE profile_id = ? ORDER BY time DESC, id DESC LIMIT ?)`,
    );
  }

  /** Stores a notification and returns it with its id. */
  add(profileId: string, notification: NotificationInput): NotificationRow {
    if (!KINDS.has(notification.kind)) {
      throw new StoreInputError(
        `notification kind ${JSON.stringify(notification.kind)} is unknown`,
      );
    }
    integerMs(notification.time, 'notification time');
    const result = this.insertStatement.run(
      profileId,
      notification.kind,
      notification.title,
      notification.body,
      notification.time,
    );
    return { ...notification, id: Number(result.lastInsertRowid), read: false };
  }

  list(
    profileId: string,
    options: { limit?: number; unreadOnly?: boolean } = {},
  ): NotificationRow[] {
    const limit = options.limit ?? 100;
    const statement = options.unreadOnly ? this.listUnreadStatement : this.listStatement;
    return statement.all(profileId, limit).map(toRow);
  }

  /** Marks the given ids read, or all of the profile's when ids is 'all'; returns how many. */
  markRead(profileId: string, ids: readonly number[] | 'all'): number {
    if (ids === 'all') return this.markAllReadStatement.run(profileId).changes;
    let changed = 0;
    for (const id of ids) changed += this.markReadStatement.run(profileId, id).changes;
    return changed;
  }

  unreadCount(profileId: string): number {
    return this.unreadCountStatement.get(profileId)?.n ?? 0;
  }

  /** Deletes all but the newest `keep` notifications; returns how many were deleted. */
  prune(profileId: string, keep: number): number {
    return this.pruneStatement.run(profileId, profileId, keep).changes;
  }
}
