/**
 * Opening the store at start-up: the record and the cache, each checked and migrated, on one
 * connection (the record as `main`, the cache attached as `cache`, so every repository's SQL names
 * its tables plainly). What happens to a file that fails its checks:
 *
 * - the record is never discarded. Before migrating, a backup is taken; a migration that fails is
 *   rolled back and the app is told (StoreUnavailableError), the file left as it was. A damaged
 *   record (not a database, corrupt, foreign, or empty or missing where a record existed before)
 *   is moved aside and the newest usable backup restored; the notice says which, of when.
 * - the cache is moved aside and made anew; the notice says so.
 * - a file that may be fine but cannot be used now (locked, permissions, disk full) or that a newer
 *   app wrote is left untouched, and the app is told.
 */
import type Database from 'better-sqlite3';
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import type { RecordUnavailable, StoreNotice } from '../../shared/types';
import {
  backupRecord,
  listBackups,
  newestUsableBackup,
  pruneRotated,
  ROTATED_BACKUPS_KEPT,
  type BackupInfo,
} from './backups';
import {
  checkFile,
  configure,
  damageOf,
  describeFailure,
  isDamage,
  migrate,
  openDatabase,
  schemaVersion,
  StoreMigrationError,
  StoreVersionError,
  type CheckedFile,
  type Damage,
} from './database';
import {
  ensurePrivateFolder,
  fileSize,
  keepCompanions,
  moveAside,
  ownerOnly,
  ownerOnlyDatabase,
  storePaths,
  type StorePaths,
} from './files';
import { JournalRepository } from './journal';
import { JournalFile } from './journal-file';
import { convertLegacy, keepLegacyAsBackup, type LegacyConversion } from './legacy';
import { CACHE_MIGRATIONS, RECORD_MIGRATIONS, latestVersion, type Migration } from './migrations';

/** The record cannot be opened now; nothing was changed. Carries what the user is shown. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly details: RecordUnavailable,
    options?: { cause?: unknown },
  ) {
    super(details.message, options);
    this.name = 'StoreUnavailableError';
  }
}

export interface OpenStoreFilesOptions {
  dataDir: string;
  /**
   * Whether a record is known to have existed, asked only when the record file is empty and no
   * backup exists. The app answers from the keychain: entries there mean profiles were added.
   */
  recordExpected?: () => Promise<boolean>;
  now?: () => number;
  /** The migration lists; the app's own unless a test builds an older or a failing schema. */
  recordMigrations?: readonly Migration[];
  cacheMigrations?: readonly Migration[];
  /** How many start and daily backups are kept; default 5. */
  keepBackups?: number;
}

export interface OpenedStoreFiles {
  db: Database.Database;
  paths: StorePaths;
  recordVersion: number;
  cacheVersion: number;
  notices: StoreNotice[];
  /** The cache was rebuilt: where the damaged one went, and why. */
  cacheRebuilt?: { movedTo: string; reason: string };
  /** A single-file install was converted at this start. */
  converted?: LegacyConversion;
  /** The backup taken at this start, if any (none for a new, empty record). */
  startBackup?: BackupInfo;
}

const HELP_UNTOUCHED =
  'Spotfolio changed nothing: your data file is as it was, and nothing was deleted. Keep the ' +
  'files. Installing the newest version of Spotfolio may open it; otherwise send this message ' +
  '(and, if asked, the files) to whoever supports your Spotfolio installation.';

