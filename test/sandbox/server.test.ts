import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { verifySignature } from '../../electron/sandbox/server';
import { DECIMAL, hmacHex, raw, shape, signed, worldKeys } from './helpers';

let sandbox: TestSandbox;
let keys: ReturnType<typeof worldKeys>;

beforeAll(async () => {
  sandbox = await startSandbox({
    clock: new ManualClock(Date.UTC(2026, 5, 1, 12)),
    rateLimits: false,
  });
  keys = worldKeys(sandbox);
});
afterAll(() => sandbox.close());

const ORDER_SHAPE = {
  clientOrderId: 'string',
  createdTime: 'number',
  executedQty: 'string',
  id: 'number',
  origQty: 'string',
  price: 'string',
  side: 'string',
  status: 'string',
  symbol: 'string',
  type: 'string',
  updatedTime: 'number',
};

describe('general and market data endpoints', () => {
  it('answers ping, systemStatus and time', async () => {
    expect((await raw(sandbox, 'GET', 'ping')).body).toEqual({});
    expect((await raw(sandbox, 'GET', 'systemStatus')).body).toEqual({
      status: 'normal',
      message: expect.any(String),
    });
    expect((await raw(sandbox, 'GET', 'time')).body).toEqual({ serverTime: sandbox.clock.now() });
  });

  it('lists every symbol with its PRICE_FILTER in exchangeInfo', async () => {
    const { body } = await raw(sandbox, 'GET', 'exchangeInfo');
    expect(shape(body)).toEqual({ serverTime: 'number', symbols: 'array', timezone: 'string' });
    expect(body.symbols.map((s: { symbol: string }) => s.symbol)).toEqual([
      'btcusdt',
      'ethusdt',
      'solusdt',
      'xrpusdt',
      'ethbtc',
      'usdtinr',
      'btcinr',
    ]);
    expect(body.symbols[0]).toEqual({
      symbol: 'btcusdt',
      status: 'trading',
      baseAsset: 'btc',
      quoteAsset: 'usdt',
      baseAssetPrecision: 6,
      quoteAssetPrecision: 8,
      orderTypes: ['limit', 'stop_limit'],
      isSpotTradingAllowed: true,
      filters: [{ filterType: 'PRICE_FILTER', minPrice: '0.01', tickSize: '0.01' }],
    });
  });

  it('gives 24h tickers with decimal strings and a spread of several ticks', async () => {
    const all = (await raw(sandbox, 'GET', 'tickers/24hr')).body;
    expect(all).toHaveLength(7);
    const one = (await raw(sandbox, 'GET', 'ticker/24hr', { query: 'symbol=btcusdt' })).body;
    expect(shape(one)).toEqual({
      askPrice: 'string',
      at: 'number',
      baseAsset: 'string',
      bidPrice: 'string',
      highPrice: 'string',
      lastPrice: 'string',
      lowPrice: 'string',
      openPrice: 'string',
      quoteAsset: 'string',
      symbol: 'string',
      volume: 'string',
    });
    expect(Number(one.lastPrice)).toBeGreaterThan(30000);
    expect(Number(one.askPrice)).toBeGreaterThan(Number(one.bidPrice));
    expect(Number(one.askPrice) - Number(one.bidPrice)).toBeGreaterThanOrEqual(0.03);
  });

  it('serves klines for every interval with limit, startTime and endTime (inclusive)', async () => {
    for (const interval of ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '12h', '1d', '1w']) {
      const { status, body } = await raw(sandbox, 'GET', 'klines', {
        query: `symbol=ethusdt&interval=${interval}&limit=3`,
      });
      expect(status).toBe(200);
      expect(body.length).toBeGreaterThan(0);
      expect(body.length).toBeLessThanOrEqual(3);
      for (const k of body) {
        expect(k).toHaveLength(6);
        expect(typeof k[0]).toBe('number');
        // Six JSON numbers, as the interface shows them.
        for (const v of k.slice(1)) {
          expect(typeof v).toBe('number');
          expect(String(v)).toMatch(DECIMAL);
        }
      }
    }
    const days = (
      await raw(sandbox, 'GET', 'klines', { query: 'symbol=btcusdt&interval=1d&limit=10' })
    ).body;
    const start = days[2][0];
    const end = days[5][0];
    const window = (
      await raw(sandbox, 'GET', 'klines', {
        query: `symbol=btcusdt&interval=1d&startTime=${start}&endTime=${end}`,
      })
    ).body;
    expect(window.map((k: unknown[]) => k[0])).toEqual(
      days.slice(2, 6).map((k: unknown[]) => k[0]),
    );
    const defaultInterval = (
      await raw(sandbox, 'GET', 'klines', { query: 'symbol=btcusdt&limit=2' })
    ).body;
    expect(defaultInterval[1][0] - defaultInterval[0][0]).toBeGreaterThanOrEqual(60_000);
    expect(defaultInterval[1][0] % 60_000).toBe(0);
    expect(
      (await raw(sandbox, 'GET', 'klines', { query: 'symbol=btcusdt&interval=3m' })).body.code,
    ).toBe(1999);
    expect(
      (await raw(sandbox, 'GET', 'klines', { query: 'symbol=btcusdt&limit=2001' })).body.code,
    ).toBe(1999);
  });

  it('gives depth with asks ascending, bids descending, only allowed limits', async () => {
    const { body } = await raw(sandbox, 'GET', 'depth', { query: 'symbol=btcusdt&limit=5' });
    expect(shape(body)).toEqual({ asks: 'array', bids: 'array', lastUpdateAt: 'number' });
    expect(body.asks).toHaveLength(5);
    const askPrices = body.asks.map((l: string[]) => Number(l[0]));
    const bidPrices = body.bids.map((l: string[]) => Number(l[0]));
    expect(askPrices).toEqual([...askPrices].sort((a, b) => a - b));
    expect(bidPrices).toEqual([...bidPrices].sort((a, b) => b - a));
    expect(
      (await raw(sandbox, 'GET', 'depth', { query: 'symbol=btcusdt' })).body.asks,
    ).toHaveLength(20);
    for (const bad of ['2', '0', '21', 'x']) {
      const reply = await raw(sandbox, 'GET', 'depth', { query: `symbol=btcusdt&limit=${bad}` });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        code: 1999,
        message: expect.stringContaining('limit does not have a valid value'),
      });
    }
  });

  it('lists recent and historical trades in ascending id order, historical from an id', async () => {
    const recent = (await raw(sandbox, 'GET', 'trades', { query: 'symbol=solusdt&limit=5' })).body;
    expect(recent).toHaveLength(5);
    expect(shape(recent[0])).toEqual({
      id: 'number',
      isBuyerMaker: 'boolean',
      price: 'string',
      qty: 'string',
      quoteQty: 'string',
      time: 'number',
    });
    const ids = recent.map((t: { id: number }) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const fromId = ids[1];
    const historical = await raw(sandbox, 'GET', 'historicalTrades', {
      query: `symbol=solusdt&limit=3&fromId=${fromId}`,
      apiKey: keys.readOnly.apiKey,
    });
    expect(historical.body.map((t: { id: number }) => t.id)).toEqual(ids.slice(1, 4));
    expect(
      (await raw(sandbox, 'GET', 'historicalTrades', { query: 'symbol=solusdt' })).body.code,
    ).toBe(2112);
  });
});

