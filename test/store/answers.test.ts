/**
 * Exchange answers kept whole (the cache's exchange_answers, store.answers) on real SQLite files:
 * read back only when the version and the shape are the reader's (a row of another version, of a
 * wrong shape or not JSON at all reads as absent); a wrong shape is refused on the way in, naming
 * where; the cache's migration carries the account and the markets' assets over from sync_state
 * and drops the market screens' old copies; sync's port reads through the same check.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accountInfoSchema, klineListSchema } from '../../electron/exchange/wire';
import {
  CACHE_FILE,
  CACHE_MIGRATIONS,
  openStore,
  StoreInputError,
  type AnswerKind,
  type Store,
} from '../../electron/store';
import { openDatabase } from '../../electron/store/database';
import { ANSWERS, storedAccountInfo, storePort } from '../../electron/sync/store-port';
import { freshStore, profile, removeTempDirs, tempDir } from './helpers';

afterEach(() => removeTempDirs());

const P = 'p1';
const KLINES: AnswerKind<z.infer<typeof klineListSchema>> = {
  name: 'test.klines',
  version: 2,
  schema: klineListSchema,
};
const CANDLES = [
  [1_700_000_000_000, '1.5', '2', '1', '1.75', '10'],
  [1_700_003_600_000, '1.75', '1.8', '1.7', '1.7', '0.00000001'],
] as z.infer<typeof klineListSchema>;

/** Overwrites a kept row as another app version, or damage, would have left it. */
function tamper(
  store: Store,
  kind: string,
  key: string,
  patch: { answer?: string; version?: number },
) {
  const sets = Object.keys(patch).map((column) => `${column} = @${column}`);
  store.db
    .prepare(
      `UPDATE exchange_answers SET ${sets.join(', ')} WHERE profile_id = @p AND kind = @kind AND key = @key`,
    )
    .run({ ...patch, p: P, kind, key });
}

describe('store.answers', () => {
  it('gives back what was kept, per key, with when it was fetched, after a reopen', () => {
    const dataDir = tempDir();
    let store = openStore({ dataDir }).store;
    store.profiles.create(profile(P));
    store.answers.put(P, KLINES, CANDLES, 5_000, 'btcusdt.1h');
    store.answers.put(P, KLINES, CANDLES.slice(1), 6_000, 'ethusdt.1h');
    store.close();
    store = openStore({ dataDir }).store;
    expect(store.answers.get(P, KLINES, 'btcusdt.1h')).toEqual({
      answer: CANDLES,
      fetchedAt: 5_000,
    });
    expect(store.answers.get(P, KLINES, 'ethusdt.1h')?.answer).toEqual(CANDLES.slice(1));
    expect(store.answers.get(P, KLINES, 'solusdt.1h')).toBeNull();
    expect(store.answers.get('p2', KLINES, 'btcusdt.1h')).toBeNull();
    store.close();
  });

  it('treats a kept answer of a wrong shape, not JSON, or of another version as absent', () => {
    const store = freshStore(P);
    const put = (key: string) => store.answers.put(P, KLINES, CANDLES, 5_000, key);
    put('shape');
    // A candle whose close is an object: the wire schema refuses it, so it is never handed on.
    tamper(store, 'test.klines', 'shape', {
      answer: JSON.stringify([[1_700_000_000_000, '1', '2', '1', { close: 1 }, '1']]),
    });
    put('object');
    tamper(store, 'test.klines', 'object', { answer: JSON.stringify({ candles: CANDLES }) });
    put('text');
    tamper(store, 'test.klines', 'text', { answer: '[[1700000000000, "1"' });
    put('older');
    tamper(store, 'test.klines', 'older', { version: 1 });
    put('newer');
    tamper(store, 'test.klines', 'newer', { version: 3 });
    for (const key of ['shape', 'object', 'text', 'older', 'newer']) {
      expect(store.answers.get(P, KLINES, key), key).toBeNull();
    }
    // Fetched again, it is kept again, at the reader's version.
    put('older');
    expect(store.answers.get(P, KLINES, 'older')?.answer).toEqual(CANDLES);
    store.close();
  });

  it('refuses to keep an answer of a wrong shape, naming where, and keeps the one it had', () => {
    const store = freshStore(P);
    store.answers.put(P, KLINES, CANDLES, 5_000, 'btcusdt.1h');
    const wrong = [[1_700_000_000_000, '1', '2', 'low', '1', '1']] as unknown as typeof CANDLES;
    expect(() => store.answers.put(P, KLINES, wrong, 6_000, 'btcusdt.1h')).toThrow(StoreInputError);
    expect(() => store.answers.put(P, KLINES, wrong, 6_000, 'btcusdt.1h')).toThrow(/at 0\.3/);
    expect(store.answers.get(P, KLINES, 'btcusdt.1h')).toEqual({
      answer: CANDLES,
      fetchedAt: 5_000,
    });
    store.close();
  });
});