export async function startStoreFiles(options: OpenStoreFilesOptions): Promise<OpenedStoreFiles> {
  const now = options.now ?? Date.now;
  const paths = storePaths(options.dataDir);
  ensurePrivateFolder(paths.dataDir);
  ensurePrivateFolder(paths.backups);
  const notices: StoreNotice[] = [];
  const notice: Notify = (item) => {
    notices.push({ ...item, id: `${item.kind}-${now()}-${notices.length}` } as StoreNotice);
  };

  // 1. A single-file install becomes two files, once.
  let converted: LegacyConversion | undefined;
  let legacyDamage: { movedTo: string; reason: string } | undefined;
  if (existsSync(paths.legacy)) {
    if (existsSync(paths.record)) {
      // An earlier start converted it but stopped before moving it away.
      keepLegacyAsBackup(paths, now());
    } else {
      try {
        converted = await convertLegacy(paths, now(), {
          record: options.recordMigrations,
          cache: options.cacheMigrations,
        });
      } catch (error) {
        if (!isDamage(error)) throw unavailable(error, paths.legacy, null);
        legacyDamage = {
          movedTo: moveAside(paths.legacy, 'damaged', now()),
          reason: describeDamage(damageOf(error), error),
        };
      }
    }
  }

  // 2. The record: checked; restored from a backup when damaged.
  const record = await openRecord(paths, options, now, legacyDamage, notice);

  // 3. Migrations, after a backup of what is there.
  const recordMigrations = options.recordMigrations ?? RECORD_MIGRATIONS;
  const latest = latestVersion(recordMigrations);
  const db = record.db;
  let startBackup: BackupInfo | undefined;
  try {
    // The journal mode is set once the migrations succeeded: until then not a byte of the file
    // changes, so a failed migration leaves it exactly as it was.
    db.pragma('busy_timeout = 5000');
    if (record.version > latest) {
      throw unavailable(
        new StoreVersionError(record.path, record.version, latest),
        record.path,
        null,
      );
    }
    if (record.version < latest) {
      let before: BackupInfo | null = null;
      if (record.state === 'ours') {
        try {
          before = await backupRecord(db, paths.backups, 'before-migration', now(), {
            from: record.version,
            to: latest,
          });
        } catch (error) {
          throw unavailable(error, record.path, null, 'could not take the backup before migrating');
        }
      }
      try {
        migrate(db, recordMigrations, 'record');
      } catch (error) {
        throw unavailable(error, record.path, before?.path ?? null);
      }
    }
    configure(db, 'record');
    // 4. A restored record gets back the money journal's entries written after its backup.
    const journalFile = JournalFile.in(paths.dataDir);
    const restoredNotice = notices.find((n) => n.kind === 'record-restored');
    if (restoredNotice) {
      const { kept, withoutProfile } = new JournalRepository(db, journalFile).mergeFromFile();
      restoredNotice.journalKept = kept.length;
      restoredNotice.journalWithoutProfile = withoutProfile.length;
    }
    journalFile.compact(now());
    // 5. A backup at each start of a record that holds something.
    if (record.state === 'ours') {
      startBackup = await backupRecord(db, paths.backups, 'rotated', now());
      pruneRotated(paths.backups, options.keepBackups ?? ROTATED_BACKUPS_KEPT);
    }
  } catch (error) {
    db.close();
    throw error instanceof StoreUnavailableError ? error : unavailable(error, record.path, null);
  }

  // 6. The cache: rebuilt when damaged, then attached.
  const restored = notices.some((n) => n.kind === 'record-restored' || n.kind === 'record-lost');
  const cache = attachCache(db, paths, options, now, notice, restored || converted !== undefined);
  const result: OpenedStoreFiles = {
    db,
    paths,
    recordVersion: schemaVersion(db),
    cacheVersion: schemaVersion(db, 'cache'),
    notices,
  };
  if (cache.rebuilt) result.cacheRebuilt = cache.rebuilt;
  if (converted) result.converted = converted;
  if (startBackup) result.startBackup = startBackup;
  return result;
}

/**
 * The plain, synchronous open of a store that needs nothing done to its record: a new one, or one
 * at the latest version (tests, benches, tools). A damaged cache is still rebuilt. Anything the
 * app's start would have to do first (convert a single-file install, restore or migrate the
 * record, which takes a backup) throws StoreUnavailableError: startStoreFiles does it.
 */
