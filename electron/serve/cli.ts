/**
 * `npm run serve`: the app in browser mode. Creates the app (same data folder as the desktop app
 * by default), serves it on 127.0.0.1, and prints the one address to open. Logs go to stderr so
 * stdout carries only that line. `npm run serve` and `npm start` without Electron run the built
 * out/serve/cli.cjs through scripts/start.mjs (which builds it when needed); `tsx` runs this file
 * as it is, as the end-to-end tests do.
 *
 *   --port N         listen on port N (default: any free port)
 *   --data-dir DIR   the app's data folder (default: $SPOTFOLIO_DATA_DIR, else the OS user data dir)
 *   --timings FILE   a JSON object of the app's waits to use instead of the product's (see
 *                    electron/core/timings.ts), e.g. {"priceRetryMs": 1000}; the end-to-end tests
 *                    pass test/e2e/support/timings.json
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { SpotfolioApp } from '../app';
import { inBackground, keepServingOnUnexpectedErrors, type ErrorLog } from '../core/background';
import { DEFAULT_TIMINGS, type Timings } from '../core/timings';
import { nextTurn, sleep, SystemClock } from '../core/clock';
import { describeError } from '../core/logger';
import { startBrowserMode } from './host';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A worker thread's script: the build's `built` beside this file's bundle, or, where this runs
 * from its TypeScript (tsx), `source` (the thread's -source.mjs, which loads it through tsx). Not
 * the modules' own *_SOURCE constants: importing them here would load the app's modules before
 * the host is up.
 */
function threadScript(source: string, built: string): string | URL {
  return import.meta.url.endsWith('.ts')
    ? new URL(source, import.meta.url)
    : join(dirname(fileURLToPath(import.meta.url)), built);
}

/** The ledger's reader thread (ledger/trade-readers.ts). */
const tradeReaderScript = threadScript('../ledger/trade-reader-source.mjs', 'trade-reader.cjs');
/** The store's WAL checkpoint thread (store/wal-checkpoints.ts). */
const checkpointScript = threadScript(
  '../store/checkpoint-thread-source.mjs',
  'checkpoint-thread.cjs',
);

/** How long the app's start waits for a page to fetch its files first (see serve). */
const pageHeadStartMs = 250;

/** Where Electron's app.getPath('userData') points for an app named "Spotfolio". */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Spotfolio');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Spotfolio');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Spotfolio');
}

export interface ServeArgs {
  port: number;
  dataDir: string;
  timings: Partial<Timings>;
}

/** A wait of a --timings file: whole milliseconds, from 1 ms to a day. */
const waitMs = z.int().min(1).max(86_400_000);
const timingsFile = z
  .object(Object.fromEntries(Object.keys(DEFAULT_TIMINGS).map((name) => [name, waitMs.optional()])))
  .strict();

