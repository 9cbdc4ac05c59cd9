/**
 * sandbox.streams.fanout: 1,000 WebSocket connections on loopback subscribed to btcusdt@trades
 * while the engine trades in-process (one crossing order pair per event-loop turn, so each trade
 * is its own message).
 * - messages_per_second: messages delivered to the clients per second at saturation (the driver
 *   keeps at most a fixed window of undelivered messages in flight). Baseline: a bare `ws` server
 *   sending one pre-serialized string to the same 1,000 clients the same way.
 * - p99_latency_ms: from the trade (its E time, the moment of the match) to JSON.parse done in the
 *   client, at a steady 50,000 messages per second. Baseline: the bare `ws` server at that rate.
 * - memory_per_idle_connection: server heap + external growth per connected, unsubscribed client.
 * The clients run in a worker thread (the second core), so the server thread does only the
 * server's work.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { WebSocketServer } from 'ws';
import { AuthTokens } from '../electron/sandbox/auth-tokens';
import { SystemClock } from '../electron/core/clock';
import { MatchingEngine } from '../electron/sandbox/engine';
import { SandboxEvents } from '../electron/sandbox/events';
import { parseFixed } from '../electron/sandbox/fixed';
import { Ledger } from '../electron/sandbox/ledger';
import { attachStreamServer } from '../electron/sandbox/streams/server';
import { figure, percentile, type Bench } from './figure';

const CONNECTIONS = 1000;
const SYMBOL = 'btcusdt';
const STREAM = `${SYMBOL}@trades`;
const SATURATION_MS = 4000;
const STEADY_MS = 3000;
const WARM_UP_MS = 1000;
const STEADY_MESSAGES_PER_SECOND = 50_000;
/** Undelivered messages the saturating driver allows in flight (20 trades' worth). */
const WINDOW_MESSAGES = 20 * CONNECTIONS;
const MAKER = 1;
const TAKER = 2;

/**
 * The client side, run in a worker thread as plain JS. The clients are the measuring device, so
 * they are as cheap as a WebSocket client can be: a raw TCP socket, the RFC 6455 handshake, and a
 * frame parser that counts text frames and reads each trade's E without a full JSON.parse.
 */
const CLIENT_WORKER = `
const { parentPort } = require('node:worker_threads');
const net = require('node:net');
const crypto = require('node:crypto');
const E_KEY = Buffer.from('"E":');
const CRLF = String.fromCharCode(13, 10);
let sockets = [];
let received = 0;
let latencies = new Float64Array(4_000_000);
let latencyCount = 0;
let lastAt = 0;
let elu = performance.eventLoopUtilization();

function count(payload) {
  const now = performance.timeOrigin + performance.now();
  received++;
  lastAt = now;
  for (let at = payload.indexOf(E_KEY); at >= 0; at = payload.indexOf(E_KEY, at + 4)) {
    let time = 0;
    for (let i = at + 4; payload[i] >= 48 && payload[i] <= 57; i++) time = time * 10 + payload[i] - 48;
    if (latencyCount < latencies.length) latencies[latencyCount++] = now - time;
  }
}

/** A masked (zero key) text frame, as a client must send; control messages are < 126 bytes. */
function textFrame(text) {
  const payload = Buffer.from(text);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

function open(url) {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.setNoDelay(true);
    const client = { socket, onText: null };
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    socket.once('error', reject);
    socket.write([
      'GET ' + pathname + ' HTTP/1.1',
      'Host: 127.0.0.1',
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Key: ' + crypto.randomBytes(16).toString('base64'),
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join(CRLF));
    socket.on('data', (chunk) => {
      buffer = buffer.length > 0 ? Buffer.concat([buffer, chunk]) : chunk;
      if (!upgraded) {
        const end = buffer.indexOf(CRLF + CRLF);
        if (end < 0) return;
        if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101')) {
          reject(new Error('upgrade refused: ' + buffer.subarray(0, end).toString()));
          return;
        }
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        client.onText = () => resolve(client);
      }
      let offset = 0;
      while (buffer.length - offset >= 2) {
        let length = buffer[offset + 1] & 0x7f;
        let header = 2;
        if (length === 126) {
          if (buffer.length - offset < 4) break;
          length = buffer.readUInt16BE(offset + 2);
          header = 4;
        } else if (length === 127) {
          if (buffer.length - offset < 10) break;
          length = Number(buffer.readBigUInt64BE(offset + 2));
          header = 10;
        }
        if (buffer.length - offset < header + length) break;
        const opcode = buffer[offset] & 0x0f;
        const payload = buffer.subarray(offset + header, offset + header + length);
        offset += header + length;
        if (opcode === 1) client.onText(payload);
      }
      buffer = offset === buffer.length ? Buffer.alloc(0) : buffer.subarray(offset);
    });
  });
}

function subscribe(client, stream) {
  return new Promise((resolve) => {
    client.onText = () => {
      client.onText = count;
      resolve();
    };
    client.socket.write(textFrame(JSON.stringify({ event: 'subscribe', streams: [stream] })));
  });
}

setInterval(() => parentPort.postMessage({ type: 'progress', received }), 5).unref();
parentPort.on('message', async (command) => {
  if (command.type === 'connect') {
    for (let i = 0; i < command.count; i += 100) {
      const batch = [];
      for (let j = i; j < Math.min(command.count, i + 100); j++) batch.push(open(command.url));
      sockets.push(...(await Promise.all(batch)));
    }
    parentPort.postMessage({ type: 'connected' });
  } else if (command.type === 'subscribe') {
    await Promise.all(sockets.map((client) => subscribe(client, command.stream)));
    parentPort.postMessage({ type: 'subscribed' });
  } else if (command.type === 'reset') {
    received = 0;
    latencyCount = 0;
    lastAt = 0;
    elu = performance.eventLoopUtilization();
    parentPort.postMessage({ type: 'reset' });
  } else if (command.type === 'report') {
    parentPort.postMessage({
      type: 'report',
      received,
      lastAt,
      utilization: performance.eventLoopUtilization(elu).utilization,
      latencies: latencies.slice(0, latencyCount),
    });
  } else if (command.type === 'close') {
    for (const client of sockets) client.socket.destroy();
    sockets = [];
    parentPort.postMessage({ type: 'closed' });
  }
});
`;

