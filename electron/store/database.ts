/**
 * Opening one of the store's SQLite files: checking that it is readable, intact and ours (PRAGMA
 * application_id), the connection's pragmas, and the migrations. What to do when a file fails
 * these checks depends on the file and is decided by the caller (open.ts): the cache is moved
 * aside and made anew, the record is restored from a backup or, when a migration fails, left
 * untouched. openDatabase here opens one file the cache's way, for tests and benches.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  CACHE_FILE,
  RECORD_FILE,
  ensurePrivateFolder,
  fileSize,
  moveAside,
  ownerOnlyDatabase,
} from './files';
import { CACHE_MIGRATIONS, RECORD_MIGRATIONS, latestVersion, type Migration } from './migrations';

export type StoreFileKind = 'record' | 'cache';

/**
 * PRAGMA application_id of our files ('SPFR' and 'SPFC' in ASCII). A SQLite file with another id,
 * or with tables but no id, is not ours (another program's file, or the cache put where the record
 * belongs) and is never written to.
 */
export const APPLICATION_IDS: Readonly<Record<StoreFileKind, number>> = {
  record: 0x53504652,
  cache: 0x53504643,
};

export const MIGRATION_LISTS: Readonly<Record<StoreFileKind, readonly Migration[]>> = {
  record: RECORD_MIGRATIONS,
  cache: CACHE_MIGRATIONS,
};

export const FILE_NAMES: Readonly<Record<StoreFileKind, string>> = {
  record: RECORD_FILE,
  cache: CACHE_FILE,
};

/** The file's schema is newer than this app knows (written by a newer version). */
export class StoreVersionError extends Error {
  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly appVersion: number,
  ) {
    super(
      `The file ${path} was written by a newer version of Spotfolio (schema ${fileVersion}; this ` +
        `version knows up to ${appVersion}). Update Spotfolio to open it; the file was left untouched.`,
    );
    this.name = 'StoreVersionError';
  }
}

/** How a file's content is unusable. */
export type Damage = 'not-a-database' | 'corrupt' | 'empty' | 'foreign';

/** The file's content cannot be used: not a database, corrupt, empty where data was, or not ours. */
export class StoreCorruptError extends Error {
  constructor(
    message: string,
    readonly damage: Damage = 'corrupt',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreCorruptError';
  }
}

/** A migration failed; its transaction was rolled back, so the file is as it was. */
export class StoreMigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreMigrationError';
  }
}

/** A file that passed the checks: 'blank' has no schema yet (new, or 0 bytes), 'ours' is ours. */
export interface CheckedFile {
  db: Database.Database;
  path: string;
  kind: StoreFileKind;
  state: 'blank' | 'ours';
  /** PRAGMA user_version. */
  version: number;
  /** Size before opening; undefined when the file did not exist. */
  sizeBefore: number | undefined;
}

export type CheckAttempt = ({ ok: true } & CheckedFile) | FailedCheck;
type FailedCheck = { ok: false; error: unknown; db: Database.Database | undefined };

/**
 * Opens `path` (creating it when missing) and checks it without writing anything: a SQLite file,
 * intact (quick_check), and ours or blank. On failure the connection is returned still open, so
 * that the caller can move the file aside before closing it: closing first could let SQLite
 * checkpoint or delete the -wal, and the moved-aside copy must be kept exactly as it was found.
 */
export function checkFile(path: string, kind: StoreFileKind): CheckAttempt {
  const sizeBefore = fileSize(path);
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    // Before the first read: SQLite then creates the -wal and -shm with the file's own mode.
    ownerOnlyDatabase(path);
    // The first read of the header: a file that is not a database fails here.
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
    const check = db.pragma('quick_check', { simple: false }) as { quick_check: string }[];
    const problems = check.map((row) => row.quick_check).filter((line) => line !== 'ok');
    if (problems.length > 0) {
      throw new StoreCorruptError(`integrity check failed: ${problems.slice(0, 3).join('; ')}`);
    }
    if (applicationId === APPLICATION_IDS[kind]) {
      return { ok: true, db, path, kind, state: 'ours', version, sizeBefore };
    }
    if (applicationId === 0 && version === 0 && tables === 0) {
      return { ok: true, db, path, kind, state: 'blank', version, sizeBefore };
    }
    throw new StoreCorruptError(describeForeign(kind, applicationId, tables), 'foreign');
  } catch (error) {
    return { ok: false, error, db };
  }
}

function describeForeign(kind: StoreFileKind, applicationId: number, tables: number): string {
  const other = (Object.keys(APPLICATION_IDS) as StoreFileKind[]).find(
    (name) => APPLICATION_IDS[name] === applicationId,
  );
  if (other) return `the file is Spotfolio's ${other}, not its ${kind}`;
  const id = applicationId === 0 ? 'no application id' : `application id ${applicationId}`;
  return `the file is not Spotfolio's ${kind} (a SQLite database with ${id} and ${tables} tables)`;
}

