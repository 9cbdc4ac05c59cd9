/**
 * Converting the single file of versions before the record/cache split (spotfolio.sqlite, schema
 * 1 to 4) into the two files, once, without losing anything:
 *
 * 1. a working copy of the old file is taken with the online backup API and brought to schema 4
 *    (the old file itself is never written);
 * 2. the record's tables are copied into a new record file in one transaction and counted
 *    against the source; the cache's tables likewise into a new cache file (if that fails, the
 *    cache simply starts empty: the exchange gives it back);
 * 3. the new files get their names (cache first, record last: a record under its name means the
 *    conversion is done), and the old file moves into backups/ as spotfolio-before-split-<time>.
 *
 * A start interrupted anywhere before step 3 leaves only files named *.converting, which the next
 * start deletes before converting again.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { backupName } from './backups';
import { checkFile, configure, migrate, StoreCorruptError, StoreVersionError } from './database';
import {
  SQLITE_COMPANIONS,
  ensurePrivateFolder,
  ownerOnlyDatabase,
  type StorePaths,
} from './files';
import { LEGACY_LATEST_VERSION, LEGACY_MIGRATIONS } from './legacy-migrations';
import { CACHE_MIGRATIONS, RECORD_MIGRATIONS, type Migration } from './migrations';

/** The record's tables in the old file, parents before children (foreign keys stay on). */
export const LEGACY_RECORD_TABLES = [
  'profiles',
  'app_settings',
  'profile_settings',
  'fund_snapshots',
  'notifications',
] as const;

/** The cache's tables in the old file, parents before children. */
export const LEGACY_CACHE_TABLES = [
  'funds',
  'prices',
  'kline_closes',
  'withdraws',
  'deposit_addresses',
  'coins',
  'sub_accounts',
  'sub_account_balances',
  'sub_transfers',
  'orders',
  'own_trades',
  'sync_state',
] as const;

const CONVERTING = '.converting';

export interface LegacyConversion {
  /** Where the old file now is (in backups/). */
  keptAt: string;
  /** Rows copied into the record, per table. */
  recordRows: Record<string, number>;
  /** Rows copied into the cache, per table; undefined when the cache could not be copied. */
  cacheRows: Record<string, number> | undefined;
}

/** Deletes what an interrupted conversion left (files named *.converting and their companions). */
export function removeInterruptedConversion(paths: StorePaths): void {
  for (const name of readdirSync(paths.dataDir)) {
    if (name.includes(CONVERTING)) rmSync(join(paths.dataDir, name), { force: true });
  }
}

/** Moves the old file and its companions into backups/; returns its new path. */
export function keepLegacyAsBackup(paths: StorePaths, now: number): string {
  ensurePrivateFolder(paths.backups);
  const target = join(paths.backups, backupName('before-split', now));
  for (const suffix of ['', ...SQLITE_COMPANIONS]) {
    if (existsSync(paths.legacy + suffix)) renameSync(paths.legacy + suffix, target + suffix);
  }
  return target;
}

/**
 * Converts paths.legacy into paths.record and paths.cache (neither may exist yet). Throws what the
 * old file's checks or migrations threw (StoreCorruptError, StoreVersionError, StoreMigrationError);
 * the old file is then untouched.
 */
export async function convertLegacy(
  paths: StorePaths,
  now: number,
  lists: { record?: readonly Migration[]; cache?: readonly Migration[] } = {},
): Promise<LegacyConversion> {
  removeInterruptedConversion(paths);
  const working = `${paths.legacy}${CONVERTING}`;
  const legacy = checkFile(paths.legacy, 'record');
  const source = legacy.db;
  // The old file has tables but no application id: "foreign" to the record's check is expected.
  const expected =
    legacy.ok || (legacy.error instanceof StoreCorruptError && legacy.error.damage === 'foreign');
  if (!expected || !source) {
    source?.close();
    throw legacy.ok ? new StoreCorruptError('the old file could not be opened') : legacy.error;
  }
  try {
    const version = source.pragma('user_version', { simple: true }) as number;
    const tables = (
      source.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }
    ).n;
    if (version === 0 && tables > 0) {
      throw new StoreCorruptError(
        `the file is not Spotfolio's (a SQLite database with ${tables} tables and no schema version)`,
        'foreign',
      );
    }
    if (version > LEGACY_LATEST_VERSION) {
      throw new StoreVersionError(paths.legacy, version, LEGACY_LATEST_VERSION);
    }
    await source.backup(working);
  } finally {
    source.close();
  }
  ownerOnlyDatabase(working);

  const copy = new Database(working);
  try {
    copy.pragma('foreign_keys = ON');
    migrate(copy, LEGACY_MIGRATIONS);
    const recordRows = copyTables(
      copy,
      `${paths.record}${CONVERTING}`,
      'record',
      lists.record ?? RECORD_MIGRATIONS,
      LEGACY_RECORD_TABLES,
    );
    let cacheRows: Record<string, number> | undefined;
    try {
      cacheRows = copyTables(
        copy,
        `${paths.cache}${CONVERTING}`,
        'cache',
        lists.cache ?? CACHE_MIGRATIONS,
        LEGACY_CACHE_TABLES,
      );
    } catch {
      cacheRows = undefined;
      rmSync(`${paths.cache}${CONVERTING}`, { force: true });
    }
    copy.close();
    rmSync(working, { force: true });
    if (cacheRows) renameSync(`${paths.cache}${CONVERTING}`, paths.cache);
    renameSync(`${paths.record}${CONVERTING}`, paths.record);
    const keptAt = keepLegacyAsBackup(paths, now);
    return { keptAt, recordRows, cacheRows };
  } finally {
    if (copy.open) copy.close();
    removeInterruptedConversion(paths);
  }
}

/**
 * Creates `target` as a new file of `kind` and copies `tables` from `source` into it in one
 * transaction, column by column by name; verifies each table's row count against the source.
 */
function copyTables(
  source: Database.Database,
  target: string,
  kind: 'record' | 'cache',
  migrations: readonly Migration[],
  tables: readonly string[],
): Record<string, number> {
  rmSync(target, { force: true });
  const db = new Database(target);
  try {
    ownerOnlyDatabase(target);
    configure(db, kind);
    // Plain rollback journal while converting: one file to rename, no -wal beside it.
    db.pragma('journal_mode = DELETE');
    migrate(db, migrations, kind);
    db.prepare('ATTACH DATABASE ? AS legacy').run(source.name);
    const counts: Record<string, number> = {};
    db.transaction(() => {
      for (const table of tables) {
        const columns = (db.pragma(`main.table_info(${table})`) as { name: string }[]).map(
          (column) => column.name,
        );
        const present = new Set(
          (db.pragma(`legacy.table_info(${table})`) as { name: string }[]).map(
            (column) => column.name,
          ),
        );
        const shared = columns.filter((name) => present.has(name)).map((name) => `"${name}"`);
        db.exec(
          `INSERT INTO main."${table}" (${shared.join(', ')}) SELECT ${shared.join(', ')} FROM legacy."${table}"`,
        );
        const count = (name: string) =>
          (db.prepare(`SELECT count(*) AS n FROM ${name}."${table}"`).get() as { n: number }).n;
        const copied = count('main');
        const expected = count('legacy');
        if (copied !== expected) {
          throw new Error(
            `${table}: copied ${copied} of ${expected} rows from ${basename(source.name)}`,
          );
        }
        counts[table] = copied;
      }
    })();
    db.exec('DETACH DATABASE legacy');
    db.pragma('journal_mode = WAL');
    return counts;
  } finally {
    db.close();
  }
}
