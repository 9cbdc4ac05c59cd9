/**
 * What the live benches share: a sandbox with a maker (the app's profile) and a taker, the app in
 * browser mode with its profile live on the private stream, a Chromium page on it, and the
 * taker's REST orders that fill the maker's resting orders, one fill each. Optionally the maker
 * first trades a history with the taker (buys and sells), which the app imports before timing.
 * Optionally the maker has a sub-account linked to its own key in the app, with a resting sell
 * on ethusdt the taker fills too (`subFill`): the sub-account's private stream then flows beside
 * the main account's.
 *
 * The app runs in a process of its own (bench/app-process.ts), set up over its bridge like the
 * page: in one process with the sandbox and the driver, the figure measured their work as well
 * (each fill's matching and stream message shared the event loop with the app's handling of the
 * fill before it) and swung with them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import Decimal from 'decimal.js';
import { Pool } from 'undici';
import { sign } from '../electron/exchange/sign';
import { startSandbox } from '../electron/sandbox/testing';
import type { AppStatus, ProfileView } from '../shared/types';
import type { LedgerSummaryView } from '../shared/ledger';
import { WireClient } from '../test/api/helpers';
import { chromiumLaunchOptions } from '../test/e2e/support/chromium';
import { pickUrl, startChild } from '../test/e2e/support/child';

export const FILL_QTY = '0.001';
const PRICE = '60000';
const HISTORY_BUY_PRICE = '59000';
const MAX_PROBES = 100;
const repoRoot = resolve(import.meta.dirname, '..');

export const wallClock = (): number => performance.timeOrigin + performance.now();

export interface LiveRig {
  page: Page;
  /** The app's own bridge connection, as the page's. */
  bridge: WireClient;
  /** The app's process id (bench/app-process.ts). */
  appPid: number;
  /** The maker's resting sell order each timed fill takes a piece of. */
  restingId: number;
  /** One taker buy of FILL_QTY: one fill of the resting order. */
  takerBuys(): Promise<unknown>;
  /** With `linkedSub`: one taker buy filling the linked sub-account's resting ethusdt sell. */
  subFill(): Promise<unknown>;
  close(): Promise<void>;
}

const SUB_EMAIL = 'maker-sub@bench.test';
const SUB_PRICE = '3000';
const SUB_QTY = '0.01';

type Key = { apiKey: string; secretKey: string };