type WorkerReply =
  | { type: 'progress'; received: number }
  | { type: 'connected' | 'subscribed' | 'reset' | 'closed' }
  | {
      type: 'report';
      received: number;
      lastAt: number;
      utilization: number;
      latencies: Float64Array;
    };

class Clients {
  private readonly worker: Worker;
  received = 0;
  private progressWaiters: (() => void)[] = [];

  constructor() {
    this.worker = new Worker(CLIENT_WORKER, { eval: true });
    this.worker.on('message', (reply: WorkerReply) => {
      if (reply.type !== 'progress') return;
      this.received = reply.received;
      for (const resolve of this.progressWaiters.splice(0)) resolve();
    });
  }

  private ask<T extends WorkerReply['type']>(
    command: Record<string, unknown>,
    type: T,
  ): Promise<Extract<WorkerReply, { type: T }>> {
    return new Promise((resolve) => {
      const listener = (reply: WorkerReply) => {
        if (reply.type !== type) return;
        this.worker.off('message', listener);
        resolve(reply as Extract<WorkerReply, { type: T }>);
      };
      this.worker.on('message', listener);
      this.worker.postMessage(command);
    });
  }

  /** Resolves at the clients' next progress report (every 5 ms). */
  nextProgress(): Promise<void> {
    return new Promise((resolve) => this.progressWaiters.push(resolve));
  }

  connect(url: string) {
    return this.ask({ type: 'connect', url, count: CONNECTIONS }, 'connected');
  }
  subscribe(stream: string) {
    return this.ask({ type: 'subscribe', stream }, 'subscribed');
  }
  async reset() {
    await this.ask({ type: 'reset' }, 'reset');
    this.received = 0;
  }
  report() {
    return this.ask({ type: 'report' }, 'report');
  }
  closeAll() {
    return this.ask({ type: 'close' }, 'closed');
  }
  terminate() {
    return this.worker.terminate();
  }
}

const nowAbs = () => performance.timeOrigin + performance.now();
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Sends as fast as the clients keep up (bounded window); returns delivered messages per second. */
async function saturate(clients: Clients, sendTrade: () => void): Promise<number> {
  await clients.reset();
  let sent = 0;
  const start = nowAbs();
  while (nowAbs() - start < SATURATION_MS) {
    if (sent * CONNECTIONS - clients.received < WINDOW_MESSAGES) {
      sendTrade();
      sent++;
      await turn();
    } else {
      // The window is full: wait for the clients rather than spin beside them.
      await clients.nextProgress();
    }
  }
  await drain(clients, sent);
  const report = await clients.report();
  process.stderr.write(
    `clients' event-loop utilization at saturation: ${report.utilization.toFixed(2)}\n`,
  );
  return (report.received * 1000) / (report.lastAt - start);
}

