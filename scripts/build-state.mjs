/**
 * Whether out/ holds a build of the sources as they are, and the build when it does not: shared
 * by `npm start`/`npm run serve` (scripts/start.mjs) and the end-to-end tests, which run the
 * built browser mode and renderer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export const bin = (name) =>
  join(repoRoot, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

/** What the build reads: a change to any of these makes out/ stale. */
const sourceDirs = ['electron', 'shared', 'renderer', 'resources'];
const sourceFiles = ['package.json', 'package-lock.json', 'electron.vite.config.ts'];

function newestSourceTime() {
  let newest = 0;
  const visit = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visit(child);
      else newest = Math.max(newest, statSync(child).mtimeMs);
    }
  };
  for (const dir of sourceDirs) if (existsSync(join(repoRoot, dir))) visit(join(repoRoot, dir));
  for (const file of sourceFiles) {
    if (existsSync(join(repoRoot, file))) {
      newest = Math.max(newest, statSync(join(repoRoot, file)).mtimeMs);
    }
  }
  return newest;
}

/** Why `files` (paths under the repository) need a build: missing or older than a source; or null. */
export function whyBuild(files) {
  const paths = files.map((file) => join(repoRoot, file));
  if (!paths.every((path) => existsSync(path))) return 'The app is not built yet';
  if (Math.min(...paths.map((path) => statSync(path).mtimeMs)) < newestSourceTime()) {
    return 'The sources changed since the last build';
  }
  return null;
}

/**
 * Builds when an output is missing or older than a source (the app would run old code).
 * Returns false when the build failed; `log` says why it builds.
 */
export function ensureBuilt(files, log = console.log) {
  const why = whyBuild(files);
  if (why === null) return true;
  log(`${why}; building it first (npx electron-vite build)…`);
  const result = spawnSync(bin('electron-vite'), ['build'], {
    cwd: repoRoot,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  return result.status === 0 && whyBuild(files) === null;
}
