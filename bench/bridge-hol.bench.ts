/**
 * bridge.head_of_line: no call waits behind another on one bridge connection. The real app in
 * browser mode with a profile on the sandbox; on one WebSocket, one call the exchange holds for
 * 2 s (market.depth, the sandbox's /depth delayed by its test fault injection), then 100 cache
 * reads (funds.list) one after another while it waits. The figure is the reads' p99; the slow call
 * must still be unanswered when the last read is answered. Baseline: the p99 of the same 100
 * reads on a connection with nothing else in flight.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { createApp } from '../electron/app';
import { startSandbox } from '../electron/sandbox/testing';
import { DemoSecretStore } from '../electron/secrets';
import { startBrowserMode } from '../electron/serve/host';
import { bridgeProtocols, type WireReply } from '../shared/bridge-client';
import { parentOf } from '../test/exchange/helpers';
import { figure, percentile, type Bench, type Figure } from './figure';

const READS = 100;
const SLOW_MS = 2000;
const repoRoot = resolve(import.meta.dirname, '..');

/** One connection's calls, each resolved with its reply whatever order the replies come in. */
function connection(ws: WebSocket) {
  const waiting = new Map<number, (reply: WireReply) => void>();
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as WireReply | { event: string };
    if ('id' in message && message.id !== null) waiting.get(message.id)?.(message);
  });
  let next = 1;
  return (method: string, input: unknown = {}): Promise<WireReply> => {
    const id = next++;
    return new Promise((done) => {
      waiting.set(id, done);
      ws.send(JSON.stringify({ id, method, input }));
    });
  };
}

async function timedReads(call: ReturnType<typeof connection>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    const start = performance.now();
    const reply = await call('funds.list');
    if (!reply.outcome.ok) throw new Error(`funds.list failed: ${reply.outcome.error.message}`);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function headOfLine(): Promise<Figure[]> {
  const sandbox = await startSandbox({ rateLimits: false, simulation: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-hol-'));
  const app = await createApp({
    mode: 'browser',
    dataDir,
    demo: 'off',
    secrets: new DemoSecretStore(),
    log: () => undefined,
  });
  const host = await startBrowserMode({ app, rendererDir: join(repoRoot, 'out/renderer') });
  const open = async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, bridgeProtocols(host.token), {
      origin: `http://127.0.0.1:${host.port}`,
    });
    await new Promise((done, fail) => ws.once('open', done).once('error', fail));
    return ws;
  };
  const sockets: WebSocket[] = [];
  try {
    const { trade } = parentOf(sandbox);
    const profile = await app.handlers['profiles.add']({
      name: 'Bench',
      ...trade,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    await app.handlers['profiles.activate']({ id: profile.id });

    const quiet = await open();
    sockets.push(quiet);
    const quietCall = connection(quiet);
    await timedReads(quietCall); // warm-up
    const baseline = await timedReads(quietCall);

    const busy = await open();
    sockets.push(busy);
    const call = connection(busy);
    sandbox.admin.faults.inject(
      { method: 'GET', path: '/sapi/v1/depth' },
      {
        kind: 'latency',
        ms: SLOW_MS,
      },
    );
    let slowAnswered = false;
    const slow = call('market.depth', { symbol: 'btcusdt', limit: 5 }).then((reply) => {
      slowAnswered = true;
      return reply;
    });
    const reads = await timedReads(call);
    if (slowAnswered) throw new Error('The slow call was answered before the reads finished');
    const slowReply = await slow;
    if (!slowReply.outcome.ok) throw new Error(`market.depth: ${slowReply.outcome.error.message}`);
    const p99 = percentile(reads, 99);
    return [
      figure({
        name: 'bridge.head_of_line',
        value: p99,
        unit: `ms p99 of ${READS} cache reads behind a ${SLOW_MS} ms call`,
        baseline: percentile(baseline, 99),
        target: '< 20 ms',
        ok: p99 < 20,
      }),
    ];
  } finally {
    for (const ws of sockets) ws.close();
    await host.close();
    await app.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [{ name: 'bridge.head_of_line', run: headOfLine }];
