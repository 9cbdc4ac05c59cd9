import { afterEach, describe, expect, it } from 'vitest';
import { freshStore, removeTempDirs } from './helpers';

afterEach(removeTempDirs);

describe('wallet', () => {
  it('deposit addresses: one per (coin, network), re-fetch updates, tag/url default to empty', () => {
    const store = freshStore();
    store.wallet.saveDepositAddress(
      'p1',
      'BTC',
      { coin: 'BTC', address: 'bc1-old', tag: '', url: 'https://x/bc1' },
      10,
    );
    store.wallet.saveDepositAddress(
      'p1',
      'BTC',
      { coin: 'BTC', address: 'bc1-new', tag: '', url: 'https://x/bc1' },
      20,
    );
    const xrp = store.wallet.saveDepositAddress('p1', 'XRP', { coin: 'XRP', address: 'r1' }, 30);
    expect(xrp).toEqual({
      coin: 'XRP',
      network: 'XRP',
      address: 'r1',
      tag: '',
      url: '',
      fetchedAt: 30,
    });
    store.wallet.saveDepositAddress(
      'p1',
      'BSC',
      { coin: 'USDT', address: '0xabc', tag: 'memo-7' },
      40,
    );
    expect(store.wallet.getDepositAddress('p1', 'BTC', 'BTC')).toEqual({
      coin: 'BTC',
      network: 'BTC',
      address: 'bc1-new',
      tag: '',
      url: 'https://x/bc1',
      fetchedAt: 20,
    });
    expect(
      store.wallet.listDepositAddresses('p1').map((a) => `${a.coin}/${a.network}/${a.tag}`),
    ).toEqual(['BTC/BTC/', 'USDT/BSC/memo-7', 'XRP/XRP/']);
    expect(store.wallet.getDepositAddress('p1', 'BTC', 'LN')).toBeNull();
    expect(() =>
      store.wallet.saveDepositAddress('p1', '', { coin: 'BTC', address: 'a' }, 1),
    ).toThrow('deposit address needs a coin and a network');
    store.close();
  });

  it('coins: replaced as a list, stored as the exchange sent them (extra fields kept)', () => {
    const store = freshStore();
    const btc = {
      coin: 'BTC',
      name: 'Bitcoin',
      networkList: [{ network: 'BTC', withdrawFee: '0.0005' }],
      futureField: 1,
    };
    store.wallet.replaceCoins('p1', [btc, { coin: 'ETH', name: 'Ether', networkList: [] }], 100);
    store.wallet.replaceCoins('p1', [btc], 200);
    expect(store.wallet.listCoins('p1')).toEqual([{ coin: 'BTC', info: btc, fetchedAt: 200 }]);
    expect(store.wallet.getCoin('p1', 'BTC')?.info).toEqual(btc);
    expect(store.wallet.getCoin('p1', 'ETH')).toBeNull();
    expect(() => store.wallet.replaceCoins('p1', [btc, btc], 1)).toThrow('coin BTC appears twice');
    expect(store.wallet.listCoins('p1')).toHaveLength(1);
    store.close();
  });
});

describe('sub-accounts', () => {
  const record = (email: string, balances: [string, string][], created = 1) => ({
    email,
    status: 'active',
    portfolio: '12.5',
    created_at: created,
    balance: balances.map(([symbol, balance]) => ({ symbol, balance })),
    action: 'none',
    emailVerification: 'verified',
  });

  it('replaceAll stores accounts with balances; a later list replaces the earlier one', () => {
    const store = freshStore();
    store.subAccounts.replaceAll(
      'p1',
      [
        record(
          'a@x',
          [
            ['BTC', '1'],
            ['USDT', '2.5'],
          ],
          1,
        ),
        record('b@x', [], 2),
      ],
      100,
    );
    store.subAccounts.replaceAll(
      'p1',
      [record('a@x', [['BTC', '0.5']], 1), record('c@x', [['ETH', '3']], 3)],
      200,
    );
    expect(store.subAccounts.list('p1')).toEqual({
      rows: [
        {
          email: 'a@x',
          status: 'active',
          portfolio: '12.5',
          createdAt: 1,
          fetchedAt: 200,
          balances: [{ asset: 'BTC', balance: '0.5' }],
        },
        {
          email: 'c@x',
          status: 'active',
          portfolio: '12.5',
          createdAt: 3,
          fetchedAt: 200,
          balances: [{ asset: 'ETH', balance: '3' }],
        },
      ],
      asOf: 200,
    });
    expect(() =>
      store.subAccounts.replaceAll('p1', [record('a@x', [['BTC', 'lots']])], 300),
    ).toThrow('sub-account a@x balance of BTC must be a decimal string');
    expect(store.subAccounts.list('p1').asOf).toBe(200);
    store.close();
  });

  it('transfers: upsert by txnId, filter by asset, e-mail and time, paged newest first', () => {
    const store = freshStore();
    const transfers = Array.from({ length: 30 }, (_, i) => ({
      txnId: 1000 + i,
      asset: i % 2 === 0 ? 'BTC' : 'USDT',
      from: i % 3 === 0 ? 'main@x' : 'sub1@x',
      to: i % 3 === 0 ? 'sub1@x' : 'main@x',
      qty: `0.${i + 1}`,
      status: 'success',
      time: 10_000 + i * 10,
    }));
    store.subAccounts.upsertTransfers('p1', transfers);
    store.subAccounts.upsertTransfers('p1', [{ ...transfers[0]!, status: 'failed' }]);
    expect(store.subAccounts.transfers('p1', { limit: 1000 }).total).toBe(30);
    expect(store.subAccounts.getTransfer('p1', 1000)).toEqual({
      txnId: 1000,
      asset: 'BTC',
      fromEmail: 'main@x',
      toEmail: 'sub1@x',
      qty: '0.1',
      status: 'failed',
      time: 10_000,
    });

    const btc = store.subAccounts.transfers('p1', { asset: 'BTC', limit: 5 });
    expect(btc.total).toBe(15);
    expect(btc.rows.map((r) => r.txnId)).toEqual([1028, 1026, 1024, 1022, 1020]);
    const window = store.subAccounts.transfers('p1', {
      from: 10_050,
      to: 10_100,
      direction: 'asc',
    });
    expect(window.rows.map((r) => r.txnId)).toEqual([1005, 1006, 1007, 1008, 1009, 1010]);
    const byEmail = store.subAccounts.transfers('p1', { email: 'main@x', limit: 1000 });
    expect(byEmail.total).toBe(30);
    expect(store.subAccounts.transfers('p1', { email: 'other@x' })).toEqual({ rows: [], total: 0 });
    expect(() =>
      store.subAccounts.upsertTransfers('p1', [{ ...transfers[1]!, qty: '1,5' }]),
    ).toThrow('transfer 1001 qty must be a decimal string');
    store.close();
  });
});
