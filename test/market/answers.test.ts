/**
 * The market screens' offline copies are exchange answers checked on read: a kept copy of a
 * wrong shape (another app version, damage) is not served when the exchange is gone (the failure
 * is), and a fresh answer replaces it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../electron/core/clock';
import { ExchangeError } from '../../electron/exchange';
import { createLogger } from '../../electron/log';
import { MarketCache } from '../../electron/market/cache';
import { SyncEngine } from '../../electron/sync/engine';
import { PROFILE, scenario, type Scenario } from '../sync/helpers';

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('MarketCache offline copies', () => {
  it('serves none of a wrong shape: the failure comes through instead', async () => {
    current = await scenario({ world: 'demo' });
    const s = current;
    const cache = new MarketCache({
      store: s.store,
      emit: s.emit,
      log: createLogger(() => undefined),
      clock: new SystemClock(),
    });
    const client = s.client();
    // Not started: no job runs, so the REST status is what the market reads tell it.
    const sync = new SyncEngine({ store: s.store, client, profileId: PROFILE, emit: s.emit });
    const session = { profile: { id: PROFILE }, client, sync };
    const query = { symbol: 'btcusdt', interval: '1h' as const, limit: 5 };
    const candles = await cache.klines(session, query);
    const book = await cache.depth(session, { symbol: 'btcusdt', limit: 5 });
    expect(candles.length).toBeGreaterThan(0);
    expect(book.bids.length).toBeGreaterThan(0);
    const kept = (kind: string, key: string) =>
      s.store.db
        .prepare(
          'SELECT answer FROM exchange_answers WHERE profile_id = ? AND kind = ? AND key = ?',
        )
        .pluck()
        .get(PROFILE, kind, key) as string;
    // As the exchange sent them, not as the screen shows them.
    expect(JSON.parse(kept('market.klines', 'btcusdt.1h'))[0]).toHaveLength(6);
    // The candles kept by an older app as views, and a book whose levels lost their amounts.
    s.store.db
      .prepare('UPDATE exchange_answers SET answer = ? WHERE kind = ? AND key = ?')
      .run(JSON.stringify(candles), 'market.klines', 'btcusdt.1h');
    s.store.db
      .prepare('UPDATE exchange_answers SET answer = ? WHERE kind = ? AND key = ?')
      .run(JSON.stringify({ lastUpdateAt: 1, bids: [['1']], asks: [] }), 'market.depth', 'btcusdt');

    await s.sandbox.close();
    await expect(cache.klines(session, query)).rejects.toBeInstanceOf(ExchangeError);
    await expect(cache.depth(session, { symbol: 'btcusdt', limit: 5 })).rejects.toBeInstanceOf(
      ExchangeError,
    );
  });
});
