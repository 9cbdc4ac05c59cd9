/**
 * The record's backups: one at each start and once a day while the app runs (the newest five
 * kept), one before each migration (kept), each a complete SQLite copy taken with the online
 * backup API; the cache is never backed up. And the modes: the data folder and backups/ 0700,
 * every file in them 0600, even under a permissive umask.
 */
import Database from 'better-sqlite3';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import {
  APPLICATION_IDS,
  RECORD_MIGRATIONS,
  ROTATED_BACKUPS_KEPT,
  latestVersion,
  listBackups,
  scheduleBackups,
  startStore,
} from '../../electron/store';
import { profile, removeTempDirs, tempDir } from './helpers';

afterEach(removeTempDirs);

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 2, 1, 8, 0);

describe('record backups', () => {
  it('one per start, the newest five kept; those before a migration are never dropped', async () => {
    const dir = tempDir();
    let now = T0;
    const first = await startStore({ dataDir: dir, now: () => now });
    first.store.profiles.create(profile('p1'));
    first.store.close();
    const starts: number[] = [];
    for (let i = 1; i <= 7; i++) {
      now = T0 + i * DAY;
      starts.push(now);
      const { store, startBackup } = await startStore({ dataDir: dir, now: () => now });
      expect(startBackup?.takenAt).toBe(now);
      store.settings.set('start', i);
      store.close();
    }
    // A migration at the eighth start: its own backup, kept beside the rotated ones.
    now = T0 + 8 * DAY;
    const migrations = [
      ...RECORD_MIGRATIONS,
      {
        version: latestVersion(RECORD_MIGRATIONS) + 1,
        name: 'later',
        up: 'CREATE TABLE later (x)',
      },
    ];
    (
      await startStore({ dataDir: dir, now: () => now, recordMigrations: migrations })
    ).store.close();
    starts.push(now);

    const backups = listBackups(join(dir, 'backups'));
    const rotated = backups.filter((b) => b.kind === 'rotated');
    expect(rotated.map((b) => b.takenAt)).toEqual(starts.slice(-ROTATED_BACKUPS_KEPT).reverse());
    const beforeMigration = backups.filter((b) => b.kind === 'before-migration');
    expect(beforeMigration.map((b) => b.takenAt)).toEqual([now]);
    // Each is a complete record of its moment, ours, readable by any SQLite tool.
    for (const backup of backups) {
      const db = new Database(backup.path, { readonly: true });
      expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_IDS.record);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT id FROM profiles').all()).toEqual([{ id: 'p1' }]);
      db.close();
    }
    const newest = new Database(rotated[0]!.path, { readonly: true });
    // The start backup is taken after the migration, of the record as the app then uses it.
    expect(newest.prepare("SELECT value FROM app_settings WHERE key = 'start'").get()).toEqual({
      value: '7',
    });
    newest.close();
    // The cache is never among them.
    expect(readdirSync(join(dir, 'backups')).some((name) => name.includes('cache'))).toBe(false);
  });

  it('store.backup() copies what is committed now, while the store stays open', async () => {
    const dir = tempDir();
    const { store } = await startStore({ dataDir: dir });
    store.profiles.create(profile('now'));
    const taken = await store.backup();
    store.profiles.create(profile('later'));
    const db = new Database(taken.path, { readonly: true });
    expect(db.prepare('SELECT id FROM profiles').all()).toEqual([{ id: 'now' }]);
    db.close();
    expect(store.profiles.list()).toHaveLength(2);
    store.close();
  });

  it('once a day while the app runs, on the app clock', async () => {
    const clock = new ManualClock(T0);
    const taken: number[] = [];
    const stop = scheduleBackups(
      () => {
        taken.push(clock.now());
        return Promise.resolve();
      },
      clock,
      () => undefined,
    );
    clock.advance(DAY - 1);
    expect(taken).toEqual([]);
    clock.advance(1);
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toEqual([T0 + DAY]);
    clock.advance(DAY);
    expect(taken).toEqual([T0 + DAY, T0 + 2 * DAY]);
    stop();
    clock.advance(3 * DAY);
    expect(taken).toHaveLength(2);
  });
});

describe.runIf(process.platform !== 'win32')('modes', () => {
  let previousUmask: number;
  beforeEach(() => {
    previousUmask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(previousUmask);
  });

  it('the folder and backups/ 0700; record, cache, their -wal/-shm and every backup 0600', async () => {
    const dir = join(tempDir(), 'Spotfolio');
    const { store } = await startStore({ dataDir: dir });
    store.profiles.create(profile('p1'));
    store.withdraws.upsertMany('p1', []);
    await store.backup();
    const seen = new Set<string>();
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      const path = join(entry.parentPath, entry.name);
      const mode = statSync(path).mode & 0o777;
      seen.add(entry.name.replace(/-\d{4}-.*\.sqlite$/, '-<time>.sqlite'));
      expect(mode, path).toBe(entry.isDirectory() ? 0o700 : 0o600);
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'backups',
        'record.sqlite',
        'record.sqlite-wal',
        'cache.sqlite',
        'cache.sqlite-wal',
        'record-<time>.sqlite',
      ]),
    );
    store.close();
  });
});
