/**
 * Renderer figures, measured in Debian's Chromium against the real app in browser mode:
 * - renderer.portfolio.first_value: from starting the app process (`npm run serve`'s command,
 *   with the demo profile already cached in its data folder) to the portfolio's total value
 *   visible in the page. Baseline: a bare Node HTTP server started the same way, serving a page
 *   with one line of text.
 * - renderer.portfolio.first_value.real: the same with a real profile (its exchange a sandbox in
 *   the bench's process) instead of the demo; its key is kept in the keychain, so it is measured
 *   only where one answers (`bash scripts/with-keyring.sh npm run bench -- renderer.portfolio`).
 * - renderer.withdrawals.scroll: the withdrawals table over 100,000 cached records scrolled end to
 *   end; the figure is the longest main-thread task (PerformanceObserver 'longtask', which reports
 *   tasks over 50 ms; 0 when there were none).
 *   Baseline: the same scroll over a blank page as tall.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../test/e2e/support/chromium';
import { pickUrl, startChild } from '../test/e2e/support/child';
import { figure, type Bench, type Figure } from './figure';
import { startSandbox, type Sandbox } from '../electron/sandbox';
import { openDatabase } from '../electron/store/database';
import { WithdrawsRepository } from '../electron/store/withdraws';
import type { WithdrawInput } from '../electron/store/types';
import type { SpotfolioBridge } from '../shared/contract';

/**
 * The environment the app and the baseline start in: the bench's own, without
 * NODE_EXTRA_CA_CERTS. A machine that points it at the system's CA bundle (this one does) makes
 * every Node process read and parse the whole bundle before its first line: 150-200 ms here, more
 * under load, the same for any Node program and nothing the app does (its loopback connections
 * need no certificate). Left in, it made most of the bare baseline and a good part of the swing.
 */
const { NODE_EXTRA_CA_CERTS: _caBundle, ...startEnv } = process.env;

/** A started process and the URL it printed. */
async function startProcess(args: string[], what: string) {
  const started = await startChild(process.execPath, args, pickUrl, what, startEnv);
  return { url: started.value, stop: started.stop };
}

/**
 * What `npm run serve` runs (npm itself left out): scripts/start.mjs in browser mode, which runs
 * the built out/serve/cli.cjs, building it first when it is missing or stale. The first start of
 * each bench (preparing its data folder) is the one that builds, untimed.
 */
const startApp = (dataDir: string) =>
  startProcess(
    ['scripts/start.mjs', '--browser', '--port', '0', '--data-dir', dataDir],
    'Browser mode',
  );

/** A bare HTTP server on loopback: the least any "start a process, show a page" can take. */
const bareServerScript = `
const http = require('node:http');
const server = http.createServer((q, s) => { s.writeHead(200, { 'content-type': 'text/html' }); s.end('<p id="v">1,234.56 USDT</p>'); });
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/'));
`;

async function waitForPortfolioValue(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(
    () => /\d/.test(document.querySelector('[data-testid=portfolio-total]')?.textContent ?? ''),
    undefined,
    { timeout: 45_000, polling: 'raf' },
  );
}

/** A fresh data folder starts on the first-start screen: pick the demo and wait for its value. */
async function enterDemo(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.click('[data-testid=enter-demo]', { timeout: 45_000 });
  await waitForPortfolioValue(page, url);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function withBrowser<T>(run: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    return await run(browser);
  } finally {
    await browser.close();
  }
}

/**
 * Runs the app once on a fresh data folder, picking the demo on the first-start screen, so the
 * next start finds a cached (demo) profile.
 */
async function prepareDataDir(browser: Browser): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-'));
  const app = await startApp(dataDir);
  const page = await browser.newPage();
  try {
    await enterDemo(page, app.url);
  } finally {
    await page.close();
    await app.stop();
  }
  return dataDir;
}

