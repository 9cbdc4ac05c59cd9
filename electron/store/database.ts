/**
 * Opening the cache file: pragmas, integrity check, migrations, and recovery from a corrupt file.
 * The cache can always be rebuilt from the exchange, so an unreadable file is moved aside (kept
 * for inspection) and replaced by a fresh one rather than crashing the app. A file written by a
 * NEWER app version is the one exception: it is refused untouched, so a downgrade never destroys it.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';

export const DEFAULT_FILE_NAME = 'spotfolio.sqlite';

/** Thrown (never recovered from) when the file's schema is newer than this app knows. */
export class StoreVersionError extends Error {
  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly appVersion: number,
  ) {
    super(
      `The cache ${path} was written by a newer version of Spotfolio (schema ${fileVersion}; this ` +
        `version knows up to ${appVersion}). Update Spotfolio to open it; the file was left untouched.`,
    );
    this.name = 'StoreVersionError';
  }
}

/** Why an existing file could not be used (it is then moved aside). */
export class StoreCorruptError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreCorruptError';
  }
}

export interface OpenedDatabase {
  db: Database.Database;
  path: string;
  recovered?: { movedTo: string; reason: string };
}

export interface OpenDatabaseOptions {
  dataDir: string;
  fileName?: string;
  /** The migrations to bring the file to; the app's full list unless a test builds an older file. */
  migrations?: readonly Migration[];
  /** Clock for the moved-aside file name. */
  now?: () => number;
}

export function openDatabase(options: OpenDatabaseOptions): OpenedDatabase {
  const migrations = options.migrations ?? MIGRATIONS;
  // The folder and its files hold balances, addresses and history: the user's alone. An older
  // folder or file made with looser modes is tightened too. (Modes mean little on Windows.)
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  ownerOnly(options.dataDir, 0o700);
  const path = join(options.dataDir, options.fileName ?? DEFAULT_FILE_NAME);
  const attempt = tryOpen(path, migrations);
  if (attempt.ok) return { db: attempt.db, path };
  if (!isCorruption(attempt.error)) {
    // A newer schema, a lock held elsewhere, a full disk, a permission problem: the file may be
    // fine, so it is left exactly where it is and the error surfaces.
    attempt.db?.close();
    throw attempt.error;
  }
  // Renamed while the failed connection is still open: closing it first would let SQLite delete
  // or checkpoint the -wal, and the moved-aside copy is kept exactly as it was found.
  const movedTo = moveAside(path, options.now?.() ?? Date.now());
  attempt.db?.close();
  const reason = describeFailure(attempt.error);
  // A failure on a brand-new file is not corruption (disk full, permissions): it surfaces.
  const fresh = tryOpen(path, migrations);
  if (!fresh.ok) {
    fresh.db?.close();
    throw fresh.error;
  }
  return { db: fresh.db, path, recovered: { movedTo, reason } };
}

type Attempt =
  | { ok: true; db: Database.Database }
  | { ok: false; error: unknown; db: Database.Database | undefined };

function tryOpen(path: string, migrations: readonly Migration[]): Attempt {
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    // Before the first read: SQLite then creates the -wal and -shm with the file's own mode.
    for (const suffix of ['', '-wal', '-shm', '-journal']) ownerOnly(path + suffix, 0o600);
    // Setting journal_mode is the first read of the header: a non-database fails here.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 32 MB of page cache: a sync step of 100k records touches every index of its table, and the
    // default 2 MB cache would spill pages to the WAL in the middle of the transaction.
    db.pragma('cache_size = -32768');
    const check = db.pragma('quick_check', { simple: false }) as { quick_check: string }[];
    const problems = check.map((row) => row.quick_check).filter((line) => line !== 'ok');
    if (problems.length > 0) {
      throw new StoreCorruptError(`integrity check failed: ${problems.slice(0, 3).join('; ')}`);
    }
    migrate(db, migrations);
    return { ok: true, db };
  } catch (error) {
    return { ok: false, error, db };
  }
}

/** The schema version recorded in the file (PRAGMA user_version). */
export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the migrations the file lacks, all in one transaction: either the file reaches the
 * latest version or it stays exactly as it was.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[]): void {
  validateMigrations(migrations);
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) throw new StoreVersionError(db.name, current, latest);
  if (current === latest) return;
  const apply = db.transaction(() => {
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
        throw new StoreCorruptError(
          `migration ${migration.version} (${migration.name}) failed: ${describeFailure(error)}`,
          { cause: error },
        );
      }
      record.run(migration.version, migration.name, Date.now());
    }
    db.pragma(`user_version = ${latest}`);
    const violations = db.pragma('foreign_key_check') as unknown[];
    if (violations.length > 0) {
      throw new StoreCorruptError(`foreign key check failed after migrating to ${latest}`);
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

/** Sets an existing path's mode; one the user does not own (made by root, say) is left as is. */
function ownerOnly(path: string, mode: number): void {
  try {
    if (existsSync(path)) chmodSync(path, mode);
  } catch {
    // Opening it is what matters; SQLite reports that on its own.
  }
}

/** Renames the file and its -wal/-shm companions to `<name>.corrupt-<timestamp>[-wal|-shm]`. */
function moveAside(path: string, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  let target = `${path}.corrupt-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.corrupt-${stamp}-${n}`;
  if (existsSync(path)) renameSync(path, target);
  for (const suffix of ['-wal', '-shm', '-journal']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
  }
  return target;
}

/** SQLite result codes that say nothing about the file's content. */
const TRANSIENT_CODE =
  /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PERM|READONLY|NOMEM|INTERRUPT|AUTH|NOLFS)/;

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True when the failure means the file's content is unusable (not a database, corrupt, unmigratable). */
function isCorruption(error: unknown): boolean {
  if (error instanceof StoreVersionError) return false;
  const code = sqliteCode(error) ?? sqliteCode((error as { cause?: unknown } | null)?.cause);
  if (code !== undefined && TRANSIENT_CODE.test(code)) return false;
  if (error instanceof StoreCorruptError) return true;
  return code !== undefined && /^SQLITE_(NOTADB|CORRUPT)/.test(code);
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
