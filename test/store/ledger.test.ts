/**
 * The ledger's repository (store.ledger) on a real SQLite file: balances read in full are kept as
 * the record's observations where they arrive (sync's funds and sub-account reads), once each;
 * annotations are kept and removed; and reading the ledger, built or brought up to date, writes
 * nothing at all.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerService } from '../../electron/ledger';
import { CACHE_MIGRATIONS, type Store } from '../../electron/store';
import { migrate } from '../../electron/store/database';
import { storePort } from '../../electron/sync/store-port';
import { freshStore, removeTempDirs } from './helpers';

afterEach(() => removeTempDirs());

const P = 'p1';
const T0 = Date.UTC(2026, 0, 1);

function recordRows(store: Store) {
  return {
    observations: store.db
      .prepare('SELECT rowid, * FROM balance_observations ORDER BY rowid')
      .all(),
    annotations: store.db.prepare('SELECT * FROM ledger_annotations ORDER BY entry_id').all(),
  };
}

const totalChanges = (store: Store) =>
  (store.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;

function seeded(): Store {
  const store = freshStore(P);
  const port = storePort(store);
  port.replaceSymbols(
    P,
    [{ symbol: 'btcusdt', baseAsset: 'btc', quoteAsset: 'usdt' }] as never,
    T0,
  );
  store.prices.upsertMany(P, [
    {
      symbol: 'btcusdt',
      last: '50000',
      open: '49000',
      high: '50000',
      low: '49000',
      bid: '50000',
      ask: '50001',
      volume: '1',
      at: T0 + 10_000,
    },
  ]);
  store.orders.insertTrades(P, [
    {
      id: 1,
      symbol: 'btcusdt',
      orderId: 1,
      side: 'buy',
      price: '50000',
      qty: '0.02',
      quoteQty: '1000',
      fee: '0.00002',
      feeCurrency: 'btc',
      isBuyerMaker: false,
      time: T0 + 1_000,
    },
  ]);
  port.replaceFunds(
    P,
    [
      { asset: 'BTC', free: '0.01998', locked: '0' },
      { asset: 'USDT', free: '4000', locked: '1000' },
    ],
    T0 + 2_000,
  );
  port.replaceSubAccounts(
    P,
    [
      {
        action: 'active',
        balance: [{ symbol: 'ETH', balance: '2.5' }],
        created_at: T0,
        email: 'Sub@Example.com',
        emailVerification: 'verified',
        portfolio: '0',
        status: 'active',
      },
    ],
    T0 + 2_000,
  );
  return store;
}

describe('balances read in full, kept where they arrive', () => {
  it('keeps one complete observation per account, and none again until a balance changes', () => {
    const store = seeded();
    const kept = store.ledger.observations(P);
    expect(kept).toEqual([
      {
        account: 'main',
        time: T0 + 2_000,
        balances: { btc: '0.01998', usdt: '5000' },
        complete: true,
      },
      { account: 'sub@example.com', time: T0 + 2_000, balances: { eth: '2.5' }, complete: true },
    ]);
    expect(store.ledger.keepCurrentBalances(P)).toBe(0);
    // The same balances read again later: nothing new to keep.
    storePort(store).replaceFunds(
      P,
      [
        { asset: 'BTC', free: '0.01998', locked: '0' },
        { asset: 'USDT', free: '5000', locked: '0' },
      ],
      T0 + 3_000,
    );
    expect(store.ledger.observations(P)).toHaveLength(2);
    storePort(store).replaceFunds(P, [{ asset: 'BTC', free: '0.5', locked: '0' }], T0 + 4_000);
    expect(store.ledger.observations(P).at(-1)).toEqual({
      account: 'main',
      time: T0 + 4_000,
      balances: { btc: '0.5' },
      complete: true,
    });
    store.close();
  });

  it('keeps and removes the user’s annotation of an inferred entry', () => {
    const store = freshStore(P);
    store.ledger.annotate(
      P,
      'inferred:x',
      { label: 'salary', costBasis: { amount: '1.5', currency: 'USDT' } },
      T0,
    );
    expect(store.ledger.annotations(P)).toEqual([
      {
        entryId: 'inferred:x',
        label: 'salary',
        costAmount: '1.5',
        costCurrency: 'usdt',
        facts: null,
      },
    ]);
    expect(() => store.ledger.annotate(P, '', { label: 'x' }, T0)).toThrow(/entryId/);
    store.ledger.annotate(P, 'inferred:x', {}, T0 + 1);
    expect(store.ledger.annotations(P)).toEqual([]);
    store.close();
  });

  it('keeps the facts of the entry annotated, moves them with the user’s consent, never merges', () => {
    const store = freshStore(P);
    const facts = { account: 'main', asset: 'XRP', amount: '100', from: 1, to: 10, time: 10 };
    store.ledger.annotate(P, 'a', { label: 'gift' }, T0, facts);
    store.ledger.annotate(P, 'b', { label: 'salary' }, T0, { ...facts, from: 10, to: 20 });
    expect(store.ledger.annotations(P)[0]).toMatchObject({
      entryId: 'a',
      label: 'gift',
      facts: { ...facts, asset: 'xrp' },
    });
    expect(() =>
      store.ledger.annotate(P, 'c', { label: 'x' }, T0, { ...facts, amount: '1e3' }),
    ).toThrow(/amount/);
    expect(() =>
      store.ledger.annotate(P, 'c', { label: 'x' }, T0, { ...facts, time: 1.5 }),
    ).toThrow(/time/);
    const now = { ...facts, amount: '150', time: 4 };
    // Onto an id that has its own annotation: refused, nothing changed.
    expect(store.ledger.confirmAnnotation(P, 'a', 'b', now, T0 + 1)).toBe(false);
    expect(store.ledger.confirmAnnotation(P, 'a', 'a2', now, T0 + 1)).toBe(true);
    expect(
      store.ledger.annotations(P).map((row) => [row.entryId, row.label, row.facts?.amount]),
    ).toEqual([
      ['a2', 'gift', '150'],
      ['b', 'salary', '100'],
    ]);
    // Written anew about an entry, it replaces the one that had moved to it.
    store.ledger.annotate(P, 'b2', { label: 'salary (new)' }, T0 + 2, facts, ['b']);
    expect(store.ledger.annotations(P).map((row) => row.entryId)).toEqual(['a2', 'b2']);
    expect(store.ledger.removeAnnotation(P, 'a2')).toBe(true);
    expect(store.ledger.removeAnnotation(P, 'a2')).toBe(false);
    store.close();
  });
});

describe('reading the ledger', () => {
  it('writes nothing to either file, built afresh or brought up to date', () => {
    const store = seeded();
    let now = T0 + 20_000;
    const service = new LedgerService(store, () => now);
    const choice = { method: 'fifo' as const, currency: 'usdt' };

    let before = { changes: totalChanges(store), rows: recordRows(store) };
    const built = service.ledger(P, choice);
    expect(built.entries.length).toBeGreaterThan(0);
    expect(totalChanges(store)).toBe(before.changes);
    expect(recordRows(store)).toEqual(before.rows);

    // New data arrives (a live balance event, a fill); the next read updates the kept ledger.
    store.funds.applyBalanceChanges(P, [{ asset: 'BTC', free: '0.03', locked: '0' }], T0 + 30_000);
    store.orders.insertTrades(P, [
      {
        id: 2,
        symbol: 'btcusdt',
        orderId: 2,
        side: 'buy',
        price: '50000',
        qty: '0.01',
        quoteQty: '500',
        fee: '0.00001',
        feeCurrency: 'btc',
        isBuyerMaker: false,
        time: T0 + 29_000,
      },
    ]);
    now = T0 + 40_000;
    before = { changes: totalChanges(store), rows: recordRows(store) };
    const updated = service.ledger(P, choice);
    expect(updated.entries.length).toBeGreaterThan(built.entries.length - 1);
    service.ledger(P, { method: 'average', currency: 'btc' });
    expect(totalChanges(store)).toBe(before.changes);
    expect(recordRows(store)).toEqual(before.rows);
    store.close();
  });
});

describe('the count of own trades the marks compare', () => {
  const trade = (id: number, orderId = id) => ({
    id,
    symbol: 'btcusdt',
    orderId,
    side: 'buy' as const,
    price: '50000',
    qty: '0.01',
    quoteQty: '500',
    fee: '0',
    feeCurrency: 'usdt',
    isBuyerMaker: false,
    time: T0 + id,
  });
  const counted = (store: Store, profileId: string) =>
    (
      store.db
        .prepare(
          `SELECT (SELECT count(*) FROM own_trades WHERE profile_id = ?)
             + (SELECT count(*) FROM sub_account_trades WHERE profile_id = ?) AS n`,
        )
        .get(profileId, profileId) as { n: number }
    ).n;

  it('is what both tables hold, through inserts ignored, an unlink and a profile removed', () => {
    const store = freshStore(P, 'p2');
    const same = () => {
      for (const id of [P, 'p2']) {
        expect(store.ledger.marks(id).trades).toBe(counted(store, id));
        expect(store.ledger.tradeCount(id)).toBe(counted(store, id));
      }
    };
    same();
    store.orders.insertTrades(P, [trade(1), trade(2), trade(3)]);
    // The same trades again insert nothing.
    store.orders.insertTrades(P, [trade(2), trade(3), trade(4)]);
    store.orders.insertTrades('p2', [trade(1)]);
    store.subAccountKeys.link(P, 'sub@example.com', 'sub…key', T0);
    store.subAccountKeys.insertTrades(P, 'sub@example.com', [trade(1), trade(5), trade(5)]);
    same();
    expect(store.ledger.marks(P).trades).toBe(6);
    store.subAccountKeys.unlink(P, 'sub@example.com', 'sub:');
    same();
    expect(store.ledger.marks(P).trades).toBe(4);
    store.profiles.archive('p2', T0);
    same();
    expect(store.ledger.marks('p2').trades).toBe(0);
    store.close();
  });

  it('finds the trade so many into the ledger order, with or without a sub-account’s', () => {
    const store = freshStore(P);
    // Times out of id order, two trades of one time: the order is by time, then id.
    store.orders.insertTrades(P, [trade(5), { ...trade(2), time: T0 + 9 }, trade(3), trade(4)]);
    const order = () =>
      store.ledger.tradesAfter(P, null).map((row) => ({
        time: row.time,
        id: row.id,
        orderId: row.orderId,
      }));
    const all = () => order().map((_, index) => store.ledger.tradeAt(P, index));
    expect(all()).toEqual(order());
    expect(store.ledger.tradeAt(P, 4)).toBeNull();
    store.subAccountKeys.link(P, 'sub@example.com', 'sub…key', T0);
    store.subAccountKeys.insertTrades(P, 'sub@example.com', [trade(1), { ...trade(6), time: 0 }]);
    expect(order()).toHaveLength(6);
    expect(all()).toEqual(order());
    expect(store.ledger.tradeAt(P, 6)).toBeNull();
    store.close();
  });

  it('starts, for a cache of an older version, from the rows it already held', () => {
    const db = new Database(':memory:');
    migrate(db, CACHE_MIGRATIONS.slice(0, 6));
    const insert = db.prepare(
      `INSERT INTO own_trades (profile_id, id, symbol, order_id, side, price, qty, quote_qty, fee,
         fee_currency, is_buyer_maker, time) VALUES (?, ?, 'btcusdt', ?, 'buy', '1', '1', '1',
         '0', 'usdt', 0, ?)`,
    );
    for (let id = 1; id <= 5; id++) insert.run(id <= 3 ? P : 'p2', id, id, T0 + id);
    migrate(db, CACHE_MIGRATIONS);
    const counts = db.prepare('SELECT profile_id, trades FROM trade_counts ORDER BY 1').all();
    expect(counts).toEqual([
      { profile_id: P, trades: 3 },
      { profile_id: 'p2', trades: 2 },
    ]);
    insert.run(P, 9, 9, T0 + 9);
    expect(db.prepare('SELECT trades FROM trade_counts WHERE profile_id = ?').get(P)).toEqual({
      trades: 4,
    });
    db.close();
  });
});
