/**
 * Every method of ExchangeClient against the real sandbox over HTTP, answers parsed by the wire
 * schemas; the exchange's errors mapped to kinds; signing under a skewed local clock; paging.
 * The sandbox runs without rate limits here (pacing has its own suite) so the file stays fast.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../electron/exchange/client';
import { ExchangeError } from '../../electron/exchange/errors';
import { isSignedDecimalText } from '../../shared/decimal';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { clientFor, isHex32, parentOf, restingBuyPrice, subsOf } from './helpers';

let sandbox: Sandbox;
let client: ExchangeClient;
let readOnly: ExchangeClient;
let anonymous: ExchangeClient;
const symbol = 'btcusdt';

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
  const parent = parentOf(sandbox);
  client = clientFor(sandbox, parent.trade, { rateLimits: false });
  readOnly = clientFor(sandbox, parent.readOnly, { rateLimits: false });
  anonymous = clientFor(sandbox, undefined, { rateLimits: false });
});

afterAll(async () => {
  await Promise.all([client?.close(), readOnly?.close(), anonymous?.close()]);
  await sandbox?.close();
});

async function failure(promise: Promise<unknown>): Promise<ExchangeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExchangeError);
  return error as ExchangeError;
}

describe('general', () => {
  it('ping, systemStatus, time and exchangeInfo', async () => {
    expect(await anonymous.general.ping()).toEqual({});
    const status = await anonymous.general.systemStatus();
    expect(typeof status.status).toBe('string');
    const { serverTime } = await anonymous.general.time();
    expect(Math.abs(serverTime - Date.now())).toBeLessThan(5000);
    const info = await anonymous.general.exchangeInfo();
    const market = info.symbols.find((s) => s.symbol === symbol);
    expect(market?.baseAsset.toLowerCase()).toBe('btc');
    expect(market?.filters.some((f) => f.filterType === 'PRICE_FILTER' && f.tickSize)).toBe(true);
  });
});

describe('market data', () => {
  it('tickers, ticker, klines, depth, trades and historicalTrades', async () => {
    const tickers = await anonymous.market.tickers();
    expect(tickers.map((t) => t.symbol)).toContain(symbol);
    const ticker = await anonymous.market.ticker({ symbol });
    expect(ticker.symbol).toBe(symbol);
    expect(new Decimal(ticker.lastPrice).gte(0)).toBe(true);
    const klines = await anonymous.market.klines({ symbol, interval: '1m', limit: 10 });
    expect(klines.length).toBeGreaterThan(0);
    for (const k of klines) {
      expect(Number.isInteger(k[0])).toBe(true);
      expect(k.slice(1, 6).every(isSignedDecimalText)).toBe(true);
    }
    const book = await anonymous.market.depth({ symbol, limit: 5 });
    expect(book.asks.length).toBeGreaterThan(0);
    expect(book.bids.length).toBeGreaterThan(0);
    expect(new Decimal(book.asks[0]![0]).gt(book.bids[0]![0])).toBe(true);
    const trades = await anonymous.market.trades({ symbol, limit: 5 });
    expect(Array.isArray(trades)).toBe(true);
    const historical = await readOnly.market.historicalTrades({ symbol, limit: 5 });
    expect(Array.isArray(historical)).toBe(true);
  });

  it('klines the exchange sends as JSON numbers come out as the same amounts in decimal text', async () => {
    // Finished candles only, so the living market cannot change them between the two reads.
    const endTime = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 1;
    const query = `symbol=${symbol}&interval=1h&limit=20&endTime=${endTime}`;
    const response = await fetch(`${sandbox.baseUrl}/sapi/v1/klines?${query}`);
    const raw = (await response.json()) as unknown[][];
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.every((row) => row.slice(0, 6).every((cell) => typeof cell === 'number'))).toBe(
      true,
    );
    const klines = await anonymous.market.klines({ symbol, interval: '1h', limit: 20, endTime });
    expect(klines.map((k) => k.slice(0, 6))).toEqual(
      raw.map((row) => [
        row[0],
        ...row.slice(1, 6).map((cell) => new Decimal(cell as number).toFixed()),
      ]),
    );
  });

  it('historicalTrades without a key is refused locally as auth', async () => {
    const error = await failure(anonymous.market.historicalTrades({ symbol }));
    expect(error.kind).toBe('auth');
  });

  it('an unknown symbol maps to invalid-input with the exchange code and message', async () => {
    const error = await failure(anonymous.market.ticker({ symbol: 'nopenope' }));
    expect(error.kind).toBe('invalid-input');
    expect(error.code).toBe(-1121);
    expect(error.exchangeMessage).toBe('Invalid symbol.');
  });
});

describe('account and wallet', () => {
  it('info, funds, coins, withdraws and depositAddress', async () => {
    const info = await client.account.info();
    expect(info.canTrade).toBe(true);
    const funds = await client.account.funds();
    expect(funds.find((f) => f.asset.toLowerCase() === 'usdt')).toBeDefined();
    const coins = await client.wallet.coins();
    const withDeposit = coins
      .flatMap((c) => c.networkList.map((n) => ({ coin: c.coin, network: n })))
      .find((x) => x.network.depositEnable);
    expect(withDeposit).toBeDefined();
    const withdraws = await client.wallet.withdraws({ limit: 50 });
    for (const w of withdraws) expect(typeof w.partnerTransfer).toBe('boolean');
    const address = await client.wallet.depositAddress({
      coin: withDeposit!.coin,
      network: withDeposit!.network.network,
    });
    expect(address.address.length).toBeGreaterThan(0);
  });

  it('a wrong secret is an auth error', async () => {
    const parent = parentOf(sandbox);
    const wrong = clientFor(
      sandbox,
      { apiKey: parent.trade.apiKey, secretKey: 'not-the-secret' },
      {
        rateLimits: false,
      },
    );
    const error = await failure(wrong.account.info());
    expect(error.kind).toBe('auth');
    expect(error.code).toBe(2005);
    await wrong.close();
  });
});

describe('trading', () => {
  it('places, reads, lists and cancels an order; clientOrderId is generated as 32 hex', async () => {
    const price = await restingBuyPrice(client, symbol);
    const order = { symbol, side: 'buy', type: 'limit', quantity: '0.001', price } as const;
    await client.trading.testOrder(order);
    const placed = await client.trading.placeOrder(order);
    expect(isHex32(placed.clientOrderId)).toBe(true);
    expect(placed.status).toBe('wait');
    expect(placed.side).toBe('buy');
    expect(new Decimal(placed.price).eq(price)).toBe(true);

    const byId = await client.trading.getOrder({ orderId: placed.id });
    const byClientId = await client.trading.getOrder({ clientOrderId: placed.clientOrderId });
    expect(byId.id).toBe(placed.id);
    expect(byClientId.id).toBe(placed.id);
    expect((await client.trading.openOrders({ symbol })).map((o) => o.id)).toContain(placed.id);
    expect((await client.trading.allOrders({ symbol, limit: 1000 })).map((o) => o.id)).toContain(
      placed.id,
    );

    const canceled = await client.trading.cancelOrder({ symbol, orderId: placed.id });
    expect(canceled.status).toBe('cancel');
    const again = await failure(client.trading.cancelOrder({ symbol, orderId: placed.id }));
    expect(again.kind).toBe('not-found');
    expect(again.code).toBe(2004);
  });

  it('cancels all open orders of a symbol', async () => {
    const price = await restingBuyPrice(client, symbol);
    const ids = new Set<number>();
    for (let i = 0; i < 2; i++) {
      const o = await client.trading.placeOrder({
        symbol,
        side: 'buy',
        type: 'limit',
        quantity: '0.001',
        price,
      });
      ids.add(o.id);
    }
    const canceled = await client.trading.cancelAllOrders({ symbol });
    for (const id of ids) expect(canceled.find((o) => o.id === id)?.status).toBe('cancel');
    expect(await client.trading.openOrders({ symbol })).toEqual([]);
  });

  it('a taker order trades; myTrades and the paging helpers return each record once', async () => {
    const book = await client.market.depth({ symbol, limit: 5 });
    const bestAsk = book.asks[0]![0];
    const filled = await client.trading.placeOrder({
      symbol,
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: bestAsk,
    });
    const trades = await client.trading.myTrades({ symbol, orderId: filled.id });
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((t) => t.orderId === filled.id && t.side === 'buy')).toBe(true);

    let pages = 0;
    const allTrades = await client.allMyTradesFrom({ symbol, onPage: () => pages++ });
    expect(pages).toBeGreaterThan(0);
    expect(new Set(allTrades.map((t) => t.id)).size).toBe(allTrades.length);
    expect(allTrades.map((t) => t.id)).toEqual(expect.arrayContaining(trades.map((t) => t.id)));
    const allOrders = await client.allOrdersFrom({ symbol });
    expect(new Set(allOrders.map((o) => o.id)).size).toBe(allOrders.length);
    expect(allOrders.map((o) => o.id)).toContain(filled.id);
  });

  it('exchange refusals keep their meaning: permission, balance, stop price', async () => {
    const price = await restingBuyPrice(client, symbol);
    const order = { symbol, side: 'buy', type: 'limit', quantity: '0.001', price } as const;
    const denied = await failure(readOnly.trading.placeOrder(order));
    expect(denied.kind).toBe('permission');
    expect(denied.code).toBe(2078);
    const tooMuch = await failure(client.trading.placeOrder({ ...order, quantity: '100000000' }));
    expect(tooMuch.kind).toBe('insufficient-balance');
    expect(tooMuch.exchangeMessage).toMatch(/Not enough/);
    const missing = await failure(client.trading.getOrder({ clientOrderId: 'f'.repeat(32) }));
    expect(missing.kind).toBe('not-found');
  });
});

describe('sub-accounts and auth token', () => {
  it('lists sub-accounts, transfers to one and finds the transfer in the history', async () => {
    const parent = parentOf(sandbox);
    const sub = subsOf(sandbox)[0]!;
    const accounts = await client.subAccounts.accounts();
    expect(accounts.map((a) => a.email)).toContain(sub.email);
    const result = await client.subAccounts.transfer({
      currency: 'USDT',
      amount: '1.5',
      fromEmail: parent.email,
      toEmail: sub.email,
    });
    expect(Number.isInteger(result.txnId)).toBe(true);
    const history = await client.subAccounts.transferHistory();
    const record = history.find((r) => r.txnId === result.txnId);
    expect(record?.to).toBe(sub.email);
    expect(new Decimal(record!.qty).eq('1.5')).toBe(true);
  });

  it('creates a stream auth token; a second call returns the same key', async () => {
    const first = await client.auth.createAuthToken();
    const second = await client.auth.createAuthToken();
    expect(first.auth_key.length).toBeGreaterThan(0);
    expect(second.auth_key).toBe(first.auth_key);
    expect(first.timeout_duration).toBeGreaterThan(0);
  });
});

describe('clock skew', () => {
  it.each([30_000, -30_000, 300_000, -300_000])(
    'signed calls succeed with the local clock off by %d ms',
    async (skew) => {
      const parent = parentOf(sandbox);
      const skewed = clientFor(sandbox, parent.trade, {
        rateLimits: false,
        now: () => Date.now() + skew,
      });
      const info = await skewed.account.info();
      expect(info.canTrade).toBe(true);
      expect(Math.abs(skewed.clockOffsetMs + skew)).toBeLessThan(1000);
      await skewed.close();
    },
  );

  it('a clock that jumps after measuring gets 2098 once, re-measures and succeeds', async () => {
    const parent = parentOf(sandbox);
    let skew = 0;
    const jumping = clientFor(sandbox, parent.trade, {
      rateLimits: false,
      now: () => Date.now() + skew,
    });
    await jumping.account.info();
    skew = 120_000;
    const funds = await jumping.account.funds();
    expect(funds.length).toBeGreaterThan(0);
    expect(Math.abs(jumping.clockOffsetMs + skew)).toBeLessThan(1000);
    await jumping.close();
  });
});

describe('withdraw history', () => {
  it('walks more than a year in < 90-day windows with offset paging, each record once', async () => {
    const email = 'history-walker@example.com';
    sandbox.admin.createAccount({ email });
    const keys = sandbox.admin.createApiKey(email);
    const endTime = Date.now();
    const startTime = endTime - 400 * 86_400_000;
    const seeded = sandbox.admin.seedWithdrawHistory(email, {
      count: 5000,
      fromMs: startTime,
      toMs: endTime - 1000,
      seed: 7,
    });
    const walker = clientFor(sandbox, keys, { rateLimits: false });
    const progress: { done: number; total: number; size: number }[] = [];
    const records = await walker.withdrawHistory({
      startTime,
      endTime,
      onWindow: (w) => {
        progress.push({ done: w.done, total: w.total, size: w.records.length });
      },
    });
    expect(records).toHaveLength(seeded);
    expect(new Set(records.map((r) => r.id)).size).toBe(seeded);
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.every((p) => p.total === 5)).toBe(true);
    // Some window held more than one page, so offset paging was exercised.
    expect(Math.max(...progress.map((p) => p.size))).toBeGreaterThan(1000);
    await walker.close();
  });
});