describe('sync’s answers', () => {
  it('reads the account and the markets’ assets through the check', () => {
    const store = freshStore(P);
    const port = storePort(store);
    port.putAccount(
      P,
      { accountType: 'SPOT', canTrade: true, canWithdraw: false, updateTime: 42 },
      7_000,
    );
    port.replaceSymbols(
      P,
      [{ symbol: 'btcusdt', baseAsset: 'BTC', quoteAsset: 'USDT' }] as never,
      7_000,
    );
    expect(storedAccountInfo(store, P)).toEqual({
      info: { accountType: 'SPOT', canTrade: true, canWithdraw: false, updateTime: 42 },
      fetchedAt: 7_000,
    });
    expect(port.symbolAssets(P)).toEqual([
      { symbol: 'btcusdt', baseAsset: 'btc', quoteAsset: 'usdt' },
    ]);
    tamper(store, ANSWERS.account.name, '', { answer: JSON.stringify({ canTrade: 'perhaps' }) });
    tamper(store, ANSWERS.symbolAssets.name, '', {
      answer: JSON.stringify([{ symbol: 'btcusdt', baseAsset: 7 }]),
    });
    expect(storedAccountInfo(store, P)).toBeNull();
    expect(port.symbolAssets(P)).toEqual([]);
    store.close();
  });
});

describe('the cache migration to exchange_answers', () => {
  it('carries the account and the assets over from sync_state and drops the market copies', () => {
    const dataDir = tempDir();
    const first = openStore({ dataDir }).store;
    first.profiles.create(profile(P));
    first.close();
    // The cache as version 1 left it: answers in sync_state's cursor column.
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(dataDir, CACHE_FILE + suffix), { force: true });
    const older = openDatabase({
      dataDir,
      file: 'cache',
      migrations: CACHE_MIGRATIONS.slice(0, 1),
    });
    const state = older.db.prepare(
      'INSERT INTO sync_state (profile_id, kind, cursor, updated_at) VALUES (?, ?, ?, ?)',
    );
    const account = { accountType: 'SPOT', canTrade: true, canWithdraw: true, updateTime: 1 };
    const assets = [{ symbol: 'ethbtc', baseAsset: 'eth', quoteAsset: 'btc' }];
    state.run(P, 'account.info', JSON.stringify(account), 100);
    state.run(P, 'symbols.assets', JSON.stringify(assets), 200);
    state.run(P, 'market.symbols', JSON.stringify([{ symbol: 'ethbtc', tickSize: '0.01' }]), 300);
    state.run(P, 'market.klines.ethbtc.1h', JSON.stringify([{ time: 1, open: '1' }]), 300);
    state.run(P, 'orders.symbols', JSON.stringify(['ethbtc']), 400);
    older.db.close();

    const store = openStore({ dataDir }).store;
    expect(store.cacheVersion).toBe(CACHE_MIGRATIONS.length);
    expect(storedAccountInfo(store, P)).toEqual({ info: account, fetchedAt: 100 });
    expect(storePort(store).symbolAssets(P)).toEqual(assets);
    expect(store.syncState.list(P).map((row) => row.kind)).toEqual(['orders.symbols']);
    const kinds = store.db.prepare('SELECT kind FROM exchange_answers ORDER BY kind').pluck().all();
    expect(kinds).toEqual(['account', 'symbol-assets']);
    store.close();
  });

  it('keeps an answer its reader refuses out of every read, of either kind', () => {
    const store = freshStore(P);
    const kind: AnswerKind<z.infer<typeof accountInfoSchema>> = ANSWERS.account;
    store.answers.put(
      P,
      kind,
      { accountType: 'SPOT', canTrade: true, canWithdraw: true, updateTime: 1 },
      1,
    );
    tamper(store, 'account', '', {
      answer: JSON.stringify({ accountType: 'SPOT', updateTime: 'x' }),
    });
    expect(store.answers.get(P, kind)).toBeNull();
    store.close();
  });
});
