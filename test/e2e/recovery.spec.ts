/**
 * What the user sees when the local data was damaged, one app start per case on a data folder
 * prepared with real files: a damaged record restored from its newest backup (the banner names
 * the backup and its time), a rebuilt cache (the banner, dismissible), and a migration that
 * fails on the record (a blocking screen with the error, the file and the backup, and no app
 * started in its place).
 */
import { expect, test, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APPLICATION_IDS } from '../../electron/store/database';
import { openStore, startStore, type ProfileInput } from '../../electron/store';
import { startBrowserMode, type StartedChild } from './support/child';
import { openApp, screenshot } from './support/stack';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 10, 9, 30);

function savedProfile(id: string, name: string): ProfileInput {
  return {
    id,
    name,
    baseUrl: 'http://127.0.0.1:9',
    streamUrl: 'ws://127.0.0.1:9',
    apiKeyMasked: 'AbCd…wxyz',
    canTrade: false,
    canWithdraw: false,
    isDemo: false,
    createdAt: T0,
  };
}

const folders: string[] = [];
let app: StartedChild<string> | undefined;

function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'spotfolio-recovery-'));
  folders.push(dir);
  return dir;
}

/** Browser mode on `dataDir`, without demo mode, opened in the page once its bridge is there. */
async function startAndOpen(page: Page, dataDir: string): Promise<void> {
  app = await startBrowserMode(dataDir);
  await openApp(page, app.value);
}

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});
test.afterAll(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test('a damaged record: the newest backup is restored, and the banner says which, of when', async ({
  page,
}) => {
  const dataDir = dataFolder();
  let now = T0;
  const first = await startStore({ dataDir, now: () => now });
  first.store.profiles.create(savedProfile('kept', 'Kept in the backup'));
  first.store.close();
  now += DAY;
  // The second start takes the backup; a profile added after it is not in it.
  const second = await startStore({ dataDir, now: () => now });
  const backup = second.startBackup!;
  second.store.profiles.create(savedProfile('later', 'Added after the backup'));
  second.store.close();
  truncateSync(join(dataDir, 'record.sqlite'), 0);

  await startAndOpen(page, dataDir);
  const banner = page.getByTestId('store-notice');
  await expect(banner).toHaveAttribute('data-kind', 'record-restored');
  await expect(banner.getByTestId('store-notice-backup-time')).toHaveAttribute(
    'data-time',
    String(backup.takenAt),
  );
  const shownTime = await page.evaluate((ms) => {
    const d = new Date(ms);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }, backup.takenAt);
  await expect(banner).toContainText(`Your data was restored from the backup of ${shownTime}.`);
  await expect(banner).toContainText(backup.path);
  await expect(banner).toContainText('Changes made after');
  await expect(banner).toContainText(/record\.sqlite\.damaged-/);
  // What the restore kept of the money journal, which has a file of its own.
  await expect(banner.getByTestId('store-notice-journal')).toHaveText(
    'The money journal (transfers and orders sent) had nothing the backup lacks.',
  );
  await screenshot(page, 'recovery-record-restored');

  // The record holds what the backup held, through the real bridge.
  const names = await page.evaluate(async () => {
    const api = (
      window as unknown as { spotfolio: import('../../shared/contract').SpotfolioBridge }
    ).spotfolio;
    return (await api.profiles.list()).map((p) => p.name);
  });
  expect(names).toEqual(['Kept in the backup']);
});

test('a damaged cache: rebuilt, and the user is told in the app, dismissibly', async ({ page }) => {
  const dataDir = dataFolder();
  const { store } = openStore({ dataDir });
  store.profiles.create(savedProfile('p1', 'Main account'));
  store.close();
  writeFileSync(join(dataDir, 'cache.sqlite'), randomBytes(32 * 1024));

  await startAndOpen(page, dataDir);
  const banner = page.getByTestId('store-notice');
  await expect(banner).toHaveAttribute('data-kind', 'cache-rebuilt');
  await expect(banner).toContainText('Local data was rebuilt from the exchange.');
  await expect(banner).toContainText(/cache\.sqlite\.corrupt-/);
  await screenshot(page, 'recovery-cache-rebuilt');

  await banner.getByTestId('store-notice-dismiss').click();
  await expect(page.getByTestId('store-notice')).toHaveCount(0);
  // Dismissed stays dismissed when the page reloads.
  await page.reload();
  await expect(page.getByTestId('nav-portfolio')).toBeVisible();
  await expect(page.getByTestId('store-notice')).toHaveCount(0);
});

test('a migration that fails: a blocking screen with the error, the file and the backup', async ({
  page,
}) => {
  const dataDir = dataFolder();
  // A record of ours at schema 0 that already holds a table its first migration creates.
  const path = join(dataDir, 'record.sqlite');
  const db = new Database(path);
  db.pragma(`application_id = ${APPLICATION_IDS.record}`);
  db.exec("CREATE TABLE profiles (id TEXT PRIMARY KEY); INSERT INTO profiles VALUES ('mine')");
  db.close();
  const before = readFileSync(path);

  await startAndOpen(page, dataDir);
  const screen = page.getByTestId('record-unavailable');
  await expect(screen).toBeVisible();
  await expect(screen).toHaveAttribute('data-problem', 'migration-failed');
  await expect(screen.getByRole('heading')).toHaveText('Your data could not be updated');
  await expect(page.getByTestId('record-unavailable-message')).toContainText(
    /migration 1 .* failed: .*table profiles already exists/,
  );
  await expect(page.getByTestId('record-unavailable-path')).toHaveText(path);
  await expect(page.getByTestId('record-unavailable-backup')).toContainText(
    /backups\/record-v0-before-v\d+-.*\.sqlite$/,
  );
  await expect(page.getByTestId('record-unavailable-help')).toContainText('changed nothing');
  // Nothing else runs: no navigation, no onboarding, no demo.
  await expect(page.getByTestId('nav-portfolio')).toHaveCount(0);
  await screenshot(page, 'recovery-migration-failed');
  await app?.stop();
  expect(readFileSync(path).equals(before)).toBe(true);
});
