/**
 * Keychain entries without a profile, with the real keychain (a private Secret Service session
 * from scripts/test.sh) and the app against the sandbox: found at start-up, re-attached (verified
 * as on adding, on the same entry) or deleted; adding a key the keychain holds makes no second
 * entry; removing a profile removes its entry. Only this data folder's entries (under its install
 * id) are seen: another folder's keys are never offered, and an older version's entry is claimed
 * by the folder whose record has its profile.
 */
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../electron/api/dispatch';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startSandbox, type Sandbox } from '../../electron/sandbox';
import { KeytarSecretStore } from '../../electron/secrets';
import { maskApiKey, openStore } from '../../electron/store';
import type { OrphanedKeyView, ProfileView } from '../../shared/types';
import { folderKeys, tempDir } from '../api/helpers';

const keyringSession = process.env.SPOTFOLIO_KEYRING === '1';
const REAL_KEYCHAIN = keyringSession
  ? 'orphaned keychain entries (real keychain)'
  : 'orphaned keychain entries: SKIPPED, needs SPOTFOLIO_KEYRING=1 (run via scripts/test.sh)';

describe.skipIf(!keyringSession)(REAL_KEYCHAIN, () => {
  const service = `Spotfolio-orphans-${process.pid}`;
  const secrets = new KeytarSecretStore({ service });
  let sandbox: Sandbox;
  let dir: ReturnType<typeof tempDir>;
  let app: SpotfolioApp | undefined;
  let key: { apiKey: string; secretKey: string };

  const open = async () => {
    app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets,
      demo: 'off',
      log: () => undefined,
    });
    return createDispatcher(app.handlers);
  };
  const restart = async () => {
    await app?.close();
    return open();
  };
  /** What a record restored from a backup older than the profile looks like: the row is gone. */
  const dropProfileRow = async (id: string) => {
    await app?.close();
    app = undefined;
    const { store } = openStore({ dataDir: dir.path });
    store.profiles.delete(id);
    store.close();
  };
  const entries = () => keytar.findCredentials(service);
  /** This folder's install id, from its record (known once the app has opened it). */
  let installId = '';
  const account = (id: string) => `${installId}/${id}`;
  const ids = async () => (await entries()).map((e) => e.account.slice(installId.length + 1));
  const place = () => ({ baseUrl: sandbox.baseUrl, streamUrl: sandbox.streamUrl });

  beforeAll(async () => {
    dir = tempDir();
    sandbox = await startSandbox({ seed: 53, simulation: false });
    const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
    const trading = parent.keys.find((k) => k.canTrade)!;
    key = { apiKey: trading.apiKey, secretKey: trading.secretKey };
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    for (const { account } of await entries()) await keytar.deletePassword(service, account);
    dir?.remove();
  });

  it('entries() reads every entry with its pair in one search; a foreign entry has none', async () => {
    await secrets.set('entry-b', { apiKey: 'key-b-123456', secretKey: 'secret-b' });
    await keytar.setPassword(service, 'entry-a', 'not a key pair');
    expect(await secrets.entries()).toEqual([
      { id: 'entry-a', secret: null },
      { id: 'entry-b', secret: { apiKey: 'key-b-123456', secretKey: 'secret-b' } },
    ]);
  });

  it("sees only this data folder's entries; another folder's are never offered", async () => {
    await open();
    installId = folderKeys(dir.path, secrets).account('').slice(0, -1);
    // Entries of older versions whose profiles this record does not have: another folder's.
    expect(await (await restart())('profiles.orphanedKeys', {})).toEqual({ ok: true, value: [] });
    expect((await entries()).map((e) => e.account).sort()).toEqual(['entry-a', 'entry-b']);
    for (const id of ['entry-a', 'entry-b']) {
      const text = (await keytar.getPassword(service, id))!;
      await keytar.deletePassword(service, id);
      await keytar.setPassword(service, account(id), text);
    }
    await keytar.setPassword(service, 'other-install/entry-c', JSON.stringify(key));
  });

  it('finds the entries without a profile at start-up and deletes them on request', async () => {
    const dispatch = await restart();
    const orphans = await dispatch('profiles.orphanedKeys', {});
    expect(orphans).toEqual({
      ok: true,
      value: [
        { id: 'entry-a', apiKeyMasked: null },
        { id: 'entry-b', apiKeyMasked: maskApiKey('key-b-123456') },
      ],
    });
    // An entry that holds no key pair cannot be re-attached, only deleted.
    expect(
      await dispatch('profiles.reattachKey', { id: 'entry-a', name: 'X', ...place() }),
    ).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'id' } });
    for (const id of ['entry-a', 'entry-b']) {
      expect(await dispatch('profiles.deleteOrphanedKey', { id })).toEqual({
        ok: true,
        value: { deleted: true },
      });
    }
    expect((await entries()).map((e) => e.account)).toEqual(['other-install/entry-c']);
    await keytar.deletePassword(service, 'other-install/entry-c');
    expect(await dispatch('profiles.deleteOrphanedKey', { id: 'entry-a' })).toMatchObject({
      ok: false,
      error: { kind: 'not-found' },
    });
  });

  it('adding a key makes one entry; adding it again makes none', async () => {
    const dispatch = await restart();
    const added = await dispatch('profiles.add', { name: 'Main', ...key, ...place() });
    expect(added).toMatchObject({ ok: true });
    const profile = (added as { value: ProfileView }).value;
    expect(await entries()).toEqual([
      { account: account(profile.id), password: expect.any(String) },
    ]);
    const again = await dispatch('profiles.add', { name: 'Main again', ...key, ...place() });
    expect(again).toMatchObject({ ok: true, value: { id: profile.id, name: 'Main' } });
    expect(await ids()).toEqual([profile.id]);
    const listed = await dispatch('profiles.list', {});
    expect((listed as { value: ProfileView[] }).value.map((p) => p.id)).toEqual([profile.id]);
    // The entry a profile uses is not an orphan and cannot be deleted as one.
    expect(await dispatch('profiles.orphanedKeys', {})).toEqual({ ok: true, value: [] });
    expect(await dispatch('profiles.deleteOrphanedKey', { id: profile.id })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input' },
    });
  });

  it("claims an older version's entry (no install id) at the start of the folder that has its profile", async () => {
    const [id] = await ids();
    const text = (await keytar.getPassword(service, account(id!)))!;
    await app?.close();
    await keytar.deletePassword(service, account(id!));
    await keytar.setPassword(service, id!, text);
    const dispatch = await open();
    expect(await entries()).toEqual([{ account: account(id!), password: text }]);
    expect(await dispatch('profiles.orphanedKeys', {})).toEqual({ ok: true, value: [] });
  });

  it('a key whose profile is gone is re-added on its own entry, not a new one', async () => {
    const id = (await ids())[0]!;
    await dropProfileRow(id);
    const dispatch = await open();
    expect(await dispatch('profiles.orphanedKeys', {})).toEqual({
      ok: true,
      value: [{ id, apiKeyMasked: maskApiKey(key.apiKey) }],
    });
    const readded = await dispatch('profiles.add', { name: 'Back', ...key, ...place() });
    // A refusal says why (a CI run under heavy load once saw one here).
    expect(readded, JSON.stringify(readded)).toMatchObject({
      ok: true,
      value: { id, name: 'Back', active: true },
    });
    expect(await ids()).toEqual([id]);
    expect(await dispatch('profiles.orphanedKeys', {})).toEqual({ ok: true, value: [] });
  });

  it('re-attaches an orphaned entry: verified with the exchange first, same entry kept', async () => {
    const id = (await ids())[0]!;
    await dropProfileRow(id);
    const dispatch = await open();
    // An exchange that does not answer: nothing is made, the entry stays for another try.
    const unreachable = await dispatch('profiles.reattachKey', {
      id,
      name: 'Nowhere',
      baseUrl: 'http://127.0.0.1:1',
      streamUrl: 'ws://127.0.0.1:1/ws',
    });
    expect(unreachable).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(await ids()).toEqual([id]);

    const attached = await dispatch('profiles.reattachKey', { id, name: 'Again', ...place() });
    expect(attached).toMatchObject({
      ok: true,
      value: { id, name: 'Again', apiKeyMasked: maskApiKey(key.apiKey), canTrade: true },
    });
    expect(await ids()).toEqual([id]);
    expect(await folderKeys(dir.path, secrets).get(id)).toEqual({
      apiKey: key.apiKey,
      secretKey: key.secretKey,
    });
    const orphans = (await dispatch('profiles.orphanedKeys', {})) as { value: OrphanedKeyView[] };
    expect(orphans.value).toEqual([]);
  });

  it('removing a profile removes its keychain entry', async () => {
    const dispatch = await restart();
    const [profile] = ((await dispatch('profiles.list', {})) as { value: ProfileView[] }).value;
    expect(await dispatch('profiles.remove', { id: profile!.id })).toEqual({
      ok: true,
      value: { removed: true },
    });
    expect(await entries()).toEqual([]);
    expect(await keytar.getPassword(service, account(profile!.id))).toBeNull();
  });
});
