/**
 * bridge.roundtrip: one small call (app.status with a trivial handler) over browser mode's
 * WebSocket — token, Host and Origin checks, JSON, dispatch with zod validation, the reply —
 * median of 2000 sequential calls. Baseline: a bare `ws` echo server on loopback in the same run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { startBrowserMode } from '../electron/serve/host';
import type { BridgeHandlers } from '../shared/contract';
import { bridgeProtocols } from '../shared/bridge-client';
import { figure, percentile, type Bench } from './figure';

const warmup = 200;
const calls = 2000;

/** Sends `message(i)` and waits for the answer, one at a time; returns sorted ms per round trip. */
async function measure(ws: WebSocket, message: (i: number) => string): Promise<number[]> {
  const times: number[] = [];
  let answered: (() => void) | null = null;
  ws.on('message', () => answered?.());
  for (let i = 0; i < warmup + calls; i++) {
    const start = performance.now();
    await new Promise<void>((resolve) => {
      answered = resolve;
      ws.send(message(i));
    });
    if (i >= warmup) times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

function opened(ws: WebSocket): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function bareEcho(): Promise<number> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  server.on('connection', (socket) => socket.on('message', (data) => socket.send(data.toString())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('No TCP address bound');
  const ws = await opened(new WebSocket(`ws://127.0.0.1:${address.port}`));
  const times = await measure(ws, (i) =>
    JSON.stringify({ id: i, method: 'app.status', input: {} }),
  );
  ws.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return percentile(times, 50);
}

async function bridgeRoundTrip(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  const handlers = {
    'app.status': async () => ({ version: 'bench', mode: 'browser' }),
  } as unknown as BridgeHandlers;
  const host = await startBrowserMode({
    app: { handlers, onEvent: () => () => undefined },
    rendererDir: dir,
  });
  try {
    const ws = await opened(
      new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, bridgeProtocols(host.token), {
        origin: `http://127.0.0.1:${host.port}`,
      }),
    );
    const times = await measure(ws, (i) =>
      JSON.stringify({ id: i, method: 'app.status', input: {} }),
    );
    ws.close();
    return percentile(times, 50);
  } finally {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [
  {
    name: 'bridge.roundtrip',
    async run() {
      // One untimed pass of each first, so neither figure pays for the JIT warming up.
      await bareEcho();
      await bridgeRoundTrip();
      const baseline = await bareEcho();
      const value = await bridgeRoundTrip();
      return [
        figure({
          name: 'bridge.roundtrip',
          value,
          unit: 'ms (median)',
          baseline,
          target: '< 2 ms',
          ok: value < 2,
        }),
      ];
    },
  },
];
