/**
 * The private stream of the active profile against the sandbox: a fill reaches the renderer as a
 * live.batch and a notification, and is in the store; a dropped connection reconnects, and funds
 * and open orders are re-read over REST afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotfolioApp } from '../../electron/app';
import { startSandbox, type TestSandbox as Sandbox } from '../../electron/sandbox/testing';
import { openStore } from '../../electron/store';
import { JOBS } from '../../electron/sync/engine';
import type { ProfileView } from '../../shared/types';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from './helpers';
import { parentOf } from '../exchange/helpers';

let sandbox: Sandbox;
let live: LiveApp;
let app: SpotfolioApp;
let profile: ProfileView;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 51 });
  live = await startLiveApp(sandbox, parentOf(sandbox).trade);
  ({ app, profile } = live);
});

afterAll(async () => {
  await live?.close();
  await sandbox?.close();
});

const eventsOf: LiveApp['eventsOf'] = (event) => live.eventsOf(event);

describe('live session', () => {
  it('turns a fill into a live batch, a notification and a stored trade', async () => {
    // The markets read once, so the notification names each amount's asset.
    await app.handlers['market.tickers']({});
    const depth = await app.handlers['market.depth']({ symbol: 'ethusdt', limit: 5 });
    const [bestAsk] = depth.asks[0]!;
    const order = await app.handlers['orders.place']({
      symbol: 'ethusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.01',
      price: bestAsk,
    });
    const batch = await eventually('a live batch with the fill', () =>
      eventsOf('live.batch').find((b) => b.trades.some((t) => t.orderId === order.id)),
    );
    expect(batch.profileId).toBe(profile.id);
    const trade = batch.trades.find((t) => t.orderId === order.id)!;
    expect(trade).toMatchObject({ symbol: 'ethusdt', side: 'buy', price: bestAsk });
    const fill = await eventually('a fill notification', () =>
      eventsOf('notification').find((n) => n.kind === 'fill'),
    );
    expect(fill.body).toMatch(/^Buy [\d.]+ ETH at [\d,.]+ USDT \((fee [\d.]+ [A-Z]+|no fee)\)$/);
    await eventually('the balances of the fill in a batch', () =>
      eventsOf('live.batch').find((b) => b.balances.some((x) => x.asset === 'eth')),
    );

    const { store } = openStore({ dataDir: live.dataDir });
    try {
      const trades = store.orders.tradesPage(profile.id, { orderId: order.id }).rows;
      expect(trades.map((t) => t.id)).toContain(trade.tradeId);
      expect(store.orders.getOrder(profile.id, order.id)?.executedQty).not.toBe('0');
      const notifications = store.notifications.list(profile.id);
      expect(notifications.some((n) => n.kind === 'fill' && n.body === fill.body)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('reports a cancel made elsewhere, from the stream alone', async () => {
    const depth = await app.handlers['market.depth']({ symbol: 'ethusdt', limit: 5 });
    const [bestBid] = depth.bids[depth.bids.length - 1]!;
    const order = await app.handlers['orders.place']({
      symbol: 'ethusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.01',
      price: bestBid,
    });
    await app.handlers['orders.cancel']({ symbol: 'ethusdt', orderId: order.id });
    await eventually('a cancel notification', () =>
      eventsOf('notification').find((n) => n.kind === 'cancel'),
    );
    const open = await app.handlers['orders.open']({ symbol: 'ethusdt' });
    expect(open.rows.map((o) => o.id)).not.toContain(order.id);
  });

  it('reconnects after the connection drops and re-reads funds over REST', async () => {
    const before = (await app.handlers['funds.list']({})).asOf;
    const seen = eventsOf('connection.state').length;
    sandbox.admin.dropStreamConnections();
    await eventually('the stream to reconnect', () => {
      const names = eventsOf('connection.state')
        .slice(seen)
        .map((e) => e.state);
      return names.includes('reconnecting') && names.at(-1) === 'live' ? true : undefined;
    });
    // A REST re-read replaces every row at one time; live updates touch single assets only.
    await eventually('funds re-read after the reconnect', () => {
      const { store } = openStore({ dataDir: live.dataDir });
      try {
        const times = new Set(store.funds.list(profile.id).rows.map((r) => r.updatedAt));
        const [only] = [...times];
        return times.size === 1 && before !== null && only! > before ? true : undefined;
      } finally {
        store.close();
      }
    });
    expect((await app.handlers['app.status']({})).connection).toBe('live');
  });

  it('reads funds again once the stream is live: a change made before it listened is not missed', async () => {
    const email = 'late-stream@live.test';
    sandbox.admin.createAccount({ email });
    sandbox.admin.credit(email, 'usdt', '100');
    const key = sandbox.admin.createApiKey(email);
    // The stream's token is late, so sync's first reads are answered before the stream listens.
    sandbox.admin.faults.inject(
      { method: 'POST', path: '/sapi/v1/create_auth_token' },
      { kind: 'latency', ms: 1500 },
    );
    let firstReadAt = 0;
    const late = await startLiveApp(sandbox, key, {
      beforeLive: async (started) => {
        firstReadAt = await eventually('sync to read the funds', async () => {
          const funds = await started.handlers['funds.list']({});
          const usdt = funds.rows.find((r) => r.asset === 'usdt')?.free;
          return usdt === '100' && funds.asOf !== null ? funds.asOf : undefined;
        });
        // Made while the stream is not listening: no event tells the app of it.
        sandbox.admin.credit(email, 'usdt', '5');
      },
    });
    try {
      const readAt = await eventually('the credit read once the stream is live', async () => {
        const funds = await late.app.handlers['funds.list']({});
        const usdt = funds.rows.find((r) => r.asset === 'usdt')?.free;
        return usdt === '105' ? funds.asOf : undefined;
      });
      // Read because the stream went live, not by the funds' next timed refresh.
      expect(readAt! - firstReadAt).toBeLessThan(JOBS.funds.freshnessMs);
    } finally {
      await late.close();
    }
  });
});
