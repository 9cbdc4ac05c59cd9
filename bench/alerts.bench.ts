/**
 * alerts.evaluate: 1,000 alerts (price lines above and below, 24-hour moves, over 100 markets) in
 * a real record file, fed the all-market ticker stream's messages through the socket's own decode
 * path into the alert session, as the app runs it:
 * - alerts.evaluate: ticker messages evaluated per second, vs bare JSON.parse of the same
 *   messages in the same run. Prices walk around the lines, so sides change and alerts fire
 *   (each a write to the record, a notification and a desktop notification call) as they would.
 * - alerts.evaluate.latency: from a crossing ticker message arriving to the notification call,
 *   p99 over 500 crossings, vs bare JSON.parse of the same message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlertSession } from '../electron/alerts/session';
import { DEFAULT_SETTINGS } from '../electron/settings/stored';
import { ManualClock } from '../electron/core/clock';
import { KnownSecrets, type Logger } from '../electron/core/logger';
import { SharedStream } from '../electron/exchange/shared-stream';
import { StreamClient } from '../electron/exchange/stream';
import { openStore } from '../electron/store';
import { figure, percentile, type Bench } from './figure';

const MARKETS = 100;
const ALERTS = 1000;
const TICKERS_PER_MESSAGE = 4;
const MESSAGES = 20_000;
const LATENCY_SAMPLES = 500;
const PROFILE_ID = 'bench';

const quiet: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: (message, error) => {
    throw new Error(`${message}: ${String(error)}`);
  },
  line: () => undefined,
  secrets: new KnownSecrets(),
};

/** A small deterministic generator: the same messages in every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const symbolOf = (market: number) => `c${String(market).padStart(3, '0')}usdt`;
/** Every market starts at 1,000 plus its number, priced to 2 decimals. */
const startPrice = (market: number) => 1000 + market;
const text = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

