/**
 * Damaged files, for real: the record and the cache are truncated, emptied, replaced by random
 * bytes or by another SQLite file, and their migrations made to throw. The record is never
 * discarded: a damaged one is kept aside and the newest usable backup restored (the notice says
 * which, of when), a failed migration leaves the file as it was and the store refuses to start
 * in its place. The cache is moved aside and made anew, and the notice says so.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreNotice } from '../../shared/types';
import {
  CACHE_MIGRATIONS,
  RECORD_MIGRATIONS,
  StoreUnavailableError,
  latestVersion,
  listBackups,
  openStore,
  startStore,
  type Migration,
  type OpenStoreResult,
} from '../../electron/store';
import { profile, removeTempDirs, tempDir, withdraw } from './helpers';

afterEach(removeTempDirs);

const RECORD = 'record.sqlite';
const CACHE = 'cache.sqlite';
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 10, 9, 30);

/** A manual time source: each start happens a day after the previous one. */
function days(start = T0): { now: () => number; next: () => void } {
  let current = start;
  return { now: () => current, next: () => (current += DAY) };
}

/**
 * A record that has lived: profiles, settings, ~700 KB of value snapshots, and a cache with
 * withdraws. Started twice, so a start backup exists; then one more profile is added after it,
 * which the backup does not hold.
 */
async function establishedRecord(dir: string, clock = days()): Promise<{ backupTakenAt: number }> {
  const first = await startStore({ dataDir: dir, now: clock.now });
  const { store } = first;
  store.profiles.create(profile('p1'));
  store.profiles.create(profile('p2'));
  store.settings.set('settings', { theme: 'dark' });
  store.settings.set('parentEmail', 'parent@example.test', 'p1');
  store.transaction(() => {
    for (let i = 0; i < 1500; i++) {
      store.funds.addSnapshot('p1', {
        takenAt: T0 - i * 60_000,
        quoteAsset: 'usdt',
        totalValue: `${1000 + i}.5`,
        assets: Array.from({ length: 10 }, (_, n) => ({
          asset: `asset${n}`,
          total: `${n}.125`,
          value: `${n * i}.25`,
        })),
      });
    }
  });
  store.withdraws.upsertMany(
    'p1',
    Array.from({ length: 500 }, (_, i) => withdraw({ id: `w${i}` })),
  );
  store.close();
  clock.next();
  const second = await startStore({ dataDir: dir, now: clock.now });
  expect(second.startBackup?.takenAt).toBe(clock.now());
  second.store.profiles.create(profile('after-backup'));
  second.store.withdraws.upsertMany('after-backup', [withdraw({ id: 'only-after' })]);
  second.store.close();
  clock.next();
  return { backupTakenAt: second.startBackup!.takenAt };
}

function only<K extends StoreNotice['kind']>(
  result: OpenStoreResult,
  kind: K,
): Extract<StoreNotice, { kind: K }> {
  expect(result.notices.map((n) => n.kind)).toEqual([kind]);
  return result.notices[0] as Extract<StoreNotice, { kind: K }>;
}

/** Damages the record with `damage`, starts, and checks the newest backup came back. */
async function expectRestored(damage: (path: string) => void, reason: RegExp): Promise<void> {
  const dir = tempDir();
  const clock = days();
  const { backupTakenAt } = await establishedRecord(dir, clock);
  const path = join(dir, RECORD);
  damage(path);
  const damagedBytes = existsSync(path) ? readFileSync(path) : undefined;

  const started = await startStore({ dataDir: dir, now: clock.now });
  const notice = only(started, 'record-restored');
  expect(notice.reason).toMatch(reason);
  expect(notice.backupTakenAt).toBe(backupTakenAt);
  expect(notice.backupPath).toMatch(/backups\/record-2026-01-11T09-30-00-000Z\.sqlite$/);
  if (damagedBytes) {
    expect(notice.movedTo).toMatch(/record\.sqlite\.damaged-/);
    expect(readFileSync(notice.movedTo!).equals(damagedBytes)).toBe(true);
  } else {
    expect(notice.movedTo).toBeNull();
  }
  const { store } = started;
  // What the backup held is back; what came after it is missing, as the notice says.
  expect(store.profiles.list().map((p) => p.id)).toEqual(['p1', 'p2']);
  expect(store.settings.get('settings')).toEqual({ theme: 'dark' });
  expect(store.settings.get('parentEmail', 'p1')).toBe('parent@example.test');
  expect(store.funds.snapshots('p1', 'usdt', {})).toHaveLength(1500);
  // The cache was fine and stays; rows of the profile the record lost are dropped.
  expect(store.withdraws.count('p1')).toBe(500);
  expect(store.withdraws.count('after-backup')).toBe(0);
  expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  store.close();

  // The next start finds a healthy record.
  const again = await startStore({ dataDir: dir, now: clock.now });
  expect(again.notices).toEqual([]);
  expect(again.store.profiles.list()).toHaveLength(2);
  again.store.close();
}

