/**
 * The app lock: its state over a real record file on a manual clock (idle lock, the wait after
 * wrong passwords, what a restart keeps, events and notifications held back), and the whole app
 * over browser mode's real WebSocket bridge with the sandbox exchange: while locked, data methods
 * called directly are refused and no data event reaches the page.
 */
import Database from 'better-sqlite3';
import { Decimal } from '../../shared/exact-decimal';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodNames, type EventName, type EventPayloads } from '../../shared/contract';
import {
  METHODS_WHILE_LOCKED,
  REAUTH_AFTER_MS,
  type LockStatus,
  type UnlockResult,
} from '../../shared/lock';
import type { AlertView } from '../../shared/alerts';
import type { ProfileView } from '../../shared/types';
import {
  AppLock,
  LOCK_KEYS,
  LOCKED_NOTIFICATION,
  SCRYPT_PARAMETERS,
  verifyPassword,
} from '../../electron/lock';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { ManualClock } from '../../electron/core/clock';
import type { DesktopNotification } from '../../electron/core/notifier';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import { DemoSecretStore, isSealed, KeyVault } from '../../electron/secrets';
import { CACHE_FILE, openStore, RECORD_FILE, type Store } from '../../electron/store';
import { listBackups } from '../../electron/store/backups';
import { eventually, rendererDir, tempDir, testSecretStore, WireClient } from './helpers';

const minute = 60_000;

interface Harness {
  lock: AppLock;
  clock: ManualClock;
  vault: KeyVault;
  events: { event: EventName; payload: unknown }[];
  forgotten: number;
  backups: string[];
}

/** The keychain the harnesses share, as a restarted app finds it. */
const harnessKeychain = new DemoSecretStore();
const pair = { apiKey: 'harness-key-0123456789', secretKey: 'harness-secret-0123456789' };
/**
 * The harnesses' scrypt: the app's parameters with N = 2^10 instead of 2^15, about 3 ms a hash
 * where the app's take 0.15 to 0.25 s on a shared CI core (these tests hash and check ~40 times).
 * AppLock's own option for tests; the app over the bridge, below, keeps SCRYPT_PARAMETERS, and
 * the record it writes is checked for them.
 */
const HARNESS_SCRYPT = { ...SCRYPT_PARAMETERS, N: 2 ** 10 };

function harness(store: Store, clock = new ManualClock(0)): Harness {
  const vault = new KeyVault({ keychain: harnessKeychain, installId: 'harness' });
  const result: Harness = {
    lock: undefined as never,
    clock,
    vault,
    events: [],
    forgotten: 0,
    backups: [],
  };
  result.lock = new AppLock({
    vault,
    backup: async () => {
      const { path } = await store.backup();
      result.backups.push(path);
      return path;
    },
    record: store.settings,
    clock,
    // The app's emit passes events through the lock first; so does this one.
    emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      if (result.lock.admits(event, payload)) result.events.push({ event, payload });
    },
    log: { info: () => undefined, warn: () => undefined },
    scrypt: HARNESS_SCRYPT,
    forgetProfiles: async () => {
      result.forgotten++;
    },
  });
  return result;
}

