import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeClient } from '../../electron/exchange';
import { ManualClock } from '../../electron/core/clock';
import { SyncEngine } from '../../electron/sync';
import { WINDOW_MS } from '../../electron/sync/withdrawals';
import type { BackfillProgress } from '../../shared/types';
import { PARENT, PROFILE, scenario, until, type Scenario } from './helpers';

const DAY = 86_400_000;
const YEAR = 365 * DAY;

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** Records every withdraw-history call the engine makes through this client. */
function recordWithdrawCalls(client: ExchangeClient, now: () => number) {
  const calls: { at: number; startTime: number; endTime: number; offset: number }[] = [];
  const original = client.wallet.withdraws.bind(client.wallet);
  client.wallet.withdraws = async (p = {}) => {
    calls.push({
      at: now(),
      startTime: p.startTime ?? -1,
      endTime: p.endTime ?? -1,
      offset: p.offset ?? 0,
    });
    return original(p);
  };
  return calls;
}

function progressEvents(s: Scenario): BackfillProgress[] {
  return s.events
    .filter((e) => e.event === 'sync.progress')
    .map((e) => (e.payload as { progress: BackfillProgress }).progress);
}

function expectMonotone(progress: BackfillProgress[]): void {
  for (let i = 1; i < progress.length; i += 1) {
    expect(progress[i]!.doneWindows).toBeGreaterThanOrEqual(progress[i - 1]!.doneWindows);
    expect(progress[i]!.records).toBeGreaterThanOrEqual(progress[i - 1]!.records);
    expect(progress[i]!.totalWindows).toBeGreaterThanOrEqual(progress[i - 1]!.totalWindows);
    expect(progress[i]!.coveredFrom!).toBeLessThanOrEqual(progress[i - 1]!.coveredFrom!);
  }
}

/** 3,000 records over three years, plus 1,500 in one month so a window needs two pages. */
function seedThreeYears(s: Scenario): { total: number; oldest: number } {
  const now = Date.now();
  const oldest = now - 3 * YEAR;
  const spread = s.sandbox.admin.seedWithdrawHistory(PARENT, {
    count: 3000,
    fromMs: oldest,
    toMs: now - DAY,
    seed: 1,
  });
  const burst = s.sandbox.admin.seedWithdrawHistory(PARENT, {
    count: 1500,
    fromMs: now - YEAR - 30 * DAY,
    toMs: now - YEAR,
    seed: 2,
  });
  return { total: spread + burst, oldest };
}