describe('a damaged record', () => {
  it('emptied to 0 bytes: kept aside, the newest backup restored', async () => {
    await expectRestored((path) => truncateSync(path, 0), /empty/);
  });

  it('truncated to 300,000 bytes: kept aside, the newest backup restored', async () => {
    await expectRestored((path) => {
      expect(statSync(path).size).toBeGreaterThan(600_000);
      truncateSync(path, 300_000);
    }, /damaged|not a database/);
  });

  it('truncated to half: kept aside, the newest backup restored', async () => {
    await expectRestored(
      (path) => truncateSync(path, Math.floor(statSync(path).size / 2)),
      /damaged|not a database/,
    );
  });

  it('another program’s SQLite file in its place: kept aside, the newest backup restored', async () => {
    await expectRestored((path) => {
      rmSync(path);
      const other = new Database(path);
      other.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('not ours')");
      other.close();
    }, /not Spotfolio's/);
  });

  it('the cache put where the record belongs: kept aside, the newest backup restored', async () => {
    await expectRestored((path) => {
      copyFileSync(join(path, '..', CACHE), path);
    }, /Spotfolio's cache, not its record/);
  });

  it('random bytes, not a database: kept aside, the newest backup restored', async () => {
    await expectRestored((path) => writeFileSync(path, randomBytes(64 * 1024)), /not a database/);
  });

  it('missing where backups exist: the newest backup restored', async () => {
    await expectRestored((path) => rmSync(path), /missing/);
  });

  it('a damaged newest backup is skipped for the next older one', async () => {
    const dir = tempDir();
    const clock = days();
    await establishedRecord(dir, clock);
    // A third start: a second backup, holding the profile added after the first.
    (await startStore({ dataDir: dir, now: clock.now })).store.close();
    clock.next();
    const [newest, older] = listBackups(join(dir, 'backups'));
    expect(newest!.takenAt).toBeGreaterThan(older!.takenAt);
    writeFileSync(newest!.path, randomBytes(4096));
    truncateSync(join(dir, RECORD), 0);
    const started = await startStore({ dataDir: dir, now: clock.now });
    const notice = only(started, 'record-restored');
    expect(notice.backupPath).toBe(older!.path);
    expect(notice.backupTakenAt).toBe(older!.takenAt);
    expect(started.store.profiles.list().map((p) => p.id)).toEqual(['p1', 'p2']);
    started.store.close();
  });

  it('emptied where only damaged backups exist: kept aside, the user told, a new record', async () => {
    const dir = tempDir();
    const clock = days();
    await establishedRecord(dir, clock);
    for (const backup of listBackups(join(dir, 'backups'))) writeFileSync(backup.path, 'x');
    truncateSync(join(dir, RECORD), 0);
    const started = await startStore({ dataDir: dir, now: clock.now });
    expect(only(started, 'record-lost').reason).toMatch(/empty/);
    started.store.close();
  });

  it('emptied with no backup but keys in the keychain: kept aside, the user told, a new record', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'backups'), { recursive: true });
    writeFileSync(join(dir, RECORD), '');
    const started = await startStore({ dataDir: dir, recordExpected: () => Promise.resolve(true) });
    const notice = only(started, 'record-lost');
    expect(notice.reason).toMatch(/empty/);
    expect(statSync(notice.movedTo!).size).toBe(0);
    expect(started.store.profiles.list()).toEqual([]);
    started.store.close();
  });

  it('a 0-byte file with no sign of an earlier record is simply a new record', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, RECORD), '');
    const started = await startStore({
      dataDir: dir,
      recordExpected: () => Promise.resolve(false),
    });
    expect(started.notices).toEqual([]);
    expect(started.store.recordVersion).toBe(latestVersion(RECORD_MIGRATIONS));
    started.store.close();
  });

  it('random bytes and no backup: kept aside, the user told, a new record', async () => {
    const dir = tempDir();
    const bytes = randomBytes(8192);
    writeFileSync(join(dir, RECORD), bytes);
    const started = await startStore({ dataDir: dir });
    const notice = only(started, 'record-lost');
    expect(readFileSync(notice.movedTo!).equals(bytes)).toBe(true);
    started.store.close();
  });
});

