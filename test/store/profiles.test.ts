import { afterEach, describe, expect, it } from 'vitest';
import { maskApiKey, openStore, StoreInputError } from '../../electron/store';
import { freshStore, profile, removeTempDirs, tempDir } from './helpers';

afterEach(removeTempDirs);

describe('profiles', () => {
  it('round-trip, list in creation order, update, delete', () => {
    const store = freshStore('a');
    store.profiles.create(profile('b', { createdAt: 1_800_000_000_000, isDemo: true }));
    expect(store.profiles.get('a')).toEqual(profile('a'));
    expect(store.profiles.list().map((p) => p.id)).toEqual(['a', 'b']);
    expect(store.profiles.get('b')?.isDemo).toBe(true);

    const updated = store.profiles.update('a', { name: 'Main', canWithdraw: true });
    expect(updated).toEqual({ ...profile('a'), name: 'Main', canWithdraw: true });
    expect(store.profiles.delete('a')).toBe(true);
    expect(store.profiles.delete('a')).toBe(false);
    expect(store.profiles.get('a')).toBeNull();
    store.close();
  });

  it('reject a duplicate id and updates of a missing profile', () => {
    const store = freshStore('a');
    expect(() => store.profiles.create(profile('a'))).toThrow(StoreInputError);
    expect(() => store.profiles.create(profile('a'))).toThrow('profile a exists already');
    expect(() => store.profiles.update('zz', { name: 'x' })).toThrow('profile zz does not exist');
    store.close();
  });

  it('persist across reopen', () => {
    const dir = tempDir();
    const first = openStore({ dataDir: dir }).store;
    first.profiles.create(profile('kept'));
    first.close();
    const second = openStore({ dataDir: dir }).store;
    expect(second.profiles.get('kept')).toEqual(profile('kept'));
    second.close();
  });

  it('have no column that could hold a secret', () => {
    const store = freshStore();
    const columns = (store.db.pragma('table_info(profiles)') as { name: string }[]).map(
      (c) => c.name,
    );
    expect(columns).toEqual([
      'id',
      'name',
      'base_url',
      'stream_url',
      'api_key_masked',
      'can_trade',
      'can_withdraw',
      'is_demo',
      'created_at',
      'removed_at',
    ]);
    store.close();
  });

  it('maskApiKey shows only the ends of a key', () => {
    expect(maskApiKey('AbCdEfGhIjKlMnOpwxyz')).toBe('AbCd…wxyz');
    expect(maskApiKey('short123')).toBe('…23');
  });

  it('deleting a profile cascades to every cached table', () => {
    const store = freshStore('gone', 'stays');
    for (const id of ['gone', 'stays']) {
      store.settings.set('quote', 'usdt', id);
      store.funds.replaceAll(id, [{ asset: 'BTC', free: '1', locked: '0' }], 10);
      store.funds.addSnapshot(id, { takenAt: 10, quoteAsset: 'usdt', totalValue: '5', assets: [] });
      store.prices.upsertMany(id, [
        {
          symbol: 'btcusdt',
          last: '1',
          open: '1',
          high: '1',
          low: '1',
          bid: '1',
          ask: '1',
          volume: '1',
          at: 1,
        },
      ]);
      store.withdraws.upsertMany(id, [
        {
          id: 'w1',
          partnerTransfer: false,
          amount: '1',
          createdAt: '2024-01-01 00:00:00',
          lastUpdated: '2024-01-01 00:00:00',
          coin: 'BTC',
          status: 0,
          transactionFee: '0',
        },
      ]);
      store.wallet.saveDepositAddress(id, 'BTC', { coin: 'BTC', address: 'a' }, 1);
      store.wallet.replaceCoins(id, [{ coin: 'BTC' }], 1);
      store.subAccounts.replaceAll(
        id,
        [
          {
            email: 's@x',
            status: 'active',
            portfolio: '1',
            created_at: 1,
            balance: [{ symbol: 'BTC', balance: '1' }],
          },
        ],
        1,
      );
      store.subAccounts.upsertTransfers(id, [
        { txnId: 1, asset: 'BTC', from: 'a@x', to: 's@x', qty: '1', status: 'success', time: 1 },
      ]);
      store.orders.upsertOrders(id, [
        {
          id: 1,
          clientOrderId: 'c',
          symbol: 'btcusdt',
          side: 'buy',
          type: 'limit',
          status: 'wait',
          price: '1',
          origQty: '1',
          executedQty: '0',
          createdTime: 1,
          updatedTime: 1,
        },
      ]);
      store.orders.insertTrades(id, [
        {
          id: 1,
          symbol: 'btcusdt',
          orderId: 1,
          side: 'buy',
          price: '1',
          qty: '1',
          quoteQty: '1',
          fee: '0.001',
          feeCurrency: 'btc',
          isBuyerMaker: true,
          time: 1,
        },
      ]);
      store.notifications.add(id, { kind: 'fill', title: 't', body: 'b', time: 1 });
      store.syncState.set(id, 'withdraws', { upTo: 1 }, 1);
    }
    store.profiles.delete('gone');

    const tables = [
      'profile_settings',
      'funds',
      'fund_snapshots',
      'prices',
      'withdraws',
      'deposit_addresses',
      'coins',
      'sub_accounts',
      'sub_account_balances',
      'sub_transfers',
      'orders',
      'own_trades',
      'notifications',
      'sync_state',
    ];
    for (const table of tables) {
      const count = (id: string): number =>
        (
          store.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE profile_id = ?`).get(id) as {
            n: number;
          }
        ).n;
      expect(`${table}:${count('gone')}`).toBe(`${table}:0`);
      expect(`${table}:${count('stays')}`).toBe(`${table}:1`);
    }
    store.close();
  });
});

describe('settings', () => {
  it('keep app-wide and per-profile values apart, as JSON', () => {
    const store = freshStore('a', 'b');
    store.settings.set('theme', 'dark');
    store.settings.set('notifications', { fills: true, cancels: false }, 'a');
    store.settings.set('theme', 'light', 'b');
    expect(store.settings.get('theme')).toBe('dark');
    expect(store.settings.get('theme', 'b')).toBe('light');
    expect(store.settings.get('theme', 'a')).toBeUndefined();
    expect(store.settings.get('notifications', 'a')).toEqual({ fills: true, cancels: false });
    store.settings.set('theme', 'system');
    expect(store.settings.all()).toEqual({ theme: 'system' });
    expect(store.settings.all('a')).toEqual({ notifications: { fills: true, cancels: false } });
    expect(store.settings.delete('theme')).toBe(true);
    expect(store.settings.delete('theme')).toBe(false);
    expect(store.settings.get('theme')).toBeUndefined();
    expect(() => store.settings.set('', 1)).toThrow('setting key must not be empty');
    store.close();
  });
});
