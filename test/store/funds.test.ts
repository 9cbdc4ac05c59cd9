import { afterEach, describe, expect, it } from 'vitest';
import { StoreInputError, type PriceRow } from '../../electron/store';
import { freshStore, removeTempDirs } from './helpers';

afterEach(removeTempDirs);

const price = (symbol: string, last: string, at: number, open = last): PriceRow => ({
  symbol,
  last,
  open,
  high: last,
  low: last,
  bid: last,
  ask: last,
  volume: '10',
  at,
});

describe('funds', () => {
  it('replaceAll swaps the whole list in one step and keeps amounts exact', () => {
    const store = freshStore();
    store.funds.replaceAll(
      'p1',
      [
        { asset: 'BTC', free: '0.123456789012345678', locked: '0.5', reservedFee: '0.0001' },
        { asset: 'ETH', free: '2', locked: '0' },
      ],
      100,
    );
    store.funds.replaceAll(
      'p1',
      [
        { asset: 'USDT', free: '10.10', locked: '0' },
        { asset: 'BTC', free: '1', locked: '0' },
      ],
      200,
    );
    expect(store.funds.list('p1')).toEqual({
      rows: [
        { asset: 'BTC', free: '1', locked: '0', reservedFee: null, updatedAt: 200 },
        { asset: 'USDT', free: '10.10', locked: '0', reservedFee: null, updatedAt: 200 },
      ],
      asOf: 200,
    });
    store.close();
  });

  it('replaceAll writes nothing when one row is bad', () => {
    const store = freshStore();
    store.funds.replaceAll('p1', [{ asset: 'BTC', free: '1', locked: '0' }], 1);
    expect(() =>
      store.funds.replaceAll(
        'p1',
        [
          { asset: 'ETH', free: '1', locked: '0' },
          { asset: 'X', free: '1e5', locked: '0' },
        ],
        2,
      ),
    ).toThrow('fund X free must be a decimal string, got "1e5"');
    expect(() =>
      store.funds.replaceAll(
        'p1',
        [
          { asset: 'ETH', free: '1', locked: '0' },
          { asset: 'ETH', free: '1', locked: '0' },
        ],
        2,
      ),
    ).toThrow('fund ETH appears twice');
    expect(store.funds.list('p1').rows.map((r) => r.asset)).toEqual(['BTC']);
    store.close();
  });

  it('balance changes from the stream update free/locked, keep reservedFee, ignore older events', () => {
    const store = freshStore();
    store.funds.replaceAll(
      'p1',
      [{ asset: 'BNB', free: '1', locked: '0', reservedFee: '0.01' }],
      100,
    );
    store.funds.applyBalanceChanges(
      'p1',
      [
        { asset: 'BNB', free: '0.5', locked: '0.5' },
        { asset: 'XRP', free: '7', locked: '0' },
      ],
      150,
    );
    store.funds.applyBalanceChanges('p1', [{ asset: 'BNB', free: '9', locked: '9' }], 120);
    expect(store.funds.list('p1').rows).toEqual([
      { asset: 'BNB', free: '0.5', locked: '0.5', reservedFee: '0.01', updatedAt: 150 },
      { asset: 'XRP', free: '7', locked: '0', reservedFee: null, updatedAt: 150 },
    ]);
    store.close();
  });

  it('a full list asked for before a stream change leaves that newer balance as the stream set it', () => {
    const store = freshStore();
    store.funds.replaceAll(
      'p1',
      [
        { asset: 'USDT', free: '100', locked: '0', reservedFee: '1' },
        { asset: 'BTC', free: '1', locked: '0' },
        { asset: 'DOGE', free: '5', locked: '0' },
      ],
      100,
    );
    // The list is asked for at 200; a credit of USDT comes by the stream at 210; the list, read
    // before the credit, is written at 230.
    store.funds.applyBalanceChanges('p1', [{ asset: 'USDT', free: '101', locked: '0' }], 210);
    store.funds.replaceAll(
      'p1',
      [
        { asset: 'USDT', free: '100', locked: '0', reservedFee: '1' },
        { asset: 'BTC', free: '2', locked: '0' },
      ],
      230,
      200,
    );
    expect(store.funds.list('p1').rows).toEqual([
      { asset: 'BTC', free: '2', locked: '0', reservedFee: null, updatedAt: 230 },
      { asset: 'USDT', free: '101', locked: '0', reservedFee: '1', updatedAt: 210 },
    ]);
    // A later list, asked for after the change, is the whole truth again.
    store.funds.replaceAll('p1', [{ asset: 'USDT', free: '101', locked: '0' }], 300, 250);
    expect(store.funds.list('p1').rows).toEqual([
      { asset: 'USDT', free: '101', locked: '0', reservedFee: null, updatedAt: 300 },
    ]);
    store.close();
  });

  it('view joins the latest price of <asset><quote>; the quote asset is worth 1', () => {
    const store = freshStore('p1', 'p2');
    store.funds.replaceAll(
      'p1',
      [
        { asset: 'BTC', free: '1', locked: '0' },
        { asset: 'USDT', free: '5', locked: '0' },
        { asset: 'DOGE', free: '3', locked: '0' },
      ],
      100,
    );
    store.prices.upsertMany('p1', [price('btcusdt', '50000.5', 90, '49000')]);
    store.prices.upsertMany('p2', [price('dogeusdt', '0.1', 90)]); // another profile's world
    const view = store.funds.view('p1', 'usdt');
    expect(view.asOf).toBe(100);
    expect(view.rows).toEqual([
      {
        asset: 'BTC',
        free: '1',
        locked: '0',
        reservedFee: null,
        updatedAt: 100,
        priceSymbol: 'btcusdt',
        lastPrice: '50000.5',
        openPrice: '49000',
        priceAt: 90,
      },
      {
        asset: 'DOGE',
        free: '3',
        locked: '0',
        reservedFee: null,
        updatedAt: 100,
        priceSymbol: null,
        lastPrice: null,
        openPrice: null,
        priceAt: null,
      },
      {
        asset: 'USDT',
        free: '5',
        locked: '0',
        reservedFee: null,
        updatedAt: 100,
        priceSymbol: null,
        lastPrice: '1',
        openPrice: '1',
        priceAt: null,
      },
    ]);
    store.close();
  });

  it('snapshots: upsert by time, range reads, latest, prune', () => {
    const store = freshStore();
    const snap = (takenAt: number, totalValue: string) => ({
      takenAt,
      quoteAsset: 'usdt',
      totalValue,
      assets: [{ asset: 'BTC', total: '1', value: totalValue }],
    });
    store.funds.addSnapshot('p1', snap(10, '100'));
    store.funds.addSnapshot('p1', snap(20, '110'));
    store.funds.addSnapshot('p1', snap(20, '120'));
    store.funds.addSnapshot('p1', snap(30, '130'));
    store.funds.addSnapshot('p1', { ...snap(15, '1'), quoteAsset: 'btc' });
    expect(store.funds.snapshots('p1', 'usdt').map((s) => [s.takenAt, s.totalValue])).toEqual([
      [10, '100'],
      [20, '120'],
      [30, '130'],
    ]);
    expect(store.funds.snapshots('p1', 'usdt', { from: 15, to: 30 })).toHaveLength(2);
    expect(store.funds.latestSnapshot('p1', 'usdt')).toEqual(snap(30, '130'));
    expect(store.funds.pruneSnapshots('p1', 20)).toBe(2);
    expect(store.funds.snapshots('p1', 'usdt').map((s) => s.takenAt)).toEqual([20, 30]);
    expect(() => store.funds.addSnapshot('p1', snap(40, 'abc'))).toThrow(StoreInputError);
    store.close();
  });
});