describe('a migration of the record that throws', () => {
  it('leaves the file untouched, keeps the backup taken before, and refuses to start afresh', async () => {
    const dir = tempDir();
    const clock = days();
    await establishedRecord(dir, clock);
    const path = join(dir, RECORD);
    const before = readFileSync(path);
    const throwing: Migration = {
      version: latestVersion(RECORD_MIGRATIONS) + 1,
      name: 'journal',
      up: (db) => {
        db.exec('CREATE TABLE journal (id INTEGER PRIMARY KEY)');
        db.exec("DELETE FROM profiles WHERE id = 'p1'");
        throw new Error('the step failed half-way');
      },
    };

    const error = await startStore({
      dataDir: dir,
      now: clock.now,
      recordMigrations: [...RECORD_MIGRATIONS, throwing],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    const details = (error as StoreUnavailableError).details;
    expect(details.problem).toBe('migration-failed');
    const latest = latestVersion(RECORD_MIGRATIONS);
    expect(details.message).toContain(
      `migration ${latest + 1} (journal) failed: the step failed half-way`,
    );
    expect(details.path).toBe(path);
    expect(details.backupPath).toMatch(
      new RegExp(`backups/record-v${latest}-before-v${latest + 1}-.*\\.sqlite$`),
    );
    expect(details.help).toMatch(/changed nothing/);
    // Nothing moved aside, nothing new made in its place, the content as it was.
    expect(readdirSync(dir).filter((name) => /damaged|corrupt/.test(name))).toEqual([]);
    const reopened = new Database(path, { readonly: true });
    expect(reopened.prepare('SELECT id FROM profiles ORDER BY id').all()).toEqual([
      { id: 'after-backup' },
      { id: 'p1' },
      { id: 'p2' },
    ]);
    expect(reopened.pragma('user_version', { simple: true })).toBe(latest);
    reopened.close();
    expect(before.length).toBeGreaterThan(0);
    // The backup holds the record as it was before the attempt.
    const backup = new Database(details.backupPath!, { readonly: true });
    expect(backup.prepare('SELECT count(*) AS n FROM profiles').get()).toEqual({ n: 3 });
    backup.close();

    // A version whose migrations work opens it with everything in it.
    const fixed = await startStore({ dataDir: dir, now: clock.now });
    expect(fixed.notices).toEqual([]);
    expect(fixed.store.profiles.list().map((p) => p.id)).toEqual(['after-backup', 'p1', 'p2']);
    fixed.store.close();
  });

  it('a record that cannot be opened now (a folder in its place) is left alone: the error surfaces', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, RECORD));
    const error = await startStore({ dataDir: dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).details.problem).toBe('unreadable');
    expect(statSync(join(dir, RECORD)).isDirectory()).toBe(true);
    expect(readdirSync(dir).filter((name) => /damaged|corrupt/.test(name))).toEqual([]);
  });
});

/** A store with one profile and a cache of 3000 withdraws, checkpointed into the files. */
function realStore(dir: string): void {
  const { store } = openStore({ dataDir: dir });
  store.profiles.create(profile('p1'));
  store.withdraws.upsertMany(
    'p1',
    Array.from({ length: 3000 }, (_, i) =>
      withdraw({ id: `w${i}`, address: `address-${i}`.repeat(4) }),
    ),
  );
  store.close();
}

/** Opens the folder, expects the cache rebuilt, the old bytes aside and the record intact. */
async function expectCacheRebuilt(dir: string, oldBytes: Buffer, reason: RegExp): Promise<void> {
  const started = await startStore({ dataDir: dir });
  const notice = only(started, 'cache-rebuilt');
  expect(notice.reason).toMatch(reason);
  expect(notice.movedTo).toMatch(/cache\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T/);
  expect(readFileSync(notice.movedTo).equals(oldBytes)).toBe(true);
  expect(started.recovered).toEqual({ movedTo: notice.movedTo, reason: notice.reason });
  const { store } = started;
  expect(store.profiles.list().map((p) => p.id)).toEqual(['p1']);
  expect(store.withdraws.count('p1')).toBe(0);
  store.withdraws.upsertMany('p1', [withdraw({ id: 'again' })]);
  expect(store.db.pragma('cache.integrity_check', { simple: true })).toBe('ok');
  store.close();
  const again = await startStore({ dataDir: dir });
  expect(again.notices).toEqual([]);
  expect(again.store.withdraws.count('p1')).toBe(1);
  again.store.close();
}

