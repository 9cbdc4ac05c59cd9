/**
 * A test's child process started from one bundled file instead of through tsx. `node --import tsx`
 * compiles each of the child's modules as it loads them: 0.75 s of CPU per start for the store's
 * writer (test/store/durability.test.ts starts it 20 times), 2.2 s for the whole app. The same
 * sources bundled by esbuild (tsx's own compiler) into one ES module start in 0.17 s and 0.65 s;
 * the bundling itself takes a quarter of a second, once per test file.
 *
 * The child is still one node process running the script (a kill reaches it, as with the loader).
 * Packages stay outside the bundle, loaded from the repository's node_modules, which the bundle's
 * temporary folder links to.
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Call at the top of a test file: `script` (a TypeScript file) is bundled into one ES module
 * before the file's tests and removed after them. The function returned gives the bundle's path,
 * to spawn as `node <path> ...args`.
 */
export function bundledScript(script: string): () => string {
  let folder: string | undefined;
  let path: string | undefined;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'spotfolio-child-script-'));
    symlinkSync(join(repoRoot, 'node_modules'), join(folder, 'node_modules'), 'dir');
    const outfile = join(folder, `${basename(script, '.ts')}.mjs`);
    await build({
      entryPoints: [script],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    path = outfile;
  });
  // rm removes the node_modules link, never what it points to.
  afterAll(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    if (path === undefined)
      throw new Error(`${script} is bundled in beforeAll: call this in a test`);
    return path;
  };
}