describe('prices', () => {
  it('upsert from REST tickers and stream events; an older ticker never overwrites a newer one', () => {
    const store = freshStore();
    store.prices.upsertTickers('p1', [
      {
        symbol: 'btcusdt',
        openPrice: '1',
        lowPrice: '0.5',
        highPrice: '2',
        lastPrice: '1.5',
        volume: '100',
        bidPrice: '1.4',
        askPrice: '1.6',
        at: 100,
      },
    ]);
    store.prices.upsertTickerEvents('p1', [
      { s: 'btcusdt', c: '1.7', o: '1', h: '2', l: '0.5', b: '1.69', a: '1.71', q: '101', E: 200 },
      { s: 'ethusdt', c: '3', o: '3', h: '3', l: '3', b: '3', a: '3', q: '1', E: 200 },
    ]);
    store.prices.upsertMany('p1', [price('btcusdt', '0.1', 150)]);
    expect(store.prices.get('p1', 'btcusdt')).toEqual({
      symbol: 'btcusdt',
      last: '1.7',
      open: '1',
      high: '2',
      low: '0.5',
      bid: '1.69',
      ask: '1.71',
      volume: '101',
      at: 200,
    });
    expect(store.prices.list('p1').map((p) => p.symbol)).toEqual(['btcusdt', 'ethusdt']);
    expect(store.prices.get('p1', 'nope')).toBeNull();
    expect(() => store.prices.upsertMany('p1', [price('x', 'NaN', 1)])).toThrow(
      'price x last must be a decimal string',
    );
    store.close();
  });
});
