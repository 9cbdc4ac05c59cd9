/**
 * Pacing against the real sandbox's rate limiter (rate limits on). Real time, kept short: a burst
 * of 10 calls to a 1-per-second endpoint and 16 to a 2-per-second one run side by side (~9 s).
 * The point is that the client's pacing matches the exchange's fixed-window counting: every status
 * code seen on the wire is watched through undici's diagnostics channel, and none is a 429 or 418.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeLimiters } from '../../electron/exchange/limits';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { clientFor, parentOf } from './helpers';

let sandbox: Sandbox;
const statuses: number[] = [];
const onHeaders = (message: unknown) => {
  statuses.push((message as { response: { statusCode: number } }).response.statusCode);
};

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: true });
  subscribe('undici:request:headers', onHeaders);
});

afterAll(async () => {
  unsubscribe('undici:request:headers', onHeaders);
  await sandbox?.close();
});

/**
 * Another program on the same IP uses up `endpoint`'s 1-per-second window: it asks until the
 * exchange says 429 (two asks may fall in two windows).
 */
async function useUpWindow(endpoint: string): Promise<void> {
  for (let ask = 1; ask <= 5; ask++) {
    if ((await fetch(`${sandbox.baseUrl}/sapi/v1/${endpoint}`)).status === 429) return;
  }
  throw new Error(`five asks of ${endpoint} in a row were all answered`);
}

describe('pacing', () => {
  it('a burst on 1/s and 2/s endpoints completes without a single 429 or 418', async () => {
    const email = 'pacing@example.com';
    sandbox.admin.createAccount({ email });
    const keys = sandbox.admin.createApiKey(email);
    // The app's clients share its limiters (built once in app.ts); so do these.
    const limiters = new ExchangeLimiters();
    const client = clientFor(sandbox, keys, { limiters });
    // One client shares identical reads in flight (single-flight), so each call of the burst is
    // a different read: funds through clients of their own (the pacing is the key's, shared by
    // every client of it), the book at different depths.
    const others = Array.from({ length: 9 }, () => clientFor(sandbox, keys, { limiters }));
    statuses.length = 0;
    const funds = [client, ...others].map((each) => each.account.funds());
    const limits = [1, 5, 10, 20, 50, 100, 500, 1000] as const;
    const depth = ['btcusdt', 'ethusdt'].flatMap((symbol) =>
      limits.map((limit) => client.market.depth({ symbol, limit })),
    );
    await funds[0];
    // The other nine are queued behind the first, a second apart: a new call would wait. (How
    // long is a time, and a loaded machine's event loop eats into it before this line runs.)
    expect(client.queueWaitMs('funds')).toBeGreaterThan(0);
    const results = await Promise.all([...funds, ...depth]);
    expect(results).toHaveLength(26);
    expect(statuses.filter((s) => s === 429 || s === 418)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(26);
    expect(client.queueWaitMs('funds')).toBeLessThanOrEqual(1100);
    await Promise.all([client, ...others].map((each) => each.close()));
    limiters.close();
  });

  it('a 429 caused elsewhere pauses the endpoint for Retry-After and the read goes through', async () => {
    const client = clientFor(sandbox, undefined);
    // Another program on the same IP uses up the systemStatus window and gets a 429 itself.
    await useUpWindow('systemStatus');
    statuses.length = 0;
    const status = await client.general.systemStatus();
    expect(typeof status.status).toBe('string');
    expect(statuses.filter((s) => s === 418)).toEqual([]);
    await client.close();
  });

  it('a clock read refused with a 429 waits for Retry-After, and the signed call goes through', async () => {
    // Another program on the same IP (the app's previous run, say) uses up the time window; the
    // window may end between that and the client's read, so this is tried until a 429 is met.
    for (let attempt = 1; ; attempt++) {
      const client = clientFor(sandbox, parentOf(sandbox).trade);
      await useUpWindow('time');
      statuses.length = 0;
      // The first signed call reads the exchange's clock first.
      const info = await client.account.info();
      await client.close();
      expect(typeof info.canTrade).toBe('boolean');
      expect(statuses.filter((s) => s === 418)).toEqual([]);
      if (statuses.includes(429)) break;
      expect(attempt, 'the clock read never met the exhausted window').toBeLessThan(5);
    }
  });
});
