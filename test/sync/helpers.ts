/** Shared scenario building for the sync suites: a real sandbox, a real client, a real SQLite file. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ExchangeClient } from '../../electron/exchange';
import { SyncEngine } from '../../electron/sync';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { openStore, type Store } from '../../electron/store';
import type { EventName, EventPayloads } from '../../shared/contract';

export const PROFILE = 'profile-1';
export const PARENT = 'parent@example.test';

export interface Scenario {
  sandbox: Sandbox;
  store: Store;
  dir: string;
  keys: { apiKey: string; secretKey: string };
  client(): ExchangeClient;
  events: { event: EventName; payload: EventPayloads[EventName] }[];
  emit: <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
  reopenStore(): Store;
  close(): Promise<void>;
}

export async function scenario(
  options: { seed?: number; world?: 'demo' | 'empty'; klineReach?: Record<string, number> } = {},
): Promise<Scenario> {
  const sandbox = await startSandbox({
    world: options.world ?? 'empty',
    rateLimits: false,
    seed: options.seed ?? 7,
    ...(options.klineReach ? { klineReach: options.klineReach } : {}),
  });
  sandbox.admin.createAccount({ email: PARENT });
  const keys = sandbox.admin.createApiKey(PARENT);
  const dir = mkdtempSync(join(tmpdir(), 'spotfolio-sync-'));
  let store = openStore({ dataDir: dir }).store;
  store.profiles.create({
    id: PROFILE,
    name: 'Test',
    baseUrl: sandbox.baseUrl,
    streamUrl: sandbox.streamUrl,
    apiKeyMasked: 'abcd…wxyz',
    canTrade: false,
    canWithdraw: true,
    isDemo: false,
    createdAt: Date.now(),
  });
  const clients: ExchangeClient[] = [];
  const events: Scenario['events'] = [];
  let sandboxOpen = true;
  const result: Scenario = {
    sandbox,
    get store() {
      return store;
    },
    dir,
    keys,
    client() {
      const client = new ExchangeClient({
        baseUrl: sandbox.baseUrl,
        apiKey: keys.apiKey,
        secretKey: keys.secretKey,
        rateLimits: false,
        timeoutMs: 5000,
      });
      clients.push(client);
      return client;
    },
    events,
    emit: (event, payload) => {
      events.push({ event, payload });
    },
    reopenStore() {
      store.close();
      store = openStore({ dataDir: dir }).store;
      return store;
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      if (sandboxOpen) await sandbox.close();
      sandboxOpen = false;
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const closeSandbox = sandbox.close.bind(sandbox);
  sandbox.close = async () => {
    if (!sandboxOpen) return;
    sandboxOpen = false;
    await closeSandbox();
  };
  return result;
}

/** Waits (real time) until the condition holds; fails the test after the limit. */
export async function until(
  condition: () => boolean,
  what: string,
  limitMs = 20_000,
): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What the ledger reads (markets, prices, funds, own trades) synced into the store, each job without error. */
export async function syncLedgerReads(s: Scenario) {
  const client = s.client();
  const sync = new SyncEngine({
    store: s.store,
    client,
    profileId: PROFILE,
    emit: s.emit,
    pacing: false,
  });
  for (const kind of ['symbols', 'prices', 'funds', 'trades'] as const) {
    await sync.refresh(kind, { force: true });
    expect(sync.jobStatus(kind).error).toBeNull();
  }
  return { client, sync };
}
