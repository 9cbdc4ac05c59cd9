import { defineConfig } from 'vitest/config';

/** Test files that replace modules (vi.mock of electron in shell/): each gets a fresh module graph. */
const ISOLATED = ['test/shell/**/*.test.{ts,tsx}'];

/**
 * The renderer's tests, some in jsdom (their docblock says so), share their worker's modules and,
 * in jsdom, its one window; support/setup.ts unmounts what each test drew and empties the window
 * after each file. A process, a window and React of its own for each of the 23 files took 51 s
 * of CPU and 49 s of wall time; shared, 27 s and 18 s. The renderer's modules keep no state a
 * test leaves behind (the password prompt is the mounted dialog's; the bridge is wrapped anew for
 * each window.spotfolio).
 */
const RENDERER = ['test/renderer/**/*.test.{ts,tsx}'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      {
        extends: true,
        test: {
          name: 'renderer',
          include: RENDERER,
          isolate: false,
          setupFiles: ['test/renderer/support/setup.ts'],
        },
      },
      {
        // Every other file shares its worker's module graph: importing the app's modules afresh
        // for each of ~140 files took more time than most of their tests (import 67 s, against
        // 19 s shared; the suite alone 256 s, against 196 s). Sharing is safe because no such
        // file keeps state in a module: each builds its own store, clock, sandbox and services.
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**', ...ISOLATED, ...RENDERER],
          isolate: false,
        },
      },
    ],
  },
});
