import { afterEach, describe, expect, it } from 'vitest';
import { StoreInputError, type WithdrawInput, type WithdrawRow } from '../../electron/store';
import { freshStore, removeTempDirs, wireTime, withdraw } from './helpers';

afterEach(removeTempDirs);

const BASE = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;

/** 60 records over 60 hours: coins cycle BTC/ETH/USDT, statuses 0..3, every 5th a partner transfer. */
function history(): WithdrawInput[] {
  return Array.from({ length: 60 }, (_, i) => {
    const partner = i % 5 === 0;
    return withdraw({
      id: `w${String(i).padStart(2, '0')}`,
      coin: ['BTC', 'ETH', 'USDT'][i % 3]!,
      status: i % 4,
      amount: `${(i * 7) % 13}.${i}`,
      partnerTransfer: partner,
      address: partner ? undefined : `addr-${i}`,
      network: partner ? undefined : 'NET',
      txId: partner ? undefined : `tx-${i}`,
      withdrawOrderId: i % 10 === 0 ? `client-${i}` : undefined,
      createdAt: wireTime(BASE + i * HOUR),
      lastUpdated: wireTime(BASE + i * HOUR + 60_000),
    });
  });
}

/** The same filter and order computed in plain TypeScript, to compare with the SQL. */
function expected(
  rows: WithdrawRow[],
  keep: (r: WithdrawRow) => boolean,
  byAmountAsc = false,
): string[] {
  const kept = rows.filter(keep);
  kept.sort((a, b) =>
    byAmountAsc
      ? Number(a.amount) - Number(b.amount) || a.id.localeCompare(b.id)
      : b.createdAt - a.createdAt,
  );
  return kept.map((r) => r.id);
}

