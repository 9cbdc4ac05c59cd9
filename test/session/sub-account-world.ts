/**
 * The world the linked sub-account suites run in: a sandbox whose parent has two sub-accounts
 * (savings and desk), the app in browser mode on a record of its own with the run's keychain,
 * and the parent's trading key added as the profile "Main", its sub-accounts listed.
 */
import { createDispatcher } from '../../electron/api/dispatch';
import { createApp, type SpotfolioApp } from '../../electron/app';
import type { ExchangeClient } from '../../electron/exchange/client';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import type { WorldAccount } from '../../electron/sandbox/world';
import type { Keychain } from '../../electron/secrets';
import { tempDir, testSecretStore } from '../api/helpers';
import { tradingClient } from '../sync/own-trades';

export interface SubAccountWorld {
  sandbox: TestSandbox;
  dir: ReturnType<typeof tempDir>;
  keychain: Keychain;
  app: SpotfolioApp;
  dispatch: ReturnType<typeof createDispatcher>;
  parent: WorldAccount;
  savings: WorldAccount;
  desk: WorldAccount;
  profileId: string;
  /** A client of the test's own with `key`, closed with the world. */
  clientOf(key: { apiKey: string; secretKey: string }): ExchangeClient;
  close(): Promise<void>;
}

export async function subAccountWorld(seed: number): Promise<SubAccountWorld> {
  const dir = tempDir();
  const sandbox = await startSandbox({ seed, simulation: false });
  // The test's own clients trade beside the app's: the exchange would count them as one IP.
  sandbox.admin.setRateLimits(false);
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const [savings, desk] = sandbox.world.accounts.filter((a) => a.role === 'sub') as [
    WorldAccount,
    WorldAccount,
  ];
  const keychain = testSecretStore().store;
  const app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: keychain,
    demo: 'off',
  });
  const key = parent.keys.find((k) => k.canTrade)!;
  const profile = await app.handlers['profiles.add']({
    name: 'Main',
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
  });
  await app.handlers['subAccounts.refresh']({});
  const clients: ExchangeClient[] = [];
  return {
    sandbox,
    dir,
    keychain,
    app,
    dispatch: createDispatcher(app.handlers),
    parent,
    savings,
    desk,
    profileId: profile.id,
    clientOf(ownKey) {
      const client = tradingClient(sandbox, ownKey);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await app.close();
      await sandbox.close();
      dir.remove();
    },
  };
}
