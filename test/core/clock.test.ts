/** The clocks everything waits on: the manual one fires due timers in time order as it advances. */
import { describe, expect, it } from 'vitest';
import {
  ManualClock,
  Repeater,
  retry,
  sleep,
  SystemClock,
  KeyedThrottle,
  Throttle,
  Timer,
  withTimeout,
} from '../../electron/core/clock';

describe('ManualClock', () => {
  it('fires due timers in time order during advance, and only those', () => {
    const clock = new ManualClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    const canceled = clock.setTimeout(() => fired.push('never'), 150);
    clock.clearTimeout(canceled);
    clock.setTimeout(() => fired.push('later'), 500);
    clock.advance(300);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1300);
    expect(clock.pending).toBe(1);
  });

  it('fires a timer set by a timer within the same advance', () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 50);
    }, 50);
    clock.advance(100);
    expect(fired).toEqual([50, 100]);
  });

  it('never goes back: set() to an earlier time keeps the present', () => {
    const clock = new ManualClock(500);
    clock.set(100);
    expect(clock.now()).toBe(500);
    clock.set(900);
    expect(clock.now()).toBe(900);
  });
});

describe('SystemClock', () => {
  it('reads the wall clock plus its skew and runs real timers', async () => {
    const clock = new SystemClock();
    clock.skewMs = 60_000;
    const skewed = clock.now() - Date.now();
    expect(skewed).toBeGreaterThanOrEqual(59_990);
    expect(skewed).toBeLessThanOrEqual(60_000);
    const fired = await new Promise<boolean>((resolve) => {
      clock.setTimeout(() => resolve(true), 5);
    });
    expect(fired).toBe(true);
    let late = false;
    const handle = clock.setTimeout(() => (late = true), 5);
    clock.clearTimeout(handle);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(late).toBe(false);
  });
});

/** Lets the promise callbacks queued so far run (a manual clock fires timers synchronously). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the async toolbox on a manual clock', () => {
  it('sleep resolves when the clock reaches it, or at once on abort', async () => {
    const clock = new ManualClock(0);
    let woke = false;
    void sleep(clock, 1000).then(() => (woke = true));
    clock.advance(999);
    await settle();
    expect(woke).toBe(false);
    clock.advance(1);
    await settle();
    expect(woke).toBe(true);

    const stop = new AbortController();
    const aborted = sleep(clock, 60_000, stop.signal);
    stop.abort();
    await aborted;
    expect(clock.pending).toBe(0);
  });

  it('withTimeout passes a prompt answer through and rejects a late one', async () => {
    const clock = new ManualClock(0);
    await expect(
      withTimeout(clock, Promise.resolve(7), 100, () => new Error('late')),
    ).resolves.toBe(7);
    expect(clock.pending).toBe(0);
    const late = withTimeout(
      clock,
      new Promise<never>(() => undefined),
      100,
      () => new Error('late'),
    );
    clock.advance(100);
    await expect(late).rejects.toThrow('late');
  });

  it('Timer runs once; a restart moves the run, startIfIdle keeps it', () => {
    const clock = new ManualClock(0);
    const runs: number[] = [];
    const timer = new Timer(clock, () => runs.push(clock.now()));
    timer.start(100);
    clock.advance(50);
    timer.start(100);
    timer.startIfIdle(10);
    expect(timer.armed).toBe(true);
    clock.advance(1000);
    expect(runs).toEqual([150]);
    expect(timer.armed).toBe(false);
    timer.start(5);
    timer.cancel();
    clock.advance(10);
    expect(runs).toEqual([150]);
  });

  it('Repeater runs every interval until stopped', () => {
    const clock = new ManualClock(0);
    const runs: number[] = [];
    const repeater = new Repeater(clock, 30, () => runs.push(clock.now()));
    clock.advance(100);
    repeater.stop();
    clock.advance(100);
    expect(runs).toEqual([30, 60, 90]);
  });

  it('Throttle runs a lone trigger at once and a burst once per interval', () => {
    const clock = new ManualClock(0);
    const runs: number[] = [];
    const throttle = new Throttle(clock, 250, () => runs.push(clock.now()));
    throttle.trigger();
    clock.advance(10);
    throttle.trigger();
    clock.advance(10);
    throttle.trigger();
    expect(runs).toEqual([0]);
    clock.advance(300);
    expect(runs).toEqual([0, 250]);
    clock.advance(1000);
    throttle.trigger();
    expect(runs).toEqual([0, 250, 1320]);
    throttle.trigger();
    throttle.cancel();
    clock.advance(1000);
    expect(runs).toEqual([0, 250, 1320]);
  });

  it('KeyedThrottle runs each key at once after its own quiet interval, and a burst once per interval', () => {
    const clock = new ManualClock(0);
    const runs: [number, string[]][] = [];
    const throttle = new KeyedThrottle<string>(clock, 250, (keys) =>
      runs.push([clock.now(), keys]),
    );
    throttle.trigger(['orders', 'funds']);
    clock.advance(5);
    // Another key is not held back by the first ones' interval; theirs wait for its end.
    throttle.trigger(['trades', 'funds']);
    expect(runs).toEqual([
      [0, ['orders', 'funds']],
      [5, ['trades']],
    ]);
    clock.advance(100);
    throttle.trigger(['orders']);
    clock.advance(100);
    expect(runs).toHaveLength(2);
    // At 250 both keys that ran at 0 are due: one run for both.
    clock.advance(50);
    expect(runs[2]).toEqual([250, ['funds', 'orders']]);
    clock.advance(1000);
    expect(runs).toHaveLength(3);
    throttle.trigger(['trades']);
    throttle.trigger(['trades']);
    expect(runs[3]).toEqual([1255, ['trades']]);
    throttle.cancel();
    clock.advance(1000);
    expect(runs).toHaveLength(4);
  });

  it('retry waits with back-off between tries and honours a longer wait asked for', async () => {
    const clock = new ManualClock(0);
    const tries: number[] = [];
    const waits: number[] = [];
    const done = retry(
      clock,
      async (attempt) => {
        tries.push(clock.now());
        if (attempt < 3) throw new Error(attempt === 1 ? 'slow down' : 'down');
        return 'ok';
      },
      {
        backoff: { firstMs: 100, maxMs: 1000 },
        atLeastMs: (error) => ((error as Error).message === 'slow down' ? 5000 : undefined),
        onRetry: (_error, _failures, delayMs) => waits.push(delayMs),
      },
    );
    for (let i = 0; i < 100 && tries.length < 4; i++) {
      await settle();
      clock.advance(100);
    }
    await expect(done).resolves.toBe('ok');
    expect(waits).toEqual([100, 5000, 400]);
    expect(tries).toEqual([0, 100, 5100, 5500]);
  });

  it('retry gives up on a failure that is not retryable, and when aborted', async () => {
    const clock = new ManualClock(0);
    let tries = 0;
    await expect(
      retry(
        clock,
        async () => {
          tries++;
          throw new Error('refused');
        },
        { backoff: { firstMs: 100, maxMs: 1000 }, retryable: () => false },
      ),
    ).rejects.toThrow('refused');
    expect(tries).toBe(1);

    const stop = new AbortController();
    const stopped = retry(
      clock,
      async () => {
        throw new Error('down');
      },
      { backoff: { firstMs: 60_000, maxMs: 60_000 }, signal: stop.signal },
    );
    await settle();
    stop.abort();
    await expect(stopped).rejects.toThrow('down');
    expect(clock.pending).toBe(0);
  });
});