describe('a damaged cache', () => {
  it('random bytes: moved aside, made anew, the user told', async () => {
    const dir = tempDir();
    realStore(dir);
    const bytes = randomBytes(64 * 1024);
    writeFileSync(join(dir, CACHE), bytes);
    await expectCacheRebuilt(dir, bytes, /not a database|SQLITE_NOTADB/i);
  });

  it('truncated to half: moved aside, made anew', async () => {
    const dir = tempDir();
    realStore(dir);
    const path = join(dir, CACHE);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    await expectCacheRebuilt(dir, readFileSync(path), /integrity|malformed|corrupt/i);
  });

  it('a valid header over garbage pages: moved aside, made anew', async () => {
    const dir = tempDir();
    realStore(dir);
    const path = join(dir, CACHE);
    const original = readFileSync(path);
    const pageSize = original.readUInt16BE(16);
    const damaged = Buffer.concat([
      original.subarray(0, pageSize),
      randomBytes(original.length - pageSize),
    ]);
    writeFileSync(path, damaged);
    await expectCacheRebuilt(dir, damaged, /integrity|malformed|corrupt/i);
  });

  it('emptied to 0 bytes while the record has profiles: moved aside, made anew, the user told', async () => {
    const dir = tempDir();
    realStore(dir);
    truncateSync(join(dir, CACHE), 0);
    await expectCacheRebuilt(dir, Buffer.alloc(0), /empty/);
  });

  it('another program’s SQLite file: moved aside, made anew', async () => {
    const dir = tempDir();
    realStore(dir);
    const path = join(dir, CACHE);
    rmSync(path);
    const other = new Database(path);
    other.exec('CREATE TABLE notes (body TEXT)');
    other.close();
    await expectCacheRebuilt(dir, readFileSync(path), /not Spotfolio's cache/);
  });

  it('a cache migration that throws: moved aside, made anew', async () => {
    const dir = tempDir();
    realStore(dir);
    const bytes = readFileSync(join(dir, CACHE));
    const started = await startStore({
      dataDir: dir,
      cacheMigrations: [
        ...CACHE_MIGRATIONS,
        // Fails on this file's rows (every withdraw is of one coin), not on an empty cache.
        {
          version: CACHE_MIGRATIONS.length + 1,
          name: 'breaks',
          up: 'CREATE UNIQUE INDEX one_per_coin ON withdraws (coin)',
        },
      ],
    });
    const notice = only(started, 'cache-rebuilt');
    expect(notice.reason).toContain(`migration ${CACHE_MIGRATIONS.length + 1} (breaks) failed`);
    expect(readFileSync(notice.movedTo).equals(bytes)).toBe(true);
    expect(started.store.profiles.list()).toHaveLength(1);
    started.store.close();
  });

  it('moves the -wal and -shm companions along with the file', async () => {
    const dir = tempDir();
    realStore(dir);
    const path = join(dir, CACHE);
    writeFileSync(path, randomBytes(8192));
    writeFileSync(`${path}-wal`, randomBytes(4096));
    writeFileSync(`${path}-shm`, randomBytes(4096));
    const started = await startStore({ dataDir: dir });
    const notice = only(started, 'cache-rebuilt');
    expect(existsSync(notice.movedTo)).toBe(true);
    expect(existsSync(`${notice.movedTo}-wal`)).toBe(true);
    expect(existsSync(`${notice.movedTo}-shm`)).toBe(true);
    started.store.close();
  });

  it('keeps every moved-aside file when it happens twice', async () => {
    const dir = tempDir();
    realStore(dir);
    writeFileSync(join(dir, CACHE), randomBytes(8192));
    (await startStore({ dataDir: dir })).store.close();
    writeFileSync(join(dir, CACHE), randomBytes(8192));
    for (const suffix of ['-wal', '-shm']) {
      const companion = join(dir, CACHE + suffix);
      if (existsSync(companion)) writeFileSync(companion, Buffer.alloc(0));
    }
    const second = await startStore({ dataDir: dir });
    expect(second.notices.map((n) => n.kind)).toEqual(['cache-rebuilt']);
    second.store.close();
    const moved = readdirSync(dir).filter(
      (name) => name.includes('.corrupt-') && !/-(wal|shm)$/.test(name),
    );
    expect(moved).toHaveLength(2);
  });

  it('a healthy store opens without a notice, and both files stay plain SQLite', async () => {
    const dir = tempDir();
    realStore(dir);
    const started = await startStore({ dataDir: dir });
    expect(started.notices).toEqual([]);
    expect(started.store.withdraws.count('p1')).toBe(3000);
    started.store.close();
    const cache = new Database(join(dir, CACHE), { readonly: true });
    expect(cache.prepare('SELECT count(*) AS n FROM withdraws').get()).toEqual({ n: 3000 });
    cache.close();
    const record = new Database(join(dir, RECORD), { readonly: true });
    expect(record.prepare('SELECT id FROM profiles').all()).toEqual([{ id: 'p1' }]);
    record.close();
  });
});
