/**
 * Exchange client figures:
 * - exchange.rest.signed_get: signed GETs over keep-alive against the sandbox (rate limits off) vs
 *   bare undici GETs of the same URL, same concurrency, same run.
 * - exchange.stream.decode: raw trades/orderUpdate messages through the socket's parse+dispatch
 *   path, vs bare JSON.parse of the same strings.
 * - exchange.stream.memory: heap growth over 1,000,000 decoded messages.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';
import { ExchangeClient } from '../electron/exchange/client';
import { signerFor } from '../electron/exchange/sign';
import { StreamClient } from '../electron/exchange/stream';
import { figure, type Bench } from './figure';

const CONCURRENCY = 8;
const REST_MS = 8000;
const SLICE_MS = 250;

/** Runs `fn` with `concurrency` calls in flight for about `ms`; returns calls per second. */
async function throughput(
  fn: () => Promise<unknown>,
  concurrency: number,
  ms: number,
): Promise<number> {
  const end = performance.now() + ms;
  let count = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await fn();
        count++;
      }
    }),
  );
  return (count * 1000) / (performance.now() - start);
}

function sampleMessages(count: number): string[] {
  const messages: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      messages.push(
        JSON.stringify({
          stream: 'btcusdt@trades',
          data: {
            trades: [
              {
                E: 1_700_000_000_000 + i,
                S: i % 4 === 0 ? 'buy' : 'sell',
                a: 1000 + i,
                b: 2000 + i,
                m: i % 3 === 0,
                p: `42${i % 1000}.25`,
                q: `0.0${(i % 9) + 1}`,
                s: 'btcusdt',
                t: i,
              },
            ],
          },
        }),
      );
    } else {
      messages.push(
        JSON.stringify({
          stream: 'orderUpdate',
          data: {
            E: 1_700_000_000_000 + i,
            O: 1_700_000_000_000 + i,
            S: i % 4 === 1 ? 'bid' : 'sell',
            V: '1.5',
            X: 'wait',
            i: 100_000 + i,
            c: '0123456789abcdef0123456789abcdef',
            m: false,
            o: 'limit',
            p: '42000.5',
            q: '1.5',
            s: 'btcusdt',
            v: '0',
            z: '0',
          },
        }),
      );
    }
  }
  return messages;
}

