/** Shared set-up for the exchange client's integration tests against the real sandbox. */
import Decimal from 'decimal.js';
import { ExchangeClient, type ExchangeClientOptions } from '../../electron/exchange/client';
import type { Sandbox } from '../../electron/sandbox/index';

export interface Keys {
  apiKey: string;
  secretKey: string;
}

export function parentOf(sandbox: Sandbox): { email: string; trade: Keys; readOnly: Keys } {
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent');
  if (!parent) throw new Error('the demo world has no parent account');
  const trade = parent.keys.find((k) => k.canTrade);
  const readOnly = parent.keys.find((k) => !k.canTrade);
  if (!trade || !readOnly) throw new Error('the demo parent needs a trading and a read-only key');
  return { email: parent.email, trade, readOnly };
}

export function subsOf(sandbox: Sandbox): { email: string; keys: Keys }[] {
  return sandbox.world.accounts
    .filter((a) => a.role === 'sub')
    .map((a) => ({ email: a.email, keys: a.keys[0]! }));
}

export function clientFor(
  sandbox: Sandbox,
  keys: Keys | undefined,
  extra: Partial<ExchangeClientOptions> = {},
): ExchangeClient {
  return new ExchangeClient({ baseUrl: sandbox.baseUrl, ...keys, ...extra });
}

/**
 * A buy limit price well below the best bid (so the order rests), a multiple of the symbol's
 * tickSize and at least its minPrice.
 */
export async function restingBuyPrice(client: ExchangeClient, symbol: string): Promise<string> {
  const info = await client.general.exchangeInfo();
  const market = info.symbols.find((s) => s.symbol === symbol);
  if (!market) throw new Error(`no market ${symbol}`);
  const filter = market.filters.find((f) => f.filterType === 'PRICE_FILTER');
  const tick = new Decimal(filter?.tickSize ?? '0.01');
  const minPrice = new Decimal(filter?.minPrice ?? tick);
  const book = await client.market.depth({ symbol, limit: 5 });
  const bestBid = new Decimal(book.bids[0]?.[0] ?? '100');
  const target = Decimal.max(minPrice, bestBid.mul(0.7).div(tick).floor().mul(tick));
  return target.toFixed();
}

export const isHex32 = (s: string) => /^[0-9a-f]{32}$/.test(s);
