/**
 * Own-trade import against the sandbox over real HTTP into a real SQLite file: every symbol walked
 * by fromId, 1000 rows to a page, each page stored with its cursor; stopped anywhere it resumes
 * without a gap or a duplicate; later runs read only new trades, on the symbols traded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { storePort } from '../../electron/sync/store-port';
import {
  readTradeCursor,
  TradeImporter,
  TradeImportStopped,
  type TradeImportProgress,
} from '../../electron/sync/trade-import';
import { PARENT, PROFILE, scenario, type Scenario } from './helpers';
import { selfTrades, takeTrade, tradingClient } from './own-trades';

const SYMBOLS = ['btcusdt', 'ethusdt', 'solusdt', 'xrpusdt', 'ethbtc', 'usdtinr', 'btcinr'];
const COUNTERPARTY = 'counterparty@example.test';

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** 1,150 self-fills on btcusdt (2,300 rows: three pages) and 3 fills on ethbtc against another. */
async function seeded(): Promise<Scenario> {
  const s = (current = await scenario());
  const trader = tradingClient(s.sandbox, s.sandbox.admin.createApiKey(PARENT, { canTrade: true }));
  s.sandbox.admin.createAccount({ email: COUNTERPARTY });
  const counterparty = tradingClient(
    s.sandbox,
    s.sandbox.admin.createApiKey(COUNTERPARTY, { canTrade: true }),
  );
  s.sandbox.admin.credit(PARENT, 'btc', '10');
  s.sandbox.admin.credit(PARENT, 'usdt', '10000000');
  s.sandbox.admin.credit(COUNTERPARTY, 'eth', '100');
  s.sandbox.admin.credit(COUNTERPARTY, 'btc', '100');
  await selfTrades(trader, {
    symbol: 'btcusdt',
    qty: '0.001',
    price: '60000',
    count: 1150,
    totalQty: '1.15',
  });
  for (const [side, qty, price] of [
    ['buy', '2', '0.05'],
    ['sell', '0.5', '0.051'],
    ['buy', '1.25', '0.0505'],
  ] as const) {
    await takeTrade(trader, counterparty, { symbol: 'ethbtc', side, qty, price });
  }
  await Promise.all([trader.close(), counterparty.close()]);
  return s;
}

/** The sandbox's own records of the parent's trades, as (symbol, id, orderId) keys. */
async function exchangeRecords(s: Scenario): Promise<string[]> {
  const client = s.client();
  const keys: string[] = [];
  for (const symbol of SYMBOLS) {
    for (let fromId = 0; ;) {
      const page = await client.trading.myTrades({ symbol, fromId, limit: 1000 });
      keys.push(...page.map((t) => `${t.symbol}:${t.id}:${t.orderId}`));
      if (page.length < 1000) break;
      fromId = Math.max(...page.map((t) => t.id)) + 1;
    }
  }
  return [...new Set(keys)].sort();
}

function storedKeys(s: Scenario): string[] {
  return s.store.db
    .prepare<[string], { key: string }>(
      "SELECT symbol || ':' || id || ':' || order_id AS key FROM own_trades WHERE profile_id = ?",
    )
    .all(PROFILE)
    .map((row) => row.key)
    .sort();
}

function importer(s: Scenario, stopped?: () => boolean, onPage?: (p: TradeImportProgress) => void) {
  return new TradeImporter({
    client: s.client(),
    port: storePort(s.store),
    profileId: PROFILE,
    now: () => Date.now(),
    ...(stopped ? { stopped } : {}),
    ...(onPage ? { onPage } : {}),
  });
}

describe('own-trade import', () => {
  it('stores every own trade of every symbol once, as the exchange records them', async () => {
    const s = await seeded();
    const expected = await exchangeRecords(s);
    expect(expected).toHaveLength(2303);
    const progress: TradeImportProgress[] = [];
    const result = await importer(s, undefined, (p) => progress.push(p)).run(SYMBOLS);
    expect(storedKeys(s)).toEqual(expected);
    expect(result).toMatchObject({
      state: 'done',
      symbolsDone: SYMBOLS.length,
      symbolsTotal: SYMBOLS.length,
      trades: 2303,
      complete: true,
    });
    // btcusdt: 2,300 rows are 2 full pages (the second re-reads the last id of the first) and
    // the rest; one page for each other symbol.
    expect(result.pages).toBe(3 + SYMBOLS.length - 1);
    expect(progress.map((p) => p.trades)).toEqual(
      [...progress.map((p) => p.trades)].sort((a, b) => a - b),
    );
    expect(progress.at(-1)?.trades).toBe(2303);
    expect(readTradeCursor(storePort(s.store), PROFILE, 'solusdt')).toEqual({
      fromId: 0,
      reachedEnd: true,
    });
  });

  it('resumes a stopped import at the next page, with no gap and no duplicate', async () => {
    const s = await seeded();
    const expected = await exchangeRecords(s);
    let pagesSeen = 0;
    const first = importer(
      s,
      () => pagesSeen >= 1,
      () => pagesSeen++,
    );
    await expect(first.run(SYMBOLS)).rejects.toBeInstanceOf(TradeImportStopped);
    const partial = storedKeys(s);
    expect(partial.length).toBeGreaterThanOrEqual(1000);
    expect(partial.length).toBeLessThan(expected.length);
    expect(first.progress().state).toBe('idle');

    // A restart: a new store connection, a new importer, the cursors from the file.
    s.reopenStore();
    const second = await importer(s).run(SYMBOLS);
    expect(storedKeys(s)).toEqual(expected);
    expect(second.trades).toBe(expected.length - partial.length);
    expect(second.complete).toBe(true);
  });

  it('then reads only new trades, and only on the symbols the account trades', async () => {
    const s = await seeded();
    await importer(s).run(SYMBOLS);
    const trader = tradingClient(
      s.sandbox,
      s.sandbox.admin.createApiKey(PARENT, { canTrade: true }),
    );
    await selfTrades(trader, {
      symbol: 'btcusdt',
      qty: '0.002',
      price: '61000',
      count: 2,
      totalQty: '0.004',
    });
    await trader.close();
    const later = await importer(s).run(SYMBOLS);
    expect(later.trades).toBe(4);
    expect(later.symbolsTotal).toBe(2); // btcusdt and ethbtc
    expect(storedKeys(s)).toEqual(await exchangeRecords(s));
  });

  it('says why it paused in words about the cause, not the request that met it', async () => {
    const s = (current = await scenario());
    const run = importer(s);
    await s.sandbox.close();
    await expect(run.run(['btcusdt'])).rejects.toMatchObject({ kind: 'network' });
    expect(run.progress()).toMatchObject({
      state: 'error',
      error: "nothing answers at the exchange's address",
    });
  });
});
