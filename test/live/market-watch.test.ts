/**
 * market.watch over a public stream of the sandbox: one symbol at a time, bad symbols refused, and
 * a watch cut short by an unwatch leaves the watch that follows it alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedStream } from '../../electron/exchange/shared-stream';
import { StreamClient } from '../../electron/exchange/stream';
import { MarketWatch } from '../../electron/live/market-watch';
import { startSandbox, type Sandbox } from '../../electron/sandbox';
import type { EventName, EventPayloads } from '../../shared/contract';
import { eventually } from '../api/helpers';

let sandbox: Sandbox;
let streams: SharedStream;
let watch: MarketWatch;
const events: { event: EventName; payload: unknown }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 61, simulation: { ratePerSecond: 20 } });
  streams = new SharedStream(new StreamClient({ streamUrl: sandbox.streamUrl }));
  watch = new MarketWatch(streams, (event, payload) => events.push({ event, payload }));
});

afterAll(async () => {
  await watch?.close();
  await streams?.close();
  await sandbox?.close();
});

describe('MarketWatch', () => {
  it('streams the depth and trades of the watched symbol, then of the next one only', async () => {
    await watch.watch('btcusdt');
    const depth = await eventually('btcusdt depth', () =>
      events.find((e) => e.event === 'market.depth'),
    );
    const view = depth.payload as EventPayloads['market.depth'];
    expect(view.symbol).toBe('btcusdt');
    expect(view.asks.length).toBeGreaterThan(0);

    await watch.watch('ethusdt');
    expect(watch.watching).toBe('ethusdt');
    const seen = events.length;
    await eventually('ethusdt depth', () =>
      events
        .slice(seen)
        .find(
          (e) =>
            e.event === 'market.depth' &&
            (e.payload as EventPayloads['market.depth']).symbol === 'ethusdt',
        ),
    );
    const later = events.length;
    await eventually('more ethusdt events', () => (events.length > later + 3 ? true : undefined));
    const symbols = new Set(
      events.slice(later).map((e) => (e.payload as { symbol: string }).symbol),
    );
    expect([...symbols]).toEqual(['ethusdt']);
  });

  it('refuses an unknown symbol and keeps nothing half-watched', async () => {
    await expect(watch.watch('nosuchpair')).rejects.toThrow();
    expect(watch.watching).toBeNull();
    await watch.unwatch();
  });

  it('keeps the watch that follows an unwatch which cut a subscribe short', async () => {
    // The symbol page's effect runs again when the exchange's state changes: an unwatch, then a
    // watch of the same symbol, arriving together (the host dispatches them in one turn) while
    // the first watch still waits for its acknowledgement (the stream not yet back).
    const first = watch.watch('btcusdt');
    const unwatched = watch.unwatch();
    const second = watch.watch('btcusdt');
    await expect(first).rejects.toThrow(/unsubscribed/);
    await unwatched;
    await second;
    expect(watch.watching).toBe('btcusdt');
    const seen = events.length;
    await eventually('btcusdt depth after the second watch', () =>
      events
        .slice(seen)
        .find(
          (e) =>
            e.event === 'market.depth' &&
            (e.payload as EventPayloads['market.depth']).symbol === 'btcusdt',
        ),
    );
    await watch.unwatch();
  });
});
