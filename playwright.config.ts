import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './test/e2e/support/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Three files at a time: a journey spends most of its time waiting on the app, the exchange or
  // the page (measured in a quiet CI run with two: the machine's two cores 69% busy, the journeys
  // the last to end), so a third overlaps those waits (the files' order within a worker is kept).
  fullyParallel: false,
  workers: 3,
  // A journey that fails is run once more in a fresh worker (its own stack) and, if it then
  // passes, reported as flaky by name in the list: a race the machine's load exposed is then
  // seen and fixed without one rare timing failing every other test's run.
  retries: 1,
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 800 },
    // The page as a person who asked their system for less motion sees it: the loading skeletons
    // hold still. Chromium paints in software here, and their shine, repainted every frame while
    // a screen waits on its data, was 52 of the journeys' 285 CPU-seconds (renderer and GPU
    // process), measured over a full run each way; CI measures correctness, not the animation.
    reducedMotion: 'reduce',
    launchOptions: chromiumLaunchOptions,
  },
});
