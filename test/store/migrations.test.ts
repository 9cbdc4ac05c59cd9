import Database from 'better-sqlite3';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, schemaVersion } from '../../electron/store/database';
import {
  LATEST_VERSION,
  MIGRATIONS,
  openStore,
  StoreVersionError,
  type Migration,
} from '../../electron/store';
import { profile, removeTempDirs, tempDir } from './helpers';

afterEach(removeTempDirs);

function appliedVersions(db: Database.Database): number[] {
  return db
    .prepare('SELECT version FROM schema_migrations ORDER BY version')
    .all()
    .map((row) => (row as { version: number }).version);
}

function tableNames(db: Database.Database): string[] {
  return db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => (row as { name: string }).name);
}

describe('migrations', () => {
  it('are numbered 1..n without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBe(MIGRATIONS.length);
  });

  it('bring an empty folder to the latest version and record every step', () => {
    const dir = tempDir();
    const { store, recovered } = openStore({ dataDir: dir });
    expect(recovered).toBeUndefined();
    expect(store.schemaVersion).toBe(LATEST_VERSION);
    expect(schemaVersion(store.db)).toBe(LATEST_VERSION);
    expect(appliedVersions(store.db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(tableNames(store.db)).toEqual(
      expect.arrayContaining([
        'profiles',
        'app_settings',
        'profile_settings',
        'funds',
        'fund_snapshots',
        'prices',
        'withdraws',
        'deposit_addresses',
        'coins',
        'sub_accounts',
        'sub_account_balances',
        'sub_transfers',
        'orders',
        'own_trades',
        'notifications',
        'sync_state',
        'kline_closes',
      ]),
    );
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    store.close();
  });

  it('no amount column is REAL', () => {
    const { store } = openStore({ dataDir: tempDir() });
    for (const table of tableNames(store.db)) {
      const columns = store.db.pragma(`table_info(${table})`) as { name: string; type: string }[];
      for (const column of columns)
        expect(`${table}.${column.name}:${column.type}`).not.toMatch(/REAL$/);
    }
    store.close();
  });

  for (let version = 0; version < LATEST_VERSION; version++) {
    it(`upgrade a file at version ${version} to the latest, keeping its rows`, () => {
      const dir = tempDir();
      const older = openDatabase({ dataDir: dir, migrations: MIGRATIONS.slice(0, version) });
      expect(schemaVersion(older.db)).toBe(version);
      if (version >= 1) {
        older.db
          .prepare(
            `INSERT INTO profiles (id, name, base_url, stream_url, api_key_masked, can_trade,
             can_withdraw, is_demo, created_at) VALUES ('old', 'Old', 'http://x', 'ws://x', '…yz', 1, 0, 0, 5)`,
          )
          .run();
        older.db
          .prepare(
            `INSERT INTO funds (profile_id, asset, free, locked, reserved_fee, updated_at)
             VALUES ('old', 'BTC', '1.25', '0', NULL, 7)`,
          )
          .run();
      }
      older.db.close();

      const { store, recovered } = openStore({ dataDir: dir });
      expect(recovered).toBeUndefined();
      expect(store.schemaVersion).toBe(LATEST_VERSION);
      expect(appliedVersions(store.db)).toEqual(MIGRATIONS.map((m) => m.version));
      if (version >= 1) {
        expect(store.profiles.get('old')?.name).toBe('Old');
        expect(store.funds.list('old').rows).toEqual([
          { asset: 'BTC', free: '1.25', locked: '0', reservedFee: null, updatedAt: 7 },
        ]);
      }
      // The upgraded file is fully usable: every repository's tables exist.
      store.profiles.create(profile('new'));
      store.withdraws.upsertMany('new', []);
      expect(store.orders.openOrders('new')).toEqual([]);
      store.close();
    });
  }

  it('opening an up-to-date file again applies nothing', () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).store.close();
    const { store } = openStore({ dataDir: dir });
    expect(appliedVersions(store.db)).toEqual(MIGRATIONS.map((m) => m.version));
    store.close();
  });

  it('refuse a file from a newer app version and leave it untouched', () => {
    const dir = tempDir();
    const { store } = openStore({ dataDir: dir });
    store.profiles.create(profile('keep'));
    store.db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.close();
    const path = join(dir, 'spotfolio.sqlite');
    const before = readFileSync(path);

    let error: unknown;
    try {
      openStore({ dataDir: dir });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreVersionError);
    expect((error as Error).message).toContain('newer version of Spotfolio');
    expect((error as Error).message).toContain(`schema ${LATEST_VERSION + 1}`);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.includes('corrupt'))).toEqual([]);
  });

  it('apply all missing migrations in one transaction: a failure leaves the file as it was', () => {
    const db = new Database(join(tempDir(), 'partial.sqlite'));
    migrate(db, MIGRATIONS.slice(0, 1));
    const failing: Migration[] = [
      ...MIGRATIONS.slice(0, 2),
      { version: 3, name: 'fails', up: 'CREATE TABLE half_done (x); SELECT * FROM no_such_table;' },
    ];
    expect(() => migrate(db, failing)).toThrow(/migration 3 \(fails\) failed/);
    expect(schemaVersion(db)).toBe(1);
    expect(appliedVersions(db)).toEqual([1]);
    expect(tableNames(db)).not.toContain('withdraws');
    expect(tableNames(db)).not.toContain('half_done');
    db.close();
  });

  it('run function migrations too', () => {
    const db = new Database(':memory:');
    migrate(db, [
      ...MIGRATIONS,
      {
        version: LATEST_VERSION + 1,
        name: 'function step',
        up: (database) => database.exec('CREATE TABLE from_function (x TEXT)'),
      },
    ]);
    expect(schemaVersion(db)).toBe(LATEST_VERSION + 1);
    expect(tableNames(db)).toContain('from_function');
    db.close();
  });

  it('reject a migration list with a gap', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [{ version: 2, name: 'gap', up: 'SELECT 1' }])).toThrow(
      /entry 0 has version 2, expected 1/,
    );
    db.close();
  });
});
