/**
 * Unknown outcomes against the real sandbox's fault injection: a 5xx after the write took effect,
 * a 5xx before it, and a timeout. The caller gets the true outcome and nothing happens twice.
 * recvWindow is 1000 ms so "not found" becomes conclusive quickly.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../electron/exchange/client';
import { ExchangeError } from '../../electron/exchange/errors';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { clientFor, parentOf, restingBuyPrice, subsOf } from './helpers';

let sandbox: Sandbox;
let client: ExchangeClient;
let price: string;
const symbol = 'btcusdt';
const ORDER_PATH = '/sapi/v1/order';
const TRANSFER_PATH = '/sapi/v1/sub_account/fund_transfer';

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false });
  client = clientFor(sandbox, parentOf(sandbox).trade, {
    rateLimits: false,
    recvWindow: 1000,
    timeoutMs: 500,
  });
  price = await restingBuyPrice(client, symbol);
});

beforeEach(() => sandbox.admin.faults.clear());

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

async function ordersWithClientId(clientOrderId: string) {
  const all = await client.allOrdersFrom({ symbol });
  return all.filter((o) => o.clientOrderId === clientOrderId);
}

function newOrder(clientOrderId: string) {
  return { symbol, side: 'buy', type: 'limit', quantity: '0.002', price, clientOrderId } as const;
}

describe('placing an order with an unknown outcome', () => {
  it('a 5xx after placement: the caller gets the order, exactly one exists', async () => {
    const clientOrderId = 'a'.repeat(32);
    sandbox.admin.faults.inject({ method: 'POST', path: ORDER_PATH }, { kind: 'error-after' });
    const order = await client.trading.placeOrder(newOrder(clientOrderId));
    expect(order.clientOrderId).toBe(clientOrderId);
    expect(order.status).toBe('wait');
    expect(await ordersWithClientId(clientOrderId)).toHaveLength(1);
  });

  it('a 5xx before placement: the caller gets a server error, nothing is placed', async () => {
    const clientOrderId = 'b'.repeat(32);
    sandbox.admin.faults.inject({ method: 'POST', path: ORDER_PATH }, { kind: 'error-before' });
    const error = await client.trading.placeOrder(newOrder(clientOrderId)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).kind).toBe('server');
    expect((error as ExchangeError).status).toBe(500);
    expect((error as ExchangeError).message).toMatch(/was not placed/);
    expect(await ordersWithClientId(clientOrderId)).toHaveLength(0);
  });

  it('a timeout: the caller gets the order once the exchange has it, exactly one exists', async () => {
    const clientOrderId = 'c'.repeat(32);
    sandbox.admin.faults.inject({ method: 'POST', path: ORDER_PATH }, { kind: 'latency', ms: 700 });
    const order = await client.trading.placeOrder(newOrder(clientOrderId));
    expect(order.clientOrderId).toBe(clientOrderId);
    expect(await ordersWithClientId(clientOrderId)).toHaveLength(1);
  });
});

describe('canceling with an unknown outcome', () => {
  it('a 5xx after the cancel took effect: the caller gets the canceled order', async () => {
    const placed = await client.trading.placeOrder(newOrder('d'.repeat(32)));
    sandbox.admin.faults.inject({ method: 'DELETE', path: ORDER_PATH }, { kind: 'error-after' });
    const canceled = await client.trading.cancelOrder({ symbol, orderId: placed.id });
    expect(canceled.id).toBe(placed.id);
    expect(canceled.status).toBe('cancel');
  });

  it('a 5xx before the cancel: the caller hears it was not canceled; the order is still open', async () => {
    const placed = await client.trading.placeOrder(newOrder('e'.repeat(32)));
    sandbox.admin.faults.inject({ method: 'DELETE', path: ORDER_PATH }, { kind: 'error-before' });
    const error = await client.trading.cancelOrder({ symbol, orderId: placed.id }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as ExchangeError).kind).toBe('server');
    expect((error as ExchangeError).message).toMatch(/not canceled/);
    expect((await client.trading.getOrder({ orderId: placed.id })).status).toBe('wait');
    await client.trading.cancelOrder({ symbol, orderId: placed.id });
  });
});

describe('sub-account transfer with an unknown outcome', () => {
  const amount = '2.25';

  async function matchingTransfers(from: string, to: string) {
    const history = await client.subAccounts.transferHistory();
    return history.filter(
      (r) =>
        r.from === from &&
        r.to === to &&
        new Decimal(r.qty).eq(amount) &&
        r.asset.toUpperCase() === 'USDT',
    );
  }

  it('a 5xx after the transfer: exactly one new transfer, found despite an identical earlier one', async () => {
    const parent = parentOf(sandbox);
    const sub = subsOf(sandbox)[0]!;
    const input = { currency: 'USDT', amount, fromEmail: parent.email, toEmail: sub.email };
    // An identical transfer made just before must not be mistaken for the one whose answer is lost.
    const earlier = await client.subAccounts.transfer(input);
    const before = await matchingTransfers(parent.email, sub.email);
    sandbox.admin.faults.inject({ method: 'POST', path: TRANSFER_PATH }, { kind: 'error-after' });
    const result = await client.subAccounts.transfer(input);
    expect(result.txnId).not.toBe(earlier.txnId);
    const after = await matchingTransfers(parent.email, sub.email);
    expect(after).toHaveLength(before.length + 1);
    expect(after.map((r) => r.txnId)).toContain(result.txnId);
  });

  it('a 5xx before the transfer: the caller gets an error and no transfer exists', async () => {
    const parent = parentOf(sandbox);
    const sub = subsOf(sandbox)[1] ?? subsOf(sandbox)[0]!;
    const before = await matchingTransfers(parent.email, sub.email);
    sandbox.admin.faults.inject({ method: 'POST', path: TRANSFER_PATH }, { kind: 'error-before' });
    const error = await client.subAccounts
      .transfer({ currency: 'USDT', amount, fromEmail: parent.email, toEmail: sub.email })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as ExchangeError).kind).toBe('server');
    expect((error as ExchangeError).message).toMatch(/was not made/);
    expect(await matchingTransfers(parent.email, sub.email)).toHaveLength(before.length);
  });
});