export function openStoreFilesSync(options: OpenStoreFilesOptions): OpenedStoreFiles {
  const now = options.now ?? Date.now;
  const paths = storePaths(options.dataDir);
  ensurePrivateFolder(paths.dataDir);
  ensurePrivateFolder(paths.backups);
  const needsStart = (what: string): StoreUnavailableError =>
    unavailable(new Error(`${what}; the app's start (startStore) does that`), paths.record, null);
  if (existsSync(paths.legacy) && !existsSync(paths.record)) {
    throw needsStart('a single-file install must be converted');
  }
  const checked = checkFile(paths.record, 'record');
  if (!checked.ok) {
    checked.db?.close();
    throw isDamage(checked.error)
      ? needsStart('the record must be restored')
      : unavailable(checked.error, paths.record, null);
  }
  const { db } = checked;
  const notices: StoreNotice[] = [];
  const notice: Notify = (item) => {
    notices.push({ ...item, id: `${item.kind}-${now()}-${notices.length}` } as StoreNotice);
  };
  try {
    const migrations = options.recordMigrations ?? RECORD_MIGRATIONS;
    const latest = latestVersion(migrations);
    if (checked.state === 'blank' && newestUsableBackup(paths.backups)) {
      throw needsStart('the record is empty where backups exist, and must be restored');
    }
    if (checked.version > latest) {
      throw unavailable(
        new StoreVersionError(paths.record, checked.version, latest),
        paths.record,
        null,
      );
    }
    if (checked.version > 0 && checked.version < latest) {
      throw needsStart(`the record (schema ${checked.version}) must be migrated after a backup`);
    }
    configure(db, 'record');
    migrate(db, migrations, 'record');
  } catch (error) {
    db.close();
    throw error instanceof StoreUnavailableError ? error : unavailable(error, paths.record, null);
  }
  const cache = attachCache(db, paths, options, now, notice, false);
  const result: OpenedStoreFiles = {
    db,
    paths,
    recordVersion: schemaVersion(db),
    cacheVersion: schemaVersion(db, 'cache'),
    notices,
  };
  if (cache.rebuilt) result.cacheRebuilt = cache.rebuilt;
  return result;
}

/** Prepares the cache (rebuilt when damaged) and attaches it to the record's connection as `cache`. */
function attachCache(
  db: Database.Database,
  paths: StorePaths,
  options: OpenStoreFilesOptions,
  now: () => number,
  notice: Notify,
  pruneUnknownProfiles: boolean,
): { rebuilt: { movedTo: string; reason: string } | undefined } {
  try {
    const rebuilt = prepareCache(paths, db, options, now);
    if (rebuilt) notice({ kind: 'cache-rebuilt', ...rebuilt });
    db.prepare('ATTACH DATABASE ? AS cache').run(paths.cache);
    configure(db, 'cache', 'cache');
    if (pruneUnknownProfiles) dropUnknownProfiles(db);
    return { rebuilt };
  } catch (error) {
    db.close();
    throw unavailable(error, paths.cache, null);
  }
}

type Notify = (item: StoreNoticeInput) => void;

/** A notice before it gets its id. */
type StoreNoticeInput = StoreNotice extends infer N
  ? N extends StoreNotice
    ? Omit<N, 'id'>
    : never
  : never;

async function openRecord(
  paths: StorePaths,
  options: OpenStoreFilesOptions,
  now: () => number,
  legacyDamage: { movedTo: string; reason: string } | undefined,
  notice: Notify,
): Promise<CheckedFile> {
  let damage: { movedTo: string | null; reason: string } | undefined = legacyDamage;
  const existed = existsSync(paths.record);
  if (
    !damage &&
    !existed &&
    (listBackups(paths.backups).some((b) => b.kind !== 'before-split') ||
      // A cache beside it says this folder had a record, and keys in the keychain that profiles
      // were added: a record that is gone was lost. (A new folder has no cache: keys kept by
      // another data folder say nothing about this one.)
      (existsSync(paths.cache) && ((await options.recordExpected?.()) ?? false)))
  ) {
    damage = { movedTo: null, reason: 'the record file was missing' };
  }
  if (!damage && existed) {
    // Before SQLite opens the file: opening a 0-byte database deletes its -wal, which may hold
    // the last changes made before a crash.
    const kept = keepCompanions(paths.record);
    const checked = checkFile(paths.record, 'record');
    if (checked.ok && checked.state === 'ours') {
      kept.discard();
      return checked;
    }
    if (checked.ok) {
      // Blank: a new file, or one emptied (0 bytes) where a record was. Any backup, usable or
      // not, or a -wal beside it, shows that a record was here before.
      const expected =
        kept.walBytes > 0 ||
        listBackups(paths.backups).length > 0 ||
        ((await options.recordExpected?.()) ?? false);
      if (!expected) {
        kept.discard();
        return checked;
      }
      damage = {
        movedTo: moveAside(paths.record, 'damaged', now(), kept),
        reason: describeDamage('empty'),
      };
      checked.db.close();
    } else {
      if (!isDamage(checked.error)) {
        kept.discard();
        checked.db?.close();
        throw unavailable(checked.error, paths.record, null);
      }
      damage = {
        movedTo: moveAside(paths.record, 'damaged', now(), kept),
        reason: describeDamage(damageOf(checked.error), checked.error),
      };
      checked.db?.close();
    }
  }
  if (damage) {
    const backup = newestUsableBackup(paths.backups);
    if (backup) {
      restore(backup, paths.record);
      notice({
        kind: 'record-restored',
        reason: damage.reason,
        movedTo: damage.movedTo,
        backupPath: backup.path,
        backupTakenAt: backup.takenAt,
      });
    } else {
      notice({ kind: 'record-lost', reason: damage.reason, movedTo: damage.movedTo });
    }
  }
  const opened = checkFile(paths.record, 'record');
  if (!opened.ok) {
    opened.db?.close();
    throw unavailable(opened.error, paths.record, null);
  }
  return opened;
}