describe('signing', () => {
  const secret = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
  it('accepts the documented vectors in lower and upper case hex', () => {
    const all =
      'symbol=ltcbtc&side=buy&type=limit&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    const one = 'a03b8ba3ae3bad7b78fcec42224967e8cc19faec1a9d05c1f46200b9c5cab360';
    expect(verifySignature(secret, all, one)).toBe(true);
    expect(verifySignature(secret, all, one.toUpperCase())).toBe(true);
    const mixed =
      'symbol=ltcbtc&side=buy&type=limit' +
      'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    const two = 'e8dc96bc41383d42f5dca9af18fdec5017555ba53256b55408c4e7cbbea79225';
    expect(verifySignature(secret, mixed, two)).toBe(true);
    expect(verifySignature(secret, mixed, two.toUpperCase())).toBe(true);
    expect(verifySignature(secret, all, two)).toBe(false);
    expect(verifySignature(secret, all, 'zz')).toBe(false);
  });

  it('signs query + body, accepts the signature in either place and upper-case hex', async () => {
    const ts = sandbox.clock.now();
    const query = `symbol=btcusdt&side=buy&type=limit`;
    const body = `quantity=0.001&price=1000.00&timestamp=${ts}`;
    const signature = hmacHex(keys.trade.secretKey, query + body).toUpperCase();
    const inBody = await raw(sandbox, 'POST', 'order/test', {
      query,
      body: `${body}&signature=${signature}`,
      apiKey: keys.trade.apiKey,
    });
    expect(inBody).toMatchObject({ status: 200, body: {} });
    const inQuery = await raw(sandbox, 'POST', 'order/test', {
      query: `${query}&signature=${signature}`,
      body,
      apiKey: keys.trade.apiKey,
    });
    expect(inQuery).toMatchObject({ status: 200, body: {} });
  });

  it('takes the query value of a parameter sent in both places', async () => {
    const ts = sandbox.clock.now();
    const query = `symbol=btcusdt&timestamp=${ts}`;
    const body = `symbol=nosuchsymbol&side=buy&type=limit&quantity=0.001&price=1000.00`;
    const signature = hmacHex(keys.trade.secretKey, query + body);
    const reply = await raw(sandbox, 'POST', 'order/test', {
      query: `${query}&signature=${signature}`,
      body,
      apiKey: keys.trade.apiKey,
    });
    expect(reply).toMatchObject({ status: 200, body: {} });
  });
});

