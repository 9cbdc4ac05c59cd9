/**
 * A single-file install (spotfolio.sqlite, schema 1 to 4) is converted at its first start into
 * the record and the cache without losing anything. fixtures/spotfolio-v4.sqlite is a real file
 * written by the store of the last single-file version (two profiles with settings, value
 * snapshots, notifications, funds, withdraws and sync state).
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../electron/store/database';
import {
  LEGACY_MIGRATIONS,
  StoreUnavailableError,
  listBackups,
  startStore,
} from '../../electron/store';
import { removeTempDirs, tempDir } from './helpers';

afterEach(removeTempDirs);

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'spotfolio-v4.sqlite');

/** Every row of `table` in a file, as the file holds them. */
function rowsOf(path: string, table: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    const columns = (db.pragma(`table_info(${table})`) as unknown[]).length;
    const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
    return db.prepare(`SELECT * FROM "${table}" ORDER BY ${order}`).all();
  } finally {
    db.close();
  }
}

describe('a single-file install', () => {
  it('is converted at its first start: every row in its new file, the old file kept as it was', async () => {
    const dir = tempDir();
    const legacy = join(dir, 'spotfolio.sqlite');
    copyFileSync(FIXTURE, legacy);
    const original = readFileSync(legacy);
    const expected = Object.fromEntries(
      [
        'profiles',
        'app_settings',
        'profile_settings',
        'fund_snapshots',
        'notifications',
        'funds',
        'withdraws',
        'sync_state',
      ].map((table) => [table, rowsOf(legacy, table)]),
    );
    expect((expected.profiles as unknown[]).length).toBe(2);
    expect((expected.fund_snapshots as unknown[]).length).toBe(48);

    const started = await startStore({ dataDir: dir });
    expect(started.notices).toEqual([]);
    const { store } = started;
    expect(store.profiles.list().map((p) => p.name)).toEqual(['Main account', 'Second key']);
    expect(store.settings.get('settings')).toEqual({
      theme: 'dark',
      privacyMode: true,
      quoteAsset: 'usdt',
    });
    expect(store.settings.get('parentEmail', 'p-main')).toBe('parent-p-main@example.test');
    expect(store.notifications.unreadCount('p-main')).toBe(0);
    expect(store.notifications.unreadCount('p-second')).toBe(2);
    expect(store.funds.list('p-main').rows.map((r) => r.free)).toEqual([
      '0.5',
      '12.345678901234567890',
    ]);
    expect(store.withdraws.count('p-second')).toBe(40);
    store.close();

    const record = join(dir, 'record.sqlite');
    const cache = join(dir, 'cache.sqlite');
    for (const table of [
      'profiles',
      'app_settings',
      'profile_settings',
      'fund_snapshots',
      'notifications',
    ]) {
      // Columns added to the record since schema 4 (profiles.removed_at) start empty.
      expect(rowsOf(record, table), table).toEqual(
        table === 'profiles'
          ? (expected[table] as object[]).map((row) => ({ ...row, removed_at: null }))
          : expected[table],
      );
    }
    for (const table of ['funds', 'withdraws', 'sync_state']) {
      expect(rowsOf(cache, table), table).toEqual(expected[table]);
    }
    // The old file now lives among the backups, byte for byte as it was.
    expect(existsSync(legacy)).toBe(false);
    const kept = listBackups(join(dir, 'backups')).filter((b) => b.kind === 'before-split');
    expect(kept).toHaveLength(1);
    expect(readFileSync(kept[0]!.path).equals(original)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.includes('converting'))).toEqual([]);

    // The second start converts nothing again.
    const again = await startStore({ dataDir: dir });
    expect(again.store.profiles.list()).toHaveLength(2);
    again.store.close();
    expect(listBackups(join(dir, 'backups')).filter((b) => b.kind === 'before-split')).toHaveLength(
      1,
    );
  });

  for (const version of [1, 2, 3]) {
    it(`of schema ${version} is converted too`, async () => {
      const dir = tempDir();
      const db = new Database(join(dir, 'spotfolio.sqlite'));
      migrate(db, LEGACY_MIGRATIONS.slice(0, version));
      db.exec(`INSERT INTO profiles VALUES ('old', 'Old', 'http://x', 'ws://x', '…yz', 1, 0, 0, 5);
               INSERT INTO app_settings VALUES ('settings', '{"theme":"light"}');`);
      db.close();
      const { store } = await startStore({ dataDir: dir });
      expect(store.profiles.get('old')?.name).toBe('Old');
      expect(store.settings.get('settings')).toEqual({ theme: 'light' });
      store.close();
    });
  }

  it('whose old migrations fail: the old file untouched, no record made, the app told', async () => {
    const dir = tempDir();
    const legacy = join(dir, 'spotfolio.sqlite');
    const db = new Database(legacy);
    migrate(db, LEGACY_MIGRATIONS.slice(0, 1));
    // A stray table that migration 2 would create makes it fail on this file.
    db.exec('CREATE TABLE withdraws (unexpected TEXT)');
    db.pragma('journal_mode = DELETE');
    db.close();
    const before = readFileSync(legacy);
    const error = await startStore({ dataDir: dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).details.problem).toBe('migration-failed');
    expect((error as StoreUnavailableError).details.message).toMatch(
      /migration 2 .* failed: .*withdraws already exists/,
    );
    expect(readFileSync(legacy).equals(before)).toBe(true);
    expect(existsSync(join(dir, 'record.sqlite'))).toBe(false);
    expect(readdirSync(dir).filter((name) => name.includes('converting'))).toEqual([]);
  });

  it('that is damaged: kept aside, and the user told the record could not be restored', async () => {
    const dir = tempDir();
    const bytes = randomBytes(16 * 1024);
    writeFileSync(join(dir, 'spotfolio.sqlite'), bytes);
    const started = await startStore({ dataDir: dir });
    expect(started.notices.map((n) => n.kind)).toEqual(['record-lost']);
    const notice = started.notices[0]!;
    expect(notice.kind === 'record-lost' && notice.movedTo).toMatch(/spotfolio\.sqlite\.damaged-/);
    if (notice.kind === 'record-lost')
      expect(readFileSync(notice.movedTo!).equals(bytes)).toBe(true);
    started.store.close();
  });

  it('a conversion interrupted before its end is done again from the old file', async () => {
    const dir = tempDir();
    copyFileSync(FIXTURE, join(dir, 'spotfolio.sqlite'));
    writeFileSync(join(dir, 'record.sqlite.converting'), randomBytes(1024));
    writeFileSync(join(dir, 'spotfolio.sqlite.converting'), randomBytes(1024));
    const { store, notices } = await startStore({ dataDir: dir });
    expect(notices).toEqual([]);
    expect(store.profiles.list()).toHaveLength(2);
    store.close();
    expect(readdirSync(dir).filter((name) => name.includes('converting'))).toEqual([]);
  });
});
