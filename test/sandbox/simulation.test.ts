/**
 * The sandbox's living market (startSandbox with simulation on, driven by a ManualClock): the
 * same seed and the same clock steps give the same trades; the public streams move by themselves;
 * the demo user sees fills, deposits and withdrawals without doing anything.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock } from '../../electron/core/clock';
import { startSandbox, type Sandbox } from '../../electron/sandbox/index';

const START = Date.UTC(2026, 2, 1, 9);
const SYMBOLS = ['btcusdt', 'ethusdt', 'solusdt', 'xrpusdt', 'ethbtc'];

interface PublicTrade {
  id: number;
  price: string;
  qty: string;
  time: number;
  isBuyerMaker: boolean;
}

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function simulated(
  seed: number,
  ratePerSecond = 20,
): Promise<{ sandbox: Sandbox; clock: ManualClock }> {
  const clock = new ManualClock(START);
  const sandbox = await startSandbox({
    world: 'demo',
    clock,
    seed,
    rateLimits: false,
    simulation: { ratePerSecond },
  });
  running.push(sandbox);
  return { sandbox, clock };
}

/** Moves the clock in one-second steps (the way a running sandbox experiences time). */
function run(clock: ManualClock, seconds: number): void {
  for (let i = 0; i < seconds; i++) clock.advance(1000);
}

/** The public trades of every market made since START. */
async function tradesSinceStart(sandbox: Sandbox): Promise<Record<string, PublicTrade[]>> {
  const result: Record<string, PublicTrade[]> = {};
  for (const symbol of SYMBOLS) {
    const response = await fetch(`${sandbox.baseUrl}/sapi/v1/trades?symbol=${symbol}&limit=1000`);
    const trades = (await response.json()) as PublicTrade[];
    result[symbol] = trades.filter((t) => t.time > START);
  }
  return result;
}

interface Keys {
  apiKey: string;
  secretKey: string;
}

async function signed(
  sandbox: Sandbox,
  keys: Keys,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string> = {},
): Promise<unknown> {
  const query = new URLSearchParams({
    ...params,
    timestamp: String(sandbox.clock.now()),
  }).toString();
  const signature = createHmac('sha256', keys.secretKey).update(query).digest('hex');
  const response = await fetch(`${sandbox.baseUrl}${path}?${query}&signature=${signature}`, {
    method,
    headers: { 'X-API-KEY': keys.apiKey },
  });
  const body: unknown = await response.json();
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

type Message = { event?: string; stream?: string; data?: unknown };

/** Collects every data message of a connection; `reply()` waits for the next control reply. */
function collect(
  url: string,
): Promise<{ ws: WebSocket; messages: Message[]; reply: () => Promise<Message> }> {
  const ws = new WebSocket(url);
  const messages: Message[] = [];
  let waiting: ((m: Message) => void) | undefined;
  ws.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as Message;
    if (message.event !== undefined && waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(message);
      return;
    }
    messages.push(message);
  });
  const reply = () => new Promise<Message>((resolve) => (waiting = resolve));
  return new Promise((resolve) => {
    const connected = reply();
    void connected.then(() => resolve({ ws, messages, reply }));
  });
}

describe('sandbox market simulation', () => {
  it('makes the same trades for the same seed and clock steps, and others for another seed', async () => {
    const first = await simulated(11);
    const second = await simulated(11);
    const other = await simulated(12);
    for (const { clock } of [first, second, other]) run(clock, 60);
    const a = await tradesSinceStart(first.sandbox);
    const b = await tradesSinceStart(second.sandbox);
    const c = await tradesSinceStart(other.sandbox);
    const count = Object.values(a).reduce((n, trades) => n + trades.length, 0);
    // 20 steps a second for a minute, about half of them crossing the spread.
    expect(count).toBeGreaterThan(300);
    for (const symbol of SYMBOLS) expect(a[symbol]!.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('moves trades, tickers, klines and depth on the public streams by itself', async () => {
    const { sandbox, clock } = await simulated(3, 10);
    const client = await collect(sandbox.streamUrl);
    const streams = [
      'btcusdt@trades',
      '!ticker@arr',
      'btcusdt@kline_1m',
      'btcusdt@depth',
      'btcusdt@depth10@100ms',
    ];
    client.ws.send(JSON.stringify({ event: 'subscribe', streams }));
    expect((await client.reply()).event).toBe('subscribed');
    run(clock, 30);
    client.ws.send(JSON.stringify({ event: 'ping' }));
    expect((await client.reply()).event).toBe('pong');
    const byStream = (name: string) => client.messages.filter((m) => m.stream === name);
    // Beyond the snapshots sent at subscription, each stream got updates.
    expect(byStream('btcusdt@trades').length).toBeGreaterThan(5);
    expect(byStream('!ticker@arr').length).toBeGreaterThan(5);
    expect(byStream('btcusdt@kline_1m').length).toBeGreaterThanOrEqual(6);
    expect(byStream('btcusdt@depth').length).toBeGreaterThan(3);
    expect(byStream('btcusdt@depth10@100ms').length).toBeGreaterThan(5);
    const closes = new Set(byStream('btcusdt@kline_1m').map((m) => (m.data as { c: string }).c));
    expect(closes.size).toBeGreaterThan(1);
    client.ws.close();
  });

  it('shows the demo user fills, deposits and withdrawals without doing anything', async () => {
    const { sandbox, clock } = await simulated(5, 20);
    const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
    const keys = parent.keys.find((k) => k.canTrade)!;
    const auth = (await signed(sandbox, keys, 'POST', '/sapi/v1/create_auth_token')) as {
      auth_key: string;
    };
    const client = await collect(sandbox.streamUrl);
    client.ws.send(
      JSON.stringify({
        event: 'subscribe',
        streams: ['outboundAccountPosition', 'orderUpdate', 'ownTrade'],
        auth_key: auth.auth_key,
      }),
    );
    expect((await client.reply()).event).toBe('subscribed');
    // Four minutes at 20 steps a second.
    for (let minute = 0; minute < 4; minute++) {
      run(clock, 60);
      // The pong proves every event of this minute has arrived (one connection is ordered).
      client.ws.send(JSON.stringify({ event: 'ping' }));
      expect((await client.reply()).event).toBe('pong');
    }
    const fills = client.messages.filter((m) => m.stream === 'ownTrade');
    expect(fills.length).toBeGreaterThan(0);
    const demoOrderUpdates = client.messages.filter((m) => m.stream === 'orderUpdate');
    expect(demoOrderUpdates.some((m) => Number((m.data as { z: string }).z) > 0)).toBe(true);
    const balanceUpdates = client.messages.filter((m) => m.stream === 'outboundAccountPosition');
    expect(balanceUpdates.length).toBeGreaterThan(fills.length);

    const withdrawals = (await signed(sandbox, keys, 'GET', '/sapi/v1/crypto/withdraws')) as {
      withdrawOrderId?: string;
      status: number;
    }[];
    const simulatedWithdrawals = withdrawals.filter((w) =>
      w.withdrawOrderId?.startsWith('sim-withdrawal-'),
    );
    expect(simulatedWithdrawals.length).toBeGreaterThan(0);
    // Settled ones are Success (0) or Failed (1); at most two are still Pending (2).
    expect(simulatedWithdrawals.some((w) => w.status === 0 || w.status === 1)).toBe(true);
    expect(simulatedWithdrawals.filter((w) => w.status === 2).length).toBeLessThanOrEqual(2);
    client.ws.close();
    // Four simulated minutes are 4,800 steps of CPU work: alone it takes a few seconds, beside the
    // journeys on a loaded machine it once took over 30.
  }, 120_000);
});