describe('the error table of docs/exchange-notes.md', () => {
  it('1999 missing and invalid parameters', async () => {
    expect((await raw(sandbox, 'GET', 'ticker/24hr')).body).toEqual({
      code: 1999,
      message: 'symbol is missing',
    });
    const r = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      price: '100',
    });
    expect(r).toMatchObject({ status: 400, body: { code: 1999, message: 'quantity is missing' } });
    const span = await signed(sandbox, keys.trade, 'GET', 'crypto/withdraws', {
      startTime: 0,
      endTime: 90 * 86_400_000,
    });
    expect(span.body.code).toBe(1999);
  });
  it('-1121 unknown symbol', async () => {
    expect(await raw(sandbox, 'GET', 'depth', { query: 'symbol=dogeusdt' })).toMatchObject({
      status: 400,
      body: { code: -1121, message: 'Invalid symbol.' },
    });
  });
  it('2112 and 2111 API key missing or invalid', async () => {
    expect(await raw(sandbox, 'GET', 'account', { query: 'timestamp=1' })).toMatchObject({
      status: 401,
      body: { code: 2112, message: 'API key is missing' },
    });
    expect(
      await raw(sandbox, 'GET', 'account', { query: 'timestamp=1', apiKey: 'nope' }),
    ).toMatchObject({ status: 401, body: { code: 2111, message: 'API key is invalid' } });
  });
  it('2115 signature missing and 2005 signature incorrect', async () => {
    const ts = sandbox.clock.now();
    expect(
      await raw(sandbox, 'GET', 'account', { query: `timestamp=${ts}`, apiKey: keys.trade.apiKey }),
    ).toMatchObject({ status: 401, body: { code: 2115, message: 'Signature not found.' } });
    const wrong = hmacHex(keys.readOnly.secretKey, `timestamp=${ts}`);
    expect(
      await raw(sandbox, 'GET', 'account', {
        query: `timestamp=${ts}&signature=${wrong}`,
        apiKey: keys.trade.apiKey,
      }),
    ).toMatchObject({ status: 401, body: { code: 2005, message: 'Signature is incorrect.' } });
  });
  it('2113 recvWindow out of range and 2098 out of the receiving window', async () => {
    for (const recvWindow of [0, 60001]) {
      expect(await signed(sandbox, keys.trade, 'GET', 'account', {}, { recvWindow })).toMatchObject(
        { status: 400, body: { code: 2113, message: 'RecvWindow must be in range 1..60000' } },
      );
    }
    const now = sandbox.clock.now();
    const out = { status: 400, body: { code: 2098, message: 'Request out of receiving window.' } };
    expect(
      await signed(sandbox, keys.trade, 'GET', 'account', {}, { timestamp: now + 1000 }),
    ).toMatchObject(out);
    expect(
      await signed(sandbox, keys.trade, 'GET', 'account', {}, { timestamp: now - 5001 }),
    ).toMatchObject(out);
    expect(
      (await signed(sandbox, keys.trade, 'GET', 'account', {}, { timestamp: now + 999 })).status,
    ).toBe(200);
    expect(
      (await signed(sandbox, keys.trade, 'GET', 'account', {}, { timestamp: now - 5000 })).status,
    ).toBe(200);
    expect(
      (
        await signed(
          sandbox,
          keys.trade,
          'GET',
          'account',
          {},
          { timestamp: now - 60000, recvWindow: 60000 },
        )
      ).status,
    ).toBe(200);
  });
  it('2078 read-only key placing, testing, canceling or transferring', async () => {
    const denied = { status: 403, body: { code: 2078, message: 'Permission denied.' } };
    const order = {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: '1000',
    };
    expect(await signed(sandbox, keys.readOnly, 'POST', 'order', order)).toMatchObject(denied);
    expect(await signed(sandbox, keys.readOnly, 'POST', 'order/test', order)).toMatchObject(denied);
    expect(
      await signed(sandbox, keys.readOnly, 'DELETE', 'order', { symbol: 'btcusdt', orderId: 1 }),
    ).toMatchObject(denied);
    expect(
      await signed(sandbox, keys.readOnly, 'DELETE', 'openOrders', { symbol: 'btcusdt' }),
    ).toMatchObject(denied);
    expect(
      await signed(sandbox, keys.readOnly, 'POST', 'sub_account/fund_transfer', {
        currency: 'usdt',
        amount: '1',
        fromEmail: keys.parent.email,
        toEmail: keys.subs[0]!.email,
      }),
    ).toMatchObject(denied);
    // Reads are allowed with a read-only key, myTrades and create_auth_token included.
    for (const path of [
      'account',
      'funds',
      'openOrders',
      'myTrades',
      'coins',
      'sub_account/accounts',
    ]) {
      expect((await signed(sandbox, keys.readOnly, 'GET', path)).status).toBe(200);
    }
    expect(
      (await signed(sandbox, keys.readOnly, 'POST', 'create_auth_token', {}, { where: 'query' }))
        .status,
    ).toBe(200);
  });
  it('2002 insufficient balance, 2004 unknown order, 2010 duplicate clientOrderId, 94001 stop price', async () => {
    const before = sandbox.admin.balances(keys.parent.email);
    const big = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '1000',
      price: '50000',
    });
    expect(big).toMatchObject({
      status: 400,
      body: { code: 2002, message: 'Not enough USDT balance to execute this order' },
    });
    expect(sandbox.admin.balances(keys.parent.email)).toEqual(before);
    expect(
      await signed(sandbox, keys.trade, 'DELETE', 'order', { symbol: 'btcusdt', orderId: 999999 }),
    ).toMatchObject({ status: 400, body: { code: 2004, message: 'Order does not exist.' } });
    expect(await signed(sandbox, keys.trade, 'GET', 'order', { orderId: 999999 })).toMatchObject({
      status: 400,
      body: { code: 2004 },
    });
    const first = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: '1000',
      clientOrderId: 'dup-1',
    });
    expect(first.status).toBe(200);
    const again = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: '1000',
      clientOrderId: 'dup-1',
    });
    expect(again).toMatchObject({
      status: 400,
      body: { code: 2010, message: 'Duplicate clientOrderId.' },
    });
    const stop = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'stop_limit',
      quantity: '0.001',
      price: '1000',
    });
    expect(stop).toMatchObject({
      status: 400,
      body: { code: 94001, message: 'Stop price not found.' },
    });
    await signed(sandbox, keys.trade, 'DELETE', 'order', {
      symbol: 'btcusdt',
      clientOrderId: 'dup-1',
    });
  });
  it('404 unknown path and 500 on injected faults', async () => {
    expect(await raw(sandbox, 'GET', 'nothing/here')).toMatchObject({
      status: 404,
      body: { code: 404, message: 'Not found' },
    });
    const r = await fetch(`${sandbox.baseUrl}/elsewhere`);
    expect(r.status).toBe(404);
    sandbox.admin.faults.inject({ path: '/sapi/v1/time' }, { kind: 'error-before' });
    expect(await raw(sandbox, 'GET', 'time')).toMatchObject({
      status: 500,
      body: { code: 500, message: 'Internal error' },
    });
    expect((await raw(sandbox, 'GET', 'time')).status).toBe(200);
  });
});