describe('withdraw history backfill', () => {
  it('fetches three years window by window: exact count, monotone progress, contiguous coverage', async () => {
    current = await scenario();
    const { total, oldest } = seedThreeYears(current);
    expect(total).toBe(4500);
    const client = current.client();
    const calls = recordWithdrawCalls(client, Date.now);
    const engine = new SyncEngine({
      pacing: false,
      store: current.store,
      client,
      profileId: PROFILE,
      emit: current.emit,
    });
    const first = await engine.backfillWithdrawals();
    expect(first.state).toBe('running');
    const final = await engine.backfillSettled();
    await engine.stop();

    expect(current.store.withdraws.count(PROFILE)).toBe(4500);
    expect(final.state).toBe('done');
    expect(final.records).toBe(4500); // disjoint windows: every record counted exactly once
    expect(final.doneWindows).toBe(final.totalWindows);
    expect(final.coveredFrom!).toBeLessThanOrEqual(oldest);
    // Windows are < 90 days, newest first and adjacent (no gap, no overlap).
    const windows = calls.filter((c) => c.offset === 0);
    for (const [index, call] of windows.entries()) {
      expect(call.endTime - call.startTime).toBeLessThan(90 * DAY);
      if (index > 0) expect(call.endTime).toBe(windows[index - 1]!.startTime - 1);
    }
    // The burst month needed a second page inside its window.
    expect(calls.some((c) => c.offset === 1000)).toBe(true);
    const progress = progressEvents(current);
    expect(progress.length).toBe(final.doneWindows);
    expectMonotone(progress);
    expect(progress.at(-1)).toEqual(final);
  });

  it('resumes after a stop without refetching committed windows and ends with the exact count', async () => {
    current = await scenario();
    seedThreeYears(current);
    const firstEngine = new SyncEngine({
      pacing: false,
      store: current.store,
      client: current.client(),
      profileId: PROFILE,
      emit: (event, payload) => {
        current!.emit(event, payload);
        // Stop in the middle, right after the fourth window was committed.
        if (
          event === 'sync.progress' &&
          (payload as { progress: BackfillProgress }).progress.doneWindows === 4
        ) {
          void firstEngine.stop();
        }
      },
    });
    await firstEngine.backfillWithdrawals();
    await firstEngine.backfillSettled();
    await firstEngine.stop();
    const interrupted = firstEngine.backfillStatus();
    expect(interrupted.state).toBe('running');
    expect(interrupted.doneWindows).toBe(4);
    const coveredAtStop = interrupted.coveredFrom!;
    const rowsAtStop = current.store.withdraws.count(PROFILE);
    expect(rowsAtStop).toBe(interrupted.records);

    // A new engine on a reopened file (as after a restart) continues from the cursor.
    const store = current.reopenStore();
    const client = current.client();
    const calls = recordWithdrawCalls(client, Date.now);
    const resumedAt = Date.now();
    const secondEngine = new SyncEngine({
      pacing: false,
      store,
      client,
      profileId: PROFILE,
      emit: current.emit,
    });
    secondEngine.start(); // a running backfill resumes by itself on start
    await until(() => secondEngine.backfillStatus().state === 'done', 'the resumed backfill');
    await secondEngine.stop();

    const final = secondEngine.backfillStatus();
    expect(store.withdraws.count(PROFILE)).toBe(4500);
    expect(final.records).toBe(4500);
    const backfillCalls = calls.filter((c) => c.endTime < coveredAtStop);
    expect(backfillCalls.length).toBeGreaterThan(0);
    expect(backfillCalls[0]!.endTime).toBe(coveredAtStop - 1);
    // Below the stop point only new windows were read. The incremental top-up (which the started
    // engine also runs) reads only the newest window, for new records and pending statuses.
    for (const call of calls) {
      expect(call.endTime < coveredAtStop || call.startTime >= resumedAt - WINDOW_MS).toBe(true);
    }
    expectMonotone(progressEvents(current));
  });

  it('paces wallet history below 5 calls a minute (coins and withdraws together)', async () => {
    current = await scenario();
    const now = Date.now();
    current.sandbox.admin.seedWithdrawHistory(PARENT, {
      count: 40,
      fromMs: now - 2 * YEAR,
      toMs: now,
      seed: 3,
    });
    const clock = new ManualClock(now);
    const client = current.client();
    const calls = recordWithdrawCalls(client, () => clock.now());
    const coinCalls: number[] = [];
    const coins = client.wallet.coins.bind(client.wallet);
    client.wallet.coins = async () => {
      coinCalls.push(clock.now());
      return coins();
    };
    const engine = new SyncEngine({
      store: current.store,
      client,
      profileId: PROFILE,
      emit: current.emit,
      clock,
    });
    void engine.backfillWithdrawals();
    const coinsRefresh = engine.refresh('coins', { force: true });
    // Virtual time: move a second at a time, letting the real HTTP calls finish in between.
    for (let step = 0; step < 2000 && engine.backfillStatus().state !== 'done'; step += 1) {
      clock.advance(1000);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await coinsRefresh;
    await engine.stop();
    expect(engine.backfillStatus().state).toBe('done');
    expect(current.store.withdraws.count(PROFILE)).toBe(40);
    const times = [...calls.map((c) => c.at), ...coinCalls].sort((a, b) => a - b);
    expect(times.length).toBeGreaterThan(10);
    // Any six calls span more than a minute: never more than five in any 60 s window.
    for (let i = 5; i < times.length; i += 1) {
      expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(60_000);
    }
  });

  it('says when it waits for the rate limit, and until when, instead of sitting silently', async () => {
    current = await scenario();
    const now = Date.now();
    current.sandbox.admin.seedWithdrawHistory(PARENT, {
      count: 20,
      fromMs: now - 2 * YEAR,
      toMs: now,
      seed: 4,
    });
    const clock = new ManualClock(now);
    const client = current.client();
    // The calls and the announcements in the order they happened, with their virtual times.
    const timeline: ({ kind: 'call'; at: number } | { kind: 'wait'; at: number; until: number })[] =
      [];
    // Virtual time stands still while a request is on its way: only the engine's own waits
    // (the rate limit's) pass on the clock, never the real time an answer takes.
    let inFlight = 0;
    const original = client.wallet.withdraws.bind(client.wallet);
    client.wallet.withdraws = async (p = {}) => {
      timeline.push({ kind: 'call', at: clock.now() });
      inFlight += 1;
      try {
        return await original(p);
      } finally {
        inFlight -= 1;
      }
    };
    const seen: { at: number; progress: BackfillProgress }[] = [];
    const s = current;
    const engine = new SyncEngine({
      store: s.store,
      client,
      profileId: PROFILE,
      emit: (event, payload) => {
        if (event === 'sync.progress') {
          const { progress } = payload as { progress: BackfillProgress };
          seen.push({ at: clock.now(), progress });
          if (progress.waitingUntil !== undefined) {
            timeline.push({ kind: 'wait', at: clock.now(), until: progress.waitingUntil });
          }
        }
        s.emit(event, payload);
      },
      clock,
    });
    void engine.backfillWithdrawals();
    let waitingStatus: BackfillProgress | null = null;
    for (let step = 0; step < 20_000 && engine.backfillStatus().state !== 'done'; step += 1) {
      if (inFlight === 0) clock.advance(100);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const status = engine.backfillStatus();
      if (!waitingStatus && status.waitingUntil !== undefined) waitingStatus = status;
    }
    await engine.stop();
    expect(engine.backfillStatus().state).toBe('done');
    // The status asked for during a wait says it too.
    expect(waitingStatus?.state).toBe('running');
    const waits = timeline.flatMap((e, index) => (e.kind === 'wait' ? [{ ...e, index }] : []));
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) {
      expect(wait.until).toBeGreaterThan(wait.at);
      expect(wait.until - wait.at).toBeLessThanOrEqual(60_000);
      // The next call never goes before the time said.
      const next = timeline.slice(wait.index).find((e) => e.kind === 'call');
      if (next) expect(next.at).toBeGreaterThanOrEqual(wait.until);
    }
    // Every long pause between two calls of the backfill was announced while it lasted.
    let previous: { at: number; index: number } | null = null;
    for (const [index, event] of timeline.entries()) {
      if (event.kind !== 'call') continue;
      if (previous && event.at - previous.at > 5000) {
        const said = timeline.slice(previous.index, index).some((e) => e.kind === 'wait');
        expect(said, `pause before the call at ${event.at - now} ms`).toBe(true);
      }
      previous = { at: event.at, index };
    }
    expect(seen.at(-1)!.progress.waitingUntil).toBeUndefined();
  });

  it('resumes after the process running it is killed with SIGKILL', async () => {
    current = await scenario();
    seedThreeYears(current);
    // Each history call takes a little while, so the kill lands between two commits.
    current.sandbox.admin.faults.inject(
      { path: '/sapi/v1/crypto/withdraws' },
      { kind: 'latency', ms: 150 },
      1000,
    );
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/backfill-child.ts', import.meta.url))],
      {
        env: {
          ...process.env,
          SYNC_DATA_DIR: current.dir,
          SYNC_BASE_URL: current.sandbox.baseUrl,
          SYNC_API_KEY: current.keys.apiKey,
          SYNC_SECRET_KEY: current.keys.secretKey,
          SYNC_PROFILE_ID: PROFILE,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const seen: BackfillProgress[] = [];
    for await (const line of createInterface({ input: child.stdout })) {
      const progress = (JSON.parse(line) as { progress: BackfillProgress }).progress;
      seen.push(progress);
      if (progress.doneWindows === 3) {
        child.kill('SIGKILL');
        break;
      }
    }
    expect(await exited).toBe('SIGKILL');
    current.sandbox.admin.faults.clear();
    expectMonotone(seen);

    const store = current.reopenStore();
    const engine = new SyncEngine({
      pacing: false,
      store,
      client: current.client(),
      profileId: PROFILE,
      emit: current.emit,
    });
    const atKill = engine.backfillStatus();
    expect(atKill.state).toBe('running');
    expect(atKill.doneWindows).toBeGreaterThanOrEqual(3);
    // What was committed before the kill is exactly what the cursor says.
    expect(store.withdraws.count(PROFILE)).toBe(atKill.records);
    await engine.backfillWithdrawals();
    const final = await engine.backfillSettled();
    await engine.stop();
    expect(final.state).toBe('done');
    expect(final.doneWindows).toBeGreaterThan(atKill.doneWindows); // work was left at the kill
    expect(store.withdraws.count(PROFILE)).toBe(4500);
    expect(final.records).toBe(4500);
  });
});