describe('AppLock over a real record', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;

  beforeAll(() => {
    dir = tempDir('spotfolio-lock-');
    store = openStore({ dataDir: dir.path }).store;
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });

  it('keeps only a scrypt hash with a random salt, and locks on the idle time of a manual clock', async () => {
    const { lock, clock, events, vault } = harness(store);
    await vault.set('p1', pair);
    expect(await harnessKeychain.read('harness/p1')).toBe(JSON.stringify(pair));
    expect(lock.status()).toEqual({
      enabled: false,
      locked: false,
      idleMinutes: 15,
      failedAttempts: 0,
      retryAt: null,
    });
    await lock.setPassword('correct horse battery');
    lock.setIdle(5);
    const stored = store.settings.get<{ algorithm: string; N: number; salt: string; hash: string }>(
      LOCK_KEYS.password,
    )!;
    expect(stored).toMatchObject({ algorithm: 'scrypt', N: 2 ** 10, r: 8, p: 1, keyLength: 32 });
    expect(Buffer.from(stored.salt, 'base64')).toHaveLength(16);
    expect(await verifyPassword('correct horse battery', stored as never)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored as never)).toBe(false);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(store.path).includes('correct horse battery')).toBe(false);
    // The key pair in the keychain was sealed when the password was set.
    const sealed = (await harnessKeychain.read('harness/p1'))!;
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(pair.secretKey);
    expect(sealed).not.toContain(pair.apiKey);
    expect(await vault.get('p1')).toEqual(pair);

    expect(lock.isLocked()).toBe(false);
    clock.advance(4 * minute);
    lock.activity();
    clock.advance(5 * minute - 1);
    expect(lock.isLocked()).toBe(false);
    clock.advance(1);
    expect(lock.isLocked()).toBe(true);
    expect(events.at(-1)).toEqual({
      event: 'lock.changed',
      payload: { enabled: true, locked: true, idleMinutes: 5, failedAttempts: 0, retryAt: null },
    });
    lock.dispose();
  });

  it('starts locked, makes wrong passwords wait longer, and keeps the count over a restart', async () => {
    const { lock, clock } = harness(store, new ManualClock(1_000_000));
    expect(lock.isLocked()).toBe(true);
    const wrong: UnlockResult[] = [];
    for (let i = 0; i < 3; i++) wrong.push(await lock.unlock(`guess ${i}`));
    expect(wrong.map((r) => [r.reason, r.status.failedAttempts])).toEqual([
      ['wrong-password', 1],
      ['wrong-password', 2],
      ['wrong-password', 3],
    ]);
    expect(wrong[2]!.status.retryAt).toBe(1_000_000 + 1000);
    // Inside the wait even the right password is not checked.
    expect(await lock.unlock('correct horse battery')).toMatchObject({
      unlocked: false,
      reason: 'too-soon',
    });
    lock.dispose();

    // A restart does not wipe the count or the wait; the keys stay sealed until the first unlock.
    const again = harness(store, clock);
    let keysAvailable = 0;
    (again.lock as unknown as { options: { onKeysAvailable(): void } }).options.onKeysAvailable =
      () => keysAvailable++;
    await expect(again.vault.get('p1')).rejects.toThrow(/sealed with your lock password/);
    expect(again.lock.status()).toMatchObject({
      locked: true,
      failedAttempts: 3,
      retryAt: 1_001_000,
    });
    clock.advance(1000);
    const right = await again.lock.unlock('correct horse battery');
    expect(right).toMatchObject({ unlocked: true, status: { locked: false, failedAttempts: 0 } });
    expect(store.settings.get(LOCK_KEYS.failures)).toBeUndefined();
    expect(await again.vault.get('p1')).toEqual(pair);
    expect(keysAvailable).toBe(1);
    // An idle lock keeps the key in memory: sync and alerts go on signing.
    again.lock.lock('idle');
    expect(await again.vault.get('p1')).toEqual(pair);
    await again.lock.unlock('correct horse battery');
    expect(keysAvailable).toBe(1);
    again.lock.dispose();
  });

  it('holds back data events and amounts while locked and sends what changed after unlocking', async () => {
    const { lock, events } = harness(store);
    const shown: DesktopNotification[] = [];
    const notifier = lock.guardNotifier({ show: (n) => shown.push(n) })!;
    expect(lock.isLocked()).toBe(true);

    const emitThroughLock = <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      if (lock.admits(event, payload)) events.push({ event, payload });
    };
    emitThroughLock('data.changed', { profileId: 'p', kinds: ['withdrawals'] });
    emitThroughLock('live.batch', { profileId: 'p', orders: [], trades: [], balances: [] });
    emitThroughLock('connection.state', { profileId: 'p', state: 'live', since: 1 });
    notifier.show({ kind: 'fill', title: 'Bought 0.5 BTC', body: 'at 61,000.00 USDT' });
    expect(events).toEqual([]);
    expect(shown).toEqual([{ kind: 'fill', ...LOCKED_NOTIFICATION }]);

    expect((await lock.unlock('correct horse battery')).unlocked).toBe(true);
    expect(events.map((e) => e.event)).toEqual(['lock.changed', 'data.changed']);
    expect(new Set((events[1]!.payload as EventPayloads['data.changed']).kinds)).toEqual(
      new Set(['withdrawals', 'funds', 'portfolio', 'orders', 'trades']),
    );
    notifier.show({ kind: 'fill', title: 'Bought 0.5 BTC', body: 'at 61,000.00 USDT' });
    expect(shown.at(-1)).toEqual({
      kind: 'fill',
      title: 'Bought 0.5 BTC',
      body: 'at 61,000.00 USDT',
    });
    lock.dispose();
  });

  it('asks for the password again before a sensitive action once a few minutes have passed', async () => {
    const h = harness(store, new ManualClock(5_000_000));
    expect(h.lock.confirmNeeded()).toBe(true);
    await h.lock.unlock('correct horse battery');
    expect(h.lock.confirmNeeded()).toBe(false);
    h.clock.advance(REAUTH_AFTER_MS);
    expect(h.lock.confirmNeeded()).toBe(false);
    h.clock.advance(1);
    expect(h.lock.confirmNeeded()).toBe(true);
    expect(await h.lock.confirm('not it')).toMatchObject({
      confirmed: false,
      reason: 'wrong-password',
      status: { failedAttempts: 1, locked: false },
    });
    expect(h.lock.confirmNeeded()).toBe(true);
    expect(await h.lock.confirm('correct horse battery')).toMatchObject({
      confirmed: true,
      status: { failedAttempts: 0 },
    });
    expect(h.lock.confirmNeeded()).toBe(false);
    h.lock.dispose();
  });

  it('asks for the current password to change or remove it, re-sealing the keys each time', async () => {
    const h = harness(store);
    await h.lock.unlock('correct horse battery');
    const before = await harnessKeychain.read('harness/p1');
    await expect(h.lock.setPassword('new password 1', 'wrong one')).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'current',
    });
    expect(h.lock.status().failedAttempts).toBe(1);
    await h.lock.setPassword('new password 1', 'correct horse battery');
    expect(h.lock.status().failedAttempts).toBe(0);
    const after = (await harnessKeychain.read('harness/p1'))!;
    expect(isSealed(after)).toBe(true);
    expect(after).not.toBe(before);
    // A restart: only the new password opens the keys.
    h.lock.dispose();
    const next = harness(store);
    expect((await next.lock.unlock('new password 1')).unlocked).toBe(true);
    expect(await next.vault.get('p1')).toEqual(pair);
    await expect(next.lock.removePassword('correct horse battery')).rejects.toMatchObject({
      field: 'current',
    });
    await next.lock.removePassword('new password 1');
    expect(await harnessKeychain.read('harness/p1')).toBe(JSON.stringify(pair));
    expect(store.settings.get(LOCK_KEYS.seal)).toBeUndefined();
    next.lock.dispose();
  });

  it('a reset without the password forgets the keys, after a backup of the record', async () => {
    const h = harness(store);
    await h.lock.setPassword('forgotten one 9');
    expect(isSealed((await harnessKeychain.read('harness/p1'))!)).toBe(true);
    // Another data folder's entry is not this folder's to forget.
    await harnessKeychain.write('elsewhere/p9', JSON.stringify(pair));
    expect(h.lock.lock('user')).toBe(true);
    const reset = await h.lock.reset();
    expect(reset).toMatchObject({ enabled: false, locked: false, failedAttempts: 0 });
    expect(h.forgotten).toBe(1);
    expect(h.backups).toHaveLength(1);
    expect(readFileSync(h.backups[0]!).length).toBeGreaterThan(0);
    expect(store.settings.get(LOCK_KEYS.password)).toBeUndefined();
    expect(await harnessKeychain.read('harness/p1')).toBeNull();
    expect(await h.vault.list()).toEqual([]);
    expect(await harnessKeychain.read('elsewhere/p9')).toBe(JSON.stringify(pair));
    h.lock.dispose();
  });
});

