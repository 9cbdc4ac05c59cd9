/**
 * Profiles against the sandbox: a key the exchange rejects stores nothing (no row, no secret);
 * a good key stores the secret under the new profile id and only a masked key in SQLite; removing
 * a profile deletes its secret and its cached rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../electron/api/dispatch';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startSandbox, type Sandbox } from '../../electron/sandbox';
import type { Keychain, SecretStore } from '../../electron/secrets';
import { openStore } from '../../electron/store';
import type { ProfileView } from '../../shared/types';
import { eventually, folderKeys, tempDir, testSecretStore } from '../api/helpers';

let sandbox: Sandbox;
let app: SpotfolioApp;
let keychain: Keychain;
/** This data folder's keys (under its install id). */
let secrets: SecretStore;
let dir: ReturnType<typeof tempDir>;
let dispatch: ReturnType<typeof createDispatcher>;
const logLines: string[] = [];

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 21 });
  keychain = testSecretStore().store;
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: keychain,
    demo: 'off',
    log: (line) => logLines.push(line),
  });
  dispatch = createDispatcher(app.handlers);
  secrets = folderKeys(dir.path, keychain);
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

function parentKey() {
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  return parent.keys.find((k) => k.canTrade)!;
}

function storedProfileCount(): number {
  const { store } = openStore({ dataDir: dir.path });
  try {
    return store.profiles.list().length;
  } finally {
    store.close();
  }
}

describe('profiles', () => {
  it('rejects a wrong secret key with an auth error and stores nothing', async () => {
    const key = parentKey();
    const outcome = await dispatch('profiles.add', {
      name: 'Wrong secret',
      apiKey: key.apiKey,
      secretKey: 'f'.repeat(64),
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(await secrets.list()).toEqual([]);
    expect(storedProfileCount()).toBe(0);
  });

  it('rejects an unknown API key with an auth error and stores nothing', async () => {
    const outcome = await dispatch('profiles.add', {
      name: 'Unknown key',
      apiKey: 'not-a-key-of-this-exchange',
      secretKey: 'also-not-a-secret',
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(await secrets.list()).toEqual([]);
    expect(storedProfileCount()).toBe(0);
  });

  it('reports an unreachable exchange as a network error and stores nothing', async () => {
    const outcome = await dispatch('profiles.add', {
      name: 'Nowhere',
      apiKey: parentKey().apiKey,
      secretKey: parentKey().secretKey,
      baseUrl: 'http://127.0.0.1:1',
      streamUrl: 'ws://127.0.0.1:1/ws',
    });
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(await secrets.list()).toEqual([]);
  });

  it('stores a verified key in the secret store and only a masked key in SQLite', async () => {
    const key = parentKey();
    const outcome = await dispatch('profiles.add', {
      name: 'Main',
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    expect(outcome.ok).toBe(true);
    const profile = (outcome as { value: ProfileView }).value;
    expect(profile).toMatchObject({ name: 'Main', active: true, canTrade: true, isDemo: false });
    expect(await secrets.list()).toEqual([profile.id]);
    expect(await secrets.get(profile.id)).toEqual({ apiKey: key.apiKey, secretKey: key.secretKey });

    const { store } = openStore({ dataDir: dir.path });
    try {
      const dump = JSON.stringify(store.db.prepare('SELECT * FROM profiles').all());
      expect(dump).not.toContain(key.secretKey);
      expect(dump).not.toContain(key.apiKey);
    } finally {
      store.close();
    }
  });

  it('removes a profile with its secret and its cached rows', async () => {
    const list = await dispatch('profiles.list', {});
    const [profile] = (list as { value: ProfileView[] }).value;
    await eventually('funds to be cached', async () => {
      const funds = await app.handlers['funds.list']({});
      return funds.rows.length > 0 ? true : undefined;
    });
    expect(await dispatch('profiles.remove', { id: profile!.id })).toEqual({
      ok: true,
      value: { removed: true },
    });
    expect(await secrets.list()).toEqual([]);
    const { store } = openStore({ dataDir: dir.path });
    try {
      expect(store.profiles.list()).toEqual([]);
      expect(store.funds.list(profile!.id).rows).toEqual([]);
    } finally {
      store.close();
    }
    expect(await dispatch('app.status', {})).toMatchObject({
      ok: true,
      value: { activeProfileId: null },
    });
    expect(await dispatch('profiles.activate', { id: profile!.id })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
  });

  it('refuses a stream URL where no private stream answers, naming the field, and stores nothing', async () => {
    const key = parentKey();
    for (const streamUrl of ['ws://127.0.0.1:1/ws', `${sandbox.streamUrl}-not-here`]) {
      const outcome = await dispatch('profiles.add', {
        name: 'Wrong stream',
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        baseUrl: sandbox.baseUrl,
        streamUrl,
      });
      expect(outcome, streamUrl).toMatchObject({ ok: false, error: { field: 'streamUrl' } });
      expect((outcome as { error: { message: string } }).error.message).toMatch(/stream/i);
    }
    expect(await secrets.list()).toEqual([]);
    expect(storedProfileCount()).toBe(0);
  });

  it('edits a profile in place: new addresses are verified first, the name alone is saved', async () => {
    const key = parentKey();
    const added = await dispatch('profiles.add', {
      name: 'Editable',
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    const profile = (added as { value: ProfileView }).value;
    const wrong = await dispatch('profiles.update', {
      id: profile.id,
      name: 'Editable',
      baseUrl: sandbox.baseUrl,
      streamUrl: 'ws://127.0.0.1:1/ws',
    });
    expect(wrong).toMatchObject({ ok: false, error: { field: 'streamUrl' } });
    expect((await app.handlers['profiles.list']({}))[0]).toMatchObject({
      streamUrl: sandbox.streamUrl,
    });

    const renamed = await dispatch('profiles.update', {
      id: profile.id,
      name: 'Renamed',
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    expect(renamed).toMatchObject({
      ok: true,
      value: { id: profile.id, name: 'Renamed', active: true },
    });
    // The same key under the same id: nothing was removed and added again.
    expect(await secrets.list()).toEqual([profile.id]);
    await eventually('the renamed profile to stay active and live', async () => {
      const status = await app.handlers['app.status']({});
      return status.activeProfileId === profile.id && status.connection === 'live'
        ? true
        : undefined;
    });
    // The same stream by another name: checked with the key first, then the session moves.
    const streamUrl = sandbox.streamUrl.replace('127.0.0.1', 'localhost');
    const moved = await dispatch('profiles.update', {
      id: profile.id,
      name: 'Renamed',
      baseUrl: sandbox.baseUrl,
      streamUrl,
    });
    expect(moved, JSON.stringify(moved)).toMatchObject({ ok: true, value: { streamUrl } });
    await eventually('the session on the new address to go live', async () => {
      const status = await app.handlers['app.status']({});
      return status.connection === 'live' && status.rest.state === 'ok' ? true : undefined;
    });
    await dispatch('profiles.remove', { id: profile.id });
  });

  it('never logged a secret key', () => {
    const key = parentKey();
    for (const line of logLines) expect(line).not.toContain(key.secretKey);
  });
});
