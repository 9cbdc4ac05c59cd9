import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ExchangeClient,
  withdrawWindows,
  WITHDRAW_WINDOW_MS,
} from '../../electron/exchange/client';
import { ExchangeError } from '../../electron/exchange/errors';
import { StreamClient } from '../../electron/exchange/stream';

/**
 * Bad input must be refused before anything goes on the wire. The client points at a bare TCP
 * listener that only counts connections: any request at all would open one.
 */
let server: Server;
let connections = 0;
let client: ExchangeClient;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  client = new ExchangeClient({
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: 'key',
    secretKey: 'secret',
    timeoutMs: 1000,
  });
});

afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const order = {
  symbol: 'btcusdt',
  side: 'buy',
  type: 'limit',
  quantity: '0.1',
  price: '100',
} as const;

type Call = [name: string, field: string, run: () => Promise<unknown>];
const bad = (p: unknown) => p as never;

const cases: Call[] = [
  ['market.ticker missing symbol', 'symbol', () => client.market.ticker(bad({}))],
  ['market.ticker uppercase symbol', 'symbol', () => client.market.ticker({ symbol: 'BTCUSDT' })],
  [
    'market.klines bad interval',
    'interval',
    () => client.market.klines(bad({ symbol: 'btcusdt', interval: '3m' })),
  ],
  [
    'market.klines limit too big',
    'limit',
    () => client.market.klines({ symbol: 'btcusdt', limit: 2001 }),
  ],
  [
    'market.klines start after end',
    'startTime',
    () => client.market.klines({ symbol: 'btcusdt', startTime: 5, endTime: 1 }),
  ],
  [
    'market.depth limit not allowed',
    'limit',
    () => client.market.depth(bad({ symbol: 'btcusdt', limit: 7 })),
  ],
  [
    'market.trades limit string',
    'limit',
    () => client.market.trades(bad({ symbol: 'btcusdt', limit: '10' })),
  ],
  [
    'market.historicalTrades fromId negative',
    'fromId',
    () => client.market.historicalTrades({ symbol: 'btcusdt', fromId: -1 }),
  ],
  [
    'trading.placeOrder missing price',
    'price',
    () => client.trading.placeOrder(bad({ ...order, price: undefined })),
  ],
  [
    'trading.placeOrder quantity as number',
    'quantity',
    () => client.trading.placeOrder(bad({ ...order, quantity: 0.1 })),
  ],
  [
    'trading.placeOrder bad decimal',
    'price',
    () => client.trading.placeOrder({ ...order, price: '1,5' }),
  ],
  [
    'trading.placeOrder zero quantity',
    'quantity',
    () => client.trading.placeOrder({ ...order, quantity: '0' }),
  ],
  [
    'trading.placeOrder bad side',
    'side',
    () => client.trading.placeOrder(bad({ ...order, side: 'long' })),
  ],
  [
    'trading.placeOrder stop_limit without stopPrice',
    'stopPrice',
    () => client.trading.placeOrder({ ...order, type: 'stop_limit' }),
  ],
  [
    'trading.testOrder bad type',
    'type',
    () => client.trading.testOrder(bad({ ...order, type: 'market' })),
  ],
  ['trading.getOrder without reference', 'orderId', () => client.trading.getOrder({})],
  [
    'trading.openOrders orderId float',
    'orderId',
    () => client.trading.openOrders({ orderId: 1.5 }),
  ],
  ['trading.allOrders missing symbol', 'symbol', () => client.trading.allOrders(bad({}))],
  [
    'trading.cancelOrder without reference',
    'orderId',
    () => client.trading.cancelOrder({ symbol: 'btcusdt' }),
  ],
  [
    'trading.cancelAllOrders missing symbol',
    'symbol',
    () => client.trading.cancelAllOrders(bad({})),
  ],
  ['trading.myTrades limit 0', 'limit', () => client.trading.myTrades({ limit: 0 })],
  [
    'wallet.withdraws span of 90 days',
    'endTime',
    () => client.wallet.withdraws({ startTime: 0, endTime: 90 * 86_400_000 }),
  ],
  ['wallet.withdraws bad status', 'status', () => client.wallet.withdraws(bad({ status: 4 }))],
  [
    'wallet.withdraws bad transferType',
    'transferType',
    () => client.wallet.withdraws(bad({ transferType: 3 })),
  ],
  [
    'wallet.depositAddress missing network',
    'network',
    () => client.wallet.depositAddress(bad({ coin: 'BTC' })),
  ],
  [
    'subAccounts.transfer bad email',
    'toEmail',
    () =>
      client.subAccounts.transfer({
        currency: 'BTC',
        amount: '1',
        fromEmail: 'a@b.io',
        toEmail: 'nobody',
      }),
  ],
  [
    'subAccounts.transfer negative amount',
    'amount',
    () =>
      client.subAccounts.transfer({
        currency: 'BTC',
        amount: '-1',
        fromEmail: 'a@b.io',
        toEmail: 'c@d.io',
      }),
  ],
  ['allOrdersFrom missing symbol', 'symbol', () => client.allOrdersFrom(bad({}))],
  ['allMyTradesFrom bad fromId', 'fromId', () => client.allMyTradesFrom(bad({ fromId: 'x' }))],
  [
    'withdrawHistory end before start',
    'startTime',
    () => client.withdrawHistory({ startTime: 10, endTime: 1 }),
  ],
];

describe('input validation', () => {
  it.each(cases)('%s is refused naming %s, with nothing sent', async (_name, field, run) => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).kind).toBe('invalid-input');
    expect((error as ExchangeError).field).toBe(field);
    expect((error as ExchangeError).message).toContain(field);
    expect(connections).toBe(0);
  });

  it('refuses bad constructor options', () => {
    expect(() => new ExchangeClient({ baseUrl: 'not a url' })).toThrow(ExchangeError);
    expect(() => new ExchangeClient({ baseUrl: 'https://x', recvWindow: 70_000 })).toThrow(
      /recvWindow/,
    );
  });

  it('refuses bad stream names and private streams without an auth key provider', async () => {
    const streams = new StreamClient({ streamUrl: 'ws://127.0.0.1:1/ws' });
    await expect(streams.subscribe(['btc usdt'])).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(streams.subscribe(['orderUpdate'])).rejects.toMatchObject({ field: 'streams' });
    await streams.close();
    expect(connections).toBe(0);
  });
});

describe('withdraw windows', () => {
  const DAY = 86_400_000;
  it.each([
    [0, 0],
    [0, 89 * DAY - 1],
    [0, 89 * DAY],
    [1_600_000_000_000, 1_600_000_000_000 + 400 * DAY + 12_345],
  ])('covers [%d, %d] exactly with disjoint windows under 90 days, newest first', (start, end) => {
    const windows = withdrawWindows(start, end);
    expect(windows[0]!.windowEnd).toBe(end);
    expect(windows.at(-1)!.windowStart).toBe(start);
    for (const [i, w] of windows.entries()) {
      expect(w.windowEnd - w.windowStart).toBeLessThan(90 * DAY);
      expect(w.windowEnd - w.windowStart + 1).toBeLessThanOrEqual(WITHDRAW_WINDOW_MS);
      if (i > 0) expect(w.windowEnd).toBe(windows[i - 1]!.windowStart - 1);
    }
    const covered = windows.reduce((n, w) => n + (w.windowEnd - w.windowStart + 1), 0);
    expect(covered).toBe(end - start + 1);
  });
});
