/**
 * No call waits behind another, through the real app in browser mode against the real sandbox:
 * on one bridge connection, calls the exchange holds back (its /depth delayed by the test fault
 * injection) do not delay cache reads sent after them, whose answers come first; and identical
 * market reads in flight cost the exchange one request (the sandbox's request count says so).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import { rendererDir, tempDir, testSecretStore, WireClient } from './helpers';

let sandbox: TestSandbox;
let app: SpotfolioApp;
let host: BrowserModeHost;
let client: WireClient;
let dir: ReturnType<typeof tempDir>;
const depth = { method: 'GET', path: '/sapi/v1/depth' };

beforeAll(async () => {
  dir = tempDir();
  sandbox = await startSandbox({ seed: 5, simulation: false, rateLimits: false });
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const key = parent.keys.find((k) => k.canTrade)!;
  app = await createApp({
    dataDir: dir.path,
    mode: 'browser',
    secrets: testSecretStore().store,
    log: () => undefined,
  });
  host = await startBrowserMode({ app, rendererDir: rendererDir(dir.path) });
  client = await WireClient.connect(host.port, host.token);
  await client.ok('profiles.add', {
    name: 'Concurrent',
    apiKey: key.apiKey,
    secretKey: key.secretKey,
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
  });
});

afterAll(async () => {
  client?.close();
  await host?.close();
  await app?.close();
  await sandbox?.close();
  dir?.remove();
});

describe('calls of one connection', () => {
  it('cache reads are answered while calls sent before them wait on the exchange', async () => {
    // More calls waiting on the exchange than the host used to run at once (16), each a different
    // read: the first two held 1.5 s at the exchange, the rest queued behind them by the client's
    // pacing of /depth (2 a second).
    const symbols = ['btcusdt', 'ethusdt', 'solusdt', 'xrpusdt'];
    const limits = [5, 10, 20, 50, 100];
    sandbox.admin.faults.inject(depth, { kind: 'latency', ms: 1500 }, 2);
    const order: string[] = [];
    const inputs = symbols.flatMap((symbol) => limits.map((limit) => ({ symbol, limit })));
    const slow = inputs.slice(0, 17).map((input) =>
      client.call('market.depth', input).then((outcome) => {
        order.push('depth');
        return outcome;
      }),
    );
    const reads = ['funds.list', 'profiles.list', 'app.status', 'funds.list'].map((method) =>
      client.call(method).then((outcome) => {
        order.push(method);
        return outcome;
      }),
    );
    for (const outcome of await Promise.all(reads)) expect(outcome.ok).toBe(true);
    // Every read was answered before any of the slow calls.
    expect(order).not.toContain('depth');
    for (const outcome of await Promise.all(slow)) expect(outcome).toMatchObject({ ok: true });
    expect(order.slice(reads.length)).toEqual(Array(slow.length).fill('depth'));
  });

  it('identical market reads in flight go to the exchange once', async () => {
    const before = sandbox.admin.faults.count(depth);
    sandbox.admin.faults.inject(depth, { kind: 'latency', ms: 500 });
    const input = { symbol: 'btcusdt', limit: 5 };
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => client.call('market.depth', input)),
    );
    for (const outcome of outcomes) expect(outcome).toEqual(outcomes[0]);
    expect(outcomes[0]!.ok).toBe(true);
    expect(sandbox.admin.faults.count(depth) - before).toBe(1);
  });
});
