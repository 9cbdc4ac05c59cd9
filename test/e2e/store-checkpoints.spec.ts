/**
 * The built app (browser mode's bundle, as `npm start` runs it) takes its store's WAL checkpoints
 * on a thread of its own, started from the thread's bundle beside the app's: its log says so and
 * has no warning about it, and a close stops the thread before the store, so that the store's
 * close, the last connection's, leaves no WAL behind.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserMode } from './support/child';

test('the built app checkpoints its store on a thread of its own, and closes it cleanly', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-e2e-checkpoints-'));
  try {
    const app = await startBrowserMode(dataDir);
    try {
      await expect
        .poll(() => app.output(), { timeout: 20_000 })
        .toContain('The store’s WAL checkpoints run on a thread of their own');
      expect(app.output()).not.toContain('WAL checkpoint thread');
      expect(existsSync(join(dataDir, 'record.sqlite-wal'))).toBe(true);
    } finally {
      await app.stop();
    }
    expect(app.output()).toContain('Spotfolio closed');
    expect(readdirSync(dataDir).filter((file) => file.endsWith('-wal'))).toEqual([]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
