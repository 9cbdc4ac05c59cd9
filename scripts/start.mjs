#!/usr/bin/env node
/**
 * `npm start`: the desktop app when Electron can run here, browser mode otherwise.
 * Electron cannot run without its binary (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or a
 * failed download) or, on Linux, without a display. In that case this says why and starts
 * browser mode, which prints the address to open. Builds first when out/ is missing.
 * Arguments after `--` (e.g. --port 8080 --data-dir DIR) go to browser mode.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) =>
  join(repoRoot, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

/** The Electron binary's path, or why there is none. */
function findElectron() {
  try {
    // The electron package exports the binary's path, and throws when the binary is missing.
    const path = createRequire(import.meta.url)('electron');
    if (typeof path !== 'string' || !existsSync(path)) {
      return { reason: 'the Electron binary is not installed (node_modules/electron has no dist)' };
    }
    return { path };
  } catch (error) {
    const first = String(error instanceof Error ? error.message : error).split('\n')[0];
    return { reason: `the Electron binary is not installed (${first})` };
  }
}

function whyNoDesktop() {
  const electron = findElectron();
  if (!electron.path) return { reason: electron.reason };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  }
  return { electronPath: electron.path };
}

function ensureBuilt(files) {
  if (files.every((file) => existsSync(join(repoRoot, file)))) return;
  console.log('Building the app first (npx electron-vite build)…');
  const result = spawnSync(bin('electron-vite'), ['build'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The build failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}

/** Runs a child in the foreground; its exit code becomes ours, and Ctrl+C reaches it. */
function runForeground(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const forwarded = process.argv.slice(2);
const desktop = whyNoDesktop();
if (desktop.electronPath) {
  ensureBuilt(['out/main/main.js', 'out/preload/preload.cjs', 'out/renderer/index.html']);
  // ELECTRON_RUN_AS_NODE from a parent shell would start plain Node instead of the app.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  runForeground(desktop.electronPath, ['.'], env);
} else {
  console.log(`The desktop app cannot start here: ${desktop.reason}.`);
  console.log('Starting browser mode instead; open the address below in your browser.');
  ensureBuilt(['out/renderer/index.html']);
  runForeground(bin('tsx'), ['electron/serve/cli.ts', ...forwarded]);
}