function tickerMessage(
  tickers: { symbol: string; cents: number; openCents: number }[],
  at: number,
) {
  return JSON.stringify({
    stream: '!ticker@arr',
    data: tickers.map((t) => ({
      E: at,
      T: 'SPOT',
      U: 'usdt',
      a: text(t.cents + 1),
      b: text(t.cents - 1),
      c: text(t.cents),
      h: text(Math.max(t.cents, t.openCents)),
      l: text(Math.min(t.cents, t.openCents)),
      o: text(t.openCents),
      q: '1234.5',
      s: t.symbol,
      u: t.symbol.slice(0, -4),
    })),
  });
}

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-alerts-'));
  const { store } = openStore({ dataDir: dir });
  store.profiles.create({
    id: PROFILE_ID,
    name: 'Bench',
    baseUrl: 'http://127.0.0.1:1',
    streamUrl: 'ws://127.0.0.1:1/ws',
    apiKeyMasked: 'abcd…wxyz',
    canTrade: true,
    canWithdraw: true,
    isDemo: false,
    createdAt: Date.now(),
  });
  let notified = 0;
  // Cool-downs are counted on this clock: the latency figure moves it past them.
  const clock = new ManualClock(Date.now());
  let onNotify: (() => void) | null = null;
  // Never connected: the bench feeds the client raw messages (feedRaw), as a socket would.
  const streams = new StreamClient({ streamUrl: 'ws://127.0.0.1:1/ws' });
  const session = new AlertSession({
    store,
    profileId: PROFILE_ID,
    streams: new SharedStream(streams),
    client: { market: {} as never },
    emit: () => undefined,
    clock,
    log: quiet,
    settings: () => DEFAULT_SETTINGS,
    notifier: {
      show: () => {
        notified++;
        onNotify?.();
      },
    },
  });
  const next = random(42);
  // Ten alerts per market: lines from 20 % below to 20 % above the start, both directions,
  // repeating with a one-minute cool-down, and a 24-hour move of 5 % or 10 %.
  for (let i = 0; i < ALERTS; i++) {
    const market = i % MARKETS;
    const cents = startPrice(market) * 100;
    const symbol = symbolOf(market);
    const slot = Math.floor(i / MARKETS);
    const timing = { repeat: true, cooldownMinutes: 1 };
    const alert =
      slot >= 8
        ? {
            kind: 'price-move' as const,
            symbol,
            direction: 'either' as const,
            threshold: slot === 8 ? '5' : '10',
            window: '24h' as const,
            ...timing,
          }
        : {
            kind: 'price' as const,
            symbol,
            direction: slot % 2 === 0 ? ('above' as const) : ('below' as const),
            threshold: text(Math.round(cents * (0.8 + next() * 0.4))),
            ...timing,
          };
    session.repository.create(
      PROFILE_ID,
      alert,
      { lastSide: null, lastValue: null, lastSeenAt: null },
      Date.now(),
    );
  }
  session.engine.reload();
  streams.on('tickers', (tickers) => session.onTickers(tickers));
  return {
    session,
    streams,
    clock,
    notified: () => notified,
    onNotify: (fn: (() => void) | null) => {
      onNotify = fn;
    },
    async close() {
      await session.close();
      await streams.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Prices walking by up to 0.3 % a step: they cross some lines now and then, as markets do. */
function walkMessages(count: number): string[] {
  const next = random(7);
  const cents = Array.from({ length: MARKETS }, (_, m) => startPrice(m) * 100);
  const messages: string[] = [];
  const at = Date.now();
  for (let i = 0; i < count; i++) {
    const tickers = [];
    for (let k = 0; k < TICKERS_PER_MESSAGE; k++) {
      const market = Math.floor(next() * MARKETS);
      const step = Math.round((next() - 0.5) * 0.006 * cents[market]!);
      cents[market] = Math.max(100, cents[market]! + step);
      tickers.push({
        symbol: symbolOf(market),
        cents: cents[market]!,
        openCents: startPrice(market) * 100,
      });
    }
    messages.push(tickerMessage(tickers, at + i));
  }
  return messages;
}

function rate(messages: readonly string[], handle: (raw: string) => void, ms: number): number {
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < ms) {
    for (const raw of messages) handle(raw);
    count += messages.length;
  }
  return (count * 1000) / (performance.now() - start);
}

export const benches: Bench[] = [
  {
    name: 'alerts.evaluate',
    async run() {
      const world = setUp();
      try {
        const messages = walkMessages(MESSAGES);
        let sink = 0;
        const parse = (raw: string) => {
          sink += (JSON.parse(raw) as { data: unknown[] }).data.length;
        };
        const evaluate = (raw: string) => world.streams.feedRaw(raw);
        // Each pass over the messages replays the same walk: the record's sides follow along.
        rate(messages, evaluate, 500);
        rate(messages, parse, 500);
        const value = rate(messages, evaluate, 3000);
        const baseline = rate(messages, parse, 3000);
        if (sink === 0) throw new Error('nothing parsed');
        if (world.notified() === 0) throw new Error('no alert fired: the walk crosses no line');

        // Latency: one market's line crossed on purpose, back and forth, each time after the
        // alert's cool-down.
        const symbol = symbolOf(0);
        const below = (startPrice(0) * 100 * 0.5) | 0;
        const above = startPrice(0) * 100 * 2;
        world.session.repository.create(
          PROFILE_ID,
          {
            kind: 'price',
            symbol,
            direction: 'above',
            threshold: text(startPrice(0) * 100),
            repeat: true,
            cooldownMinutes: 1,
          },
          { lastSide: null, lastValue: null, lastSeenAt: null },
          Date.now(),
        );
        world.session.engine.reload();
        const latencies: number[] = [];
        const parseTimes: number[] = [];
        let sentAt = 0;
        let seen = -1;
        world.onNotify(() => {
          if (seen < 0) seen = performance.now() - sentAt;
        });
        let at = Date.now() + MESSAGES + 1;
        for (let i = 0; i < LATENCY_SAMPLES; i++) {
          world.streams.feedRaw(tickerMessage([{ symbol, cents: below, openCents: below }], at++));
          const crossing = tickerMessage([{ symbol, cents: above, openCents: above }], at++);
          // A minute passes: the cool-downs of the market's alerts are over.
          world.clock.advance(61_000);
          seen = -1;
          sentAt = performance.now();
          world.streams.feedRaw(crossing);
          if (seen < 0) throw new Error('the crossing did not reach the notifier');
          latencies.push(seen);
          const parsedAt = performance.now();
          JSON.parse(crossing);
          parseTimes.push(performance.now() - parsedAt);
        }
        latencies.sort((a, b) => a - b);
        parseTimes.sort((a, b) => a - b);
        const p99 = percentile(latencies, 99);
        return [
          figure({
            name: 'alerts.evaluate',
            value,
            unit: 'msgs/s',
            baseline,
            target: `>= 50000 msgs/s, ${ALERTS} alerts, ${TICKERS_PER_MESSAGE} tickers a message (baseline: bare JSON.parse)`,
            ok: value >= 50_000,
          }),
          figure({
            name: 'alerts.evaluate.latency',
            value: p99,
            unit: 'ms p99',
            baseline: percentile(parseTimes, 99),
            target:
              'p99 < 20 ms from the crossing ticker to the notification call (baseline: bare JSON.parse)',
            ok: p99 < 20,
          }),
        ];
      } finally {
        await world.close();
      }
    },
  },
];
