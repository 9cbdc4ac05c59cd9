/**
 * A key without the trade permission: the profile says what it may do, and every order action and
 * every movement of funds between accounts is refused by the app with that explanation before
 * anything reaches the exchange.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileView } from '../../shared/types';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { eventually, rendererDir, tempDir, testSecretStore, WireClient } from './helpers';

let sandbox: Sandbox;
let app: SpotfolioApp;
let host: BrowserModeHost;
let client: WireClient;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 21, simulation: false });
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: testSecretStore().store,
    demo: 'off',
    log: () => undefined,
  });
  host = await startBrowserMode({ app, rendererDir: rendererDir(dir.path) });
  client = await WireClient.connect(host.port, host.token);
});

afterAll(async () => {
  client?.close();
  await host?.close();
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

async function addProfile(name: string, account: 'parent' | 'sub', canTrade: boolean) {
  const owner = sandbox.world.accounts.find((a) => a.role === account)!;
  const key = owner.keys.find((k) => k.canTrade === canTrade)!;
  const profile = await client.ok<ProfileView>('profiles.add', {
    name,
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
  });
  await client.ok('profiles.activate', { id: profile.id });
  return profile;
}

describe('what a key may do', () => {
  it('a read-only key of the main account: read and withdraw, no trade, no transfers', async () => {
    await addProfile('Read-only', 'parent', false);
    const [view] = await client.ok<ProfileView[]>('profiles.list');
    expect(view).toMatchObject({
      name: 'Read-only',
      canTrade: false,
      canWithdraw: true,
      canTransfer: false,
    });
    const order = { symbol: 'btcusdt', side: 'buy', type: 'limit', quantity: '0.001', price: '1' };
    const [subA, subB] = sandbox.world.accounts.filter((a) => a.role === 'sub');
    const balances = () => [subA!.email, subB!.email].map((e) => sandbox.admin.balances(e));
    const before = balances();
    const held = before[0]!.find((b) => b.free !== '0')!;
    const transfer = {
      fromEmail: subA!.email,
      toEmail: subB!.email,
      asset: held.asset.toLowerCase(),
      amount: held.free,
    };
    for (const [method, input] of [
      ['orders.test', order],
      ['orders.place', order],
      ['orders.cancel', { symbol: 'btcusdt', orderId: 1 }],
      ['orders.cancelAll', { symbol: 'btcusdt' }],
      ['subAccounts.transfer', transfer],
      ['journal.finish', { id: 1 }],
    ] as const) {
      expect(await client.call(method, input)).toEqual({
        ok: false,
        error: {
          kind: 'permission',
          message: expect.stringContaining('The key of "Read-only" may read but not trade'),
        },
      });
    }
    expect(balances()).toEqual(before);
  });

  it("a sub-account's trading key may trade but not move funds between sub-accounts", async () => {
    const profile = await addProfile('Desk', 'sub', true);
    await eventually('the sub-accounts refusal seen by sync', async () => {
      const views = await client.ok<ProfileView[]>('profiles.list');
      const desk = views.find((v) => v.id === profile.id);
      return desk && !desk.canTransfer ? desk : undefined;
    });
    const desk = (await client.ok<ProfileView[]>('profiles.list')).find((v) => v.id === profile.id);
    expect(desk).toMatchObject({ canTrade: true, canWithdraw: false, canTransfer: false });
  });
});
