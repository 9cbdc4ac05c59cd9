/**
 * What every journey needs: the sandbox exchange and the app in browser mode, each test file with
 * a fresh data folder. The sandbox runs inside the test's worker (a real server on 127.0.0.1: a
 * start costs a world, not a process); the app is a real child process started as `npm run
 * serve` starts it. Nothing is mocked: the page talks to the app over its WebSocket bridge and
 * the app talks to the sandbox over HTTP and WebSocket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConsoleMessage, Page, Request, Response } from '@playwright/test';
import { ensureBuilt } from '../../../scripts/build-state.mjs';
import { startSandbox, type WorldInfo } from '../../../electron/sandbox';
import type { WorldAccount, WorldKey } from '../../../electron/sandbox/world';
import { repoRoot, startBrowserMode, startChild, type StartedChild } from './child';
import { WireClient } from '../../support/wire-client';
import { tokenOfFragment, tokenStorageKey } from '../../../renderer/src/bridge/ws-transport';

export { repoRoot } from './child';
const tsx = join(repoRoot, 'node_modules/.bin/tsx');

// What the sandbox child prints when it is up: the sandbox's own types of its world.
export type { WorldInfo } from '../../../electron/sandbox';
export type { WorldAccount, WorldKey } from '../../../electron/sandbox/world';

/** What the journeys run: the renderer and browser mode's bundle (with its threads and sandbox apart). */
export const BUILT_APP = [
  'out/renderer/index.html',
  'out/serve/cli.cjs',
  'out/serve/sandbox.cjs',
  'out/serve/trade-reader.cjs',
  'out/serve/checkpoint-thread.cjs',
];

/**
 * Builds the app when out/ is missing or older than the sources: the global setup's, once before
 * the workers start. Nothing builds during the run (support/child.ts says why).
 */
export function ensureRendererBuilt(): void {
  if (!ensureBuilt(BUILT_APP)) throw new Error('Building the app failed; see the output above.');
}

/**
 * The seed of this worker's sandbox worlds. A world's API keys come from its seed, and the
 * workers' apps share one keychain: an app adding a key that another worker's app keeps would
 * take that entry over as its own (api/key-entries.ts). Worker 0 keeps the sandbox's default.
 */
export function worldSeed(): number {
  return 42 + 1000 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
}

export interface Stack {
  world: WorldInfo;
  url: string;
  dataDir: string;
  parent: WorldAccount;
  subs: WorldAccount[];
  /** Stops the sandbox exchange (the app keeps running: it goes offline). */
  stopSandbox(): Promise<void>;
  close(): Promise<void>;
}

