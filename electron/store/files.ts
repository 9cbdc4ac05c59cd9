/**
 * Where the store's files live in the data folder, and how they are kept: the folder is the user's
 * alone (0700) and so is every file in it (0600), the record, the cache, their -wal/-shm and the
 * backups, since they hold balances, addresses and history. A file that must go is never deleted:
 * it is renamed beside itself ("moved aside") with its companions. (Modes mean little on Windows.)
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';

/** What the user entered and the app kept: never discarded. */
export const RECORD_FILE = 'record.sqlite';
/** What the exchange can give back: rebuilt when damaged. */
export const CACHE_FILE = 'cache.sqlite';
/** The single file of versions before the split; converted once, then kept among the backups. */
export const LEGACY_FILE = 'spotfolio.sqlite';
export const BACKUP_FOLDER = 'backups';

/** Files SQLite keeps beside a database. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

export interface StorePaths {
  dataDir: string;
  record: string;
  cache: string;
  legacy: string;
  backups: string;
}

export function storePaths(dataDir: string): StorePaths {
  return {
    dataDir,
    record: join(dataDir, RECORD_FILE),
    cache: join(dataDir, CACHE_FILE),
    legacy: join(dataDir, LEGACY_FILE),
    backups: join(dataDir, BACKUP_FOLDER),
  };
}

/** Creates the folder (and its parents) 0700, and tightens one an older version left looser. */
export function ensurePrivateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  ownerOnly(path, 0o700);
}

/** Sets an existing path's mode; one the user does not own (made by root, say) is left as is. */
export function ownerOnly(path: string, mode: number): void {
  try {
    if (existsSync(path)) chmodSync(path, mode);
  } catch {
    // Opening it is what matters; SQLite reports that on its own.
  }
}

/** The database file and its companions 0600: before the first read, so -wal/-shm follow. */
export function ownerOnlyDatabase(path: string): void {
  for (const suffix of ['', ...SQLITE_COMPANIONS]) ownerOnly(path + suffix, 0o600);
}

/** A file-name-safe, sortable UTC time: 2026-01-31T12-00-00-000Z. */
export function fileStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}

/** Reads a fileStamp back; undefined when the text is not one. */
export function parseFileStamp(text: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/.exec(text);
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Copies of a database's -wal/-shm/-journal taken before any SQLite connection opens it. Opening
 * can change them for good: SQLite deletes the -wal of a 0-byte database, and replays or
 * checkpoints one it finds. When the file turns out damaged, moveAside puts these copies beside
 * it in place of whatever the check left; when it is fine, they are discarded.
 */
export interface KeptCompanions {
  /** Size of the -wal as found (0 when there was none). */
  readonly walBytes: number;
  /** Moves the copies to `<target><suffix>`, replacing what is there. */
  putBeside(target: string): void;
  discard(): void;
}

const KEPT_SUFFIX = '.before-check';

export function keepCompanions(path: string): KeptCompanions {
  const kept: string[] = [];
  for (const suffix of SQLITE_COMPANIONS) {
    const source = path + suffix;
    // A copy left by a start that died here is stale: this one is taken afresh.
    rmSync(source + KEPT_SUFFIX, { force: true });
    if (!existsSync(source)) continue;
    copyFileSync(source, source + KEPT_SUFFIX);
    ownerOnly(source + KEPT_SUFFIX, 0o600);
    kept.push(suffix);
  }
  const discard = () => {
    for (const suffix of kept.splice(0)) rmSync(path + suffix + KEPT_SUFFIX, { force: true });
  };
  return {
    walBytes: fileSize(path + '-wal') ?? 0,
    putBeside(target) {
      for (const suffix of kept.splice(0)) {
        renameSync(path + suffix + KEPT_SUFFIX, target + suffix);
      }
    },
    discard,
  };
}

/**
 * Renames the file and its -wal/-shm companions to `<name>.<label>-<time>[-wal|-shm]` beside it
 * and returns the new name. Rename, not copy: the bytes are kept exactly as they were found (with
 * `kept`, the companions as they were before a check opened the file).
 */
export function moveAside(path: string, label: string, now: number, kept?: KeptCompanions): string {
  const stamp = fileStamp(now);
  let target = `${path}.${label}-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.${label}-${stamp}-${n}`;
  if (existsSync(path)) renameSync(path, target);
  for (const suffix of SQLITE_COMPANIONS) {
    if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
  }
  kept?.putBeside(target);
  return target;
}

/** Size in bytes, or undefined when the path does not exist. */
export function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
