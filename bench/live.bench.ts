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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import Decimal from 'decimal.js';
import { Pool } from 'undici';
import { createApp } from '../electron/app';
import { sign } from '../electron/exchange/sign';
import { startSandbox } from '../electron/sandbox/testing';
import { DemoSecretStore } from '../electron/secrets';
import { startBrowserMode } from '../electron/serve/host';
import type { SpotfolioBridge } from '../shared/contract';
import { chromiumLaunchOptions } from '../test/e2e/support/chromium';
import { figure, percentile, type Bench, type Figure } from './figure';

const RATE_PER_SECOND = 200;
const WARMUP_FILLS = 200;
const MEASURED_FILLS = 2000;
const FILL_QTY = '0.001';
const PRICE = '60000';
const MAX_PROBES = 100;
const repoRoot = resolve(import.meta.dirname, '..');

const wallClock = () => performance.timeOrigin + performance.now();

async function fillToPage(): Promise<Figure[]> {
  const sandbox = await startSandbox({ world: 'empty', rateLimits: false, simulation: false });
  const maker = sandbox.admin.createAccount({ email: 'maker@bench.test' });
  const taker = sandbox.admin.createAccount({ email: 'taker@bench.test' });
  const makerKey = sandbox.admin.createApiKey(maker.email, { canTrade: true });
  const takerKey = sandbox.admin.createApiKey(taker.email, { canTrade: true });
  const fills = WARMUP_FILLS + MEASURED_FILLS;
  // Probes (before timing) show the whole path is flowing; the resting order covers them too.
  const restingQty = new Decimal(FILL_QTY).times(fills + MAX_PROBES).toFixed();
  sandbox.admin.credit(maker.email, 'btc', restingQty);
  sandbox.admin.credit(
    taker.email,
    'usdt',
    new Decimal(PRICE)
      .times(FILL_QTY)
      .times((fills + MAX_PROBES) * 2)
      .toFixed(),
  );

  const pool = new Pool(sandbox.baseUrl, { connections: 1 });
  const placeOrder = async (key: { apiKey: string; secretKey: string }, body: string) => {
    const params = `${body}&timestamp=${Date.now()}`;
    const { statusCode, body: answer } = await pool.request({
      method: 'POST',
      path: '/sapi/v1/order',
      headers: { 'x-api-key': key.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      body: `${params}&signature=${sign(key.secretKey, params)}`,
    });
    const text = await answer.text();
    if (statusCode !== 200) throw new Error(`order answered ${statusCode}: ${text}`);
    return JSON.parse(text) as { orderId?: number; id?: number };
  };

  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-live-'));
  const app = await createApp({
    mode: 'browser',
    dataDir,
    demo: 'off',
    secrets: new DemoSecretStore(),
    log: () => undefined,
  });
  const host = await startBrowserMode({ app, rendererDir: join(repoRoot, 'out/renderer') });
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const profile = await app.handlers['profiles.add']({
      name: 'Bench maker',
      apiKey: makerKey.apiKey,
      secretKey: makerKey.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    await app.handlers['profiles.activate']({ id: profile.id });
    const resting = await placeOrder(
      makerKey,
      `symbol=btcusdt&side=sell&type=limit&quantity=${restingQty}&price=${PRICE}`,
    );
    const restingId = resting.orderId ?? resting.id;

    const page = await browser.newPage();
    await page.goto(host.url);
    await page.waitForFunction(() => 'spotfolio' in window);
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
    // The private stream must be subscribed before the first fill, or its events are never sent.
    const liveBy = Date.now() + 30_000;
    while ((await app.handlers['app.status']({})).connection !== 'live') {
      if (Date.now() > liveBy) throw new Error('The private stream did not go live in 30 s');
      await new Promise((done) => setTimeout(done, 20));
    }

    const arrived = () =>
      page.evaluate(() => (window as unknown as { arrivals: unknown[] }).arrivals.length);
    const takerBuys = () =>
      placeOrder(
        takerKey,
        `symbol=btcusdt&side=buy&type=limit&quantity=${FILL_QTY}&price=${PRICE}`,
      );
    // One fill first shows the whole path flows (the page's bridge socket included).
    let probes = 0;
    while ((await arrived()) === 0) {
      if (++probes > MAX_PROBES) throw new Error('No fill reached the page in 100 probes');
      await takerBuys();
      await new Promise((done) => setTimeout(done, 100));
    }
    if (probes > 1)
      console.error(`live.fill_to_page: ${probes} probe fills before the first arrived`);
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
      await takerBuys();
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
    await browser.close();
    await host.close();
    await app.close();
    await pool.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [{ name: 'live.fill_to_page', run: fillToPage }];
