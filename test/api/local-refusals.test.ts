/**
 * Refused in the app, before anything is sent, naming the field (issue 19, point 8): a cancel in
 * a market the exchange does not have, a transfer of an asset it does not know (not "insufficient
 * balance"), and a plain ws: stream address to another machine beside an https: base URL (not
 * "the exchange rejected the request").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { DemoSecretStore } from '../../electron/secrets';
import { openStore } from '../../electron/store';
import { tempDir } from './helpers';

let sandbox: Sandbox;
let app: SpotfolioApp;
let dir: ReturnType<typeof tempDir>;
let key: { apiKey: string; secretKey: string };
let parentEmail = '';
let subEmail = '';

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 89, simulation: false });
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  parentEmail = parent.email;
  subEmail = sandbox.world.accounts.find((a) => a.role === 'sub')!.email;
  key = parent.keys.find((k) => k.canTrade)!;
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: new DemoSecretStore(),
    demo: 'off',
    log: () => undefined,
  });
  await app.handlers['profiles.add']({
    name: 'Main',
    ...key,
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
  });
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

describe('refused locally', () => {
  it('a cancel, or a cancel of all, in a market the exchange does not have', async () => {
    const refusal = {
      kind: 'invalid-input',
      field: 'symbol',
      message: 'NOPEUSDT is not a market of this exchange',
    };
    await expect(
      app.handlers['orders.cancel']({ symbol: 'nopeusdt', orderId: 1 }),
    ).rejects.toMatchObject(refusal);
    await expect(app.handlers['orders.cancelAll']({ symbol: 'nopeusdt' })).rejects.toMatchObject(
      refusal,
    );
  });

  it('a transfer of an asset the exchange does not know: an unknown asset, not a shortfall', async () => {
    await expect(
      app.handlers['subAccounts.transfer']({
        asset: 'zzznope',
        amount: '1',
        fromEmail: parentEmail,
        toEmail: subEmail,
      }),
    ).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'asset',
      message: `ZZZNOPE is not an asset of this exchange: no market trades it and ${parentEmail} holds none.`,
    });
  });

  it('an alert beyond the 1,000 a profile may have', async () => {
    const [profile] = await app.handlers['profiles.list']({});
    const { store } = openStore({ dataDir: dir.path });
    try {
      store.transaction(() => {
        for (let i = 1; i <= 1000; i++) {
          store.alerts.create(
            profile!.id,
            {
              kind: 'price',
              symbol: 'btcusdt',
              direction: 'above',
              threshold: `${1_000_000 + i}`,
              repeat: false,
              cooldownMinutes: 60,
            },
            { lastSide: null, lastValue: null, lastSeenAt: null },
            Date.now(),
          );
        }
      });
    } finally {
      store.close();
    }
    await expect(
      app.handlers['alerts.create']({
        kind: 'price',
        symbol: 'btcusdt',
        direction: 'below',
        threshold: '1',
        repeat: false,
        cooldownMinutes: 60,
      }),
    ).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'kind',
      message: 'A profile can have at most 1000 alerts; remove one to add another.',
    });
  });

  it('a plain ws: stream address to another machine, before any connection', async () => {
    await expect(
      app.handlers['profiles.add']({
        name: 'Elsewhere',
        ...key,
        baseUrl: 'https://exchange.invalid',
        streamUrl: 'ws://exchange.invalid/ws',
      }),
    ).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'streamUrl',
      message:
        'Spotfolio refuses this address, nothing was sent: The stream URL must use wss: (plain ' +
        'ws: is refused except to this machine: 127.0.0.1, ::1, localhost), got ws://exchange.invalid.',
    });
  });
});
