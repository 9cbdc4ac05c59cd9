/**
 * Sandbox exchange figures:
 * - sandbox.engine.orders_per_second: the in-process matching engine on a seeded random flow of
 *   limit orders around a mid price (about half of them cross), no event listeners.
 * - sandbox.http.signed_funds: signed GET /sapi/v1/funds through the sandbox's HTTP server
 *   (rate limits off) vs a bare node:http server answering `{}`, same undici Pool, same
 *   concurrency, same run.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { ManualClock } from '../electron/core/clock';
import { MatchingEngine } from '../electron/sandbox/engine';
import { SandboxEvents } from '../electron/sandbox/events';
import { parseFixed } from '../electron/sandbox/fixed';
import { startSandbox } from '../electron/sandbox/index';
import { Ledger } from '../electron/sandbox/ledger';
import { SeededRandom } from '../electron/sandbox/random';
import { DEMO_MARKETS } from '../electron/sandbox/world';
import { figure, type Bench } from './figure';

const ORDERS = 100_000;
const ROUNDS = 4;
const CONCURRENCY = 8;
const HTTP_MS = 4000;

function engineOrdersPerSecond(): number {
  const clock = new ManualClock();
  const events = new SandboxEvents();
  const ledger = new Ledger(clock, events);
  const engine = new MatchingEngine(clock, events, ledger, DEMO_MARKETS);
  const accounts = 20;
  for (let id = 1; id <= accounts; id++) {
    ledger.credit(id, 'usdt', parseFixed('100000000000')!);
    ledger.credit(id, 'btc', parseFixed('10000000')!);
  }
  const random = new SeededRandom(1);
  // Prepare the flow first so only the engine is timed.
  const flow = Array.from({ length: ORDERS }, () => ({
    account: random.int(1, accounts),
    side: random.next() < 0.5 ? ('buy' as const) : ('sell' as const),
    price: (60000 + random.int(-200, 200) * 0.5).toFixed(2),
    quantity: (random.int(1, 5000) / 1000).toFixed(3),
  }));
  const start = performance.now();
  for (const o of flow) {
    engine.placeOrder(o.account, {
      symbol: 'btcusdt',
      side: o.side,
      type: 'limit',
      quantity: o.quantity,
      price: o.price,
    });
  }
  return (ORDERS * 1000) / (performance.now() - start);
}

async function throughput(fn: () => Promise<unknown>, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let count = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await fn();
        count++;
      }
    }),
  );
  return (count * 1000) / (performance.now() - start);
}

async function signedFunds(): Promise<{ sandbox: number; bare: number }> {
  const bareServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
    res.end('{}');
  });
  await new Promise<void>((resolve) => bareServer.listen(0, '127.0.0.1', resolve));
  const barePort = (bareServer.address() as AddressInfo).port;
  const sandbox = await startSandbox({ rateLimits: false });
  const key = sandbox.world.accounts[0]!.keys[0]!;
  const sandboxPool = new Pool(sandbox.baseUrl, { connections: CONCURRENCY, pipelining: 1 });
  const barePool = new Pool(`http://127.0.0.1:${barePort}`, {
    connections: CONCURRENCY,
    pipelining: 1,
  });
  const callSandbox = async () => {
    const query = `timestamp=${Date.now()}`;
    const signature = createHmac('sha256', key.secretKey).update(query).digest('hex');
    const { statusCode, body } = await sandboxPool.request({
      method: 'GET',
      path: `/sapi/v1/funds?${query}&signature=${signature}`,
      headers: { 'x-api-key': key.apiKey },
    });
    await body.text();
    if (statusCode !== 200) throw new Error(`funds answered ${statusCode}`);
  };
  const callBare = async () => {
    const query = `timestamp=${Date.now()}`;
    const signature = createHmac('sha256', key.secretKey).update(query).digest('hex');
    const { body } = await barePool.request({
      method: 'GET',
      path: `/sapi/v1/funds?${query}&signature=${signature}`,
      headers: { 'x-api-key': key.apiKey },
    });
    await body.text();
  };
  try {
    await throughput(callBare, 500);
    await throughput(callSandbox, 500);
    const bare = await throughput(callBare, HTTP_MS);
    const result = await throughput(callSandbox, HTTP_MS);
    return { sandbox: result, bare };
  } finally {
    await sandboxPool.close();
    await barePool.close();
    await sandbox.close();
    await new Promise<void>((resolve) => bareServer.close(() => resolve()));
  }
}

export const benches: Bench[] = [
  {
    name: 'sandbox.engine.orders_per_second',
    async run() {
      // Fresh engines each round; the first rounds warm up the JIT, the best round is reported.
      let value = 0;
      for (let round = 0; round < ROUNDS; round++) value = Math.max(value, engineOrdersPerSecond());
      return [
        figure({
          name: 'sandbox.engine.orders_per_second',
          value,
          unit: 'orders/s',
          baseline: null,
          target: '>= 200000',
          ok: value >= 200_000,
        }),
      ];
    },
  },
  {
    name: 'sandbox.http.signed_funds',
    async run() {
      const { sandbox, bare } = await signedFunds();
      return [
        figure({
          name: 'sandbox.http.signed_funds',
          value: sandbox,
          unit: 'requests/s',
          baseline: bare,
          target: 'ratio >= 0.40',
          ok: sandbox / bare >= 0.4,
        }),
      ];
    },
  },
];
