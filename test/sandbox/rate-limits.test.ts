import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { raw, signed, worldKeys } from './helpers';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start() {
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 0, 0, 0, 100));
  sandbox = await startSandbox({ clock, world: 'demo' });
  return { sandbox, clock, keys: worldKeys(sandbox) };
}

describe('rate limits', () => {
  it('allows the table value per window and answers 429 with Retry-After beyond it', async () => {
    const { sandbox, clock, keys } = await start();
    expect((await raw(sandbox, 'GET', 'depth', { query: 'symbol=btcusdt' })).status).toBe(200);
    expect((await raw(sandbox, 'GET', 'depth', { query: 'symbol=btcusdt' })).status).toBe(200);
    const limited = await raw(sandbox, 'GET', 'depth', { query: 'symbol=btcusdt' });
    expect(limited).toMatchObject({
      status: 429,
      body: { code: 2136, message: 'Too many api request' },
    });
    expect(limited.headers.get('retry-after')).toBe('1');
    // Other endpoints have their own budget.
    expect((await raw(sandbox, 'GET', 'time')).status).toBe(200);
    clock.advance(1000);
    expect((await raw(sandbox, 'GET', 'depth', { query: 'symbol=btcusdt' })).status).toBe(200);

    // Per key: a second key has its own budget; 10/s for POST order.
    const order = {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: '1000',
    };
    for (let i = 0; i < 10; i++)
      expect((await signed(sandbox, keys.trade, 'POST', 'order', order)).status).toBe(200);
    expect((await signed(sandbox, keys.trade, 'POST', 'order', order)).status).toBe(429);
    expect(
      (await signed(sandbox, keys.subKey, 'POST', 'order', { ...order, quantity: '0.0001' }))
        .status,
    ).toBe(200);

    // Per minute limits: coins 5/min, Retry-After is the rest of the minute.
    clock.set(Date.UTC(2026, 2, 1, 0, 1, 0, 0));
    for (let i = 0; i < 5; i++)
      expect((await signed(sandbox, keys.readOnly, 'GET', 'coins')).status).toBe(200);
    clock.advance(20_000);
    const perMinute = await signed(sandbox, keys.readOnly, 'GET', 'coins');
    expect(perMinute.status).toBe(429);
    expect(perMinute.headers.get('retry-after')).toBe('40');
    // Sub-account endpoints: 1 per second.
    expect((await signed(sandbox, keys.trade, 'GET', 'sub_account/accounts')).status).toBe(200);
    expect((await signed(sandbox, keys.trade, 'GET', 'sub_account/accounts')).status).toBe(429);
  });

  it('bans the IP on the third violation within 10 minutes, 2 minutes first, then doubling', async () => {
    const { sandbox, clock } = await start();
    const ping = () => raw(sandbox, 'GET', 'ping');
    const provoke = async () => {
      // One allowed, one 429 (starts the back-off), then two violations during the back-off.
      expect((await ping()).status).toBe(200);
      expect((await ping()).status).toBe(429);
      expect((await ping()).status).toBe(429);
      expect((await ping()).status).toBe(429);
      return ping();
    };
    const bannedAt = clock.now();
    const banned = await provoke();
    expect(banned.status).toBe(418);
    expect(banned.body).toEqual({ code: 2137, message: `IP banned until ${bannedAt + 120_000}` });
    expect(banned.headers.get('retry-after')).toBe('120');
    // Every endpoint answers 418 during the ban, with the remaining seconds.
    clock.advance(60_000);
    const during = await raw(sandbox, 'GET', 'time');
    expect(during.status).toBe(418);
    expect(during.headers.get('retry-after')).toBe('60');
    clock.advance(60_000);
    expect((await ping()).status).toBe(200);
    clock.advance(1000);
    const second = await provoke();
    expect(second.status).toBe(418);
    expect(second.headers.get('retry-after')).toBe('240');
    clock.advance(240_000);
    expect((await ping()).status).toBe(200);
  });

  it('caps bans at 3 days', async () => {
    const { sandbox, clock } = await start();
    let retryAfter = 0;
    for (let round = 0; round < 13; round++) {
      await raw(sandbox, 'GET', 'ping');
      await raw(sandbox, 'GET', 'ping');
      await raw(sandbox, 'GET', 'ping');
      await raw(sandbox, 'GET', 'ping');
      const reply = await raw(sandbox, 'GET', 'ping');
      expect(reply.status).toBe(418);
      retryAfter = Number(reply.headers.get('retry-after'));
      clock.advance(retryAfter * 1000 + 1000);
    }
    expect(retryAfter).toBe(3 * 86_400);
  });

  it('can be switched off for benches', async () => {
    const { sandbox } = await start();
    sandbox.admin.setRateLimits(false);
    for (let i = 0; i < 5; i++) expect((await raw(sandbox, 'GET', 'ping')).status).toBe(200);
  });
});