/** Sends at a steady rate; returns the p99 latency in ms. */
async function steady(
  clients: Clients,
  sendTrade: () => void,
  durationMs = STEADY_MS,
): Promise<number> {
  await clients.reset();
  const intervalMs = (1000 * CONNECTIONS) / STEADY_MESSAGES_PER_SECOND;
  const start = nowAbs();
  let sent = 0;
  while (nowAbs() - start < durationMs) {
    const due = start + sent * intervalMs - nowAbs();
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    sendTrade();
    sent++;
  }
  await drain(clients, sent);
  const report = await clients.report();
  const sorted = Array.from(report.latencies).sort((a, b) => a - b);
  return percentile(sorted, 99);
}

/** Waits (bounded) until every message of `trades` trades reached every client. */
async function drain(clients: Clients, trades: number): Promise<void> {
  const deadline = nowAbs() + 5000;
  while (clients.received < trades * CONNECTIONS && nowAbs() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function serverMemory(gc: () => void): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

async function fanout() {
  const gc = gcFunction();
  const clock = new SystemClock();
  const events = new SandboxEvents();
  const ledger = new Ledger(clock, events);
  const engine = new MatchingEngine(clock, events, ledger, [
    {
      symbol: SYMBOL,
      baseAsset: 'btc',
      quoteAsset: 'usdt',
      tickSize: '0.01',
      minPrice: '0.01',
      baseAssetPrecision: 6,
      quoteAssetPrecision: 2,
    },
  ]);
  ledger.credit(MAKER, 'btc', parseFixed('1000000')!);
  ledger.credit(TAKER, 'usdt', parseFixed('1000000000')!);
  ledger.flush();
  const server = createServer((_req, res) => res.writeHead(404).end());
  const streams = attachStreamServer(server, '/ws', {
    clock,
    events,
    engine,
    authTokens: new AuthTokens(clock),
  });
  const port = await listen(server);
  const clients = new Clients();
  /** One maker sell resting, one taker buy crossing it: exactly one trade. */
  const trade = () => {
    engine.placeOrder(MAKER, {
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      quantity: '0.001',
      price: '100',
    });
    engine.placeOrder(TAKER, {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: '100',
    });
  };

  try {
    const memoryBefore = serverMemory(gc);
    await clients.connect(`ws://127.0.0.1:${port}/ws`);
    const memoryPerConnection = (serverMemory(gc) - memoryBefore) / CONNECTIONS;
    if (streams.connectionCount() !== CONNECTIONS) {
      throw new Error(
        `expected ${CONNECTIONS} connections, the server has ${streams.connectionCount()}`,
      );
    }
    await clients.subscribe(STREAM);
    // Warm-up (JIT, socket buffers), not measured.
    await steady(clients, trade, WARM_UP_MS);
    const sandboxRate = await saturate(clients, trade);
    const sandboxP99 = await steady(clients, trade);
    await clients.closeAll();

    // Baseline: bare ws, one pre-built string per trade to the same number of clients.
    const bareServer = createServer();
    const bare = new WebSocketServer({ server: bareServer, perMessageDeflate: false });
    bare.on('connection', (ws) => {
      ws.send('{"event":"connected"}');
      ws.once('message', () => ws.send('{"event":"subscribed"}'));
    });
    const barePort = await listen(bareServer);
    await clients.connect(`ws://127.0.0.1:${barePort}/ws`);
    await clients.subscribe(STREAM);
    let bareTradeId = 0;
    const bareTrade = () => {
      const text = JSON.stringify({
        data: {
          trades: [
            {
              E: Date.now(),
              S: 'buy',
              a: 1,
              b: 2,
              m: false,
              p: '100',
              q: '0.001',
              s: SYMBOL,
              t: ++bareTradeId,
            },
          ],
        },
        stream: STREAM,
      });
      for (const ws of bare.clients) ws.send(text);
    };
    await steady(clients, bareTrade, WARM_UP_MS);
    const bareRate = await saturate(clients, bareTrade);
    const bareP99 = await steady(clients, bareTrade);
    await clients.closeAll();
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await new Promise<void>((resolve) => bareServer.close(() => resolve()));

    return [
      figure({
        name: 'sandbox.streams.fanout.messages_per_second',
        value: sandboxRate,
        unit: 'msg/s',
        baseline: bareRate,
        target: '>= 50000 msg/s to 1000 subscribers',
        ok: sandboxRate >= 50_000,
      }),
      figure({
        name: 'sandbox.streams.fanout.p99_latency_ms',
        value: sandboxP99,
        unit: 'ms',
        baseline: bareP99,
        target: '< 50 ms at 50000 msg/s',
        ok: sandboxP99 < 50,
      }),
      figure({
        name: 'sandbox.streams.fanout.memory_per_idle_connection',
        value: memoryPerConnection,
        unit: 'bytes',
        target: 'informational',
        ok: true,
      }),
    ];
  } finally {
    await clients.terminate();
    await streams.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export const benches: Bench[] = [{ name: 'sandbox.streams.fanout', run: fanout }];
