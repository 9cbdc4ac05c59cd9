import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { ExchangeLimiters, RateLimiter } from '../../electron/exchange/limits';

function limiterOn(clock: ManualClock, marginMs = 0): RateLimiter {
  return new RateLimiter({ clock, marginMs });
}

/** Lets granted promises run their continuations. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RateLimiter', () => {
  it('queues calls beyond the budget and grants them one period after each answer', async () => {
    const clock = new ManualClock(0);
    const limiter = limiterOn(clock);
    const grantedAt: number[] = [];
    const calls = Array.from({ length: 5 }, () =>
      limiter.acquire('depth', 'ip').then((release) => {
        grantedAt.push(clock.now());
        release(); // answered at once
      }),
    );
    await settle();
    expect(grantedAt).toEqual([0, 0]);
    clock.advance(999);
    await settle();
    expect(grantedAt).toEqual([0, 0]);
    clock.advance(1);
    await settle();
    expect(grantedAt).toEqual([0, 0, 1000, 1000]);
    clock.advance(1000);
    await Promise.all(calls);
    expect(grantedAt).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it('never allows more than N calls inside any fixed window, whatever the alignment', async () => {
    const clock = new ManualClock(0);
    const limiter = limiterOn(clock);
    const sent: number[] = [];
    const calls = Array.from({ length: 30 }, () =>
      limiter.acquire('coins', 'key-a').then((release) => {
        sent.push(clock.now());
        release();
      }),
    );
    for (let t = 0; t < 7 * 60_000; t += 500) {
      clock.advance(500);
      await settle();
    }
    await Promise.all(calls);
    expect(sent).toHaveLength(30);
    // 5 per minute: for every offset of a one-minute fixed window, at most 5 calls inside it.
    for (let offset = 0; offset < 60_000; offset += 250) {
      const counts = new Map<number, number>();
      for (const t of sent) {
        const window = Math.floor((t - offset) / 60_000);
        counts.set(window, (counts.get(window) ?? 0) + 1);
      }
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(5);
    }
  });

  it('holds a token while the call is in flight', async () => {
    const clock = new ManualClock(0);
    const limiter = limiterOn(clock);
    const release = await limiter.acquire('ping', 'ip');
    let second = false;
    const next = limiter.acquire('ping', 'ip').then((r) => {
      second = true;
      r();
    });
    clock.advance(5000);
    await settle();
    expect(second).toBe(false); // the first call has not been answered yet
    release();
    clock.advance(999);
    await settle();
    expect(second).toBe(false);
    clock.advance(1);
    await next;
    expect(second).toBe(true);
  });

  it('keeps keys and endpoints apart', async () => {
    const clock = new ManualClock(0);
    const limiter = limiterOn(clock);
    const a = await limiter.acquire('funds', 'key-a');
    const b = await limiter.acquire('funds', 'key-b');
    const c = await limiter.acquire('account', 'key-a');
    for (const release of [a, b, c]) release();
    expect(limiter.queueWaitMs('funds', 'key-a')).toBe(1000);
    expect(limiter.queueWaitMs('funds', 'key-c')).toBe(0);
  });

  it('pauses a key for Retry-After after a 429 and everything after a 418', async () => {
    const clock = new ManualClock(0);
    const limiter = limiterOn(clock);
    limiter.pauseKey('key-a', 3000);
    expect(limiter.queueWaitMs('myTrades', 'key-a')).toBe(3000);
    expect(limiter.queueWaitMs('myTrades', 'key-b')).toBe(0);
    let granted = -1;
    const call = limiter.acquire('myTrades', 'key-a').then((r) => {
      granted = clock.now();
      r();
    });
    clock.advance(2999);
    await settle();
    expect(granted).toBe(-1);
    clock.advance(1);
    await call;
    expect(granted).toBe(3000);
    limiter.pauseAll(60_000);
    expect(limiter.queueWaitMs('ping', 'ip')).toBe(60_000);
  });

  it('reports the queue wait of a new call from the queue in front of it', async () => {
    const clock = new ManualClock(0);
    const limiter = limiterOn(clock);
    const pending = Array.from({ length: 3 }, () => limiter.acquire('ping', 'ip').then((r) => r()));
    await settle();
    // One granted and answered at 0; two queued for 1000 and 2000; a new one would go at 3000.
    expect(limiter.queueWaitMs('ping', 'ip')).toBe(3000);
    expect(limiter.maxQueueWaitMs()).toBe(3000);
    for (let step = 0; step < 3; step++) {
      clock.advance(1000);
      await settle();
    }
    await Promise.all(pending);
  });
});

describe('ExchangeLimiters', () => {
  it('gives every client of one exchange (its origin) the same limiter, another exchange its own', async () => {
    const clock = new ManualClock(0);
    const limiters = new ExchangeLimiters({ clock, marginMs: 0 });
    const one = limiters.for('http://127.0.0.1:4000/sapi');
    expect(limiters.for('http://127.0.0.1:4000')).toBe(one);
    const other = limiters.for('http://127.0.0.1:4001');
    expect(other).not.toBe(one);
    // A token spent through one client's limiter is spent for the exchange's other clients too.
    const release = await one.acquire('ping', 'ip');
    release();
    expect(limiters.for('http://127.0.0.1:4000/').queueWaitMs('ping', 'ip')).toBe(1000);
    expect(other.queueWaitMs('ping', 'ip')).toBe(0);
    limiters.close();
    await expect(one.acquire('ping', 'ip')).rejects.toThrow('closed');
    await expect(other.acquire('ping', 'ip')).rejects.toThrow('closed');
  });
});
