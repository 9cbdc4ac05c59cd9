/**
 * An order filled in many pieces: every trade reaches the renderer in live batches, but the user
 * gets one notification at the first fill and one summary for the rest, not one per piece. The
 * app runs on a manual clock, so the summary window is advanced, not waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { SpotfolioApp } from '../../electron/app';
import { ManualClock } from '../../electron/core/clock';
import { ExchangeClient } from '../../electron/exchange/client';
import { sign } from '../../electron/exchange/sign';
import { Decimal, divide } from '../../shared/exact-decimal';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from './helpers';

let sandbox: Sandbox;
let live: LiveApp;
let app: SpotfolioApp;
let taker: { apiKey: string; secretKey: string };
/** The maker's own client, to read its orders as the exchange records them. */
let makerClient: ExchangeClient;
const clock = new ManualClock(Date.now());
/** The app's fill summary window (one notification per order per second at most). */
const SUMMARY_WINDOW_MS = 1000;
const FRAME_MS = 16;
/** What the desktop would have shown. */
const desktop: { kind: string; title: string; body: string }[] = [];
const eventsOf: LiveApp['eventsOf'] = (event) => live.eventsOf(event);

/** The other side of the fills: an account of its own, straight over REST. */
async function takerBuys(quantity: string, price: string): Promise<void> {
  const params = `symbol=btcusdt&side=buy&type=limit&quantity=${quantity}&price=${price}&timestamp=${Date.now()}`;
  const answer = await request(`${sandbox.baseUrl}/sapi/v1/order`, {
    method: 'POST',
    headers: { 'x-api-key': taker.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
    body: `${params}&signature=${sign(taker.secretKey, params)}`,
  });
  const text = await answer.body.text();
  expect(answer.statusCode, text).toBe(200);
}

beforeAll(async () => {
  sandbox = await startSandbox({ world: 'empty', rateLimits: false });
  const maker = sandbox.admin.createAccount({ email: 'maker@fills.test' });
  const makerKey = sandbox.admin.createApiKey(maker.email, { canTrade: true });
  makerClient = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...makerKey });
  sandbox.admin.credit(maker.email, 'btc', '1');
  const takerAccount = sandbox.admin.createAccount({ email: 'taker@fills.test' });
  taker = sandbox.admin.createApiKey(takerAccount.email, { canTrade: true });
  sandbox.admin.credit(takerAccount.email, 'usdt', '100000');
  live = await startLiveApp(sandbox, makerKey, {
    notifier: { show: (n) => desktop.push(n) },
    clock,
  });
  app = live.app;
});

afterAll(async () => {
  await live?.close();
  await makerClient?.close();
  await sandbox?.close();
});

describe('fill notifications', () => {
  it('notifies the first fill at once and sums up the rest', async () => {
    // The markets read once, so the texts name each amount's asset.
    await app.handlers['market.tickers']({});
    const order = await app.handlers['orders.place']({
      symbol: 'btcusdt',
      side: 'sell',
      type: 'limit',
      quantity: '0.005',
      price: '60000',
    });
    for (let i = 0; i < 5; i++) await takerBuys('0.001', '60000');
    const fillsOf = () => eventsOf('notification').filter((n) => n.kind === 'fill');

    // Batches go out a frame apart: each look moves the clock one frame, far inside the window.
    const startedAt = clock.now();
    const trades = await eventually('all five trades in live batches', () => {
      clock.advance(FRAME_MS);
      const seen = eventsOf('live.batch').flatMap((b) =>
        b.trades.filter((t) => t.orderId === order.id),
      );
      return seen.length === 5 ? seen : undefined;
    });
    expect(clock.now() - startedAt).toBeLessThan(SUMMARY_WINDOW_MS);
    expect(new Set(trades.map((t) => t.tradeId)).size).toBe(5);
    expect(fillsOf()).toHaveLength(1);

    clock.advance(SUMMARY_WINDOW_MS);
    const fills = fillsOf();
    expect(fills).toHaveLength(2);
    expect(fills[0]!.body).toBe('Sell 0.001 BTC at 60,000 USDT (fee 0.06 USDT)');
    expect(fills[1]!.body).toContain('4 more fills: Sell 0.004 BTC, last at 60,000 USDT');
    // The first fill is a fifth of the order, as the exchange's record of it says after that
    // fill; the summary comes when the order is all filled.
    const record = await makerClient.trading.getOrder({ orderId: order.id });
    expect(record.executedQty).toBe('0.005');
    const firstShare = divide(new Decimal('0.001').times(100), record.origQty).toFixed();
    expect(fills.map((n) => n.title)).toEqual([
      `Sell order ${firstShare} % filled`,
      'Sell order filled',
    ]);
    // The order is told placed before its first fill.
    const told = eventsOf('notification').map((n) => n.title);
    expect(told.indexOf('Order placed')).toBeLessThan(told.indexOf(fills[0]!.title));
    // The window closes when no more fills come: nothing further is notified.
    clock.advance(SUMMARY_WINDOW_MS);
    clock.advance(10 * SUMMARY_WINDOW_MS);
    expect(fillsOf()).toHaveLength(2);
  });

  it('hides the amounts of desktop notifications in privacy mode, and keeps them in the history', async () => {
    await app.handlers['settings.update']({ privacyMode: true });
    await app.handlers['market.tickers']({});
    const before = desktop.length;
    await app.handlers['orders.place']({
      symbol: 'btcusdt',
      side: 'sell',
      type: 'limit',
      quantity: '0.002',
      price: '61000',
    });
    await takerBuys('0.002', '61000');
    const shown = await eventually('the desktop notification of the fill', () =>
      desktop.slice(before).find((n) => n.kind === 'fill'),
    );
    expect(shown.body).toBe('Sell •••• BTC at •••• USDT (fee •••• USDT)');
    const recorded = eventsOf('notification')
      .filter((n) => n.kind === 'fill')
      .at(-1);
    expect(recorded?.body).toBe('Sell 0.002 BTC at 61,000 USDT (fee 0.122 USDT)');
  });
});
