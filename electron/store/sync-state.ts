/** What each sync step has fetched up to (ids, times, windows), per profile and kind. */
import type Database from 'better-sqlite3';
import type { JsonValue, SyncStateRow } from './types';
import { integerMs, StoreInputError } from './util';

export class SyncStateRepository {
  private readonly getStatement;
  private readonly setStatement;
  private readonly listStatement;
  private readonly deleteStatement;

  constructor(db: Database.Database) {
    this.getStatement = db.prepare<
      [string, string],
      { kind: string; cursor: string; updatedAt: number }
    >(
      'SELECT kind, cursor, updated_at AS updatedAt FROM sync_state WHERE profile_id = ? AND kind = ?',
    );
    this.setStatement = db.prepare<[string, string, string, number]>(
      `INSERT INTO sync_state (profile_id, kind, cursor, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (profile_id, kind) DO UPDATE SET cursor = excluded.cursor,
         updated_at = excluded.updated_at`,
    );
    this.listStatement = db.prepare<[string], { kind: string; cursor: string; updatedAt: number }>(
      'SELECT kind, cursor, updated_at AS updatedAt FROM sync_state WHERE profile_id = ? ORDER BY kind',
    );
    this.deleteStatement = db.prepare<[string, string]>(
      'DELETE FROM sync_state WHERE profile_id = ? AND kind = ?',
    );
  }

  get<T extends JsonValue = JsonValue>(profileId: string, kind: string): SyncStateRow<T> | null {
    const row = this.getStatement.get(profileId, kind);
    return row
      ? { kind: row.kind, cursor: JSON.parse(row.cursor) as T, updatedAt: row.updatedAt }
      : null;
  }

  /** Records the cursor; call it inside the transaction that wrote the step's rows. */
  set(profileId: string, kind: string, cursor: JsonValue, updatedAt: number): void {
    if (!kind) throw new StoreInputError('sync state kind must not be empty');
    integerMs(updatedAt, 'updatedAt');
    const text = JSON.stringify(cursor);
    if (text === undefined) throw new StoreInputError(`sync cursor of ${kind} is not JSON`);
    this.setStatement.run(profileId, kind, text, updatedAt);
  }

  list(profileId: string): SyncStateRow[] {
    return this.listStatement.all(profileId).map((row) => ({
      kind: row.kind,
      cursor: JSON.parse(row.cursor) as JsonValue,
      updatedAt: row.updatedAt,
    }));
  }

  delete(profileId: string, kind: string): boolean {
    return this.deleteStatement.run(profileId, kind).changes > 0;
  }
}