describe('the app locked, over the browser-mode bridge', () => {
  let dir: ReturnType<typeof tempDir>;
  let app: SpotfolioApp;
  let host: BrowserModeHost;
  let client: WireClient;
  let sandbox: Sandbox;
  let profile: ProfileView;
  let key: { apiKey: string; secretKey: string };
  let parentEmail: string;
  // The user's keychain: the real one in a keyring session (scripts/test.sh), else in memory.
  const secrets = testSecretStore().store;

  beforeAll(async () => {
    dir = tempDir('spotfolio-lock-app-');
    sandbox = await startSandbox({ seed: 7 });
    const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
    parentEmail = parent.email;
    key = parent.keys.find((k) => k.canTrade)!;
    app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets,
      demo: 'off',
      log: () => undefined,
    });
    host = await startBrowserMode({ app, rendererDir: rendererDir(dir.path) });
    client = await WireClient.connect(host.port, host.token);
    profile = await client.ok<ProfileView>('profiles.add', {
      name: 'Main',
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
  });

  afterAll(async () => {
    client.close();
    await host.close();
    await app.close();
    await sandbox.close();
    dir.remove();
  });

  it('refuses every data method called directly while locked, and sends no data event', async () => {
    await eventually('funds of the profile', async () => {
      const funds = await client.ok<{ rows: unknown[] }>('funds.list');
      return funds.rows.length > 0 ? funds : undefined;
    });
    expect(await client.call('lock.lock')).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input' },
    });
    await client.ok<LockStatus>('lock.setPassword', { password: 'open sesame 42' });
    // The app keeps only a scrypt hash of the password, and derives the key sealing the keychain's
    // entries, at the cost it ships with (OWASP's for scrypt), each under a random 16-byte salt.
    const record = new Database(join(dir.path, RECORD_FILE), { readonly: true });
    const setting = (key: string) =>
      JSON.parse(
        (
          record.prepare('SELECT value FROM app_settings WHERE key = ?').get(key) as {
            value: string;
          }
        ).value,
      ) as { salt: string };
    try {
      const hash = setting(LOCK_KEYS.password);
      expect(hash).toMatchObject({ algorithm: 'scrypt', N: 2 ** 15, r: 8, p: 1, keyLength: 32 });
      expect(Buffer.from(hash.salt, 'base64')).toHaveLength(16);
      const seal = setting(LOCK_KEYS.seal);
      expect(seal).toMatchObject({ algorithm: 'scrypt', N: 2 ** 15, r: 8, p: 1 });
      expect(Buffer.from(seal.salt, 'base64')).toHaveLength(16);
    } finally {
      record.close();
    }
    const locked = await client.ok<LockStatus>('lock.lock');
    expect(locked).toMatchObject({ enabled: true, locked: true });
    const lockedAt = client.events.length;

    const refused: string[] = [];
    for (const method of methodNames) {
      if ((METHODS_WHILE_LOCKED as readonly string[]).includes(method)) continue;
      const outcome = await client.call(method, {});
      expect(outcome).toEqual({
        ok: false,
        error: {
          kind: 'locked',
          message: 'Spotfolio is locked. Unlock it with your password first.',
        },
      });
      refused.push(method);
    }
    expect(refused).toEqual(
      expect.arrayContaining([
        'funds.list',
        'portfolio.summary',
        'orders.open',
        'deposits.address',
        'withdrawals.list',
        'app.status',
        'lock.activity',
      ]),
    );
    expect((await client.ok<LockStatus>('lock.status')).locked).toBe(true);

    // The exchange keeps moving underneath: a credit reaches the app over the private stream and
    // is written to the cache (read here from the file itself), but nothing of it reaches the page.
    sandbox.admin.credit(parentEmail, 'usdt', '1234.5');
    const credited = sandbox.admin.balances(parentEmail).find((b) => b.asset === 'usdt')!.free;
    const cache = new Database(join(dir.path, CACHE_FILE), { readonly: true });
    const cachedFree = () =>
      (
        cache
          .prepare('SELECT free FROM funds WHERE profile_id = ? AND asset = ?')
          .get(profile.id, 'usdt') as { free: string } | undefined
      )?.free;
    try {
      await expect
        .poll(() => {
          const free = cachedFree();
          return free !== undefined && new Decimal(free).eq(credited);
        })
        .toBe(true);
    } finally {
      cache.close();
    }
    const whileLocked = client.events.slice(lockedAt);
    expect(whileLocked.every((e) => e.event === 'lock.changed')).toBe(true);

    const wrong = await client.ok<UnlockResult>('lock.unlock', { password: 'open sesame 41' });
    expect(wrong).toMatchObject({
      unlocked: false,
      reason: 'wrong-password',
      status: { failedAttempts: 1 },
    });
    expect(await client.call('funds.list')).toMatchObject({ ok: false, error: { kind: 'locked' } });
    const right = await client.ok<UnlockResult>('lock.unlock', { password: 'open sesame 42' });
    expect(right).toMatchObject({ unlocked: true, status: { locked: false, failedAttempts: 0 } });
    const funds = await client.ok<{ rows: { asset: string; free: string }[] }>('funds.list');
    expect(new Decimal(funds.rows.find((row) => row.asset === 'usdt')!.free).eq(credited)).toBe(
      true,
    );
    await eventually('data.changed after unlocking', () =>
      client.events.slice(lockedAt).find((e) => e.event === 'data.changed'),
    );
  });

  it('a reset without the password only forgets: no key is left to re-attach, the record is backed up', async () => {
    const alert = await client.ok<AlertView>('alerts.create', {
      kind: 'price',
      symbol: 'BTCUSDT',
      direction: 'above',
      threshold: '999999.5',
    });
    // The keychain holds this folder's entry sealed: neither the API key nor its secret is in it.
    const raw = await secrets.all();
    expect(raw.map((e) => e.account)).toEqual([
      expect.stringMatching(new RegExp(`/${profile.id}$`)),
    ]);
    expect(isSealed(raw[0]!.text)).toBe(true);
    expect(raw[0]!.text).not.toContain(key.secretKey);
    expect(raw[0]!.text).not.toContain(key.apiKey);

    await client.ok('lock.lock');
    const place = { name: 'Elsewhere', baseUrl: sandbox.baseUrl, streamUrl: sandbox.streamUrl };
    expect(await client.call('profiles.reattachKey', { id: profile.id, ...place })).toMatchObject({
      ok: false,
      error: { kind: 'locked' },
    });
    expect(await client.call('lock.reset', {})).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'confirm' },
    });
    const status = await client.ok<LockStatus>('lock.reset', { confirm: true });
    expect(status).toMatchObject({ enabled: false, locked: false });
    expect(await client.ok<ProfileView[]>('profiles.list')).toEqual([]);
    expect(await client.ok('app.status')).toMatchObject({ activeProfileId: null });

    // The walk-around of the probe: nothing is offered back, nothing can be re-attached.
    expect(await client.ok('profiles.orphanedKeys')).toEqual([]);
    expect(await client.call('profiles.reattachKey', { id: profile.id, ...place })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
    expect(await secrets.all()).toEqual([]);

    // What the user wrote is in a backup taken before anything was removed.
    const backups = listBackups(join(dir.path, 'backups'));
    const kept = new Database(backups[0]!.path, { readonly: true });
    try {
      expect(kept.prepare('SELECT id FROM profiles').all()).toEqual([{ id: profile.id }]);
      expect(kept.prepare('SELECT id FROM alerts').all()).toEqual([{ id: alert.id }]);
    } finally {
      kept.close();
    }
  });
});