/** Starts the app on `dataDir` three times, each beside a bare server's start, timed to the value. */
async function timeFirstValues(browser: Browser, dataDir: string) {
  const appTimes: number[] = [];
  const bareTimes: number[] = [];
  for (let run = 0; run < 3; run++) {
    const page = await browser.newPage();
    const started = performance.now();
    const app = await startApp(dataDir);
    try {
      await waitForPortfolioValue(page, app.url);
      appTimes.push(performance.now() - started);
    } finally {
      await page.close();
      await app.stop();
    }

    const barePage = await browser.newPage();
    const bareStarted = performance.now();
    const bare = await startProcess(['-e', bareServerScript], 'The bare server');
    try {
      await barePage.goto(bare.url);
      await barePage.waitForSelector('#v');
      bareTimes.push(performance.now() - bareStarted);
    } finally {
      await barePage.close();
      await bare.stop();
    }
  }
  return { value: median(appTimes), baseline: median(bareTimes) };
}

/** #20's target for the first value on screen, the same for the demo and a real profile. */
const FIRST_VALUE_TARGET_MS = 400;

function firstValueFigure(name: string, times: { value: number; baseline: number }): Figure {
  return figure({
    name,
    ...times,
    unit: 'ms',
    target: `< ${FIRST_VALUE_TARGET_MS} ms`,
    ok: times.value < FIRST_VALUE_TARGET_MS,
  });
}

