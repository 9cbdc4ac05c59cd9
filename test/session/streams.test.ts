/**
 * The active profile's one stream client, as the app wires it, against the real sandbox over
 * 127.0.0.1: the live session's account events, a price alert's ticker stream and the watched
 * market go over one connection; removing the alert keeps the watch's streams; a dropped
 * connection comes back once with all of them; a profile switch and quitting leave no connection
 * of the old session behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotfolioApp } from '../../electron/app';
import { PRIVATE_STREAMS } from '../../electron/exchange/stream';
import { marketStreams } from '../../electron/live/market-watch';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { eventually } from '../api/helpers';
import { startLiveApp, type LiveApp } from '../live/helpers';
import { parentOf } from '../exchange/helpers';

const PRIVATE = [...PRIVATE_STREAMS];
const TICKERS = '!ticker@arr';
const MARKET = marketStreams('btcusdt');
const sorted = (names: readonly string[]) => [...names].sort();

let sandbox: TestSandbox;
let live: LiveApp;
let app: SpotfolioApp;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 81 });
  live = await startLiveApp(sandbox, parentOf(sandbox).trade);
  ({ app } = live);
});

afterAll(async () => {
  await live?.close();
  await sandbox?.close();
});

/** Waits until the exchange's open stream connections carry exactly `expected`, one list each. */
async function connectionsCarry(expected: string[][]): Promise<void> {
  await expect
    .poll(() => sandbox.admin.streamsByConnection(), { timeout: 10_000 })
    .toEqual(expected.map(sorted));
}

describe('the active profile streams over one client', () => {
  it('carries the account events, an alert and the market watch over one connection', async () => {
    await connectionsCarry([PRIVATE]);
    const alert = await app.handlers['alerts.create']({
      kind: 'price',
      symbol: 'btcusdt',
      direction: 'above',
      threshold: '999999',
      repeat: false,
      cooldownMinutes: 60,
    });
    await app.handlers['market.watch']({ symbol: 'btcusdt' });
    await connectionsCarry([[...PRIVATE, TICKERS, ...MARKET]]);
    // The watch's book comes over it.
    await eventually('the watched book', () =>
      live.eventsOf('market.depth').find((d) => d.symbol === 'btcusdt'),
    );
    // And the account's events: a resting order's update reaches the store as a live batch.
    const book = await app.handlers['market.depth']({ symbol: 'btcusdt', limit: 5 });
    const order = await app.handlers['orders.place']({
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: book.bids[book.bids.length - 1]![0],
    });
    await eventually('the order in a live batch', () =>
      live.eventsOf('live.batch').find((b) => b.orders.some((o) => o.orderId === order.id)),
    );
    expect(sandbox.admin.streamConnectionCount()).toBe(1);

    // Removing the alert lets the tickers go; the watch and the account stay.
    await app.handlers['alerts.remove']({ id: alert.id });
    await connectionsCarry([[...PRIVATE, ...MARKET]]);
    // Unwatching lets the market go; the account stays.
    await app.handlers['market.unwatch']({});
    await connectionsCarry([PRIVATE]);
  });

  it('reconnects once after the exchange drops the connection, with every stream back', async () => {
    await app.handlers['alerts.create']({
      kind: 'price',
      symbol: 'btcusdt',
      direction: 'below',
      threshold: '0.01',
      repeat: false,
      cooldownMinutes: 60,
    });
    await app.handlers['market.watch']({ symbol: 'btcusdt' });
    await connectionsCarry([[...PRIVATE, TICKERS, ...MARKET]]);
    const states = live.eventsOf('connection.state').length;
    const books = live.eventsOf('market.depth').length;
    sandbox.admin.dropStreamConnections();
    await eventually('the stream to be live again', () =>
      live.eventsOf('connection.state').at(-1)?.state === 'live' &&
      live.eventsOf('connection.state').length > states
        ? true
        : undefined,
    );
    // Told once: away, then back.
    expect(
      live
        .eventsOf('connection.state')
        .slice(states)
        .map((e) => e.state),
    ).toEqual(['reconnecting', 'live']);
    await connectionsCarry([[...PRIVATE, TICKERS, ...MARKET]]);
    await eventually('the watched book after the reconnect', () =>
      live.eventsOf('market.depth').length > books ? true : undefined,
    );
  });

  it('closes the old session’s client on a profile switch, and every client on quitting', async () => {
    const sub = sandbox.world.accounts.find((a) => a.role === 'sub')!;
    const first = (await app.handlers['profiles.list']({})).find((p) => p.active)!;
    const second = await app.handlers['profiles.add']({
      name: 'Sub',
      apiKey: sub.keys[0]!.apiKey,
      secretKey: sub.keys[0]!.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    await app.handlers['profiles.activate']({ id: second.id });
    // The second profile has no alert and no watch: one connection, its account's streams.
    await connectionsCarry([PRIVATE]);
    await eventually('the second profile live', () =>
      live.eventsOf('connection.state').at(-1)?.profileId === second.id &&
      live.eventsOf('connection.state').at(-1)?.state === 'live'
        ? true
        : undefined,
    );
    // Back to the first: its alert's tickers and its account, the watch ended with its session.
    await app.handlers['profiles.activate']({ id: first.id });
    await connectionsCarry([[...PRIVATE, TICKERS]]);
    await app.close();
    await expect.poll(() => sandbox.admin.streamConnectionCount()).toBe(0);
  });
});