function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export const benches: Bench[] = [
  {
    name: 'exchange.rest.signed_get',
    async run() {
      const { startSandbox } = await import('../electron/sandbox/index');
      const sandbox = await startSandbox({ rateLimits: false });
      const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
      const key = parent.keys[0]!;
      // One client per call in flight: a client shares identical reads in flight (single-flight,
      // exchange/single-flight.ts), so eight calls of one client would be one request, and the
      // figure would count answers shared, not the client's own cost per request.
      const clients = Array.from(
        { length: CONCURRENCY },
        () =>
          new ExchangeClient({
            baseUrl: sandbox.baseUrl,
            apiKey: key.apiKey,
            secretKey: key.secretKey,
            rateLimits: false,
          }),
      );
      const idle = [...clients];
      const signedGet = async () => {
        const client = idle.pop()!;
        try {
          await client.account.info();
        } finally {
          idle.push(client);
        }
      };
      // The baseline: bare undici GETs of the same endpoint, each hand-signed with a fresh
      // timestamp (the least any valid signed GET costs), same pool settings and concurrency.
      // What the ratio shows is the client's own cost: encoding, error mapping, wire parsing.
      const origin = new URL(sandbox.baseUrl).origin;
      const pool = new Pool(origin, { connections: 32, pipelining: 1 });
      const signer = signerFor(key.secretKey);
      const headers = { 'x-api-key': key.apiKey };
      const bare = async () => {
        const query = `recvWindow=5000&timestamp=${Date.now()}`;
        const response = await pool.request({
          path: `/sapi/v1/account?${query}&signature=${signer(query)}`,
          method: 'GET',
          headers,
        });
        if (response.statusCode !== 200)
          throw new Error(`bare GET answered ${response.statusCode}`);
        await response.body.text();
      };
      try {
        await Promise.all(clients.map((client) => client.account.info()));
        await throughput(signedGet, CONCURRENCY, 500);
        await throughput(bare, CONCURRENCY, 500);
        // Interleaved slices in A-B-B-A order, so load from anything else on the machine and any
        // cost of going first hit both sides alike.
        let signedCalls = 0;
        let bareCalls = 0;
        const signedSlice = async () => {
          signedCalls += await throughput(signedGet, CONCURRENCY, SLICE_MS);
        };
        const bareSlice = async () => {
          bareCalls += await throughput(bare, CONCURRENCY, SLICE_MS);
        };
        for (let slice = 0; slice < REST_MS / SLICE_MS; slice++) {
          if (slice % 2 === 0) {
            await signedSlice();
            await bareSlice();
          } else {
            await bareSlice();
            await signedSlice();
          }
        }
        const signed = signedCalls / (REST_MS / SLICE_MS);
        const baseline = bareCalls / (REST_MS / SLICE_MS);
        return [
          figure({
            name: 'exchange.rest.signed_get',
            value: signed,
            unit: 'req/s',
            baseline,
            target: 'ratio >= 0.85 vs bare undici GET, 8 in flight',
            ok: signed / baseline >= 0.85,
          }),
        ];
      } finally {
        await Promise.all(clients.map((client) => client.close()));
        await pool.close();
        await sandbox.close();
      }
    },
  },
  {
    name: 'exchange.stream.decode',
    async run() {
      const messages = sampleMessages(20_000);
      const streams = new StreamClient({ streamUrl: 'ws://127.0.0.1:1/ws' });
      let delivered = 0;
      streams.on('trades', () => delivered++);
      streams.on('order', () => delivered++);
      const decodeRate = (ms: number) => {
        const start = performance.now();
        let count = 0;
        while (performance.now() - start < ms) {
          for (const raw of messages) streams.feedRaw(raw);
          count += messages.length;
        }
        return (count * 1000) / (performance.now() - start);
      };
      const parseRate = (ms: number) => {
        const start = performance.now();
        let count = 0;
        let sink = 0;
        while (performance.now() - start < ms) {
          for (const raw of messages) sink += (JSON.parse(raw) as { stream: string }).stream.length;
          count += messages.length;
        }
        if (sink === 0) throw new Error('nothing parsed');
        return (count * 1000) / (performance.now() - start);
      };
      decodeRate(500);
      parseRate(500);
      const value = decodeRate(3000);
      const baseline = parseRate(3000);
      await streams.close();
      if (delivered === 0) throw new Error('no message was dispatched');
      return [
        figure({
          name: 'exchange.stream.decode',
          value,
          unit: 'msgs/s',
          baseline,
          target: '>= 200000 msgs/s (baseline: bare JSON.parse)',
          ok: value >= 200_000,
        }),
      ];
    },
  },
  {
    name: 'exchange.stream.memory',
    async run() {
      const gc = gcFunction();
      const messages = sampleMessages(10_000);
      const streams = new StreamClient({ streamUrl: 'ws://127.0.0.1:1/ws' });
      let delivered = 0;
      streams.on('trades', () => delivered++);
      streams.on('order', () => delivered++);
      for (const raw of messages) streams.feedRaw(raw);
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let round = 0; round < 100; round++) for (const raw of messages) streams.feedRaw(raw);
      gc();
      const growthMb = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
      await streams.close();
      if (delivered < 1_000_000) throw new Error('not every message was dispatched');
      return [
        figure({
          name: 'exchange.stream.memory',
          value: growthMb,
          unit: 'MB heap growth / 1M msgs',
          target: '< 10 MB',
          ok: growthMb < 10,
        }),
      ];
    },
  },
];