/** The connection's settings, once a checked file is going to be used. */
export function configure(db: Database.Database, kind: StoreFileKind, schema = 'main'): void {
  db.pragma(`${schema}.journal_mode = WAL`);
  db.pragma(`${schema}.synchronous = NORMAL`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // The cache: 32 MB of page cache, as a sync step of 100k records touches every index of its
  // table and the default 2 MB would spill pages to the WAL in the middle of the transaction.
  if (kind === 'cache') db.pragma(`${schema}.cache_size = -32768`);
}

/** The schema version recorded in the file (PRAGMA user_version). */
export function schemaVersion(db: Database.Database, schema = 'main'): number {
  return db.pragma(`${schema}.user_version`, { simple: true }) as number;
}

/**
 * Applies the migrations the file lacks, all in one transaction: either the file reaches the
 * latest version or it stays exactly as it was. A blank file of `kind` is marked as ours in the
 * same transaction. Throws StoreVersionError for a newer file, StoreMigrationError when a step
 * fails.
 */
export function migrate(
  db: Database.Database,
  migrations: readonly Migration[],
  kind?: StoreFileKind,
): void {
  validateMigrations(migrations);
  const latest = latestVersion(migrations);
  const current = schemaVersion(db);
  if (current > latest) throw new StoreVersionError(db.name, current, latest);
  if (current === latest) return;
  const apply = db.transaction(() => {
    if (current === 0 && kind) db.pragma(`application_id = ${APPLICATION_IDS[kind]}`);
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    )`);
    const record = db.prepare(
      'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
    );
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      try {
        if (typeof migration.up === 'string') db.exec(migration.up);
        else migration.up(db);
      } catch (error) {
        throw new StoreMigrationError(
          `migration ${migration.version} (${migration.name}) failed: ${describeFailure(error)}`,
          { cause: error },
        );
      }
      record.run(migration.version, migration.name, Date.now());
    }
    db.pragma(`user_version = ${latest}`);
    const violations = db.pragma('foreign_key_check') as unknown[];
    if (violations.length > 0) {
      throw new StoreMigrationError(`foreign key check failed after migrating to ${latest}`);
    }
  });
  apply.immediate();
}

function validateMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration list is broken: entry ${index} has version ${migration.version}, expected ${index + 1}`,
      );
    }
  });
}

/** SQLite result codes that say nothing about the file's content. */
const TRANSIENT_CODE =
  /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PERM|READONLY|NOMEM|INTERRUPT|AUTH|NOLFS)/;

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The file's content is unusable (not a database, corrupt, foreign), as opposed to a file that
 * may be fine but cannot be used now (locked, unreadable, disk full) or one a newer app wrote.
 */
export function isDamage(error: unknown): boolean {
  if (error instanceof StoreVersionError || error instanceof StoreMigrationError) return false;
  const code = sqliteCode(error) ?? sqliteCode((error as { cause?: unknown } | null)?.cause);
  if (code !== undefined && TRANSIENT_CODE.test(code)) return false;
  if (error instanceof StoreCorruptError) return true;
  return code !== undefined && /^SQLITE_(NOTADB|CORRUPT)/.test(code);
}

/** The kind of damage an error means (for isDamage errors). */
export function damageOf(error: unknown): Damage {
  if (error instanceof StoreCorruptError) return error.damage;
  return sqliteCode(error)?.startsWith('SQLITE_NOTADB') ? 'not-a-database' : 'corrupt';
}

export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

export interface OpenedDatabase {
  db: Database.Database;
  path: string;
  /** Set when the file was damaged and has been moved aside; a fresh one took its place. */
  recovered?: { movedTo: string; reason: string };
}

export interface OpenDatabaseOptions {
  dataDir: string;
  /** Which of the store's files; default the cache. */
  file?: StoreFileKind;
  /** The migrations to bring the file to; the file's full list unless a test builds an older file. */
  migrations?: readonly Migration[];
  /** Clock for the moved-aside file name. */
  now?: () => number;
}

/**
 * Opens one of the store's files on its own connection, checked, configured and migrated. A
 * damaged cache (not a database, corrupt, foreign, unmigratable, or from a newer app) is moved
 * aside and replaced by a fresh one; the record is never replaced here: any failure throws.
 */
export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  const kind = options.file ?? 'cache';
  const migrations = options.migrations ?? MIGRATION_LISTS[kind];
  ensurePrivateFolder(options.dataDir);
  const path = join(options.dataDir, FILE_NAMES[kind]);
  const attempt = openAndMigrate(path, kind, migrations);
  if (attempt.ok) return { db: attempt.db, path };
  const rebuildable =
    kind === 'cache' &&
    (isDamage(attempt.error) ||
      attempt.error instanceof StoreMigrationError ||
      attempt.error instanceof StoreVersionError);
  if (!rebuildable) {
    attempt.db?.close();
    throw attempt.error;
  }
  const movedTo = moveAside(path, 'corrupt', options.now?.() ?? Date.now());
  attempt.db?.close();
  // A failure on a brand-new file is not damage (disk full, permissions): it surfaces.
  const fresh = openAndMigrate(path, kind, migrations);
  if (!fresh.ok) {
    fresh.db?.close();
    throw fresh.error;
  }
  return { db: fresh.db, path, recovered: { movedTo, reason: describeFailure(attempt.error) } };
}

type MigrateAttempt =
  | { ok: true; db: Database.Database }
  | { ok: false; error: unknown; db: Database.Database | undefined };

function openAndMigrate(
  path: string,
  kind: StoreFileKind,
  migrations: readonly Migration[],
): MigrateAttempt {
  const checked = checkFile(path, kind);
  if (!checked.ok) return checked;
  try {
    configure(checked.db, kind);
    migrate(checked.db, migrations, kind);
    return { ok: true, db: checked.db };
  } catch (error) {
    return { ok: false, error, db: checked.db };
  }
}
