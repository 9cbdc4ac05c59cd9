/**
 * Identical reads in flight share one request, against the real sandbox (its request count says
 * how many reached it): the exchange is asked once however many callers ask at the same time,
 * different reads are asked separately, and a write ends the sharing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import type { ExchangeClient } from '../../electron/exchange/client';
import { readKey } from '../../electron/exchange/single-flight';
import { clientFor, parentOf, restingBuyPrice } from './helpers';

let sandbox: Sandbox;
let client: ExchangeClient;
const tickers = { method: 'GET', path: '/sapi/v1/tickers/24hr' };
const depth = { method: 'GET', path: '/sapi/v1/depth' };
const book = { symbol: 'btcusdt', limit: 5 } as const;
const openOrders = { method: 'GET', path: '/sapi/v1/openOrders' };

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false, simulation: false });
  client = clientFor(sandbox, parentOf(sandbox).trade);
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

describe('single-flight reads', () => {
  it('ten callers of the same read while it is on its way: one request, one answer for all', async () => {
    const before = sandbox.admin.faults.count(depth);
    // Held at the exchange, so every caller asks while the first request is still out.
    sandbox.admin.faults.inject(depth, { kind: 'latency', ms: 300 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.market.depth(book)));
    expect(sandbox.admin.faults.count(depth) - before).toBe(1);
    expect(answers[0]!.bids.length).toBeGreaterThan(0);
    for (const answer of answers) expect(answer).toBe(answers[0]);
    // Once answered, the next read goes to the exchange again.
    await client.market.depth(book);
    expect(sandbox.admin.faults.count(depth) - before).toBe(2);
  });

  it('shares a failure too, and the read after it is asked afresh', async () => {
    const before = sandbox.admin.faults.count(depth);
    sandbox.admin.faults.inject(depth, { kind: 'latency', ms: 200 });
    sandbox.admin.faults.inject(depth, { kind: 'error-before', status: 400 });
    const outcomes = await Promise.allSettled([
      client.market.depth(book),
      client.market.depth(book),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(sandbox.admin.faults.count(depth) - before).toBe(1);
    await expect(client.market.depth(book)).resolves.toHaveProperty('bids');
  });

  it('serves the all-market tickers again for a few seconds after they arrived, until a write', async () => {
    const before = sandbox.admin.faults.count(tickers);
    const first = await client.market.tickers();
    const again = await client.market.tickers({ takeKept: true });
    expect(again).toBe(first);
    expect(sandbox.admin.faults.count(tickers) - before).toBe(1);
    // A caller that needs the exchange as it is now (sync) reads afresh.
    const fresh = await client.market.tickers();
    expect(fresh).not.toBe(first);
    expect(sandbox.admin.faults.count(tickers) - before).toBe(2);
    expect(await client.market.tickers({ takeKept: true })).toBe(fresh);
    expect(sandbox.admin.faults.count(tickers) - before).toBe(2);
    // Any write, even one the exchange refuses, ends it.
    await client.trading.cancelOrder({ symbol: 'btcusdt', orderId: 1 }).catch(() => undefined);
    await client.market.tickers({ takeKept: true });
    expect(sandbox.admin.faults.count(tickers) - before).toBe(3);
  });

  it('different parameters are different reads', async () => {
    const before = sandbox.admin.faults.count(depth);
    await Promise.all([
      client.market.depth({ symbol: 'btcusdt', limit: 5 }),
      client.market.depth({ symbol: 'btcusdt', limit: 10 }),
      client.market.depth({ symbol: 'btcusdt', limit: 5 }),
    ]);
    expect(sandbox.admin.faults.count(depth) - before).toBe(2);
    expect(readKey('depth', { limit: 5, symbol: 'x' })).toBe(
      readKey('depth', { symbol: 'x', limit: 5, fromId: undefined }),
    );
  });

  it('a read started after a write never takes the answer of one started before it', async () => {
    const before = sandbox.admin.faults.count(openOrders);
    sandbox.admin.faults.inject(openOrders, { kind: 'latency', ms: 1500 });
    const early = client.trading.openOrders({ symbol: 'btcusdt' });
    const price = await restingBuyPrice(client, 'btcusdt');
    const placed = await client.trading.placeOrder({
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price,
    });
    const late = await client.trading.openOrders({ symbol: 'btcusdt' });
    await early;
    expect(sandbox.admin.faults.count(openOrders) - before).toBe(2);
    expect(late.map((order) => order.id)).toContain(placed.id);
    await client.trading.cancelOrder({ symbol: 'btcusdt', orderId: placed.id });
  });
});
