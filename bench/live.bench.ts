/**
 * live.fill_to_page: a fill in the sandbox to its order update reaching the page, through the
 * whole app: the sandbox's private stream, the app's stream client and live batching, browser
 * mode's WebSocket bridge, the renderer's bridge client in Chromium. A taker fills a resting order
 * of the app's profile 200 times a second; the figure is the p99 from sending the taker's order to
 * the page's listener receiving the maker's own trade (trades are never coalesced, so every fill
 * is seen; the n-th trade of the resting order is the n-th fill). Both ends read the same wall clock
 * (performance.timeOrigin + performance.now()). Baseline: the p99 of the taker's own REST round
 * trip over the same loopback, which every fill's latency includes.
 */
import type { SpotfolioBridge } from '../shared/contract';
import { figure, percentile, type Bench, type Figure } from './figure';
import { probeUntilArrived, startLiveRig, wallClock } from './live-rig';

const RATE_PER_SECOND = 200;
const WARMUP_FILLS = 200;
const MEASURED_FILLS = 2000;

async function fillToPage(): Promise<Figure[]> {
  const fills = WARMUP_FILLS + MEASURED_FILLS;
  const rig = await startLiveRig({ fills });
  const { page, restingId } = rig;
  try {
    // The page records when each trade of the resting order arrives.
    await page.evaluate((orderId) => {
      const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
      const arrivals: [number, number][] = [];
      (window as unknown as { arrivals: typeof arrivals }).arrivals = arrivals;
      api.on('live.batch', (batch) => {
        const at = performance.timeOrigin + performance.now();
        for (const trade of batch.trades) {
          if (trade.orderId === orderId) arrivals.push([trade.tradeId, at]);
        }
      });
    }, restingId);
    const arrived = () =>
      page.evaluate(() => (window as unknown as { arrivals: unknown[] }).arrivals.length);
    await probeUntilArrived(rig, async () => (await arrived()) > 0, 'live.fill_to_page');
    await new Promise((done) => setTimeout(done, 1000));
    const before = await arrived();

    const sentAt: number[] = [];
    const roundTrips: number[] = [];
    const interval = 1000 / RATE_PER_SECOND;
    const start = performance.now();
    for (let i = 1; i <= fills; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
      const sent = wallClock();
      sentAt.push(sent);
      await rig.takerBuys();
      if (i > WARMUP_FILLS) roundTrips.push(wallClock() - sent);
    }
    await page
      .waitForFunction(
        (total) => (window as unknown as { arrivals: unknown[] }).arrivals.length >= total,
        before + fills,
        { timeout: 30_000 },
      )
      .catch(async () => {
        const seen = await page.evaluate(
          () => (window as unknown as { arrivals: unknown[] }).arrivals.length,
        );
        throw new Error(`Only ${seen - before} of ${fills} fills reached the page within 30 s`);
      });
    const arrivals = await page.evaluate(
      () => (window as unknown as { arrivals: [number, number][] }).arrivals,
    );
    if (arrivals.length !== before + fills) {
      throw new Error(`${arrivals.length - before} trades reached the page for ${fills} fills`);
    }
    arrivals.sort((a, b) => a[0] - b[0]);
    const latencies = arrivals
      .slice(before + WARMUP_FILLS)
      .map(([, at], i) => at - sentAt[WARMUP_FILLS + i]!);
    latencies.sort((a, b) => a - b);
    roundTrips.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    return [
      figure({
        name: 'live.fill_to_page.p99',
        value: p99,
        unit: 'ms',
        baseline: percentile(roundTrips, 99),
        target: `p99 < 50 ms at ${RATE_PER_SECOND} fills/s`,
        ok: p99 < 50,
      }),
    ];
  } finally {
    await rig.close();
  }
}

export const benches: Bench[] = [{ name: 'live.fill_to_page', run: fillToPage }];