/** The sandbox exchange as a child process; its value is the world it printed (accounts, keys). */
export function startSandboxChild(
  options: { simulation?: boolean } = {},
): Promise<StartedChild<WorldInfo>> {
  const sandboxArgs = ['electron/sandbox/cli.ts', '--port', '0', '--seed', String(worldSeed())];
  if (!options.simulation) sandboxArgs.push('--no-simulation');
  return startChild<WorldInfo>(
    tsx,
    sandboxArgs,
    (line) => {
      try {
        const parsed = JSON.parse(line) as WorldInfo;
        return parsed.baseUrl ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    'The sandbox exchange',
  );
}

export async function startStack(options: { simulation?: boolean } = {}): Promise<Stack> {
  const sandbox = await startSandbox({
    port: 0,
    seed: worldSeed(),
    simulation: options.simulation ?? false,
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-e2e-'));
  let app: StartedChild<string>;
  try {
    app = await startBrowserMode(dataDir);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const world = sandbox.world;
  const parent = world.accounts.find((a) => a.role === 'parent');
  if (!parent) throw new Error('The sandbox world has no parent account');
  let sandboxUp = true;
  const stopSandbox = async () => {
    if (!sandboxUp) return;
    sandboxUp = false;
    await sandbox.close();
  };
  return {
    world,
    url: app.value,
    dataDir,
    parent,
    subs: world.accounts.filter((a) => a.role === 'sub'),
    stopSandbox,
    close: async () => {
      await app.stop();
      await stopSandbox();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The parent account's key that may trade. */
export function tradingKey(stack: Stack): WorldKey {
  const key = stack.parent.keys.find((k) => k.canTrade) ?? stack.parent.keys[0];
  if (!key) throw new Error('The parent account has no API key');
  return key;
}

/**
 * Opens the address the app printed and waits for the page's bridge (window.spotfolio). A page
 * whose scripts did not run is described (what failed to load, what it showed) and opened once
 * more: a CI run once saw the bridge never appear while the same journey passes every other time,
 * and the description is what will tell why.
 */
export async function openApp(page: Page, url: string, screen?: string): Promise<void> {
  const trouble: string[] = [];
  const onError = (error: Error) => trouble.push(`page error: ${error.message}`);
  const onFailed = (request: Request) =>
    trouble.push(`failed: ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`);
  const onResponse = (response: Response) => {
    if (response.status() >= 400) trouble.push(`HTTP ${response.status()}: ${response.url()}`);
  };
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') trouble.push(`console: ${message.text()}`);
  };
  page.on('pageerror', onError);
  page.on('requestfailed', onFailed);
  page.on('response', onResponse);
  page.on('console', onConsole);
  try {
    for (let attempt = 1; ; attempt++) {
      await page.goto(screen === undefined ? url : await addressOf(page, url, screen));
      try {
        await page.waitForFunction(() => 'spotfolio' in window, undefined, { timeout: 15_000 });
        return;
      } catch (error) {
        const seen = await page
          .evaluate(() => ({
            readyState: document.readyState,
            scripts: [...document.scripts].map((script) => script.src),
            text: document.body?.innerText.slice(0, 300) ?? '',
          }))
          .catch((reason: unknown) => String(reason));
        console.error(
          `The app's page had no bridge 15 s after opening it (attempt ${attempt}): ` +
            `${JSON.stringify(seen)}; ${trouble.join('; ') || 'no failed request or page error'}`,
        );
        if (attempt >= 2) throw error;
      }
    }
  } finally {
    page.off('pageerror', onError);
    page.off('requestfailed', onFailed);
    page.off('response', onResponse);
    page.off('console', onConsole);
  }
}

/**
 * The address of `screen` (e.g. 'orders', 'markets/btcusdt') in the app at `url`: the page keeps
 * the token the app printed where it keeps one taken from the address (its tab's session
 * storage), so it opens straight on that screen, as a reload of it would, without drawing the
 * Portfolio first (the costliest screen: its charts and the ledger's history behind them).
 */
async function addressOf(page: Page, url: string, screen: string): Promise<string> {
  const { address, token } = printedAddress(url);
  await page.addInitScript(
    ({ key, token }) => {
      if (window.sessionStorage.getItem(key) === null) window.sessionStorage.setItem(key, token);
    },
    { key: tokenStorageKey, token },
  );
  return `${address.origin}/#/${screen}`;
}

/**
 * Adds a key of the sandbox (by default the parent account's trading key) as the active profile
 * through the real bridge, then opens the app on it. The worker makes the two calls over the
 * bridge's WebSocket as the page would (token, Host and Origin included), so the page is loaded
 * once, on the profile, instead of once to make the calls and again to show it.
 */
export async function openWithSandboxProfile(
  page: Page,
  stack: Stack,
  options: {
    name?: string;
    key?: { apiKey: string; secretKey: string };
    /** The screen to open on (as goTo names it), instead of the Portfolio. */
    screen?: string;
  } = {},
): Promise<void> {
  const { name = 'Sandbox', key = tradingKey(stack), screen } = options;
  const bridge = await connectBridge(stack.url);
  try {
    const profile = await bridge.ok<{ id: string }>('profiles.add', {
      name,
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      baseUrl: stack.world.baseUrl,
      streamUrl: stack.world.streamUrl,
    });
    await bridge.ok('profiles.activate', { id: profile.id });
  } finally {
    bridge.close();
  }
  await openApp(page, stack.url, screen);
  await page.getByTestId('active-profile').filter({ hasText: name }).waitFor();
  if (screen !== undefined) await page.getByTestId(`screen-${screen.split('/')[0]}`).waitFor();
}

/** A bridge client of the app at `url` (the address it printed, with its token). */
export function connectBridge(url: string): Promise<WireClient> {
  const { address, token } = printedAddress(url);
  return WireClient.connect(Number(address.port), token);
}

/** The address the app printed, and its token read as the page reads it. */
function printedAddress(url: string): { address: URL; token: string } {
  const address = new URL(url);
  const token = tokenOfFragment(address.hash);
  if (!token) throw new Error(`The app's address has no token: ${url}`);
  return { address, token };
}

/**
 * Opens the app on the sandbox profile a previous test of the spec added, or adds it (named
 * `name`): a test retried in a fresh worker has a fresh stack, without that profile.
 */
export async function openSandboxProfileAgain(
  page: Page,
  stack: Stack,
  name = 'Sandbox',
): Promise<void> {
  await openApp(page, stack.url);
  const profiles = await page.evaluate(() =>
    (
      window as unknown as { spotfolio: import('../../../shared/contract').SpotfolioBridge }
    ).spotfolio.profiles.list(),
  );
  if (profiles.some((p) => p.active && !p.isDemo)) {
    await page.getByTestId('screen-portfolio').waitFor();
    return;
  }
  await openWithSandboxProfile(page, stack, { name });
}

/**
 * Saves a screenshot of what is on screen to docs/screenshots/<name>.png once loading is over,
 * when the run makes the README's screenshots (`npm run screenshots`); a test run leaves the
 * tracked pictures alone.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SPOTFOLIO_SCREENSHOTS !== '1') return;
  await page
    .getByTestId('skeleton')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  await page.screenshot({ path: join(repoRoot, 'docs/screenshots', `${name}.png`) });
}

/** Moves to a screen by its sidebar link, as a user would. */
export async function goTo(page: Page, screen: string): Promise<void> {
  await page.getByTestId(`nav-${screen}`).click();
  await page.getByTestId(`screen-${screen}`).waitFor();
}