describe('withdraws', () => {
  it('convert wire records: UTC times to ms, partnerTransfer strings, empty texts to null', () => {
    const store = freshStore();
    store.withdraws.upsertMany('p1', [
      withdraw({
        id: 'a',
        createdAt: '2024-02-29 23:59:58',
        lastUpdated: '2024-03-01 00:00:01',
        failureInfo: '',
      }),
      withdraw({
        id: 'b',
        partnerTransfer: 'true',
        address: undefined,
        network: undefined,
        txId: undefined,
        failureInfo: 'rejected',
      }),
      withdraw({ id: 'c', partnerTransfer: 'false', withdrawOrderId: 'mine-1' }),
    ]);
    expect(store.withdraws.get('p1', 'a')).toEqual({
      id: 'a',
      coin: 'BTC',
      network: 'BTC',
      address: 'addr-a',
      amount: '1.5',
      transactionFee: '0.0001',
      status: 0,
      partnerTransfer: false,
      withdrawOrderId: null,
      txId: 'tx-a',
      failureInfo: null,
      createdAt: Date.UTC(2024, 1, 29, 23, 59, 58),
      lastUpdated: Date.UTC(2024, 2, 1, 0, 0, 1),
    });
    const partner = store.withdraws.get('p1', 'b')!;
    expect([
      partner.partnerTransfer,
      partner.address,
      partner.network,
      partner.txId,
      partner.failureInfo,
    ]).toEqual([true, null, null, null, 'rejected']);
    expect(store.withdraws.get('p1', 'c')).toMatchObject({
      partnerTransfer: false,
      withdrawOrderId: 'mine-1',
    });
    store.close();
  });

  it('upsert without duplicates; a newer lastUpdated wins, an older one is ignored', () => {
    const store = freshStore();
    store.withdraws.upsertMany('p1', [
      withdraw({ id: 'x', status: 2, lastUpdated: '2024-03-01 12:05:00' }),
    ]);
    store.withdraws.upsertMany('p1', [
      withdraw({ id: 'x', status: 0, lastUpdated: '2024-03-01 13:00:00' }),
    ]);
    store.withdraws.upsertMany('p1', [
      withdraw({ id: 'x', status: 1, lastUpdated: '2024-03-01 12:30:00' }),
    ]);
    expect(store.withdraws.count('p1')).toBe(1);
    expect(store.withdraws.get('p1', 'x')?.status).toBe(0);
    store.close();
  });

  it('reject a malformed record and write nothing of the batch', () => {
    const store = freshStore();
    const bad: WithdrawInput[] = [
      withdraw({ id: 'ok' }),
      withdraw({ id: 'bad', createdAt: '01/03/2024' }),
    ];
    expect(() => store.withdraws.upsertMany('p1', bad)).toThrow(StoreInputError);
    expect(() => store.withdraws.upsertMany('p1', bad)).toThrow(
      `withdraw bad createdAt must be 'YYYY-MM-DD HH:MM:SS', got "01/03/2024"`,
    );
    expect(() =>
      store.withdraws.upsertMany('p1', [withdraw({ id: 'd', createdAt: '2024-02-30 00:00:00' })]),
    ).toThrow(/createdAt/);
    expect(() => store.withdraws.upsertMany('p1', [withdraw({ id: 'e', amount: '-1' })])).toThrow(
      'must not be negative',
    );
    expect(() =>
      store.withdraws.upsertMany('p1', [withdraw({ id: 'f', partnerTransfer: 'yes' })]),
    ).toThrow('withdraw f partnerTransfer must be a boolean');
    expect(store.withdraws.count('p1')).toBe(0);
    store.close();
  });

  it('filter by coin, type, status and date range, newest first, with the matching total', () => {
    const store = freshStore();
    store.withdraws.upsertMany('p1', history());
    const all = store.withdraws.page('p1', { limit: 1000 }).rows;
    expect(all).toHaveLength(60);

    const cases: {
      query: Parameters<typeof store.withdraws.page>[1];
      keep: (r: WithdrawRow) => boolean;
    }[] = [
      { query: { coin: 'ETH' }, keep: (r) => r.coin === 'ETH' },
      { query: { type: 'partner' }, keep: (r) => r.partnerTransfer },
      {
        query: { type: 'onchain', coin: 'BTC' },
        keep: (r) => !r.partnerTransfer && r.coin === 'BTC',
      },
      { query: { status: 2 }, keep: (r) => r.status === 2 },
      { query: { status: [1, 3] }, keep: (r) => r.status === 1 || r.status === 3 },
      {
        query: { coin: 'USDT', status: 1, from: BASE + 10 * HOUR, to: BASE + 40 * HOUR },
        keep: (r) =>
          r.coin === 'USDT' &&
          r.status === 1 &&
          r.createdAt >= BASE + 10 * HOUR &&
          r.createdAt <= BASE + 40 * HOUR,
      },
      { query: { from: BASE + 59 * HOUR }, keep: (r) => r.createdAt >= BASE + 59 * HOUR },
      { query: { search: 'client-' }, keep: (r) => r.withdrawOrderId !== null },
      { query: { search: 'tx-1' }, keep: (r) => r.txId?.includes('tx-1') ?? false },
      { query: { search: 'w07' }, keep: (r) => r.id === 'w07' },
      { query: { search: '%' }, keep: () => false },
    ];
    for (const { query, keep } of cases) {
      const page = store.withdraws.page('p1', { ...query, limit: 1000 });
      expect({ query, ids: page.rows.map((r) => r.id) }).toEqual({
        query,
        ids: expected(all, keep),
      });
      expect(page.total).toBe(page.rows.length);
    }
    store.close();
  });

  it('sort by time or amount in both directions, page with offset/limit, total unaffected', () => {
    const store = freshStore();
    store.withdraws.upsertMany('p1', history());
    const all = store.withdraws.page('p1', { limit: 1000 }).rows;

    const asc = store.withdraws.page('p1', { direction: 'asc', limit: 1000 }).rows.map((r) => r.id);
    expect(asc).toEqual([...expected(all, () => true)].reverse());

    const byAmount = store.withdraws.page('p1', {
      sort: 'amount',
      direction: 'asc',
      limit: 1000,
    }).rows;
    const amounts = byAmount.map((r) => Number(r.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const byAmountDesc = store.withdraws.page('p1', {
      sort: 'amount',
      direction: 'desc',
      limit: 1000,
    }).rows;
    expect(byAmountDesc.map((r) => Number(r.amount))).toEqual([...amounts].reverse());

    const first = store.withdraws.page('p1', { coin: 'BTC', offset: 0, limit: 7 });
    const second = store.withdraws.page('p1', { coin: 'BTC', offset: 7, limit: 7 });
    const everything = store.withdraws.page('p1', { coin: 'BTC', limit: 1000 });
    expect(first.total).toBe(20);
    expect(second.total).toBe(20);
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(
      everything.rows.slice(0, 14).map((r) => r.id),
    );
    expect(store.withdraws.page('p1', { offset: 100 })).toEqual({ rows: [], total: 60 });
    store.close();
  });

  it('amount order is exact for long decimals and large integers', () => {
    const store = freshStore();
    const amounts = [
      '10',
      '9.999999999999999999',
      '100000000000000000000',
      '0.000000000000000001',
      '0',
      '10.0000001',
    ];
    store.withdraws.upsertMany(
      'p1',
      amounts.map((amount, i) => withdraw({ id: `a${i}`, amount })),
    );
    const ordered = store.withdraws
      .page('p1', { sort: 'amount', direction: 'asc' })
      .rows.map((r) => r.amount);
    expect(ordered).toEqual([
      '0',
      '0.000000000000000001',
      '9.999999999999999999',
      '10',
      '10.0000001',
      '100000000000000000000',
    ]);
    store.close();
  });

  it('reject bad paging and filter arguments with a clear message', () => {
    const store = freshStore();
    expect(() => store.withdraws.page('p1', { limit: 0 })).toThrow(
      'limit must be an integer from 1 to 1000, got 0',
    );
    expect(() => store.withdraws.page('p1', { offset: -1 })).toThrow(
      'offset must be an integer >= 0',
    );
    expect(() => store.withdraws.page('p1', { sort: 'size' as 'time' })).toThrow(
      `sort must be 'time' or 'amount'`,
    );
    expect(() => store.withdraws.page('p1', { type: 'x' as 'partner' })).toThrow(
      `type must be 'onchain' or 'partner'`,
    );
    expect(() => store.withdraws.page('p1', { from: 1.5 })).toThrow('from must be an integer (ms)');
    store.close();
  });

  it('keep profiles apart; report time range and coins', () => {
    const store = freshStore('p1', 'p2');
    store.withdraws.upsertMany('p1', history());
    store.withdraws.upsertMany('p2', [withdraw({ id: 'w00', coin: 'XRP' })]);
    expect(store.withdraws.count('p1')).toBe(60);
    expect(store.withdraws.page('p2', {}).rows.map((r) => r.coin)).toEqual(['XRP']);
    expect(store.withdraws.timeRange('p1')).toEqual({ oldest: BASE, newest: BASE + 59 * HOUR });
    expect(store.withdraws.timeRange('nobody')).toEqual({ oldest: null, newest: null });
    expect(store.withdraws.coins('p1')).toEqual(['BTC', 'ETH', 'USDT']);
    expect(store.withdraws.deleteAll('p2')).toBe(1);
    expect(store.withdraws.count('p2')).toBe(0);
    store.close();
  });

  it('the filtered page reads use an index, never a sort of the whole table', () => {
    const store = freshStore();
    const plans = [
      "WHERE profile_id = 'p1' AND coin = 'BTC' AND status = 0 AND created_at >= 0 AND created_at <= 9 ORDER BY created_at DESC, rowid DESC",
      "WHERE profile_id = 'p1' ORDER BY created_at ASC, rowid ASC",
      "WHERE profile_id = 'p1' AND status = 2 ORDER BY created_at DESC, rowid DESC",
      "WHERE profile_id = 'p1' AND partner_transfer = 1 ORDER BY created_at DESC, rowid DESC",
      "WHERE profile_id = 'p1' AND coin = 'BTC' ORDER BY amount_key DESC, rowid DESC",
    ].map((tail) =>
      (
        store.db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM withdraws ${tail} LIMIT 100`).all() as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | '),
    );
    for (const plan of plans) {
      expect(plan).toMatch(/USING INDEX withdraws_by_/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
    store.close();
  });
});
