/**
 * A market's past, made in the sandbox and read back from it: two accounts trading with each
 * other at a time before now by the exchange's clock (a 1-hour move needs a price an hour old),
 * and the move over the last hour as the sandbox's own trades say.
 */
import { ExchangeClient } from '../../electron/exchange/client';
import type { TestSandbox } from '../../electron/sandbox/testing';
import { Decimal, divide } from '../../shared/exact-decimal';

type Key = { apiKey: string; secretKey: string };

/** `seller` sells `quantity` of `symbol` to `buyer` at `price`, `minutesAgo` by the exchange. */
export async function tradeAgo(
  sandbox: TestSandbox,
  keys: { seller: Key; buyer: Key },
  minutesAgo: number,
  order: { symbol: string; price: string; quantity: string },
): Promise<void> {
  sandbox.admin.faults.skewClock(-minutesAgo * 60_000);
  // Clients of their own: each measures its offset to the exchange's clock as it is now.
  const seller = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...keys.seller });
  const buyer = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...keys.buyer });
  try {
    await seller.trading.placeOrder({ ...order, type: 'limit', side: 'sell' });
    await buyer.trading.placeOrder({ ...order, type: 'limit', side: 'buy' });
  } finally {
    sandbox.admin.faults.skewClock(0);
    await Promise.all([seller.close(), buyer.close()]);
  }
}

/**
 * The move of a market over the hour before now from the sandbox's public trades: from the last
 * trade at least an hour old to the last trade, signed, in percent to two places.
 */
export async function hourMove(
  sandbox: TestSandbox,
  symbol: string,
): Promise<{ change: string; price: string }> {
  const client = new ExchangeClient({ baseUrl: sandbox.baseUrl });
  try {
    const trades = await client.market.trades({ symbol, limit: 1000 });
    trades.sort((a, b) => a.time - b.time || a.id - b.id);
    const hourAgo = Date.now() - 3_600_000;
    const reference = trades.filter((t) => t.time < hourAgo).at(-1)!.price;
    const price = trades.at(-1)!.price;
    const change = divide(new Decimal(price).minus(reference).times(100), reference);
    const text = change.toDecimalPlaces(2).toFixed();
    return { change: change.isNegative() ? text : `+${text}`, price };
  } finally {
    await client.close();
  }
}
