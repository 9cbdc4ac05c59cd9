/**
 * `npm run serve`: the app in browser mode. Creates the app (same data folder as the desktop app
 * by default), serves it on 127.0.0.1, and prints the one address to open. Logs go to stderr so
 * stdout carries only that line.
 *
 *   --port N         listen on port N (default: any free port)
 *   --data-dir DIR   the app's data folder (default: $SPOTFOLIO_DATA_DIR, else the OS user data dir)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../app';
import { startBrowserMode } from './host';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

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
}

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeArgs {
  let port = 0;
  let dataDir = env.SPOTFOLIO_DATA_DIR || defaultDataDir(process.platform, env);
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
    } else {
      throw new Error(`Unknown option "${arg}". Options: --port N, --data-dir DIR`);
    }
  }
  return { port, dataDir };
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

async function main(): Promise<void> {
  const args = parseServeArgs(process.argv.slice(2));
  const rendererDir = join(repoRoot, 'out', 'renderer');
  ensureRendererBuilt(rendererDir);
  mkdirSync(args.dataDir, { recursive: true });
  const toStderr = (line: string) => void process.stderr.write(`${line}\n`);
  // The app's logger stamps each line and redacts every secret the app has loaded; the host logs
  // through it too.
  const app = await createApp({ mode: 'browser', dataDir: args.dataDir, log: toStderr });
  let host;
  try {
    host = await startBrowserMode({ app, rendererDir, port: args.port, log: app.log.line });
  } catch (error) {
    await app.close();
    throw error;
  }
  process.stdout.write(`Spotfolio is running at ${host.url}\n`);
  process.stderr.write(`Data folder: ${args.dataDir}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`Stopping Spotfolio (${signal})…\n`);
    try {
      await host.close();
      await app.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `Spotfolio could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
