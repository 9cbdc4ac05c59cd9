/**
 * The record loses nothing, the probe's way: the whole app runs in a child process against the
 * sandbox over real HTTP, a profile is added and an alert made through its handlers, the process
 * is SIGKILLed, the record file is emptied or deleted, and the app starts again on the same
 * folder. The damaged file is kept with its -wal and -shm as they were, and the first session's
 * profile is in a backup. A profile's removal and a reset each take a backup first that rotation
 * never removes.
 */
import {
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { launchSandbox, type Sandbox } from '../../electron/sandbox';
import { DemoSecretStore } from '../../electron/secrets';
import { listBackups } from '../../electron/store';
import { pruneRotated } from '../../electron/store/backups';
import Database from 'better-sqlite3';
import type { StoreNotice } from '../../shared/types';
import { tempDir } from '../api/helpers';
import { appProcesses } from './app-process';

const startAppProcess = appProcesses();

let sandbox: Sandbox;
let key: { apiKey: string; secretKey: string };
const dirs: ReturnType<typeof tempDir>[] = [];

beforeAll(async () => {
  ({ sandbox } = await launchSandbox({ seed: 53, simulation: false, rateLimits: false }));
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  key = parent.keys.find((k) => k.canTrade)!;
});

afterAll(async () => {
  await sandbox?.close();
  for (const dir of dirs) dir.remove();
});

/** A first session: a profile added, an alert made, then the process killed. */
async function firstSessionKilled(): Promise<{ dataDir: string; profileId: string }> {
  const dir = tempDir('spotfolio-crash-');
  dirs.push(dir);
  const child = await startAppProcess(dir.path);
  try {
    const profile = await child.call<{ id: string }>('profiles.add', {
      name: 'Main',
      ...key,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    await child.call('alerts.create', {
      kind: 'price',
      symbol: 'btcusdt',
      direction: 'above',
      threshold: '1000000',
      repeat: false,
      cooldownMinutes: 60,
    });
    await child.kill();
    return { dataDir: dir.path, profileId: profile.id };
  } catch (error) {
    await child.kill();
    throw error;
  }
}

/** The app started again in this process on the folder, the profile's key in its keychain. */
async function restart(dataDir: string, profileId: string): Promise<SpotfolioApp> {
  const secrets = new DemoSecretStore();
  await secrets.set(profileId, key);
  return createApp({ dataDir, mode: 'browser', secrets, demo: 'off', log: () => undefined });
}

async function noticesOf(app: SpotfolioApp): Promise<StoreNotice[]> {
  return (await app.handlers['app.status']({})).storeNotices ?? [];
}

describe('the record emptied after a SIGKILL', () => {
  it('is moved aside with its -wal and -shm exactly as they were found', async () => {
    const { dataDir, profileId } = await firstSessionKilled();
    const record = join(dataDir, 'record.sqlite');
    // The alert made just before the kill lives in the -wal: SQLite had not checkpointed it.
    expect(existsSync(`${record}-wal`)).toBe(true);
    const wal = readFileSync(`${record}-wal`);
    const shm = readFileSync(`${record}-shm`);
    expect(wal.length).toBeGreaterThan(0);
    truncateSync(record, 0);

    const app = await restart(dataDir, profileId);
    try {
      const notice = (await noticesOf(app)).find(
        (n) => n.kind === 'record-restored' || n.kind === 'record-lost',
      );
      expect(notice?.reason).toBe('the file was empty');
      const movedTo = (notice as { movedTo: string }).movedTo;
      expect(readFileSync(movedTo).length).toBe(0);
      expect(readFileSync(`${movedTo}-wal`).equals(wal)).toBe(true);
      expect(readFileSync(`${movedTo}-shm`).equals(shm)).toBe(true);
      // No copy taken for the check is left behind.
      expect(readdirSync(dataDir).filter((name) => name.includes('before-check'))).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('a first session', () => {
  it('has a backup once its profile is added: the emptied record is restored with it', async () => {
    const { dataDir, profileId } = await firstSessionKilled();
    truncateSync(join(dataDir, 'record.sqlite'), 0);

    const app = await restart(dataDir, profileId);
    try {
      const notice = (await noticesOf(app)).find((n) => n.kind === 'record-restored');
      expect(notice).toMatchObject({ kind: 'record-restored', reason: 'the file was empty' });
      expect((await app.handlers['profiles.list']({})).map((p) => p.id)).toEqual([profileId]);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('a record deleted while its key is in the keychain is damage: restored, and said so', async () => {
    const { dataDir, profileId } = await firstSessionKilled();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dataDir, `record.sqlite${suffix}`));

    const app = await restart(dataDir, profileId);
    try {
      const notice = (await noticesOf(app)).find((n) => n.kind === 'record-restored');
      expect(notice).toMatchObject({ reason: 'the record file was missing', movedTo: null });
      expect((await app.handlers['profiles.list']({})).map((p) => p.id)).toEqual([profileId]);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('a record deleted with keys in the keychain and no backup', () => {
  it('is told as lost, not started afresh in silence', async () => {
    const dir = tempDir('spotfolio-crash-');
    dirs.push(dir);
    // A folder that had a record: its cache is still there.
    writeFileSync(join(dir.path, 'cache.sqlite'), '');
    const app = await restart(dir.path, 'a-profile-of-a-lost-record');
    try {
      expect(listBackups(join(dir.path, 'backups'))).toEqual([]);
      expect(await noticesOf(app)).toMatchObject([
        { kind: 'record-lost', reason: 'the record file was missing', movedTo: null },
      ]);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('before an action that removes what the user wrote', () => {
  it('a profile removal and a reset each take a backup first, which rotation never removes', async () => {
    const dir = tempDir('spotfolio-crash-');
    dirs.push(dir);
    const secrets = new DemoSecretStore();
    const app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets,
      demo: 'off',
      log: () => undefined,
    });
    const folder = join(dir.path, 'backups');
    const place = { ...key, baseUrl: sandbox.baseUrl, streamUrl: sandbox.streamUrl };
    const alert = {
      kind: 'price',
      symbol: 'btcusdt',
      direction: 'above',
      threshold: '1000000',
      repeat: false,
      cooldownMinutes: 60,
    } as const;
    try {
      const first = await app.handlers['profiles.add']({ name: 'First', ...place });
      await app.handlers['alerts.create'](alert);
      await app.handlers['profiles.remove']({ id: first.id });
      const second = await app.handlers['profiles.add']({ name: 'Second', ...place });
      await app.handlers['alerts.create'](alert);
      await app.handlers['lock.reset']({ confirm: true });
      expect(await app.handlers['profiles.list']({})).toEqual([]);

      pruneRotated(folder, 0);
      const kept = listBackups(folder);
      expect(kept.map((b) => b.kind)).toEqual(['before-action', 'before-action']);
      const [beforeReset, beforeRemoval] = kept.map((b) => b.path);
      expect(beforeRemoval).toMatch(/record-before-profile-removal-[^/]+\.sqlite$/);
      expect(beforeReset).toMatch(/record-before-reset-[^/]+\.sqlite$/);
      const contents = (path: string) => {
        const db = new Database(path, { readonly: true });
        try {
          return {
            profiles: db.prepare('SELECT name FROM profiles').all(),
            alerts: db.prepare('SELECT profile_id AS profileId, threshold FROM alerts').all(),
          };
        } finally {
          db.close();
        }
      };
      expect(contents(beforeRemoval!)).toEqual({
        profiles: [{ name: 'First' }],
        alerts: [{ profileId: first.id, threshold: '1000000' }],
      });
      // The first profile was removed softly: its rows were still in the record at the reset.
      expect(contents(beforeReset!)).toEqual({
        profiles: [{ name: 'First' }, { name: 'Second' }],
        alerts: [
          { profileId: first.id, threshold: '1000000' },
          { profileId: second.id, threshold: '1000000' },
        ],
      });
      expect(await app.handlers['profiles.removed']({})).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('a new data folder', () => {
  it('keys another folder keeps in the keychain do not make it a lost record', async () => {
    const dir = tempDir('spotfolio-crash-');
    dirs.push(dir);
    const app = await restart(dir.path, 'a-profile-of-another-folder');
    try {
      expect(await noticesOf(app)).toEqual([]);
    } finally {
      await app.close();
    }
  }, 60_000);
});