async function firstValue(): Promise<Figure[]> {
  return withBrowser(async (browser) => {
    const dataDir = await prepareDataDir(browser);
    try {
      return [
        firstValueFigure('renderer.portfolio.first_value', await timeFirstValues(browser, dataDir)),
      ];
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

/**
 * A profile on an exchange of its own (a sandbox in this process, as a real exchange would be
 * another machine), added through the page, its first figures fetched. False when the keychain
 * does not answer: a real profile's key lives there, so without one nothing can be measured.
 */
async function prepareRealProfile(browser: Browser, dataDir: string, exchange: Sandbox) {
  const key = exchange.world.accounts.find((account) => account.role === 'parent')!.keys[0]!;
  const app = await startApp(dataDir);
  const page = await browser.newPage();
  try {
    await page.goto(app.url);
    await page.waitForFunction(() => 'spotfolio' in window);
    const refused = await page.evaluate(
      async (input) => {
        const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
        try {
          await api.profiles.add({ name: 'Real', ...input });
          return null;
        } catch (error) {
          return (error as { kind?: string }).kind ?? 'error';
        }
      },
      {
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        baseUrl: exchange.baseUrl,
        streamUrl: exchange.streamUrl,
      },
    );
    if (refused === 'keychain') return false;
    if (refused !== null) throw new Error(`The profile could not be added (${refused})`);
    await waitForPortfolioValue(page, app.url.replace(/#.*$/, '') + '#/portfolio');
    return true;
  } finally {
    await page.close();
    await app.stop();
  }
}

async function firstValueReal(): Promise<Figure[]> {
  const exchange = await startSandbox({ simulation: false });
  try {
    return await withBrowser(async (browser) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-'));
      try {
        if (!(await prepareRealProfile(browser, dataDir, exchange))) {
          process.stderr.write(
            'renderer.portfolio.first_value.real: no keychain answers, so a real profile cannot ' +
              'be kept; run `bash scripts/with-keyring.sh npm run bench -- renderer.portfolio`\n',
          );
          return [];
        }
        return [
          firstValueFigure(
            'renderer.portfolio.first_value.real',
            await timeFirstValues(browser, dataDir),
          ),
        ];
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  } finally {
    await exchange.close();
  }
}

const withdrawCount = 100_000;
const coins = ['btc', 'eth', 'usdt', 'xrp', 'sol', 'bnb'];

/**
 * 100,000 withdraw records written straight into the running app's cache for its active profile
 * (SQLite in WAL mode takes this second writer; the app reads the rows on its next query).
 */
function seedWithdrawals(dataDir: string, profileId: string): void {
  const { db } = openDatabase({ dataDir });
  try {
    const repository = new WithdrawsRepository(db);
    const newest = Date.now() - 60_000;
    {
      for (let start = 0; start < withdrawCount; start += 10_000) {
        const batch: WithdrawInput[] = [];
        for (let i = start; i < Math.min(withdrawCount, start + 10_000); i++) {
          const partner = i % 9 === 0;
          const status = [6, 6, 6, 5, 4, 1][i % 6]!;
          const time = newest - i * 300_000;
          batch.push({
            id: `bench-${i}`,
            coin: coins[i % coins.length]!,
            amount: `${(i % 997) + 1}.${String(i % 10_000).padStart(4, '0')}`,
            transactionFee: '0.0005',
            status,
            partnerTransfer: partner,
            address: partner ? null : `addr${i.toString(16).padStart(36, '0')}`,
            network: partner ? null : 'ETH',
            txId:
              status === 6 && !partner ? `0x${(i * 7919).toString(16).padStart(64, '0')}` : null,
            failureInfo: status === 5 ? 'Address rejected by the network' : null,
            createdAt: time,
            lastUpdated: time,
          });
        }
        repository.upsertMany(profileId, batch);
      }
    }
  } finally {
    db.close();
  }
}

/**
 * Scrolls `selector` from top to bottom in `steps` jumps, one per two animation frames, and
 * returns the longest task seen meanwhile. Kept as page source text: the bench runs under tsx,
 * whose helpers (e.g. __name) do not exist inside the page.
 */
const scrollScript = `async ({ selector, steps }) => {
  let longest = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const element = document.querySelector(selector);
  const end = element.scrollHeight - element.clientHeight;
  for (let step = 1; step <= steps; step++) {
    element.scrollTop = Math.round((end * step) / steps);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }
  await new Promise((r) => setTimeout(r, 500));
  observer.disconnect();
  return { longest };
}`;

interface ScrollResult {
  /** Longest main-thread task over 50 ms, 0 when none. */
  longest: number;
}

async function scrollEndToEnd(page: Page, selector: string, steps: number): Promise<ScrollResult> {
  return page.evaluate(
    `(${scrollScript})(${JSON.stringify({ selector, steps })})`,
  ) as Promise<ScrollResult>;
}

async function withdrawalsScroll(): Promise<Figure[]> {
  return withBrowser(async (browser) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-'));
    try {
      const app = await startApp(dataDir);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        await enterDemo(page, app.url);
        const profileId = await page.evaluate(async () => {
          const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
          return (await api.profiles.list()).find((p) => p.active)?.id;
        });
        if (!profileId) throw new Error('The app has no active profile');
        seedWithdrawals(dataDir, profileId);
        await page.goto(app.url.replace(/#.*$/, '') + '#/withdrawals');
        const table = page.getByTestId('withdraw-table');
        await page.waitForFunction(
          (min) =>
            Number(
              document.querySelector('[data-testid=withdraw-table]')?.getAttribute('data-total') ??
                0,
            ) >= min,
          withdrawCount,
          { timeout: 30_000 },
        );
        await table.locator('[role=row][data-index="0"] .c-coin').waitFor();
        const scrolled = await scrollEndToEnd(page, '[data-testid=withdraw-table-viewport]', 300);
        // The last rows must have arrived: the scroll read real pages, not blanks.
        const total = Number(await table.getAttribute('data-total'));
        await table
          .locator(`[role=row][data-index="${total - 1}"] .c-coin`)
          .waitFor({ timeout: 10_000 });

        const blank = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await blank.setContent(
          `<div id="s" style="height:700px;overflow-y:auto"><div style="height:${total * 40}px"></div></div>`,
        );
        const baseline = await scrollEndToEnd(blank, '#s', 300);
        await blank.close();
        return [
          figure({
            name: 'renderer.withdrawals.scroll',
            value: scrolled.longest,
            unit: 'ms longest task',
            baseline: baseline.longest,
            target: '< 50 ms',
            ok: scrolled.longest < 50,
          }),
        ];
      } finally {
        await page.close();
        await app.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

export const benches: Bench[] = [
  { name: 'renderer.portfolio.first_value', run: firstValue },
  { name: 'renderer.portfolio.first_value.real', run: firstValueReal },
  { name: 'renderer.withdrawals.scroll', run: withdrawalsScroll },
];
