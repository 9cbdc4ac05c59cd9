import { defineConfig } from 'vitest/config';

/**
 * Test files that replace modules (vi.mock of electron in shell/) or run in jsdom (the renderer's
 * components): each gets a fresh module graph of its own.
 */
const ISOLATED = ['test/shell/**/*.test.{ts,tsx}', 'test/renderer/**/*.test.{ts,tsx}'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      {
        // Every other file shares its worker's module graph: importing the app's modules afresh
        // for each of ~140 files took more time than most of their tests (import 67 s, against
        // 19 s shared; the suite alone 256 s, against 196 s). Sharing is safe because no such
        // file keeps state in a module: each builds its own store, clock, sandbox and services.
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**', ...ISOLATED],
          isolate: false,
        },
      },
    ],
  },
});
