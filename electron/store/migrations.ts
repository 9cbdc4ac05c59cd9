/**
 * Numbered schema migrations, one list per file: the record's (record-migrations.ts) and the
 * cache's (cache-migrations.ts). A list only ever grows: a released migration is never edited, a
 * change is a new entry with the next version at the end of the list it belongs to. openStore
 * applies every missing one of a file in a single transaction (the record's after a backup), records
 * each in that file's schema_migrations and sets its PRAGMA user_version to the last.
 *
 * Which list a table belongs to: if the exchange can give its rows back, the cache; if not (what
 * the user entered, what the app saw and kept), the record. docs/architecture.md lists them.
 *
 * Amounts are TEXT decimal strings (never REAL). Times are INTEGER ms.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  up: string | ((db: Database.Database) => void);
}

export { CACHE_MIGRATIONS } from './cache-migrations';
export { RECORD_MIGRATIONS } from './record-migrations';
export { LEGACY_MIGRATIONS } from './legacy-migrations';

/** The last version of a list (0 for an empty one). */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations[migrations.length - 1]?.version ?? 0;
}
