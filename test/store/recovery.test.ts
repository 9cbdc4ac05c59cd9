import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import {
  existsSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS, openStore } from '../../electron/store';
import { openDatabase } from '../../electron/store/database';
import { profile, removeTempDirs, tempDir, withdraw } from './helpers';

afterEach(removeTempDirs);

const FILE = 'spotfolio.sqlite';

/** A real cache file with enough rows to span many pages, checkpointed into the main file. */
function realDatabase(dir: string): string {
  const { store } = openStore({ dataDir: dir });
  store.profiles.create(profile('p1'));
  store.withdraws.upsertMany(
    'p1',
    Array.from({ length: 3000 }, (_, i) =>
      withdraw({ id: `w${i}`, address: `address-${i}`.repeat(4) }),
    ),
  );
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return join(dir, FILE);
}

/** Opens the folder, expects a recovery, and checks the old bytes sit next to a working new file. */
function expectRecovered(dir: string, oldBytes: Buffer, reasonPattern: RegExp): void {
  const { store, recovered } = openStore({ dataDir: dir });
  expect(recovered).toBeDefined();
  expect(recovered!.reason).toMatch(reasonPattern);
  expect(recovered!.movedTo).toMatch(/spotfolio\.sqlite\.corrupt-\d{4}-\d{2}-\d{2}T/);
  expect(readFileSync(recovered!.movedTo).equals(oldBytes)).toBe(true);
  expect(store.schemaVersion).toBe(LATEST_VERSION);
  expect(store.profiles.list()).toEqual([]);
  store.profiles.create(profile('after'));
  expect(store.profiles.get('after')?.id).toBe('after');
  expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  store.close();

  // The next start finds a healthy file and recovers nothing.
  const again = openStore({ dataDir: dir });
  expect(again.recovered).toBeUndefined();
  expect(again.store.profiles.get('after')?.id).toBe('after');
  again.store.close();
}

describe('a corrupt cache file', () => {
  it('random bytes: moved aside, a fresh database created', () => {
    const dir = tempDir();
    const bytes = randomBytes(64 * 1024);
    writeFileSync(join(dir, FILE), bytes);
    expectRecovered(dir, bytes, /not a database|malformed|SQLITE_NOTADB|SQLITE_CORRUPT/i);
  });

  it('a truncated real database: moved aside, a fresh database created', () => {
    const dir = tempDir();
    const path = realDatabase(dir);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    const bytes = readFileSync(path);
    expectRecovered(dir, bytes, /integrity|malformed|corrupt/i);
  });

  it('a valid header over garbage pages: moved aside, a fresh database created', () => {
    const dir = tempDir();
    const path = realDatabase(dir);
    const original = readFileSync(path);
    const pageSize = original.readUInt16BE(16);
    const damaged = Buffer.concat([
      original.subarray(0, pageSize), // page 1: header and schema intact
      randomBytes(original.length - pageSize),
    ]);
    writeFileSync(path, damaged);
    expectRecovered(dir, damaged, /integrity|malformed|corrupt/i);
  });

  it('moves the -wal and -shm companions along with the file', () => {
    const dir = tempDir();
    const path = join(dir, FILE);
    const bytes = randomBytes(8192);
    writeFileSync(path, bytes);
    writeFileSync(`${path}-wal`, randomBytes(4096));
    writeFileSync(`${path}-shm`, randomBytes(4096));
    const { store, recovered } = openStore({ dataDir: dir });
    expect(recovered).toBeDefined();
    expect(existsSync(recovered!.movedTo)).toBe(true);
    expect(existsSync(`${recovered!.movedTo}-wal`)).toBe(true);
    expect(existsSync(`${recovered!.movedTo}-shm`)).toBe(true);
    store.close();
  });

  it('a failed migration: moved aside, a fresh database created', () => {
    const dir = tempDir();
    const older = openDatabase({ dataDir: dir, migrations: MIGRATIONS.slice(0, 1) });
    // A stray table that migration 2 would create makes it fail on this file.
    older.db.exec('CREATE TABLE withdraws (unexpected TEXT)');
    older.db.pragma('wal_checkpoint(TRUNCATE)');
    older.db.close();
    const bytes = readFileSync(join(dir, FILE));
    expectRecovered(dir, bytes, /migration 2 .* failed: .*withdraws already exists/);
  });

  it('keeps every moved-aside file when it happens twice', () => {
    const dir = tempDir();
    writeFileSync(join(dir, FILE), randomBytes(8192));
    openStore({ dataDir: dir }).store.close();
    writeFileSync(join(dir, FILE), randomBytes(8192));
    for (const suffix of ['-wal', '-shm']) {
      const companion = join(dir, FILE + suffix);
      if (existsSync(companion)) writeFileSync(companion, Buffer.alloc(0));
    }
    const second = openStore({ dataDir: dir });
    expect(second.recovered).toBeDefined();
    second.store.close();
    const moved = readdirSync(dir).filter(
      (name) => name.includes('.corrupt-') && !/-(wal|shm)$/.test(name),
    );
    expect(moved.length).toBe(2);
  });

  it('a healthy file with data opens without recovery', () => {
    const dir = tempDir();
    realDatabase(dir);
    const { store, recovered } = openStore({ dataDir: dir });
    expect(recovered).toBeUndefined();
    expect(store.withdraws.count('p1')).toBe(3000);
    store.close();
    // The file is still a plain SQLite database any tool can read.
    const db = new Database(join(dir, FILE), { readonly: true });
    expect((db.prepare('SELECT count(*) AS n FROM withdraws').get() as { n: number }).n).toBe(3000);
    db.close();
  });

  it('a file that cannot be opened (here: a folder in its place) is not moved: the error surfaces', () => {
    const dir = tempDir();
    mkdirSync(join(dir, FILE));
    expect(() => openStore({ dataDir: dir })).toThrow(/unable to open|directory/i);
    expect(statSync(join(dir, FILE)).isDirectory()).toBe(true);
    expect(readdirSync(dir).filter((name) => name.includes('.corrupt-'))).toEqual([]);
  });
});
