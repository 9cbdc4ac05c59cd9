/**
 * A live batch is in the store before the page hears of it, and a lone fill is announced with the
 * batch: data.changed follows it at once (not a timer later), with the balance events kept as one
 * partial observation for the ledger; the ledger then counts the fill without a full rebuild.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { openStore, type Store } from '../../electron/store';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from './helpers';
import { parentOf } from '../exchange/helpers';

let sandbox: Sandbox;
let live: LiveApp;
let reader: Store;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 52 });
  live = await startLiveApp(sandbox, parentOf(sandbox).trade);
  ({ store: reader } = openStore({ dataDir: live.dataDir }));
});

afterAll(async () => {
  reader?.close();
  await live?.close();
  await sandbox?.close();
});

describe('live batches', () => {
  it('are stored before they are told, and a lone fill is announced with its batch', async () => {
    const { app, profile } = live;
    const before = await app.handlers['ledger.summary']({});
    const seen: { event: string; stored: boolean; at: number }[] = [];
    let orderId = -1;
    app.onEvent((event, payload) => {
      if (event === 'live.batch') {
        const batch = payload as { trades: { orderId: number; tradeId: number }[] };
        const trade = batch.trades.find((t) => t.orderId === orderId);
        if (!trade) return;
        const stored = reader.orders
          .tradesPage(profile.id, { orderId })
          .rows.some((row) => row.id === trade.tradeId);
        seen.push({ event, stored, at: performance.now() });
      } else if (event === 'data.changed' && seen.length > 0 && seen.length < 2) {
        const kinds = (payload as { kinds: string[] }).kinds;
        if (kinds.includes('trades')) seen.push({ event, stored: true, at: performance.now() });
      }
    });
    const depth = await app.handlers['market.depth']({ symbol: 'ethusdt', limit: 5 });
    const order = await app.handlers['orders.place']({
      symbol: 'ethusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.01',
      price: depth.asks[0]![0],
    });
    orderId = order.id;
    await eventually('the batch and its data.changed', () => (seen.length >= 2 ? true : undefined));
    expect(seen[0]).toMatchObject({ event: 'live.batch', stored: true });
    expect(seen[1]!.event).toBe('data.changed');
    // In the same turn as the batch: no pacing timer between a lone fill and its announcement.
    expect(seen[1]!.at - seen[0]!.at).toBeLessThan(50);

    // The observation the batch wrote and the funds agree once the balance update that follows
    // the fill is in (under load it can come after the batch's announcement).
    await eventually('the latest observation holding the funds ETH', () => {
      const observed = reader.db
        .prepare<[string], { balances: string }>(
          `SELECT balances FROM balance_observations
             WHERE profile_id = ? AND complete = 0 ORDER BY time DESC LIMIT 1`,
        )
        .get(profile.id);
      const funds = new Map(
        reader.funds.list(profile.id).rows.map((row) => [row.asset.toLowerCase(), row]),
      );
      const eth = funds.get('eth')!;
      const held = (JSON.parse(observed!.balances) as Record<string, string>).eth;
      return held === new Decimal(eth.free).plus(eth.locked).toFixed() ? true : undefined;
    });

    const after = await eventually('the ledger counting the fill', async () => {
      const summary = await app.handlers['ledger.summary']({});
      return summary.import.storedTrades > before.import.storedTrades ? summary : undefined;
    });
    expect(after.import.storedTrades).toBe(
      reader.orders.tradesPage(profile.id, { limit: 1 }).total,
    );
  });
});
