/**
 * Backups of the record, taken with SQLite's online backup API (a consistent copy while the
 * connection stays open), in the data folder's backups/ folder, 0600 like everything there:
 *
 * - record-<time>.sqlite: at each start, once a day while the app runs, and after a profile is
 *   added (so a first session's profile is never in one file only); the newest few are kept.
 * - record-v<from>-before-v<to>-<time>.sqlite: before each migration; kept.
 * - record-before-<action>-<time>.sqlite: before each action that removes what the user wrote
 *   (a reset of the app's data, a profile's removal); kept: rotation never removes them.
 * - spotfolio-before-split-<time>.sqlite: the single file of an older version, as it was; kept.
 *
 * The cache is never backed up: the exchange gives it back.
 */
import type Database from 'better-sqlite3';
import DatabaseConstructor from 'better-sqlite3';
import { readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock, TimerHandle } from '../core/clock';
import { APPLICATION_IDS } from './database';
import { ensurePrivateFolder, fileStamp, ownerOnly, parseFileStamp } from './files';

export type BackupKind = 'rotated' | 'before-migration' | 'before-split' | 'before-action';

/** The actions that remove what the user wrote; each takes a kept backup first. */
export const DESTRUCTIVE_ACTIONS = ['reset', 'profile-removal'] as const;
export type DestructiveAction = (typeof DESTRUCTIVE_ACTIONS)[number];

export interface BackupInfo {
  path: string;
  kind: BackupKind;
  /** When the copy was taken (from its name), ms. */
  takenAt: number;
}

/** How many start and daily backups are kept. */
export const ROTATED_BACKUPS_KEPT = 5;
export const DAILY_BACKUP_MS = 24 * 60 * 60 * 1000;

const NAME_PATTERNS: readonly { kind: BackupKind; pattern: RegExp }[] = [
  { kind: 'rotated', pattern: /^record-(\d{4}-\d{2}-\d{2}T[\d-]+Z)\.sqlite$/ },
  {
    kind: 'before-migration',
    pattern: /^record-v\d+-before-v\d+-(\d{4}-\d{2}-\d{2}T[\d-]+Z)\.sqlite$/,
  },
  { kind: 'before-split', pattern: /^spotfolio-before-split-(\d{4}-\d{2}-\d{2}T[\d-]+Z)\.sqlite$/ },
  {
    kind: 'before-action',
    pattern: new RegExp(
      `^record-before-(?:${DESTRUCTIVE_ACTIONS.join('|')})-(\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z)\\.sqlite$`,
    ),
  },
];

export function backupName(
  kind: BackupKind,
  takenAt: number,
  versions?: { from: number; to: number },
  action: DestructiveAction = 'reset',
): string {
  const stamp = fileStamp(takenAt);
  switch (kind) {
    case 'before-action':
      return `record-before-${action}-${stamp}.sqlite`;
    case 'rotated':
      return `record-${stamp}.sqlite`;
    case 'before-migration':
      return `record-v${versions?.from ?? 0}-before-v${versions?.to ?? 0}-${stamp}.sqlite`;
    case 'before-split':
      return `spotfolio-before-split-${stamp}.sqlite`;
  }
}

/** Every backup in the folder, newest first. Files of other names are ignored. */
export function listBackups(folder: string): BackupInfo[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const backups: BackupInfo[] = [];
  for (const name of names) {
    for (const { kind, pattern } of NAME_PATTERNS) {
      const match = pattern.exec(name);
      const takenAt = match?.[1] === undefined ? undefined : parseFileStamp(match[1]);
      if (takenAt !== undefined) backups.push({ path: join(folder, name), kind, takenAt });
    }
  }
  return backups.sort((a, b) => b.takenAt - a.takenAt || b.path.localeCompare(a.path));
}

/**
 * Copies the record behind `db` (its main database) into the backups folder with the online backup
 * API, under a temporary name first, so a backup that exists under its final name is complete.
 */
export async function backupRecord(
  db: Database.Database,
  folder: string,
  kind: Exclude<BackupKind, 'before-split'>,
  takenAt: number,
  versions?: { from: number; to: number },
  action?: DestructiveAction,
): Promise<BackupInfo> {
  ensurePrivateFolder(folder);
  let path = join(folder, backupName(kind, takenAt, versions, action));
  for (let n = 2; listBackups(folder).some((backup) => backup.path === path); n++) {
    path = join(folder, backupName(kind, takenAt + n - 1, versions, action));
  }
  const partial = `${path}.partial`;
  // Made 0600 before SQLite writes a byte into it.
  writeFileSync(partial, '', { mode: 0o600 });
  ownerOnly(partial, 0o600);
  try {
    // The record is small: all of it in one step, so no write can slip between steps.
    await db.backup(partial, { progress: () => 0x7fffffff });
    ownerOnly(partial, 0o600);
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { path, kind, takenAt };
}

/**
 * The kept backup taken before an action that removes what the user wrote (a reset, a profile's
 * removal): the action must not run when this throws.
 */
export function backupBeforeAction(
  db: Database.Database,
  folder: string,
  action: DestructiveAction,
  takenAt: number,
): Promise<BackupInfo> {
  return backupRecord(db, folder, 'before-action', takenAt, undefined, action);
}

/** Deletes the oldest start and daily backups beyond `keep`; the other kinds are never deleted. */
export function pruneRotated(folder: string, keep = ROTATED_BACKUPS_KEPT): string[] {
  const rotated = listBackups(folder).filter((backup) => backup.kind === 'rotated');
  const removed: string[] = [];
  for (const old of rotated.slice(keep)) {
    rmSync(old.path, { force: true });
    removed.push(old.path);
  }
  return removed;
}

/**
 * True when the copy can be restored: a readable, intact record. A backup that fails is skipped
 * (and left where it is) in favour of the next older one.
 */
export function isUsableRecordBackup(path: string): boolean {
  let db: Database.Database | undefined;
  try {
    db = new DatabaseConstructor(path, { readonly: true, fileMustExist: true });
    if (db.pragma('application_id', { simple: true }) !== APPLICATION_IDS.record) return false;
    return db.pragma('quick_check', { simple: true }) === 'ok';
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** The newest record backup (of any kind but the pre-split file) that can be restored. */
export function newestUsableBackup(folder: string): BackupInfo | undefined {
  return listBackups(folder)
    .filter((backup) => backup.kind !== 'before-split')
    .find((backup) => isUsableRecordBackup(backup.path));
}

/**
 * Takes a backup every `intervalMs` while the app runs, on the app's clock. Returns the function
 * that stops it. A failed backup is reported and tried again at the next interval.
 */
export function scheduleBackups(
  take: () => Promise<unknown>,
  clock: Clock,
  onError: (error: unknown) => void,
  intervalMs = DAILY_BACKUP_MS,
): () => void {
  let timer: TimerHandle | undefined;
  let stopped = false;
  const arm = () => {
    timer = clock.setTimeout(() => {
      void take()
        .catch(onError)
        .finally(() => {
          if (!stopped) arm();
        });
    }, intervalMs);
  };
  arm();
  return () => {
    stopped = true;
    clock.clearTimeout(timer);
  };
}
