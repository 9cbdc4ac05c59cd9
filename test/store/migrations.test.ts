import Database from 'better-sqlite3';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APPLICATION_IDS,
  configure,
  migrate,
  openDatabase,
  schemaVersion,
} from '../../electron/store/database';
import {
  CACHE_MIGRATIONS,
  LEGACY_MIGRATIONS,
  RECORD_MIGRATIONS,
  StoreUnavailableError,
  StoreVersionError,
  latestVersion,
  listBackups,
  openStore,
  startStore,
  type Migration,
} from '../../electron/store';
import { profile, removeTempDirs, tempDir } from './helpers';

afterEach(removeTempDirs);

const RECORD_LATEST = latestVersion(RECORD_MIGRATIONS);
const CACHE_LATEST = latestVersion(CACHE_MIGRATIONS);

function appliedVersions(db: Database.Database, schema = 'main'): number[] {
  return db
    .prepare(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`)
    .all()
    .map((row) => (row as { version: number }).version);
}

function tableNames(db: Database.Database, schema = 'main'): string[] {
  return db
    .prepare(
      `SELECT name FROM ${schema}.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all()
    .map((row) => (row as { name: string }).name);
}

const RECORD_TABLES = [
  'app_settings',
  'fund_snapshots',
  'notifications',
  'profile_settings',
  'profiles',
  'schema_migrations',
];
const CACHE_TABLES = [
  'coins',
  'deposit_addresses',
  'exchange_answers',
  'funds',
  'kline_closes',
  'orders',
  'own_trades',
  'prices',
  'schema_migrations',
  'sub_account_balances',
  'sub_accounts',
  'sub_transfers',
  'sync_state',
  'withdraws',
];

/** A record at version 1 holding one profile, made with the record's first migration only. */
function recordAtVersionOne(dir: string): void {
  const older = openDatabase({
    dataDir: dir,
    file: 'record',
    migrations: RECORD_MIGRATIONS.slice(0, 1),
  });
  older.db
    .prepare(
      `INSERT INTO profiles (id, name, base_url, stream_url, api_key_masked, can_trade,
       can_withdraw, is_demo, created_at) VALUES ('old', 'Old', 'http://x', 'ws://x', '…yz', 1, 0, 0, 5)`,
    )
    .run();
  older.db.close();
}

const EXTRA_RECORD_STEP: Migration = {
  version: RECORD_LATEST + 1,
  name: 'labels (a later version)',
  up: 'CREATE TABLE labels (profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE, label TEXT NOT NULL)',
};

describe('migrations', () => {
  it('each list is numbered 1..n without gaps', () => {
    for (const list of [RECORD_MIGRATIONS, CACHE_MIGRATIONS, LEGACY_MIGRATIONS]) {
      expect(list.map((m) => m.version)).toEqual(list.map((_, i) => i + 1));
    }
  });

  it('bring an empty folder to two files at their latest versions, each table in its file', async () => {
    const dir = tempDir();
    const { store, notices, recovered, startBackup } = await startStore({ dataDir: dir });
    expect(notices).toEqual([]);
    expect(recovered).toBeUndefined();
    // A new, empty record has nothing worth a backup yet.
    expect(startBackup).toBeUndefined();
    expect(store.recordVersion).toBe(RECORD_LATEST);
    expect(store.cacheVersion).toBe(CACHE_LATEST);
    expect(schemaVersion(store.db)).toBe(RECORD_LATEST);
    expect(schemaVersion(store.db, 'cache')).toBe(CACHE_LATEST);
    expect(appliedVersions(store.db)).toEqual(RECORD_MIGRATIONS.map((m) => m.version));
    expect(appliedVersions(store.db, 'cache')).toEqual(CACHE_MIGRATIONS.map((m) => m.version));
    // Later versions add tables to either file; none is in both.
    expect(tableNames(store.db)).toEqual(expect.arrayContaining(RECORD_TABLES));
    expect(tableNames(store.db, 'cache')).toEqual(expect.arrayContaining(CACHE_TABLES));
    const inRecord = new Set(tableNames(store.db));
    expect(tableNames(store.db, 'cache').filter((name) => inRecord.has(name))).toEqual([
      'schema_migrations',
    ]);
    expect(store.db.pragma('main.application_id', { simple: true })).toBe(APPLICATION_IDS.record);
    expect(store.db.pragma('cache.application_id', { simple: true })).toBe(APPLICATION_IDS.cache);
    for (const schema of ['main', 'cache']) {
      expect(store.db.pragma(`${schema}.journal_mode`, { simple: true })).toBe('wal');
      expect(store.db.pragma(`${schema}.synchronous`, { simple: true })).toBe(1); // NORMAL
    }
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    expect(readdirSync(dir).sort()).toEqual(
      expect.arrayContaining(['backups', 'cache.sqlite', 'record.sqlite']),
    );
    store.close();
  });

  it('no amount column is REAL', () => {
    const { store } = openStore({ dataDir: tempDir() });
    for (const schema of ['main', 'cache']) {
      for (const table of tableNames(store.db, schema)) {
        const columns = store.db.pragma(`${schema}.table_info(${table})`) as {
          name: string;
          type: string;
        }[];
        for (const column of columns)
          expect(`${table}.${column.name}:${column.type}`).not.toMatch(/REAL$/);
      }
    }
    store.close();
  });

  it('record and cache together hold every table and index of the single file of schema 4, less the foreign keys across files and the tables, columns and indexes changed since', () => {
    const legacy = new Database(':memory:');
    migrate(legacy, LEGACY_MIGRATIONS);
    const { store } = openStore({ dataDir: tempDir() });
    const definitions = (db: Database.Database, schema: string) =>
      new Map(
        (
          db
            .prepare(
              `SELECT name, sql FROM ${schema}.sqlite_schema WHERE sql IS NOT NULL AND name != 'schema_migrations'`,
            )
            .all() as { name: string; sql: string }[]
        ).map((row) => [
          row.name,
          row.sql
            .replace(/ REFERENCES profiles\(id\) ON DELETE CASCADE/g, '')
            // A column added since (a profile removed softly, record migration 5).
            .replace(/, removed_at INTEGER/, '')
            // An order the exchange no longer knows (cache migration 3).
            .replace(/, gone_at INTEGER/, '')
            .replace(/\s+/g, ' '),
        ]),
      );
    const old = definitions(legacy, 'main');
    const split = new Map([...definitions(store.db, 'main'), ...definitions(store.db, 'cache')]);
    // An index replaced since by one over the ledger's whole order (cache migration 4).
    old.delete('own_trades_by_time');
    expect(split.get('own_trades_in_ledger_order')).toBe(
      'CREATE INDEX own_trades_in_ledger_order ON own_trades (profile_id, time, id, order_id)',
    );
    // Orders keyed by their account since (cache migration 6): the same columns after it.
    old.delete('orders');
    old.delete('orders_by_client_id');
    expect(split.get('orders')).toMatch(
      /^CREATE TABLE "orders" \( profile_id TEXT NOT NULL, account TEXT NOT NULL, id INTEGER NOT NULL, client_order_id .* PRIMARY KEY \(profile_id, account, id\) \)$/,
    );
    expect(split.get('orders_by_client_id')).toBe(
      'CREATE INDEX orders_by_client_id ON orders (profile_id, account, client_order_id)',
    );
    expect([...split.keys()]).toEqual(expect.arrayContaining([...old.keys()]));
    for (const [name, sql] of old) expect(split.get(name), name).toBe(sql);
    legacy.close();
    store.close();
  });

  it('upgrade a record of an older version after a backup of it, keeping its rows', async () => {
    const dir = tempDir();
    recordAtVersionOne(dir);
    const before = readFileSync(join(dir, 'record.sqlite'));
    const recordMigrations = [...RECORD_MIGRATIONS, EXTRA_RECORD_STEP];
    const { store, notices } = await startStore({ dataDir: dir, recordMigrations });
    expect(notices).toEqual([]);
    expect(store.recordVersion).toBe(RECORD_LATEST + 1);
    expect(tableNames(store.db)).toContain('labels');
    expect(store.profiles.get('old')?.name).toBe('Old');
    store.close();

    const kept = listBackups(join(dir, 'backups'));
    const beforeMigration = kept.filter((b) => b.kind === 'before-migration');
    expect(beforeMigration).toHaveLength(1);
    expect(beforeMigration[0]!.path).toMatch(
      new RegExp(`record-v1-before-v${RECORD_LATEST + 1}-.*\\.sqlite$`),
    );
    const copy = new Database(beforeMigration[0]!.path, { readonly: true });
    expect(schemaVersion(copy)).toBe(1);
    expect(copy.prepare('SELECT name FROM profiles').all()).toEqual([{ name: 'Old' }]);
    copy.close();
    // The original was a real file of version 1; the copy carries the same rows.
    expect(before.length).toBeGreaterThan(0);
  });

  it('the plain synchronous open refuses a record that needs migrating, and leaves it as it was', () => {
    const dir = tempDir();
    recordAtVersionOne(dir);
    const path = join(dir, 'record.sqlite');
    const before = readFileSync(path);
    expect(() =>
      openStore({ dataDir: dir, recordMigrations: [...RECORD_MIGRATIONS, EXTRA_RECORD_STEP] }),
    ).toThrow(StoreUnavailableError);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('opening an up-to-date store again applies nothing', async () => {
    const dir = tempDir();
    openStore({ dataDir: dir }).store.close();
    const { store } = await startStore({ dataDir: dir });
    expect(appliedVersions(store.db)).toEqual(RECORD_MIGRATIONS.map((m) => m.version));
    expect(appliedVersions(store.db, 'cache')).toEqual(CACHE_MIGRATIONS.map((m) => m.version));
    store.close();
  });

  it('refuse a record from a newer app version and leave it untouched', async () => {
    const dir = tempDir();
    const { store } = openStore({ dataDir: dir });
    store.profiles.create(profile('keep'));
    store.db.pragma(`user_version = ${RECORD_LATEST + 1}`);
    store.close();
    const path = join(dir, 'record.sqlite');
    const before = readFileSync(path);

    const error = await startStore({ dataDir: dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    const details = (error as StoreUnavailableError).details;
    expect(details.problem).toBe('newer-version');
    expect(details.message).toContain('newer version of Spotfolio');
    expect(details.message).toContain(`schema ${RECORD_LATEST + 1}`);
    expect(details.path).toBe(path);
    expect((error as StoreUnavailableError).cause).toBeInstanceOf(StoreVersionError);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((name) => /corrupt|damaged/.test(name))).toEqual([]);
  });

  it('apply all missing migrations in one transaction: a failure leaves the file as it was', () => {
    const db = new Database(join(tempDir(), 'partial.sqlite'));
    migrate(db, LEGACY_MIGRATIONS.slice(0, 1));
    const failing: Migration[] = [
      ...LEGACY_MIGRATIONS.slice(0, 2),
      { version: 3, name: 'fails', up: 'CREATE TABLE half_done (x); SELECT * FROM no_such_table;' },
    ];
    expect(() => migrate(db, failing)).toThrow(/migration 3 \(fails\) failed/);
    expect(schemaVersion(db)).toBe(1);
    expect(appliedVersions(db)).toEqual([1]);
    expect(tableNames(db)).not.toContain('withdraws');
    expect(tableNames(db)).not.toContain('half_done');
    db.close();
  });

  it('run function migrations too, and mark a new file as ours in the same transaction', () => {
    const db = new Database(':memory:');
    configure(db, 'record');
    migrate(
      db,
      [
        ...RECORD_MIGRATIONS,
        {
          version: RECORD_LATEST + 1,
          name: 'function step',
          up: (database) => database.exec('CREATE TABLE from_function (x TEXT)'),
        },
      ],
      'record',
    );
    expect(schemaVersion(db)).toBe(RECORD_LATEST + 1);
    expect(tableNames(db)).toContain('from_function');
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_IDS.record);
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