/** Copies the backup into place under a temporary name, then renames it: never half a file. */
function restore(backup: BackupInfo, recordPath: string): void {
  const partial = `${recordPath}.restoring`;
  rmSync(partial, { force: true });
  copyFileSync(backup.path, partial);
  ownerOnly(partial, 0o600);
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(recordPath + suffix, { force: true });
  renameSync(partial, recordPath);
  ownerOnlyDatabase(recordPath);
}

/**
 * Checks and migrates the cache on a connection of its own, rebuilding it when damaged (also when
 * it is empty while the record holds profiles: a cache emptied behind the app's back). Returns
 * what was rebuilt.
 */
function prepareCache(
  paths: StorePaths,
  record: Database.Database,
  options: OpenStoreFilesOptions,
  now: () => number,
): { movedTo: string; reason: string } | undefined {
  let emptied: { movedTo: string; reason: string } | undefined;
  if (fileSize(paths.cache) === 0) {
    const profiles = (
      record.prepare('SELECT count(*) AS n FROM profiles WHERE removed_at IS NULL').get() as {
        n: number;
      }
    ).n;
    if (profiles > 0) {
      emptied = {
        movedTo: moveAside(paths.cache, 'corrupt', now()),
        reason: describeDamage('empty'),
      };
    }
  }
  const opened = openDatabase({
    dataDir: paths.dataDir,
    file: 'cache',
    migrations: options.cacheMigrations ?? CACHE_MIGRATIONS,
    now,
  });
  opened.db.close();
  return emptied ?? opened.recovered;
}

/** Cache rows of profiles the record does not know (it was restored, or converted): dropped. */
export function dropUnknownProfiles(db: Database.Database): void {
  const tables = db
    .prepare(
      `SELECT m.name AS name FROM cache.sqlite_schema AS m
       WHERE m.type = 'table' AND EXISTS (
         SELECT 1 FROM pragma_table_info(m.name, 'cache') WHERE name = 'profile_id')`,
    )
    .all() as { name: string }[];
  db.transaction(() => {
    for (const { name } of tables) {
      db.exec(`DELETE FROM cache."${name}" WHERE profile_id NOT IN (SELECT id FROM main.profiles)`);
    }
  })();
}

function describeDamage(damage: Damage, error?: unknown): string {
  const detail = error === undefined ? '' : ` (${describeFailure(error)})`;
  switch (damage) {
    case 'empty':
      return 'the file was empty';
    case 'foreign':
      return `the file was not Spotfolio's${detail}`;
    case 'not-a-database':
      return `the file was not a database${detail}`;
    case 'corrupt':
      return `the file was damaged${detail}`;
  }
}

function unavailable(
  error: unknown,
  path: string,
  backupPath: string | null,
  what?: string,
): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  const problem: RecordUnavailable['problem'] =
    error instanceof StoreVersionError
      ? 'newer-version'
      : error instanceof StoreMigrationError
        ? 'migration-failed'
        : 'unreadable';
  const lead =
    problem === 'newer-version'
      ? 'Your data was saved by a newer version of Spotfolio.'
      : problem === 'migration-failed'
        ? 'Spotfolio could not update your data to this version.'
        : 'Spotfolio could not open your data.';
  const message = `${lead} ${what ? `${what}: ` : ''}${describeFailure(error)}`;
  return new StoreUnavailableError(
    { problem, message, path, backupPath, help: HELP_UNTOUCHED },
    { cause: error },
  );
}