describe('trading over HTTP', () => {
  it('places, queries, lists and cancels orders with exact shapes', async () => {
    const placed = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'ethusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.5',
      price: '1500.00',
    });
    expect(placed.status).toBe(200);
    expect(shape(placed.body)).toEqual(ORDER_SHAPE);
    expect(placed.body).toMatchObject({
      status: 'wait',
      price: '1500',
      origQty: '0.5',
      executedQty: '0',
    });
    expect(placed.body.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    const id = placed.body.id;
    expect((await signed(sandbox, keys.trade, 'GET', 'order', { orderId: id })).body).toEqual(
      placed.body,
    );
    expect(
      (
        await signed(sandbox, keys.readOnly, 'GET', 'order', {
          clientOrderId: placed.body.clientOrderId,
        })
      ).body.id,
    ).toBe(id);
    const open = (await signed(sandbox, keys.trade, 'GET', 'openOrders', { symbol: 'ethusdt' }))
      .body;
    expect(open.map((o: { id: number }) => o.id)).toContain(id);
    const fromId = (await signed(sandbox, keys.trade, 'GET', 'openOrders', { orderId: id })).body;
    expect(fromId.every((o: { id: number }) => o.id >= id)).toBe(true);
    const canceled = await signed(sandbox, keys.trade, 'DELETE', 'order', {
      symbol: 'ethusdt',
      orderId: id,
    });
    expect(canceled.body).toMatchObject({ id, status: 'cancel' });
    expect(
      (await signed(sandbox, keys.trade, 'DELETE', 'order', { symbol: 'ethusdt', orderId: id }))
        .body.code,
    ).toBe(2004);
    const all = (
      await signed(sandbox, keys.trade, 'GET', 'allOrders', { symbol: 'ethusdt', limit: 1000 })
    ).body;
    expect(all.find((o: { id: number }) => o.id === id).status).toBe('cancel');
    const allIds = all.map((o: { id: number }) => o.id);
    expect(allIds).toEqual([...allIds].sort((a, b) => a - b));
    expect(
      (
        await signed(sandbox, keys.trade, 'GET', 'allOrders', { symbol: 'ethusdt', limit: 2 })
      ).body.map((o: { id: number }) => o.id),
    ).toEqual(allIds.slice(-2));
  });

  it('cancels all open orders of a symbol', async () => {
    for (const price of ['1000', '1001', '1002']) {
      await signed(sandbox, keys.trade, 'POST', 'order', {
        symbol: 'solusdt',
        side: 'sell',
        type: 'limit',
        quantity: '1',
        price: String(Number(price) * 0 + 900 + Number(price) - 1000),
      });
    }
    const canceled = await signed(sandbox, keys.trade, 'DELETE', 'openOrders', {
      symbol: 'solusdt',
    });
    expect(canceled.body).toHaveLength(3);
    expect(canceled.body.every((o: { status: string }) => o.status === 'cancel')).toBe(true);
    expect(
      (await signed(sandbox, keys.trade, 'GET', 'openOrders', { symbol: 'solusdt' })).body,
    ).toEqual([]);
  });

  it('fills a crossing order and lists own trades with every filter', async () => {
    const ask = (await raw(sandbox, 'GET', 'depth', { query: 'symbol=xrpusdt&limit=1' })).body
      .asks[0];
    const buy = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'xrpusdt',
      side: 'buy',
      type: 'limit',
      quantity: '10',
      price: ask[0],
    });
    expect(buy.body).toMatchObject({ status: 'done', executedQty: '10' });
    const mine = (
      await signed(sandbox, keys.trade, 'GET', 'myTrades', {
        symbol: 'xrpusdt',
        orderId: buy.body.id,
      })
    ).body;
    expect(mine).toHaveLength(1);
    expect(shape(mine[0])).toEqual({
      fee: 'string',
      feeCurrency: 'string',
      id: 'number',
      isBuyerMaker: 'boolean',
      orderId: 'number',
      price: 'string',
      qty: 'string',
      quoteQty: 'string',
      side: 'string',
      symbol: 'string',
      time: 'number',
    });
    expect(mine[0]).toMatchObject({
      qty: '10',
      fee: '0.02',
      feeCurrency: 'xrp',
      side: 'buy',
      isBuyerMaker: false,
    });
    const tradeId = mine[0].id;
    const everything = (await signed(sandbox, keys.trade, 'GET', 'myTrades', { limit: 1000 })).body;
    expect(new Set(everything.map((t: { symbol: string }) => t.symbol)).size).toBeGreaterThan(1);
    const fromId = (await signed(sandbox, keys.trade, 'GET', 'myTrades', { fromId: tradeId })).body;
    expect(fromId[0].id).toBe(tradeId);
    const limited = (await signed(sandbox, keys.trade, 'GET', 'myTrades', { limit: 2 })).body;
    expect(limited.map((t: { id: number }) => t.id)).toEqual(
      everything.slice(-2).map((t: { id: number }) => t.id),
    );
    const t = mine[0].time;
    expect(
      (
        await signed(sandbox, keys.trade, 'GET', 'myTrades', {
          symbol: 'xrpusdt',
          startTime: t,
          endTime: t,
        })
      ).body.map((x: { id: number }) => x.id),
    ).toContain(tradeId);
    expect(
      (
        await signed(sandbox, keys.trade, 'GET', 'myTrades', {
          symbol: 'xrpusdt',
          startTime: t + 1,
        })
      ).body,
    ).toEqual([]);
    expect((await signed(sandbox, keys.trade, 'GET', 'myTrades', { limit: 1001 })).body.code).toBe(
      1999,
    );
  });
});

