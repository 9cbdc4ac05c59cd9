/**
 * live.fill_to_page: a fill in the sandbox to its order update reaching the page, through the
 * whole app: the sandbox's private stream, the app's stream client and live batching, browser
 * mode's WebSocket bridge, the renderer's bridge client in Chromium. A taker fills a resting order
 * of the app's profile 200 times a second; the figure is the p99 from sending the taker's order to
 * the page's listener receiving the maker's own trade (trades are never coalesced, so every fill
 * is seen; the n-th trade of the resting order is the n-th fill). Both ends read the same wall clock
 * (performance.timeOrigin + performance.now()). Baseline: the p99 of the taker's own REST round
 * trip over the same loopback, which every fill's latency includes.
 *
 * live.pnl_card: under the same stream, the P&L card on the Portfolio against the ledger's own
 * update: from the moment the main process's ledger made the figures of an answer that counts new
 * fills (the answer's `at`, on the card as data-at) to the card showing them (a MutationObserver
 * in the page), p99 over every such answer (about 200: the stream runs 10,000 fills). Both read the wall clock (the main process's Date.now,
 * whole milliseconds). Baseline: the p99 of a bare bridge call's round trip from the page
 * (settings.get, every 250 ms meanwhile: ~200 calls over the stream; every 50 ms they were 20 calls a
 * second, more than the page's own ~13, and loaded what they measured), which any answer reaching
 * the card pays too.
 */
import type { SpotfolioBridge } from '../shared/contract';
import { figure, percentile, type Bench, type Figure } from './figure';
import { probeUntilArrived, startLiveRig, wallClock, type LiveRig } from './live-rig';

const RATE_PER_SECOND = 200;
const WARMUP_FILLS = 200;
const MEASURED_FILLS = 2000;

/**
 * The taker's fills at RATE_PER_SECOND (each at its time, or at once after the one before when
 * that was answered late): when each was sent, and the REST round trips after the warm-up.
 */
async function streamFills(
  rig: LiveRig,
  fills: number,
): Promise<{ sentAt: number[]; roundTrips: number[] }> {
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
  roundTrips.sort((a, b) => a - b);
  return { sentAt, roundTrips };
}

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
    // The rig's own bridge connection is done with: left open, the app sent it every event as
    // well, and the bench's process (the sandbox's too) parsed each one beside the fills.
    rig.bridge.close();

    const { sentAt, roundTrips } = await streamFills(rig, fills);
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

type CardShown = [count: number, at: number, shownAt: number];

/**
 * The card's stream runs five times as long: it shows a new answer about four times a second (the
 * live session paces data.changed per kind), so 2,000 fills gave ~43 answers and the p99 of them
 * was their slowest, one late frame deciding the figure; ~200 make it a p99.
 */
const CARD_FILLS = 5 * MEASURED_FILLS;

async function pnlCard(): Promise<Figure[]> {
  const fills = WARMUP_FILLS + CARD_FILLS;
  const rig = await startLiveRig({ fills });
  const { page } = rig;
  try {
    await page.waitForSelector('[data-testid="pnl-card"][data-at]', { timeout: 60_000 });
    // Each new answer on the card: its trade count, when the ledger made it, when it was shown.
    // (A string: the bench's compiler names functions with a helper the page does not have.)
    await page.evaluate(`(() => {
      const shown = [];
      window.cardShown = shown;
      let lastAt = '';
      const look = () => {
        const shownAt = performance.timeOrigin + performance.now();
        const card = document.querySelector('[data-testid="pnl-card"]');
        const at = card?.getAttribute('data-at') ?? '';
        const text = card?.querySelector('[data-testid="pnl-includes"]')?.textContent ?? '';
        const match = /([\\d,]+) trades?\\b/.exec(text);
        if (!match || at === lastAt) return;
        lastAt = at;
        shown.push([Number(match[1].replace(/,/g, '')), Number(at), shownAt]);
      };
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['data-at'],
      });
      look();
      window.bareCalls = [];
      window.bareCalling = setInterval(() => {
        const sent = performance.now();
        void window.spotfolio.settings.get().then(() => window.bareCalls.push(performance.now() - sent));
      }, 250);
    })()`);
    const count = () =>
      page.evaluate(() => {
        const shown = (window as unknown as { cardShown: CardShown[] }).cardShown;
        return shown[shown.length - 1]?.[0] ?? -1;
      });
    const start = await count();
    await probeUntilArrived(rig, async () => (await count()) > start, 'live.pnl_card');
    await new Promise((done) => setTimeout(done, 1000));
    const base = await count();
    rig.bridge.close(); // as in live.fill_to_page
    const from = await page.evaluate(() => {
      const w = window as unknown as { cardShown: CardShown[]; bareCalls: number[] };
      w.bareCalls.length = 0;
      return w.cardShown.length;
    });
    await streamFills(rig, fills);
    await page
      .waitForFunction((total) => {
        const shown = (window as unknown as { cardShown: CardShown[] }).cardShown;
        return (shown[shown.length - 1]?.[0] ?? -1) >= total;
      }, base + fills)
      .catch(async () => {
        throw new Error(`The card counted ${(await count()) - base} of ${fills} fills in 30 s`);
      });
    const { shown, bare } = await page.evaluate(() => {
      const w = window as unknown as {
        cardShown: CardShown[];
        bareCalls: number[];
        bareCalling: number;
      };
      clearInterval(w.bareCalling);
      return { shown: w.cardShown, bare: w.bareCalls };
    });
    // Answers counting fills past the warm-up; one counting none new is not the ledger's update.
    const latencies: number[] = [];
    for (let i = Math.max(from, 1); i < shown.length; i++) {
      const [counted, at, shownAt] = shown[i]!;
      if (counted > shown[i - 1]![0] && counted > base + WARMUP_FILLS) {
        latencies.push(shownAt - at);
      }
    }
    if (latencies.length === 0) throw new Error('No answer of the ledger counted a timed fill');
    latencies.sort((a, b) => a - b);
    bare.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    console.error(`live.pnl_card: ${latencies.length} answers counting new fills shown`);
    return [
      figure({
        name: 'live.pnl_card.p99',
        value: p99,
        unit: 'ms',
        baseline: percentile(bare, 99),
        target: `p99 < 16 ms from the ledger's figures to the card, at ${RATE_PER_SECOND} fills/s`,
        ok: p99 < 16,
      }),
    ];
  } finally {
    await rig.close();
  }
}

export const benches: Bench[] = [
  { name: 'live.fill_to_page', run: fillToPage },
  { name: 'live.pnl_card', run: pnlCard },
];
