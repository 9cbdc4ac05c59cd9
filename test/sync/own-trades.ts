/**
 * Own trades made in a sandbox over its REST interface, for the trade import and ledger suites:
 * a counterparty's resting order taken by the trader (one fill each), or self-trades in bulk (one
 * resting order filled by many; each fill is two rows, one per order, under one trade id).
 */
import { ExchangeClient } from '../../electron/exchange';
import type { TestSandbox } from '../../electron/sandbox/testing';

export interface TraderKeys {
  apiKey: string;
  secretKey: string;
}

export function tradingClient(sandbox: TestSandbox, keys: TraderKeys): ExchangeClient {
  return new ExchangeClient({
    baseUrl: sandbox.baseUrl,
    apiKey: keys.apiKey,
    secretKey: keys.secretKey,
    rateLimits: false,
    timeoutMs: 10_000,
  });
}

/** `count` fills of `qty` at `price` between the account and itself: 2 × count own-trade rows. */
export async function selfTrades(
  client: ExchangeClient,
  input: { symbol: string; qty: string; price: string; count: number; totalQty: string },
): Promise<void> {
  await client.trading.placeOrder({
    symbol: input.symbol,
    side: 'sell',
    type: 'limit',
    quantity: input.totalQty,
    price: input.price,
  });
  const inFlight = new Set<Promise<unknown>>();
  for (let i = 0; i < input.count; i++) {
    const order = client.trading
      .placeOrder({
        symbol: input.symbol,
        side: 'buy',
        type: 'limit',
        quantity: input.qty,
        price: input.price,
      })
      .finally(() => inFlight.delete(order));
    inFlight.add(order);
    if (inFlight.size >= 8) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}

/** One fill: the counterparty rests the opposite order, the trader takes it. */
export async function takeTrade(
  trader: ExchangeClient,
  counterparty: ExchangeClient,
  input: { symbol: string; side: 'buy' | 'sell'; qty: string; price: string },
): Promise<void> {
  await counterparty.trading.placeOrder({
    symbol: input.symbol,
    side: input.side === 'buy' ? 'sell' : 'buy',
    type: 'limit',
    quantity: input.qty,
    price: input.price,
  });
  await trader.trading.placeOrder({
    symbol: input.symbol,
    side: input.side,
    type: 'limit',
    quantity: input.qty,
    price: input.price,
  });
}

const COUNTERPARTY = 'counterparty@example.test';

/**
 * A new account `email` holding `usdt`, and a counterparty holding 100,000 BTC, ETH and USDT
 * whose resting orders it takes (takeTrade).
 */
export function traderAndCounterparty(
  sandbox: TestSandbox,
  email: string,
  usdt: string,
): { trader: ExchangeClient; counterparty: ExchangeClient } {
  const { admin } = sandbox;
  admin.createAccount({ email });
  admin.createAccount({ email: COUNTERPARTY });
  const trader = tradingClient(sandbox, admin.createApiKey(email, { canTrade: true }));
  const counterparty = tradingClient(sandbox, admin.createApiKey(COUNTERPARTY, { canTrade: true }));
  admin.credit(email, 'usdt', usdt);
  for (const asset of ['btc', 'eth', 'usdt']) admin.credit(COUNTERPARTY, asset, '100000');
  return { trader, counterparty };
}

/**
 * A last BTC price in USDT, made between a third account and the counterparty: a ledger
 * reporting in BTC then values everything through USDT.
 */
export async function btcPriceWith(
  sandbox: TestSandbox,
  counterparty: ExchangeClient,
  price: string,
): Promise<void> {
  const email = 'btc-maker@example.test';
  sandbox.admin.createAccount({ email });
  sandbox.admin.credit(email, 'usdt', '100000');
  const maker = tradingClient(sandbox, sandbox.admin.createApiKey(email, { canTrade: true }));
  try {
    await takeTrade(maker, counterparty, { symbol: 'btcusdt', side: 'buy', qty: '0.01', price });
  } finally {
    await maker.close();
  }
}
