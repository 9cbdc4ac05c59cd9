/**
 * A build of a long history does not starve the process: LedgerService.ledgerInTurns runs it a
 * slice per turn of the event loop (a page of trades, a few thousand movements or entries), so a
 * timer that falls due and a read of the same SQLite file are answered before the build is done,
 * and what it builds is what the build at once builds. A real SQLite file of 30,000 own trades.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../electron/core/clock';
import { buildFromStore, LedgerService, type LedgerChoice } from '../../electron/ledger';
import type { OwnTradeInput } from '../../electron/store/types';
import { storePort } from '../../electron/sync/store-port';
import { freshStore, removeTempDirs } from '../store/helpers';
import { entryFacts } from './fixtures';

const P = 'p1';
const TRADES = 30_000;
const START = Date.UTC(2025, 0, 1);
const NOW = START + TRADES * 1000 + 60_000;
const CHOICE: LedgerChoice = { method: 'fifo', currency: 'usdt' };

afterEach(() => removeTempDirs());

/** Buys and sells of BTC for USDT, a second apart, selling no more than was bought. */
function seeded() {
  const store = freshStore(P);
  storePort(store).replaceSymbols(
    P,
    [{ symbol: 'btcusdt', baseAsset: 'btc', quoteAsset: 'usdt' }] as unknown as Parameters<
      ReturnType<typeof storePort>['replaceSymbols']
    >[1],
    START,
  );
  const trades: OwnTradeInput[] = [];
  for (let i = 0; i < TRADES; i++) {
    const buy = i % 3 !== 2;
    trades.push({
      id: i + 1,
      symbol: 'btcusdt',
      orderId: i + 1,
      side: buy ? 'buy' : 'sell',
      price: '50000',
      qty: '0.01',
      quoteQty: '500',
      fee: '0.5',
      feeCurrency: 'usdt',
      isBuyerMaker: false,
      time: START + i * 1000,
    });
  }
  for (let from = 0; from < TRADES; from += 1000) {
    store.orders.insertTrades(P, trades.slice(from, from + 1000));
  }
  return store;
}

describe('a build in turns of the event loop', () => {
  it('answers a timer and a read of the store before it is done, and builds the same', async () => {
    const store = seeded();
    const service = new LedgerService(store, () => NOW);
    const clock = new SystemClock();
    const order: string[] = [];
    const building = service.ledgerInTurns(P, CHOICE).then((built) => {
      order.push('built');
      return built;
    });
    // Due a millisecond from now: long before 30,000 trades are read, reconciled and applied.
    clock.setTimeout(() => {
      order.push(`timer, ${store.ledger.lastTrade(P)?.id ?? 'no'} trades read`);
    }, 1);
    const built = await building;
    expect(order).toEqual([`timer, ${TRADES} trades read`, 'built']);

    const atOnce = buildFromStore(store, P, CHOICE, NOW);
    expect(built.entries.map(entryFacts)).toEqual(atOnce.entries.map(entryFacts));
    expect(built.inferred).toEqual(atOnce.inferred);
    expect(built.entries.filter((entry) => entry.kind === 'trade')).toHaveLength(TRADES);
    // Kept: asked again, it is not built again.
    expect(await service.ledgerInTurns(P, CHOICE)).toBe(built);
    expect(service.stats.builds).toBe(1);
  });

  it('shares one build between two asks made while it runs', async () => {
    const store = seeded();
    const service = new LedgerService(store, () => NOW);
    const [first, second] = await Promise.all([
      service.ledgerInTurns(P, CHOICE),
      service.ledgerInTurns(P, CHOICE),
    ]);
    expect(second).toBe(first);
    expect(service.stats.builds).toBe(1);
  });
});
