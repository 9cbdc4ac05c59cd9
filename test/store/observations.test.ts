/**
 * Live balance events as the ledger's balance observations (the record's balance_observations):
 * partial (only the assets named), the total of free and locked, exact, merged with one kept at
 * the same millisecond, and not kept when only the funds are asked for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freshStore, removeTempDirs } from './helpers';

afterEach(() => removeTempDirs());

function observations(store: ReturnType<typeof freshStore>) {
  return store.db
    .prepare<[], { account: string; time: number; balances: string; complete: number }>(
      `SELECT account, time, balances, complete FROM balance_observations
         WHERE profile_id = 'p1' ORDER BY time`,
    )
    .all()
    .map((row) => ({ ...row, balances: JSON.parse(row.balances) as Record<string, string> }));
}

describe('balance observations from live balance events', () => {
  it('keeps each asset named, free plus locked, as a partial observation of the main account', () => {
    const store = freshStore();
    store.funds.applyBalanceChanges(
      'p1',
      [
        { asset: 'BTC', free: '0.12345678', locked: '0.00000002' },
        { asset: 'usdt', free: '0.1', locked: '0.2' },
      ],
      1_000,
    );
    expect(observations(store)).toEqual([
      { account: 'main', time: 1_000, balances: { btc: '0.1234568', usdt: '0.3' }, complete: 0 },
    ]);
    store.close();
  });

  it('merges a second event of the same millisecond, the later figure winning', () => {
    const store = freshStore();
    store.funds.observeBalances('p1', [{ asset: 'btc', free: '1', locked: '0' }], 2_000);
    store.funds.observeBalances(
      'p1',
      [
        { asset: 'btc', free: '0.5', locked: '0' },
        { asset: 'eth', free: '3', locked: '1' },
      ],
      2_000,
    );
    store.funds.observeBalances('p1', [{ asset: 'eth', free: '0', locked: '0' }], 3_000);
    expect(observations(store)).toEqual([
      { account: 'main', time: 2_000, balances: { btc: '0.5', eth: '4' }, complete: 0 },
      { account: 'main', time: 3_000, balances: { eth: '0' }, complete: 0 },
    ]);
    store.close();
  });

  it('keeps none when the funds alone are written', () => {
    const store = freshStore();
    store.funds.applyBalanceChanges('p1', [{ asset: 'btc', free: '1', locked: '0' }], 4_000, false);
    expect(observations(store)).toEqual([]);
    expect(store.funds.list('p1').rows.map((row) => [row.asset, row.free])).toEqual([['btc', '1']]);
    store.close();
  });
});