/** The waits a --timings file sets; says which entry is wrong, and why, when one is. */
export function readTimingsFile(path: string): Partial<Timings> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`--timings ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = timingsFile.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    throw new Error(
      `--timings ${path}: ${where}: ${issue.message}${keys}. Known waits: ${Object.keys(DEFAULT_TIMINGS).join(', ')}, in whole milliseconds`,
    );
  }
  return result.data as Partial<Timings>;
}

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeArgs {
  let port = 0;
  let dataDir = env.SPOTFOLIO_DATA_DIR || defaultDataDir(process.platform, env);
  let timings: Partial<Timings> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === '') throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === '--port') {
      const text = value();
      port = Number(text);
      if (!/^\d+$/.test(text) || port > 65535) {
        throw new Error(`--port must be a number from 0 to 65535 (got "${text}")`);
      }
    } else if (flag === '--data-dir') {
      dataDir = resolve(value());
    } else if (flag === '--timings') {
      timings = readTimingsFile(resolve(value()));
    } else {
      throw new Error(`Unknown option "${arg}". Options: --port N, --data-dir DIR, --timings FILE`);
    }
  }
  return { port, dataDir, timings };
}

/** Builds the renderer when out/renderer is missing (a fresh checkout). */
function ensureRendererBuilt(rendererDir: string): void {
  if (existsSync(join(rendererDir, 'index.html'))) return;
  process.stderr.write('The app is not built yet; running `npx electron-vite build` first…\n');
  const result = spawnSync('npx', ['electron-vite', 'build'], {
    cwd: repoRoot,
    stdio: ['ignore', process.stderr, process.stderr],
    shell: process.platform === 'win32',
  });
  if (result.status !== 0 || !existsSync(join(rendererDir, 'index.html'))) {
    throw new Error('Building the renderer failed; see the output above.');
  }
}

/**
 * Starts browser mode and prints the address. The host listens before the app is created, so the
 * browser fetches and parses the renderer while the store opens and the session starts; the
 * page's first calls wait for the app. If the app then fails to start, this rejects (after
 * closing the host) and the caller says why.
 */
export async function serve(argv: string[]): Promise<void> {
  const args = parseServeArgs(argv);
  // Everything the app writes (the databases, their -wal/-shm, backups, logs) holds balances,
  // addresses and history: readable by the user alone, whichever part of the app creates it.
  process.umask(0o077);
  const rendererDir = join(repoRoot, 'out', 'renderer');
  ensureRendererBuilt(rendererDir);
  mkdirSync(args.dataDir, { recursive: true, mode: 0o700 });
  const toStderr = (line: string) => void process.stderr.write(`${line}\n`);

  let app: SpotfolioApp | undefined;
  let appStarted!: (app: SpotfolioApp) => void;
  let appFailed!: (error: unknown) => void;
  const appReady = new Promise<SpotfolioApp>((resolveApp, rejectApp) => {
    appStarted = resolveApp;
    appFailed = rejectApp;
  });
  // The app's logger stamps each line and redacts every secret the app has loaded; the host logs
  // through it once it exists (before that, no secret has been loaded).
  const hostLog = (line: string) => (app ? app.log.line(line) : toStderr(line));
  const errorLog: ErrorLog = (message, error) =>
    app ? app.log.error(message, error) : toStderr(`${message}: ${describeError(error)}`);
  // An error nobody caught is logged and browser mode keeps serving.
  keepServingOnUnexpectedErrors(errorLog);
  const host = await startBrowserMode({
    app: appReady,
    rendererDir,
    port: args.port,
    log: hostLog,
  });
  process.stdout.write(`Spotfolio is running at ${host.url}\n`);
  process.stderr.write(`Data folder: ${args.dataDir}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`Stopping Spotfolio (${signal})…\n`);
    try {
      await host.close();
      // An app still starting is left to the exit, as before the host listened first.
      await app?.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => inBackground(stop('SIGINT'), 'Stopping', errorLog));
  process.on('SIGTERM', () => inBackground(stop('SIGTERM'), 'Stopping', errorLog));

  // A browser opened with the address at once (a script, the end-to-end tests) gets the page's
  // files before start-up ties up the event loop, and parses them while the app starts. Nobody
  // may be opening it yet, so the wait is short. The app's modules, which open nothing, are
  // evaluated before it: on the turn after the address is printed, while the browser navigates
  // and before it asks for the page's files.
  const appModule = nextTurn().then(() => import('../app'));
  // A failure to load them is reported where they are awaited, below.
  appModule.catch(() => undefined);
  await Promise.race([host.pageLoaded, sleep(new SystemClock(), pageHeadStartMs)]);
  try {
    const { createApp } = await appModule;
    app = await createApp({
      mode: 'browser',
      dataDir: args.dataDir,
      log: toStderr,
      timings: args.timings,
      followScreenLock: true,
      tradeReaderScript,
      checkpointScript,
    });
  } catch (error) {
    appFailed(error);
    await host.close();
    throw error;
  }
  appStarted(app);
}

/** The command: serve, or say why not and exit 1. Resolves once the app has started. */
export function runCli(argv: string[]): Promise<void> {
  return serve(argv).catch((error: unknown) => {
    process.stderr.write(
      `Spotfolio could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // runCli says why the app could not start itself; this only keeps a failure of that from
  // passing unnoticed.
  inBackground(runCli(process.argv.slice(2)), 'Spotfolio', (message, error) =>
    process.stderr.write(`${message}: ${describeError(error)}\n`),
  );
}