describe('account, funds, auth token', () => {
  it('shows the account and funds (reservedFee for some assets)', async () => {
    const account = (await signed(sandbox, keys.trade, 'GET', 'account')).body;
    expect(shape(account)).toEqual({
      accountType: 'string',
      canTrade: 'boolean',
      canWithdraw: 'boolean',
      updateTime: 'number',
    });
    // The only account type the interface shows.
    expect(account.accountType).toBe('default');
    expect((await signed(sandbox, keys.readOnly, 'GET', 'account')).body.canTrade).toBe(false);
    const funds = (await signed(sandbox, keys.trade, 'GET', 'funds')).body;
    const assets = funds.map((f: { asset: string }) => f.asset);
    for (const asset of ['btc', 'eth', 'sol', 'xrp', 'usdt']) expect(assets).toContain(asset);
    for (const fund of funds) {
      expect(fund.free).toMatch(DECIMAL);
      expect(fund.locked).toMatch(DECIMAL);
    }
    expect(funds.some((f: { reservedFee?: string }) => f.reservedFee !== undefined)).toBe(true);
    expect(funds.some((f: { reservedFee?: string }) => f.reservedFee === undefined)).toBe(true);
  });

  it('returns the same auth_key while active and extends it by 30 minutes', async () => {
    const clock = sandbox.clock as ManualClock;
    const sub = keys.subs[1]!.keys[0]!;
    const first = await signed(sandbox, sub, 'POST', 'create_auth_token', {}, { where: 'query' });
    expect(shape(first.body)).toEqual({ auth_key: 'string', timeout_duration: 'number' });
    expect(first.body.timeout_duration).toBe(1800);
    clock.advance(20 * 60_000);
    const second = await signed(sandbox, sub, 'POST', 'create_auth_token', {}, { where: 'query' });
    expect(second.body.auth_key).toBe(first.body.auth_key);
    // 55 minutes after the first call: alive only because the second call extended it.
    clock.advance(35 * 60_000);
    const third = await signed(sandbox, sub, 'POST', 'create_auth_token', {}, { where: 'query' });
    expect(third.body.auth_key).toBe(first.body.auth_key);
    clock.advance(91 * 60_000);
    const fourth = await signed(sandbox, sub, 'POST', 'create_auth_token', {}, { where: 'query' });
    expect(fourth.body.auth_key).not.toBe(first.body.auth_key);
  });
});

