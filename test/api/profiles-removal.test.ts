/**
 * Removing a profile softly, against the sandbox over real HTTP: a profile holding a money
 * movement not finished is not removed (the answer says where the funds are); once settled, the
 * removal keeps every row the profile had in the record (alerts, balance observations, journal
 * entries) and lists it among the removed profiles, and restoring it with its key brings it all
 * back.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { DemoSecretStore } from '../../electron/secrets';
import { openStore, type Store } from '../../electron/store';
import { eventually, tempDir } from './helpers';

let sandbox: Sandbox;
let app: SpotfolioApp;
let dir: ReturnType<typeof tempDir>;
let store: Store;
let key: { apiKey: string; secretKey: string };
let parentEmail = '';

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 83, simulation: false });
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  parentEmail = parent.email;
  key = parent.keys.find((k) => k.canTrade)!;
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: new DemoSecretStore(),
    demo: 'off',
    log: () => undefined,
  });
  ({ store } = openStore({ dataDir: dir.path }));
});

afterAll(async () => {
  store?.close();
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

/** What the record holds of a profile, read from the file itself. */
function rowsOf(profileId: string): Record<string, number> {
  const db = new Database(store.path, { readonly: true });
  try {
    const count = (table: string) =>
      (
        db.prepare(`SELECT count(*) AS n FROM ${table} WHERE profile_id = ?`).get(profileId) as {
          n: number;
        }
      ).n;
    return {
      alerts: count('alerts'),
      observations: count('balance_observations'),
      journal: count('money_journal'),
    };
  } finally {
    db.close();
  }
}

describe('removing a profile', () => {
  it('is refused while a movement is unfinished, then archives the profile, restorable with its key', async () => {
    const profile = await app.handlers['profiles.add']({
      name: 'Main',
      ...key,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    const alert = await app.handlers['alerts.create']({
      kind: 'price',
      symbol: 'btcusdt',
      direction: 'above',
      threshold: '1000000',
      repeat: false,
      cooldownMinutes: 60,
    });
    await app.handlers['funds.refresh']({});
    // A move that stopped half-way, as the journal records one: its first leg done, the funds in
    // the main account.
    const at = Date.now();
    const entry = store.journal.create({
      profileId: profile.id,
      kind: 'transfer',
      asset: 'usdt',
      amount: '21',
      fromEmail: 'a@sub.test',
      toEmail: 'b@sub.test',
      viaEmail: parentEmail,
      steps: [
        { fromEmail: 'a@sub.test', toEmail: parentEmail },
        { fromEmail: parentEmail, toEmail: 'b@sub.test' },
      ],
      createdAt: at,
    });
    store.journal.markStep(entry.id, 1, { status: 'done', ref: '1' }, at);
    store.journal.markStep(entry.id, 2, { status: 'not-made' }, at);
    store.journal.setStatus(
      entry.id,
      {
        status: 'stopped',
        fundsAt: parentEmail,
        facts: `21 USDT left a@sub.test and is in your main account ${parentEmail}; it did not reach b@sub.test.`,
      },
      at,
    );

    await expect(app.handlers['profiles.remove']({ id: profile.id })).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'id',
      message:
        `"Main" has a money movement not finished: 21 USDT left a@sub.test and is in your main ` +
        `account ${parentEmail}; it did not reach b@sub.test. Finish it or leave the funds where ` +
        `they are (Money movements to check, with this profile active), then remove the profile.`,
    });
    expect((await app.handlers['profiles.list']({})).map((p) => p.id)).toEqual([profile.id]);

    // The user leaves the funds where they are: now it may go.
    await app.handlers['journal.resolve']({ id: entry.id });
    const before = rowsOf(profile.id);
    expect(before.alerts).toBe(1);
    expect(before.observations).toBeGreaterThan(0);
    expect(before.journal).toBe(1);
    expect(await app.handlers['profiles.remove']({ id: profile.id })).toEqual({ removed: true });
    expect(await app.handlers['profiles.list']({})).toEqual([]);
    expect(rowsOf(profile.id)).toEqual(before);
    const [removed] = await app.handlers['profiles.removed']({});
    expect(removed).toMatchObject({
      id: profile.id,
      name: 'Main',
      apiKeyMasked: profile.apiKeyMasked,
    });
    expect(removed!.removedAt).toBeGreaterThanOrEqual(at);

    // Another key is not this profile's.
    const other = sandbox.admin.createApiKey(parentEmail, { canTrade: true });
    await expect(
      app.handlers['profiles.restore']({ id: profile.id, ...other }),
    ).rejects.toMatchObject({ kind: 'invalid-input', field: 'apiKey' });

    const restored = await app.handlers['profiles.restore']({ id: profile.id, ...key });
    expect(restored).toMatchObject({ id: profile.id, name: 'Main', active: true });
    expect(await app.handlers['profiles.removed']({})).toEqual([]);
    expect(rowsOf(profile.id)).toEqual(before);
    const alerts = await eventually('the alerts of the restored profile', async () => {
      const listed = await app.handlers['alerts.list']({});
      return listed.length > 0 ? listed : undefined;
    });
    expect(alerts).toMatchObject([{ id: alert.id, kind: 'price', threshold: '1000000' }]);
  }, 60_000);
});
