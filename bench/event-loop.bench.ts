/**
 * main.event_loop.lag: the app's main process is never starved. The real app in a process of its
 * own (bench/app-process.ts) with its profile live on the sandbox and a Chromium page on it; while
 * 5,000 alerts are asked for through the bridge (the first 1,000 are created, the cap; the rest are
 * refused with its error) fills stream in at 200 a second. The figure is the p99 of the app
 * process's own event-loop delay over that time (node's monitorEventLoopDelay, 10 ms resolution).
 * Baseline: the same p99 over the same rig left idle for as long, measured first.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figure, type Bench, type Figure } from './figure';
import { startLiveRig } from './live-rig';

const ALERT_REQUESTS = 5000;
const ALERT_CAP = 1000;
const FILLS_PER_SECOND = 200;
/** More fills than the alerts can take time for; the stream stops when the alerts are done. */
const MAX_FILLS = 8000;
const IDLE_MS = 3000;

interface LagReport {
  report: number;
  p99: number;
  max: number;
  mean: number;
  samples: number;
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Asks the app's process for the delays it saw since the last ask (a SIGUSR2), then waits for them. */
async function lagSinceLast(pid: number, file: string, asked: number): Promise<LagReport> {
  process.kill(pid, 'SIGUSR2');
  const by = Date.now() + 10_000;
  for (;;) {
    if (existsSync(file)) {
      const report = JSON.parse(readFileSync(file, 'utf8')) as LagReport;
      if (report.report === asked) return report;
    }
    if (Date.now() > by) throw new Error('The app did not report its event-loop delay');
    await pause(20);
  }
}

/** A price line, a 24-hour move, a balance line in turn; each a valid alert of its own. */
function alertInput(i: number): Record<string, unknown> {
  switch (i % 3) {
    case 0:
      return {
        kind: 'price',
        symbol: 'btcusdt',
        direction: i % 2 === 0 ? 'above' : 'below',
        threshold: String(50_000 + i),
      };
    case 1:
      return {
        kind: 'price-move',
        symbol: 'btcusdt',
        direction: 'up',
        threshold: `1.${String(i).padStart(4, '0')}`,
        window: '24h',
      };
    default:
      return { kind: 'balance', asset: 'usdt', direction: 'above', threshold: String(1000 + i) };
  }
}

async function eventLoopLag(): Promise<Figure[]> {
  const folder = mkdtempSync(join(tmpdir(), 'spotfolio-bench-lag-'));
  const lagFile = join(folder, 'lag.json');
  const rig = await startLiveRig({
    fills: MAX_FILLS,
    appEnv: { SPOTFOLIO_LOOP_LAG_FILE: lagFile },
  });
  try {
    let asked = 0;
    await lagSinceLast(rig.appPid, lagFile, ++asked);
    await pause(IDLE_MS);
    const idle = await lagSinceLast(rig.appPid, lagFile, ++asked);

    let alertsDone = false;
    let fills = 0;
    const fillStream = (async () => {
      const start = performance.now();
      while (!alertsDone && fills < MAX_FILLS) {
        const wait = start + (fills * 1000) / FILLS_PER_SECOND - performance.now();
        if (wait > 0) await pause(wait);
        await rig.takerBuys();
        fills += 1;
      }
    })();
    const started = performance.now();
    let created = 0;
    let refusedAtCap = 0;
    for (let i = 0; i < ALERT_REQUESTS; i++) {
      const outcome = await rig.bridge.call('alerts.create', alertInput(i));
      if (outcome.ok) created += 1;
      else if (/at most 1000 alerts/.test(outcome.error.message)) refusedAtCap += 1;
      else throw new Error(`alerts.create #${i}: ${outcome.error.kind}: ${outcome.error.message}`);
    }
    alertsDone = true;
    await fillStream;
    const seconds = (performance.now() - started) / 1000;
    const busy = await lagSinceLast(rig.appPid, lagFile, ++asked);
    if (created !== ALERT_CAP || refusedAtCap !== ALERT_REQUESTS - ALERT_CAP) {
      throw new Error(`${created} alerts created and ${refusedAtCap} refused at the cap`);
    }
    console.error(
      `main.event_loop.lag: ${ALERT_REQUESTS} alert requests and ${fills} fills in ` +
        `${seconds.toFixed(1)} s; max delay ${busy.max.toFixed(1)} ms, mean ${busy.mean.toFixed(1)} ms`,
    );
    return [
      figure({
        name: 'main.event_loop.lag',
        value: busy.p99,
        unit: `ms p99 of the main process's event-loop delay (${ALERT_REQUESTS} alerts asked for, ${FILLS_PER_SECOND} fills/s)`,
        baseline: idle.p99,
        target: '< 50 ms',
        ok: busy.p99 < 50,
      }),
    ];
  } finally {
    await rig.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [{ name: 'main.event_loop.lag', run: eventLoopLag }];
