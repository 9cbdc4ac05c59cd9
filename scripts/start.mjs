#!/usr/bin/env node
/**
 * `npm start`: the desktop app when Electron can run here, browser mode otherwise.
 * `npm run serve` (this with --browser): browser mode, always.
 *
 * Electron cannot run without its binary (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or a
 * failed download) or, on Linux, without a display. In that case this says why and starts
 * browser mode, which prints the address to open. On a fresh clone it runs `npm install` first.
 * It builds first when out/ is missing or older than the sources, so what runs is what is
 * checked out (--no-build: it runs out/ as it is). Other arguments (e.g. --port 8080 --data-dir
 * DIR) go to browser mode.
 *
 * Browser mode runs in this process, from the built out/serve/cli.cjs: no second Node, no
 * TypeScript compiled at start-up, and V8's code cache for the rest (see loadBrowserMode).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';
import { bin, ensureBuilt, repoRoot } from './build-state.mjs';

/** npm itself: the one running `npm start` when there is one, else npm on the PATH. */
function runNpm(args, env = process.env) {
  const npmCli = process.env.npm_execpath;
  const options = { cwd: repoRoot, stdio: 'inherit', env };
  if (npmCli && /\.[cm]?js$/.test(npmCli)) {
    return spawnSync(process.execPath, [npmCli, ...args], options);
  }
  // Windows runs npm.cmd only through a shell.
  return spawnSync('npm', args, { ...options, shell: process.platform === 'win32' });
}

/** A fresh clone has no node_modules: install first, so `npm start` is the only step. */
function ensureInstalled() {
  if (existsSync(bin('electron-vite'))) return;
  console.log('The dependencies are not installed yet; running `npm install` first…');
  let result = runNpm(['install']);
  if (result.status !== 0) {
    // The usual cause is Electron's binary download (a proxy, an offline mirror); browser mode
    // needs no binary, so the rest is still worth having.
    console.log(
      '`npm install` failed. Trying again without downloading the Electron binary ' +
        '(ELECTRON_SKIP_BINARY_DOWNLOAD=1); browser mode works without it…',
    );
    result = runNpm(['install'], { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
  }
  if (result.status !== 0 || !existsSync(bin('electron-vite'))) {
    console.error('`npm install` failed; see the output above.');
    process.exit(result.status || 1);
  }
}

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

/** Builds when an output is missing, or older than a source (the app would run old code). */
function ensureBuiltOrExit(files) {
  if (ensureBuilt(files)) return;
  console.error('The build failed; see the output above.');
  process.exit(1);
}

/** Runs a child in the foreground; its exit code becomes ours, and Ctrl+C reaches it. */
function runForeground(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * Loads the built browser mode (one CommonJS file) through vm.Script with V8's code cache.
 * Compiling its ~1.7 MB of JavaScript is a good part of a start; the cache, written once after a
 * start, holds the compiled code of everything that ran. Its name carries the file's size and
 * modification time, so a rebuilt file never meets an old cache (V8 itself checks only its own
 * version and flags, and the source's length). Returns the module and a function that writes
 * the cache when there was none to use.
 */
function loadBrowserMode() {
  const file = join(repoRoot, 'out/serve/cli.cjs');
  const info = statSync(file);
  const cacheFile = `${file}.${info.size}-${Math.trunc(info.mtimeMs)}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The same wrapper Node gives a CommonJS module, on the first line so line numbers hold.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n});`;
  // The build turns every import() into require() (electron.vite.config.ts), as a script
  // compiled here has no module loader for import().
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));

  let saved = cachedData !== undefined && !script.cachedDataRejected;
  const saveCache = () => {
    if (saved) return;
    saved = true;
    try {
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temporary, script.createCachedData());
      // Renamed into place whole: a start never reads half a cache.
      renameSync(temporary, cacheFile);
      for (const name of readdirSync(dirname(file))) {
        if (name.endsWith('.v8cache') && name !== basename(cacheFile)) {
          rmSync(join(dirname(file), name), { force: true });
        }
      }
    } catch {
      // A read-only or full disk costs the next start its head start, nothing else.
    }
  };
  return { cli: module.exports, saveCache };
}

async function startBrowserMode(args, build) {
  const files = ['out/serve/cli.cjs', 'out/renderer/index.html'];
  if (build) {
    ensureBuiltOrExit(files);
  } else if (!files.every((file) => existsSync(join(repoRoot, file)))) {
    console.error('--no-build: the app is not built (run `npm run build`).');
    process.exit(1);
  }
  const { cli, saveCache } = loadBrowserMode();
  // After the start, with the app's code compiled; or at exit, if that comes first.
  process.once('exit', saveCache);
  await cli.runCli(args);
  setTimeout(saveCache, 200).unref();
}

const forwarded = process.argv.slice(2);
const browserOnly = forwarded[0] === '--browser';
if (browserOnly) forwarded.shift();
// --no-build: run out/ as it is. The end-to-end tests build once before their run; a build begun
// by one app's start (a test's fixture, or an editor, touching a source) would empty out/ under
// the apps already serving it.
const noBuild = forwarded.includes('--no-build');
if (noBuild) forwarded.splice(forwarded.indexOf('--no-build'), 1);
ensureInstalled();
const desktop = browserOnly ? {} : whyNoDesktop();
if (desktop.electronPath) {
  ensureBuiltOrExit(['out/main/main.js', 'out/preload/preload.cjs', 'out/renderer/index.html']);
  // ELECTRON_RUN_AS_NODE from a parent shell would start plain Node instead of the app.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  runForeground(desktop.electronPath, ['.'], env);
} else {
  if (desktop.reason) {
    console.log(`The desktop app cannot start here: ${desktop.reason}.`);
    console.log('Starting browser mode instead; open the address below in your browser.');
  }
  await startBrowserMode(forwarded, !noBuild);
}
