/**
 * What every journey needs: the sandbox exchange and the app in browser mode as real child
 * processes, each test file with a fresh data folder. Nothing is mocked: the page talks to the
 * app over its WebSocket bridge and the app talks to the sandbox over HTTP and WebSocket.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { WorldInfo } from '../../../electron/sandbox';
import type { WorldAccount, WorldKey } from '../../../electron/sandbox/world';
import { pickUrl, repoRoot, startChild, type StartedChild } from './child';

export { repoRoot } from './child';
const tsx = join(repoRoot, 'node_modules/.bin/tsx');

// What the sandbox child prints when it is up: the sandbox's own types of its world.
export type { WorldInfo } from '../../../electron/sandbox';
export type { WorldAccount, WorldKey } from '../../../electron/sandbox/world';

/** Builds the renderer once when out/renderer is missing (CI builds before `npm test`). */
export function ensureRendererBuilt(): void {
  if (existsSync(join(repoRoot, 'out/renderer/index.html'))) return;
  execFileSync(join(repoRoot, 'node_modules/.bin/electron-vite'), ['build'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
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
  const sandboxArgs = ['electron/sandbox/cli.ts', '--port', '0'];
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
  ensureRendererBuilt();
  const sandbox = await startSandboxChild(options);
  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-e2e-'));
  let app: StartedChild<string>;
  try {
    app = await startChild(
      tsx,
      ['electron/serve/cli.ts', '--port', '0', '--data-dir', dataDir],
      pickUrl,
      'Browser mode',
    );
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
  const world = sandbox.value;
  const parent = world.accounts.find((a) => a.role === 'parent');
  if (!parent) throw new Error('The sandbox world has no parent account');
  return {
    world,
    url: app.value,
    dataDir,
    parent,
    subs: world.accounts.filter((a) => a.role === 'sub'),
    stopSandbox: () => sandbox.stop(),
    close: async () => {
      await app.stop();
      await sandbox.stop();
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

/** Opens the app and adds the sandbox's parent key as the active profile through the real bridge. */
export async function openWithSandboxProfile(
  page: Page,
  stack: Stack,
  name = 'Sandbox',
): Promise<void> {
  await page.goto(stack.url);
  await page.waitForFunction(() => 'spotfolio' in window);
  const key = tradingKey(stack);
  await page.evaluate(
    async ({ name, key, baseUrl, streamUrl }) => {
      const api = (
        window as unknown as { spotfolio: import('../../../shared/contract').SpotfolioBridge }
      ).spotfolio;
      const profile = await api.profiles.add({
        name,
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        baseUrl,
        streamUrl,
      });
      await api.profiles.activate({ id: profile.id });
    },
    { name, key, baseUrl: stack.world.baseUrl, streamUrl: stack.world.streamUrl },
  );
  await page.reload();
  await page.getByTestId('active-profile').filter({ hasText: name }).waitFor();
}

/** Opens the app on the sandbox profile a previous test of the spec added, or adds it. */
export async function openSandboxProfileAgain(page: Page, stack: Stack): Promise<void> {
  await page.goto(stack.url);
  await page.waitForFunction(() => 'spotfolio' in window);
  const profiles = await page.evaluate(() =>
    (
      window as unknown as { spotfolio: import('../../../shared/contract').SpotfolioBridge }
    ).spotfolio.profiles.list(),
  );
  if (profiles.some((p) => p.active && !p.isDemo)) {
    await page.getByTestId('screen-portfolio').waitFor();
    return;
  }
  await openWithSandboxProfile(page, stack);
}

/** Saves a screenshot of what is on screen to docs/screenshots/<name>.png once loading is over. */
export async function screenshot(page: Page, name: string): Promise<void> {
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
