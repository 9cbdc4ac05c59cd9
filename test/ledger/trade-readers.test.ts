/**
 * Reader threads read a long history's own trades as the build's own reading does: the same
 * trades in the same order (the main account's and a linked sub-account's interleaved, several at
 * one time), the same symbols left out for unknown assets, and a built ledger whose figures are
 * the in-thread build's. Real worker threads on a real SQLite file.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { atOnce } from '../../electron/core/clock';
import {
  buildFromStore,
  ledgerFigures,
  LedgerService,
  type LedgerChoice,
} from '../../electron/ledger';
import { readLedgerParts, readLedgerPartsInThreads } from '../../electron/ledger/source';
import { tradeReaders, TRADE_READER_SOURCE } from '../../electron/ledger/trade-readers';
import type { OwnTradeInput } from '../../electron/store/types';
import { storePort } from '../../electron/sync/store-port';
import { freshStore, removeTempDirs } from '../store/helpers';
import { entryFacts } from './fixtures';

const P = 'p1';
const SUB = 'sub1@example.com';
const START = Date.UTC(2025, 0, 1);
const NOW = START + 10_000_000;
const CHOICE: LedgerChoice = { method: 'fifo', currency: 'usdt' };

const readers = tradeReaders(TRADE_READER_SOURCE, 3);
afterAll(() => readers.close());
afterEach(() => removeTempDirs());

/**
 * `count` trades of each account: buys and sells of BTC and ETH for USDT, three at each second
 * (so a range's cut falls among trades of one time), one symbol with no known assets.
 */
function seeded(count: number) {
  const store = freshStore(P);
  storePort(store).replaceSymbols(
    P,
    [
      { symbol: 'btcusdt', baseAsset: 'btc', quoteAsset: 'usdt' },
      { symbol: 'ethusdt', baseAsset: 'eth', quoteAsset: 'usdt' },
    ] as unknown as Parameters<ReturnType<typeof storePort>['replaceSymbols']>[1],
    START,
  );
  const trades = (firstId: number): OwnTradeInput[] =>
    Array.from({ length: count }, (_, i) => {
      const symbol = i % 17 === 5 ? 'xyzusdt' : i % 2 === 0 ? 'btcusdt' : 'ethusdt';
      const buy = i % 3 !== 2;
      return {
        id: firstId + i,
        symbol,
        orderId: firstId + Math.floor(i / 2),
        side: buy ? 'buy' : 'sell',
        price: symbol === 'btcusdt' ? '50000.10' : '2500',
        qty: buy ? '0.01000000' : '0.005',
        quoteQty: symbol === 'btcusdt' ? (buy ? '500.001' : '250.0005') : buy ? '25' : '12.5',
        fee: i % 5 === 0 ? '0' : '0.00001',
        feeCurrency: buy ? (symbol === 'btcusdt' ? 'BTC' : 'ETH') : 'USDT',
        isBuyerMaker: false,
        time: START + Math.floor(i / 3) * 1000,
      };
    });
  storePort(store).replaceTickers(
    P,
    [
      ['btcusdt', 'btc', '51000'],
      ['ethusdt', 'eth', '2400.5'],
    ].map(([symbol, base, last]) => ({
      symbol: symbol!,
      baseAsset: base!,
      quoteAsset: 'usdt',
      openPrice: last!,
      lowPrice: last!,
      highPrice: last!,
      lastPrice: last!,
      volume: '0',
      bidPrice: last!,
      askPrice: last!,
      at: NOW,
    })),
    NOW,
  );
  store.orders.insertTrades(P, trades(1));
  store.subAccountKeys.link(P, SUB, 'sub…key', START);
  store.subAccountKeys.insertTrades(P, SUB, trades(1));
  return store;
}

describe('reader threads', () => {
  it('that cannot start leave the read to the main thread, and say so', async () => {
    const store = seeded(200);
    const broken = tradeReaders(new URL('./no-such-reader.mjs', TRADE_READER_SOURCE));
    const service = new LedgerService(store, () => NOW, { readers: broken, threadsFrom: 100 });
    const built = await service.ledgerInTurns(P, CHOICE);
    expect(service.stats).toMatchObject({ builds: 1, threadedReads: 0, threadFailures: 1 });
    expect(built.entries.map(entryFacts)).toEqual(
      buildFromStore(store, P, CHOICE, NOW).entries.map(entryFacts),
    );
    await broken.close();
  });

  it('read the trades the build reads itself, in its order, with its unknown symbols', async () => {
    const store = seeded(1000);
    const inThread = atOnce(readLedgerParts(store, P));
    const threaded = (await readLedgerPartsInThreads(store, P, readers))!;
    expect(inThread.inputs.trades).toHaveLength(2000 - 2 * 59);
    expect(threaded.inputs.trades.map(entryFacts)).toEqual(inThread.inputs.trades.map(entryFacts));
    expect(threaded.inputs.unknownSymbols).toEqual(['xyzusdt']);
    expect(threaded.inputs.unknownSymbols).toEqual(inThread.inputs.unknownSymbols);
    expect(threaded.lastTrade).toEqual(inThread.lastTrade);
    // Amounts as written, from another thread's table.
    const first = threaded.inputs.trades[0]!;
    expect([first.qty, first.price, first.commission]).toEqual(['0.01000000', '50000.10', '0']);
  });

  it('give a kept ledger whose figures are the in-thread build’s', async () => {
    const store = seeded(1000);
    const service = new LedgerService(store, () => NOW, { readers, threadsFrom: 100 });
    const built = await service.ledgerInTurns(P, CHOICE);
    expect(service.stats).toMatchObject({ builds: 1, threadedReads: 1, threadFailures: 0 });
    const fresh = buildFromStore(store, P, CHOICE, NOW);
    expect(built.entries.map(entryFacts)).toEqual(fresh.entries.map(entryFacts));
    const figures = (ledger: typeof built) =>
      JSON.stringify(ledgerFigures(ledger.ledger, { at: NOW, priceAt: ledger.prices.priceAt }));
    expect(figures(built)).toEqual(figures(fresh));
    expect(built.ledger.disposals.map((d) => [d.quantity.toString(), d.cost.toString()])).toEqual(
      fresh.ledger.disposals.map((d) => [d.quantity.toString(), d.cost.toString()]),
    );
  });

  it('leave a history below the threshold to the main thread, and one with no trades alone', async () => {
    const empty = freshStore(P);
    expect((await readLedgerPartsInThreads(empty, P, readers))!.inputs.trades).toEqual([]);
    const store = seeded(10);
    expect(await readLedgerPartsInThreads(store, P, readers, 21)).toBeNull();
    const service = new LedgerService(store, () => NOW, { readers, threadsFrom: 1000 });
    const built = await service.ledgerInTurns(P, CHOICE);
    expect(service.stats).toMatchObject({ builds: 1, threadedReads: 0, threadFailures: 0 });
    expect(built.entries.map(entryFacts)).toEqual(
      buildFromStore(store, P, CHOICE, NOW).entries.map(entryFacts),
    );
  });
});
