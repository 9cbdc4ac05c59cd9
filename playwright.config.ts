import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './test/e2e/support/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two files at a time: a journey spends most of its time waiting on the app, the exchange or the
  // page, so two share the machine's two cores well (the files' order within a worker is kept).
  fullyParallel: false,
  workers: 2,
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 800 },
    launchOptions: chromiumLaunchOptions,
  },
});
