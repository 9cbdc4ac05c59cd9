/**
 * The sandbox's own state, read by a journey to check the app's figures against: a client of the
 * exchange on the parent account's trading key, reads that wait out the rate limit the app shares
 * with the test, and the figures as a person reads them on screen.
 */
import { test } from '@playwright/test';
import Decimal from 'decimal.js';
import { ExchangeClient } from '../../../electron/exchange/client';
import { ExchangeError } from '../../../electron/exchange/errors';
import { startStack, tradingKey, type Stack, type WorldInfo } from './stack';

/** A client of the sandbox with the parent account's trading key. */
export function exchangeClient(world: WorldInfo, key: { apiKey: string; secretKey: string }) {
  return new ExchangeClient({
    baseUrl: world.baseUrl,
    apiKey: key.apiKey,
    secretKey: key.secretKey,
  });
}

/**
 * The stack the tests of a spec share, and a client of its exchange: started before the first
 * test, closed after the last. The fields are set once the spec's beforeAll has run.
 */
export function sharedStack(options: { simulation?: boolean } = {}): {
  stack: Stack;
  exchange: ExchangeClient;
} {
  const shared = {} as { stack: Stack; exchange: ExchangeClient };
  test.beforeAll(async () => {
    shared.stack = await startStack(options);
    shared.exchange = exchangeClient(shared.stack.world, tradingKey(shared.stack));
  });
  test.afterAll(async () => {
    await shared.exchange?.close();
    await shared.stack?.close();
  });
  return shared;
}

/**
 * A read of the exchange's own state. The app spends the same key's and address's request budget,
 * so a read the sandbox asks to slow down waits and asks again (the budget refills each second).
 */
export async function fromExchange<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      const limited = error instanceof ExchangeError && error.kind === 'rate-limited';
      if (!limited || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** The free balances and the last price of a market, as the sandbox holds them now. */
export async function sandboxFacts(exchange: ExchangeClient, symbol: string) {
  const funds = await fromExchange(() => exchange.account.funds());
  const ticker = await fromExchange(() => exchange.market.ticker({ symbol }));
  const free = (asset: string) => new Decimal(funds.find((f) => f.asset === asset)?.free ?? '0');
  return { free, last: new Decimal(ticker.lastPrice) };
}

/** "48250.75" -> "48,250.75": the figure as a person reads it, exactly. */
export function grouped(value: Decimal): string {
  const [integer = '0', fraction] = value.toFixed().split('.');
  const digits = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${digits}.${fraction}` : digits;
}

/** A figure read off the screen ("1,234.5") as a decimal; nothing shown reads as 0. */
export function shownDecimal(text: string | null): Decimal {
  return new Decimal((text ?? '').replace(/,/g, '').trim() || '0');
}