describe('bad input', () => {
  it('refuses malformed and oversized bodies and keeps serving', async () => {
    const malformed = await raw(sandbox, 'POST', 'order', {
      body: 'symbol=%zz&x=1',
      apiKey: keys.trade.apiKey,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(1999);
    expect(malformed.body.message).toContain('Malformed request body');
    const json = await raw(sandbox, 'POST', 'order', {
      body: '{"symbol":"btcusdt"}',
      contentType: 'application/json',
      apiKey: keys.trade.apiKey,
    });
    expect(json.body.message).toContain('Content-Type must be application/x-www-form-urlencoded');
    const huge = await raw(sandbox, 'POST', 'order', {
      body: 'a=' + 'x'.repeat(200_000),
      apiKey: keys.trade.apiKey,
    });
    expect(huge).toMatchObject({
      status: 400,
      body: { code: 1999, message: 'Request body is larger than 65536 bytes' },
    });
    const hugeParam = await signed(sandbox, keys.trade, 'POST', 'order', {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '1'.repeat(5000),
      price: '1000',
    });
    expect(hugeParam.body.code).toBe(1999);
    expect((await raw(sandbox, 'GET', 'ping')).status).toBe(200);
  });

  it('refuses bad quantities and prices with 1999 and changes no balance', async () => {
    const before = sandbox.admin.balances(keys.parent.email);
    const cases: [Record<string, string>, string][] = [
      [{ quantity: '-1' }, 'quantity does not have a valid value'],
      [{ quantity: '0' }, 'quantity does not have a valid value'],
      [{ quantity: 'abc' }, 'quantity does not have a valid value'],
      [{ quantity: '1e3' }, 'quantity does not have a valid value'],
      [{ quantity: '0.0000001' }, 'quantity does not have a valid value (at most 6 decimals'],
      [{ price: '1000.001' }, 'price does not have a valid value (a multiple of tickSize 0.01)'],
      [{ price: '0' }, 'price does not have a valid value'],
      [{ price: 'NaN' }, 'price does not have a valid value'],
      [{ side: 'long' }, 'side does not have a valid value'],
      [{ type: 'market' }, 'type does not have a valid value'],
      [{ symbol: 'BTCUSDT' }, 'Invalid symbol.'],
    ];
    for (const [override, message] of cases) {
      const reply = await signed(sandbox, keys.trade, 'POST', 'order', {
        symbol: 'btcusdt',
        side: 'buy',
        type: 'limit',
        quantity: '0.001',
        price: '1000',
        ...override,
      });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain(message);
    }
    expect(sandbox.admin.balances(keys.parent.email)).toEqual(before);
  });
});
