/**
 * Changes named by the main process (electron/api/changes.ts): each data.changed carries the reads
 * it makes stale, computed from what each read is built from, and a read never makes itself stale.
 * Then the loop that made the Markets screen read the tickers once a second forever, through the
 * real app on a manual clock, the real sandbox (its request count) and the page's real data layer
 * (renderer/src/lib/query.ts with TanStack Query) over the browser-mode bridge: with the tickers
 * on screen, the exchange is asked for them at most once per 10 s (sync's price refresh, the
 * polling interval), over a minute of the app's time.
 */
import { QueryObserver } from '@tanstack/react-query';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { queriesChangedBy, readsOf } from '../../electron/api/changes';
import { ManualClock } from '../../electron/core/clock';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import { createBridge, bridgeProtocols, type WireServerMessage } from '../../shared/bridge-client';
import type { CallOutcome, EventPayloads, MethodName } from '../../shared/contract';
import {
  bridgeKey,
  callBridge,
  createQueryClient,
  watchDataChanges,
} from '../../renderer/src/lib/query';
import { rendererDir, tempDir, testSecretStore, WireClient } from './helpers';

describe('the reads a change makes stale', () => {
  it('follow from what each read is built from', () => {
    // A withdrawal moves the ledger's figures, its history and net worth included.
    const withdrawal = queriesChangedBy(['withdrawals']);
    for (const method of ['ledger.history', 'ledger.netWorth', 'ledger.summary'] as const) {
      expect(withdrawal).toContain(method);
    }
    expect(withdrawal).toContain('withdrawals.list');
    expect(withdrawal).not.toContain('orders.open');
    expect(queriesChangedBy(['orders'])).toEqual(['orders.open', 'orders.history']);
    // Each once, however many kinds name it.
    const both = queriesChangedBy(['funds', 'prices']);
    expect(new Set(both).size).toBe(both.length);
    // Calls that act read nothing, so no change names them.
    expect(readsOf['orders.place']).toEqual([]);
  });

  it('never include the read whose own answer made the change', () => {
    expect(queriesChangedBy(['prices'])).toContain('market.tickers');
    const answered = queriesChangedBy(['prices'], 'market.tickers');
    expect(answered).not.toContain('market.tickers');
    expect(answered).toContain('portfolio.summary');
  });
});

describe('the Markets screen open for a minute', () => {
  const tickers = { method: 'GET', path: '/sapi/v1/tickers/24hr' };
  const clock = new ManualClock(Date.now());
  let sandbox: TestSandbox;
  let app: SpotfolioApp;
  let host: BrowserModeHost;
  let dir: ReturnType<typeof tempDir>;
  let socket: WebSocket;
  const changes: EventPayloads['data.changed'][] = [];
  const page = globalThis as unknown as { window?: { spotfolio: unknown } };

  beforeAll(async () => {
    dir = tempDir();
    sandbox = await startSandbox({ seed: 3, simulation: false });
    const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
    const key = parent.keys.find((k) => k.canTrade)!;
    app = await createApp({
      dataDir: dir.path,
      mode: 'browser',
      secrets: testSecretStore().store,
      clock,
      log: () => undefined,
    });
    host = await startBrowserMode({ app, rendererDir: rendererDir(dir.path) });
    const setup = await WireClient.connect(host.port, host.token);
    await setup.ok('profiles.add', {
      name: 'Markets',
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    setup.close();

    // The page's bridge over its own WebSocket, as the renderer has it.
    socket = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, bridgeProtocols(host.token), {
      headers: { Origin: `http://127.0.0.1:${host.port}` },
    });
    await new Promise((done, fail) => socket.once('open', done).once('error', fail));
    const waiting = new Map<number, (outcome: CallOutcome<unknown>) => void>();
    const listeners = new Set<(event: string, payload: unknown) => void>();
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as WireServerMessage;
      if ('event' in message) {
        if (message.event === 'data.changed') {
          changes.push(message.payload as EventPayloads['data.changed']);
        }
        for (const listener of listeners) listener(message.event, message.payload);
      } else if (message.id !== null) waiting.get(message.id)?.(message.outcome);
    });
    let nextId = 1;
    page.window = {
      spotfolio: createBridge({
        call: (method, input) =>
          new Promise((done) => {
            const id = nextId++;
            waiting.set(id, done);
            socket.send(JSON.stringify({ id, method, input }));
          }),
        subscribe: (listener) => {
          listeners.add(listener);
          return () => void listeners.delete(listener);
        },
      }),
    };
  });

  afterAll(async () => {
    socket?.close();
    delete page.window;
    await host?.close();
    await app?.close();
    await sandbox?.close();
    dir?.remove();
  });

  it('asks the exchange for the tickers at most once per 10 s, never because of its own answer', async () => {
    const client = createQueryClient();
    const stop = watchDataChanges(client);
    const screen = new QueryObserver(client, {
      queryKey: bridgeKey('market.tickers'),
      queryFn: () => callBridge('market.tickers'),
    });
    const unsubscribe = screen.subscribe(() => undefined);
    const idle = () => !client.isFetching() && screen.getCurrentResult().data !== undefined;
    await expect.poll(idle, { timeout: 20_000 }).toBe(true);

    // Its own answer changed the prices, but named only the reads valued at them.
    const own = changes.filter((change) => change.kinds.includes('prices'));
    expect(own.length).toBeGreaterThan(0);
    for (const change of own) expect(change.queries).not.toContain('market.tickers' as MethodName);

    // With the app's clock still, nothing asks again: the answer did not make itself stale.
    const settled = sandbox.admin.faults.count(tickers);
    await new Promise((done) => setTimeout(done, 2500));
    expect(sandbox.admin.faults.count(tickers)).toBe(settled);

    // A minute of the app's time, a second at a time; sync refreshes the prices every 10 s and
    // the screen reads the tickers again after each.
    const readsBefore = client.getQueryState(bridgeKey('market.tickers'))!.dataUpdateCount;
    for (let second = 1; second <= 60; second++) {
      clock.advance(1000);
      await new Promise((done) => setTimeout(done, 20));
      await expect.poll(idle, { timeout: 20_000 }).toBe(true);
    }
    const asked = sandbox.admin.faults.count(tickers) - settled;
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThanOrEqual(6);
    // The screen did read again after the refreshes (from the answer sync had just fetched).
    expect(client.getQueryState(bridgeKey('market.tickers'))!.dataUpdateCount).toBeGreaterThan(
      readsBefore,
    );
    unsubscribe();
    stop();
    client.clear();
  });
});
