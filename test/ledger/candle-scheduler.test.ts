/**
 * The candle scheduler after a live fill, on a manual clock against the sandbox: the 1-minute
 * candle that prices a fill's time is the last one finished by then, final at once, so the
 * scheduler looks for it as soon as the fill lacks it (not after the retry wait of a look that
 * found nothing), and the kept ledger takes the candle by replaying, not rebuilding.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import type { Emit } from '../../electron/core/events';
import { buildFromStore, CandleScheduler, LedgerService, summaryView } from '../../electron/ledger';
import { createLogger } from '../../electron/log';
import { PARENT, PROFILE, scenario, syncLedgerReads, type Scenario } from '../sync/helpers';
import { tradingClient } from '../sync/own-trades';

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('the candle scheduler', () => {
  it('looks for a fill’s candle at once, and the card’s figures come without a rebuild', async () => {
    const s = (current = await scenario({ world: 'demo' }));
    const exchange = tradingClient(
      s.sandbox,
      s.sandbox.admin.createApiKey(PARENT, { canTrade: true }),
    );
    s.sandbox.admin.credit(PARENT, 'usdt', '10000');
    const buy = async (at: number) => {
      const book = await exchange.market.depth({ symbol: 'xrpusdt', limit: 20 });
      s.sandbox.admin.placeOrderAt(PARENT, at, {
        symbol: 'xrpusdt',
        side: 'buy',
        quantity: '100',
        price: String(book.asks.at(-1)![0]),
      });
    };
    // A first buy before the import, so later imports walk its market.
    await buy(Date.now() - 5_000);
    const { client, sync } = await syncLedgerReads(s);
    const clock = new ManualClock(Date.now());
    const service = new LedgerService(s.store, () => clock.now());
    let looked = () => {};
    const emit: Emit = (event) => {
      if (event === 'data.changed') looked();
    };
    const candles = new CandleScheduler({
      store: s.store,
      ledger: service,
      emit,
      log: createLogger(() => undefined),
      clock,
      retryMs: 30_000,
    });
    // In BTC, a buy of XRP for USDT takes USDT's price at its time.
    const choice = { method: 'fifo', currency: 'btc' } as const;
    /** Asks the scheduler as the P&L card's read does; whether it looks now, and its end. */
    const ask = () => {
      const built = service.ledger(PROFILE, choice);
      const lacking = service.candlesLacking(built);
      const done = new Promise<void>((resolve) => (looked = resolve));
      const now = candles.prices(
        PROFILE,
        client,
        choice,
        lacking.length > 0,
        service.newestLacking(built),
      );
      return { built, lacking, now, done };
    };
    const first = ask();
    expect(first.lacking).toContain('btcusdt');
    expect(first.now).toBe(true);
    await first.done;
    expect(service.candlesLacking(service.ledger(PROFILE, choice))).toEqual([]);

    // A fill a second later: its candle (the one finished by its time) is asked for at once.
    clock.advance(1_000);
    const kept = service.ledger(PROFILE, choice);
    const builds = service.stats.builds;
    await buy(Date.now() - 1_000);
    await sync.refresh('trades', { force: true });
    const second = ask();
    expect(second.built).toBe(kept);
    expect(second.lacking).toEqual(['btcusdt']);
    expect(second.now).toBe(true);
    await second.done;
    const after = service.ledger(PROFILE, choice);
    expect(service.candlesLacking(after)).toEqual([]);
    expect(after).toBe(kept);
    expect(service.stats.builds).toBe(builds);
    const fresh = buildFromStore(s.store, PROFILE, choice, after.builtAt);
    const view = (built: typeof after) =>
      summaryView(built, { at: clock.now(), importProgress: null });
    expect(view(after)).toEqual(view(fresh));

    // Nothing new lacks a candle: the next look waits for the retry.
    clock.advance(1_000);
    expect(ask().now).toBe(false);
    await Promise.all([sync.stop(), exchange.close()]);
  });
});
