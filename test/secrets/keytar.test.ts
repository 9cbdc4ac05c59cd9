import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import keytar from 'keytar';
import { afterAll, describe, expect, it } from 'vitest';
import {
  KEYCHAIN_SERVICE,
  KeytarSecretStore,
  SecretFormatError,
  SecretStoreUnavailableError,
} from '../../electron/secrets';
import { unavailable } from '../../electron/secrets/keytar';
import { bundledScript } from '../support/child-script';

const here = dirname(fileURLToPath(import.meta.url));
const listWhileDeleted = bundledScript(join(here, 'fixtures', 'list-while-deleted.ts'));
const keyringSession = process.env.SPOTFOLIO_KEYRING === '1';
const REAL_KEYCHAIN = keyringSession
  ? 'real keychain (Secret Service session from scripts/test.sh)'
  : 'real keychain: SKIPPED, needs SPOTFOLIO_KEYRING=1 (run via scripts/test.sh: private D-Bus + unlocked gnome-keyring)';

describe.skipIf(!keyringSession)(REAL_KEYCHAIN, () => {
  const store = new KeytarSecretStore();
  const ids = [`test-${process.pid}-a`, `test-${process.pid}-b`, `test-${process.pid}-raw`];

  afterAll(async () => {
    for (const id of ids) await keytar.deletePassword(KEYCHAIN_SERVICE, id);
  });

  it(`set, get, list and delete under the service '${KEYCHAIN_SERVICE}'`, async () => {
    const [a, b] = ids as [string, string];
    await store.set(a, { apiKey: 'AbCdEfGh1234', secretKey: 's3cr3t-a' });
    await store.set(b, { apiKey: 'key-b', secretKey: 'secret-b' });
    await store.set(a, { apiKey: 'AbCdEfGh1234', secretKey: 's3cr3t-a-rotated' });

    expect(await store.get(a)).toEqual({ apiKey: 'AbCdEfGh1234', secretKey: 's3cr3t-a-rotated' });
    expect(await store.list()).toEqual(expect.arrayContaining([a, b]));
    // One entry per profile: account = profile id, password = the pair as JSON.
    expect(JSON.parse((await keytar.getPassword(KEYCHAIN_SERVICE, a))!)).toEqual({
      apiKey: 'AbCdEfGh1234',
      secretKey: 's3cr3t-a-rotated',
    });

    expect(await store.delete(a)).toBe(true);
    expect(await store.delete(a)).toBe(false);
    expect(await store.get(a)).toBeNull();
    expect(await store.list()).not.toContain(a);
    expect(await store.get(b)).toEqual({ apiKey: 'key-b', secretKey: 'secret-b' });
    await store.delete(b);
    await store.probe();
  });

  it('an entry that is not a key pair gives a clear error without echoing it', async () => {
    const raw = ids[2]!;
    await keytar.setPassword(KEYCHAIN_SERVICE, raw, 'plain-text-secret');
    const error = await store.get(raw).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretFormatError);
    expect((error as Error).message).toContain(`profile ${raw} is not a Spotfolio API key pair`);
    expect((error as Error).message).not.toContain('plain-text-secret');
  });

  it('refuses empty keys before touching the keychain', async () => {
    await expect(store.set(ids[0]!, { apiKey: '', secretKey: 'x' })).rejects.toThrow(
      `API key of profile ${ids[0]} must be a non-empty string`,
    );
    await expect(store.set('', { apiKey: 'k', secretKey: 's' })).rejects.toThrow(SecretFormatError);
    expect(await store.get(ids[0]!)).toBeNull();
  });

  it('lists the entries while another process deletes some of the same service: the process lives, the deleted ones are left out', async () => {
    // The apps of the journeys share one keyring and one service: one app's listing ran while
    // another deleted an entry, and keytar 7.9.0 passed the vanished entry's missing secret to
    // strdup (SIGSEGV in FindCredentials). Here the child lists while this process deletes.
    const service = `spotfolio-race-${process.pid}`;
    const pair = JSON.stringify({ apiKey: 'key-race', secretKey: 'secret-race' });
    const lasting = Array.from({ length: 20 }, (_, i) => `lasting-${i}`);
    for (const id of lasting) await keytar.setPassword(service, id, pair);
    const child = spawn(process.execPath, [listWhileDeleted(), service, '12', ...lasting], {
      cwd: join(here, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let running = true;
    void exited.then(() => (running = false));
    let deleted = 0;
    try {
      for (let n = 0; running; n++) {
        await keytar.setPassword(service, `doomed-${n % 4}`, pair);
        if (await keytar.deletePassword(service, `doomed-${n % 4}`)) deleted++;
      }
      const [code, signal] = await exited;
      expect({ code, signal }, stderr).toEqual({ code: 0, signal: null });
      const result = JSON.parse(stdout) as { listings: number; missed: number; failures: string[] };
      expect(result.failures).toEqual([]);
      expect(result.missed).toBe(0);
      expect(result.listings).toBe(12);
      // The entries came and went while it listed.
      expect(deleted).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
      for (const id of [...lasting, 'doomed-0', 'doomed-1', 'doomed-2', 'doomed-3']) {
        await keytar.deletePassword(service, id);
      }
    }
  }, 60_000);
});

describe.skipIf(process.platform !== 'linux')('no Secret Service on the session bus', () => {
  it('every operation rejects with SecretStoreUnavailableError saying what to start; nothing is written', () => {
    const home = mkdtempSync(join(tmpdir(), 'spotfolio-nokeychain-'));
    try {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_RUNTIME_DIR: join(home, 'run'),
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'no-such-bus')}`,
      };
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(here, 'fixtures', 'no-keychain.ts')],
        { cwd: join(here, '..', '..'), env, encoding: 'utf8', timeout: 30_000 },
      );
      expect(child.status, child.stderr).toBe(0);
      const results = JSON.parse(child.stdout.trim()) as Record<
        string,
        { unavailable?: boolean; reason?: string; message?: string; resolved?: unknown }
      >;
      for (const name of ['set', 'get', 'list', 'delete']) {
        const result = results[name]!;
        expect({ name, unavailable: result.unavailable, reason: result.reason }).toEqual({
          name,
          unavailable: true,
          reason: 'no-service',
        });
        expect(result.message).toContain(
          'No Secret Service is running: start gnome-keyring-daemon (or KWallet) and unlock the login keyring',
        );
        expect(result.message).not.toContain('secret-BBBB');
      }
      // No plaintext fallback: the child's home (data, config, runtime dirs) stays empty.
      expect(readdirSync(home)).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('keychain errors', () => {
  it('a missing native module is reported as such, and loading is retried next time', async () => {
    let attempts = 0;
    const store = new KeytarSecretStore({
      loadKeytar: async () => {
        attempts++;
        throw new Error("Cannot find module 'keytar'");
      },
    });
    const error = await store.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect((error as SecretStoreUnavailableError).reason).toBe('module-missing');
    expect((error as Error).message).toContain('The keychain module (keytar) could not be loaded');
    await store.get('x').catch(() => undefined);
    expect(attempts).toBe(2);
  });

  it('say what to unlock on each platform', () => {
    const locked = new Error('Cannot create an item in a locked collection');
    expect(unavailable(locked, 'linux').message).toMatch(
      /^The login keyring is locked: unlock your keychain/,
    );
    expect(unavailable(locked, 'linux').reason).toBe('locked');
    expect(
      unavailable(new Error('Could not connect: No such file or directory'), 'linux').message,
    ).toMatch(
      /^No Secret Service is running: start gnome-keyring-daemon \(or KWallet\) and unlock the login keyring/,
    );
    expect(unavailable(new Error('User interaction is not allowed.'), 'darwin').message).toMatch(
      /^The macOS Keychain is locked: unlock your keychain/,
    );
    expect(unavailable(new Error('Element not found.'), 'win32').message).toMatch(
      /^Windows Credential Manager could not be used: sign in to your Windows account/,
    );
  });
});