export async function startLiveRig(input: {
  /** Timed fills the resting order must cover (probes are added). */
  fills: number;
  /** Fills the maker trades before the app starts (half sells, half buys). */
  history?: number;
  /** More environment for the app's process. */
  appEnv?: NodeJS.ProcessEnv;
  /** A sub-account of the maker, linked in the app to its own read-only key, trading too. */
  linkedSub?: boolean;
}): Promise<LiveRig> {
  const history = input.history ?? 0;
  const sandbox = await startSandbox({ world: 'empty', rateLimits: false, simulation: false });
  const maker = sandbox.admin.createAccount({ email: 'maker@bench.test' });
  const taker = sandbox.admin.createAccount({ email: 'taker@bench.test' });
  const makerKey = sandbox.admin.createApiKey(maker.email, { canTrade: true });
  const takerKey = sandbox.admin.createApiKey(taker.email, { canTrade: true });
  const pieces = input.fills + MAX_PROBES + history;
  const restingQty = new Decimal(FILL_QTY).times(input.fills + MAX_PROBES).toFixed();
  sandbox.admin.credit(maker.email, 'btc', new Decimal(FILL_QTY).times(pieces).toFixed());
  sandbox.admin.credit(
    maker.email,
    'usdt',
    new Decimal(PRICE).times(FILL_QTY).times(pieces).toFixed(),
  );
  sandbox.admin.credit(taker.email, 'btc', new Decimal(FILL_QTY).times(pieces).toFixed());
  sandbox.admin.credit(
    taker.email,
    'usdt',
    new Decimal(PRICE)
      .times(FILL_QTY)
      .times(pieces * 2)
      .toFixed(),
  );

  const subPieces = input.fills + MAX_PROBES;
  if (input.linkedSub) {
    sandbox.admin.createAccount({ email: SUB_EMAIL, parentEmail: maker.email });
    sandbox.admin.credit(SUB_EMAIL, 'eth', new Decimal(SUB_QTY).times(subPieces).toFixed());
    sandbox.admin.credit(
      taker.email,
      'usdt',
      new Decimal(SUB_PRICE).times(SUB_QTY).times(subPieces).toFixed(),
    );
  }

  const pool = new Pool(sandbox.baseUrl, { connections: 1 });
  const placeOrder = async (key: Key, body: string) => {
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
  const takerSubOrder = () =>
    placeOrder(
      takerKey,
      `symbol=ethusdt&side=buy&type=limit&quantity=${SUB_QTY}&price=${SUB_PRICE}`,
    );
  const takerOrder = (side: 'buy' | 'sell', price: string) =>
    placeOrder(
      takerKey,
      `symbol=btcusdt&side=${side}&type=limit&quantity=${FILL_QTY}&price=${price}`,
    );

  if (input.linkedSub) {
    // The sub-account's resting sell, and one fill of it: ethusdt has a last price to value by.
    const subTrading = sandbox.admin.createApiKey(SUB_EMAIL, { canTrade: true });
    await placeOrder(
      subTrading,
      `symbol=ethusdt&side=sell&type=limit&quantity=${new Decimal(SUB_QTY).times(subPieces).toFixed()}&price=${SUB_PRICE}`,
    );
    await takerSubOrder();
  }

  if (history > 0) {
    // Sells into the taker's buys and buys from its sells, alternately: lots opened and closed.
    const half = Math.ceil(history / 2);
    const qty = new Decimal(FILL_QTY).times(half).toFixed();
    await placeOrder(
      makerKey,
      `symbol=btcusdt&side=sell&type=limit&quantity=${qty}&price=${PRICE}`,
    );
    await placeOrder(
      makerKey,
      `symbol=btcusdt&side=buy&type=limit&quantity=${qty}&price=${HISTORY_BUY_PRICE}`,
    );
    for (let i = 0; i < history; i++) {
      await (i % 2 === 0 ? takerOrder('buy', PRICE) : takerOrder('sell', HISTORY_BUY_PRICE));
    }
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-live-'));
  const started = await startChild(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'bench/app-process.ts'), dataDir],
    pickUrl,
    'The app',
    { ...process.env, ...input.appEnv },
  );
  const url = new URL(started.value);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const bridge = await WireClient.connect(Number(url.port), token);
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    bridge.close();
    await started.stop();
    await pool.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    browser = await chromium.launch(chromiumLaunchOptions);
    const profile = await bridge.ok<ProfileView>('profiles.add', {
      name: 'Bench maker',
      apiKey: makerKey.apiKey,
      secretKey: makerKey.secretKey,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
    });
    await bridge.ok('profiles.activate', { id: profile.id });
    if (input.linkedSub) {
      await bridge.ok('subAccounts.refresh', {});
      await bridge.ok('subAccounts.link', {
        email: SUB_EMAIL,
        ...sandbox.admin.createApiKey(SUB_EMAIL, { canTrade: false }),
      });
    }
    if (history > 0) {
      // The trade import reads the history before anything is timed.
      const importedBy = Date.now() + 120_000;
      for (;;) {
        const { import: progress } = await bridge.ok<LedgerSummaryView>('ledger.summary', {});
        if (progress.complete && progress.storedTrades >= history) break;
        if (Date.now() > importedBy) {
          throw new Error(`The import stored ${progress.storedTrades} of ${history} trades`);
        }
        await new Promise((done) => setTimeout(done, 200));
      }
    }
    const resting = await placeOrder(
      makerKey,
      `symbol=btcusdt&side=sell&type=limit&quantity=${restingQty}&price=${PRICE}`,
    );
    const restingId = resting.orderId ?? resting.id!;
    const page = await browser.newPage();
    await page.goto(started.value);
    await page.waitForFunction(() => 'spotfolio' in window);
    // The private stream must be subscribed before the first fill, or its events are never sent.
    const liveBy = Date.now() + 30_000;
    while ((await bridge.ok<AppStatus>('app.status', {})).connection !== 'live') {
      if (Date.now() > liveBy) throw new Error('The private stream did not go live in 30 s');
      await new Promise((done) => setTimeout(done, 20));
    }
    return {
      page,
      bridge,
      appPid: started.pid,
      restingId,
      takerBuys: () => takerOrder('buy', PRICE),
      subFill: takerSubOrder,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Sends one fill after another until `arrived` says the page saw one (at most 100). */
export async function probeUntilArrived(
  rig: LiveRig,
  arrived: () => Promise<boolean>,
  name: string,
): Promise<void> {
  let probes = 0;
  while (!(await arrived())) {
    if (++probes > MAX_PROBES) throw new Error(`No fill reached the page in ${MAX_PROBES} probes`);
    await rig.takerBuys();
    await new Promise((done) => setTimeout(done, 100));
  }
  if (probes > 1) console.error(`${name}: ${probes} probe fills before the first arrived`);
}
