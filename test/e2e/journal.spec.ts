/**
 * What the user sees after a crash and a restart: a sub-to-sub transfer whose process was killed
 * after its first leg (a child process makes it on the app's own record file; the app is closed
 * meanwhile and started again) is shown with the facts and the choices; finishing it moves the
 * balances on screen, compared exactly with the sandbox's own. Then API keys left in the keychain
 * without a profile are offered back: one re-attached, one deleted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Decimal from 'decimal.js';
import keytar from 'keytar';
import { expect, test, type Page } from '@playwright/test';
import type { ExchangeClient } from '../../electron/exchange/client';
import { openStore } from '../../electron/store';
import type { SpotfolioBridge } from '../../shared/contract';
import { repoRoot, startBrowserMode, type StartedChild } from './support/child';
import { exchangeClient, fromExchange, shownDecimal } from './support/exchange';
import { goTo, openApp, screenshot, startSandboxChild, type WorldInfo } from './support/stack';

const KEYCHAIN_SERVICE = 'Spotfolio';

let sandbox: StartedChild<WorldInfo>;
let app: StartedChild<string>;
let dataDir = '';
let exchange: ExchangeClient;
const keychainAccounts: string[] = [];

const world = () => sandbox.value;
const parent = () => world().accounts.find((a) => a.role === 'parent')!;
const subs = () => world().accounts.filter((a) => a.role === 'sub');
const tradingKey = () => {
  const key = parent().keys.find((k) => k.canTrade)!;
  return { apiKey: key.apiKey, secretKey: key.secretKey };
};

/** This data folder's install id, kept in its record (read beside the running app). */
function installId(): string {
  const { store } = openStore({ dataDir });
  try {
    const id = store.settings.get<string>('installId');
    if (typeof id !== 'string') throw new Error(`No install id in the record of ${dataDir}`);
    return id;
  } finally {
    store.close();
  }
}

function startApp(): Promise<StartedChild<string>> {
  return startBrowserMode(dataDir);
}

test.beforeAll(async () => {
  sandbox = await startSandboxChild();
  dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-e2e-journal-'));
  app = await startApp();
  exchange = exchangeClient(world(), tradingKey());
});

test.afterAll(async () => {
  await exchange?.close();
  await app?.stop();
  await sandbox?.stop();
  for (const account of keychainAccounts) await keytar.deletePassword(KEYCHAIN_SERVICE, account);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function api(page: Page) {
  return page.evaluateHandle(() => (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio);
}

/** A sub-account's balance of an asset, as the exchange holds it. */
async function subBalance(email: string, asset: string): Promise<Decimal> {
  const accounts = await fromExchange(() => exchange.subAccounts.accounts());
  const sub = accounts.find((s) => s.email === email);
  const row = sub?.balance.find((b) => b.symbol.toLowerCase() === asset);
  return new Decimal(row?.balance ?? '0');
}

/** Runs the app's journaled transfer in a process of its own and kills it after the first leg. */
async function transferKilledAfterFirstLeg(input: {
  profileId: string;
  asset: string;
  amount: string;
  fromEmail: string;
  toEmail: string;
}): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'test/journal/fixtures/journal-child.ts'),
      JSON.stringify({
        dataDir,
        baseUrl: world().baseUrl,
        ...tradingKey(),
        viaEmail: parent().email,
        holdAt: 'answered:1',
        ...input,
      }),
    ],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let held = false;
  for await (const line of createInterface({ input: child.stdout! })) {
    const parsed = JSON.parse(line) as { held?: string; failed?: string };
    if (parsed.failed) throw new Error(`the transfer failed: ${parsed.failed}`);
    if (parsed.held) {
      held = true;
      break;
    }
  }
  if (!held) throw new Error('the transfer process ended before its first leg was answered');
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

test('a transfer cut short by a crash is shown after the restart, and finished', async ({
  page,
}) => {
  await openApp(page, app.value);
  const bridge = await api(page);
  const profile = await bridge.evaluate((spotfolio, input) => spotfolio.profiles.add(input), {
    name: 'Sandbox',
    ...tradingKey(),
    baseUrl: world().baseUrl,
    streamUrl: world().streamUrl,
  });
  keychainAccounts.push(`${installId()}/${profile.id}`);
  const [subA, subB] = subs().map((s) => s.email) as [string, string];
  const asset = 'usdt';
  const amount = '7.25';
  const beforeA = await subBalance(subA, asset);
  const beforeB = await subBalance(subB, asset);

  // The app is closed; the transfer runs in a process of its own, which dies after leg 1.
  await app.stop();
  await transferKilledAfterFirstLeg({
    profileId: profile.id,
    asset,
    amount,
    fromEmail: subA,
    toEmail: subB,
  });
  expect((await subBalance(subA, asset)).toFixed()).toBe(beforeA.minus(amount).toFixed());
  expect((await subBalance(subB, asset)).toFixed()).toBe(beforeB.toFixed());

  // Started again on the same files: the check at start-up finds where the funds are.
  app = await startApp();
  await page.goto(app.value);
  const entry = page.getByTestId('journal-entry');
  await expect(entry).toHaveAttribute('data-status', 'stopped');
  await expect(entry.getByTestId('journal-facts')).toHaveText(
    `7.25 USDT left ${subA} and is in your main account ${parent().email}; it did not reach ${subB}.`,
  );
  await expect(entry.getByTestId('journal-finish')).toHaveText(`Send it on to ${subB}`);
  await expect(entry.getByTestId('journal-resolve')).toHaveText(`Leave it in ${parent().email}`);
  await goTo(page, 'sub-accounts');
  const cardB = page.getByTestId(`sub-${subB}`);
  await expect(async () => {
    const shown = shownDecimal(
      await cardB.getByTestId(`sub-balance-${asset}`).locator('td.num').textContent(),
    );
    expect(shown.toFixed()).toBe((await subBalance(subB, asset)).toFixed());
  }).toPass();
  await screenshot(page, 'journal');

  // Finishing sends the second leg only; the balance on screen moves by exactly the amount.
  await entry.getByTestId('journal-finish').click();
  await expect(page.getByTestId('journal-entry')).toHaveCount(0);
  expect((await subBalance(subB, asset)).toFixed()).toBe(beforeB.plus(amount).toFixed());
  expect((await subBalance(subA, asset)).toFixed()).toBe(beforeA.minus(amount).toFixed());
  await expect(async () => {
    const shown = shownDecimal(
      await cardB.getByTestId(`sub-balance-${asset}`).locator('td.num').textContent(),
    );
    expect(shown.toFixed()).toBe(beforeB.plus(amount).toFixed());
  }).toPass({ timeout: 20_000 });
  const records = (await fromExchange(() => exchange.subAccounts.transferHistory())).filter((r) =>
    new Decimal(r.qty).eq(amount),
  );
  expect(records.map((r) => `${r.from}>${r.to}`).sort()).toEqual(
    [`${subA}>${parent().email}`, `${parent().email}>${subB}`].sort(),
  );
});

test('API keys in the keychain without a profile are offered back', async ({ page }) => {
  const readOnly = parent().keys.find((k) => !k.canTrade)!;
  const kept = `journal-spec-${process.pid}-read-only`;
  const junk = `journal-spec-${process.pid}-junk`;
  // Entries of this data folder are named under its install id (the keychain is shared by every
  // data folder on the machine; another folder's entries are never offered here).
  const account = (name: string) => `${installId()}/${name}`;
  keychainAccounts.push(account(kept), account(junk));
  await keytar.setPassword(
    KEYCHAIN_SERVICE,
    account(kept),
    JSON.stringify({ apiKey: readOnly.apiKey, secretKey: readOnly.secretKey }),
  );
  await keytar.setPassword(
    KEYCHAIN_SERVICE,
    account(junk),
    JSON.stringify({ apiKey: 'JunkKey-0000-1111', secretKey: 'junk-secret' }),
  );

  await page.goto(app.value);
  await expect(page.getByTestId('orphaned-keys-notice')).toBeVisible();
  await page.getByTestId('orphaned-keys-review').click();
  const dialog = page.getByTestId('orphaned-keys');
  const keptItem = dialog.locator(`[data-entry="${kept}"]`);
  const junkItem = dialog.locator(`[data-entry="${junk}"]`);
  await expect(keptItem).toContainText(readOnly.apiKey.slice(0, 4));
  await expect(junkItem).toContainText('Junk');
  await screenshot(page, 'orphaned-keys');

  await junkItem.getByTestId('orphan-delete').click();
  await expect(junkItem).toHaveCount(0);
  expect(await keytar.getPassword(KEYCHAIN_SERVICE, `${installId()}/${junk}`)).toBeNull();

  await keptItem.getByTestId('orphan-reattach').click();
  await keptItem.getByTestId('orphan-name').fill('Read-only');
  await keptItem.getByTestId('orphan-baseUrl').fill(world().baseUrl);
  await keptItem.getByTestId('orphan-streamUrl').fill(world().streamUrl);
  await keptItem.getByTestId('orphan-save').click();
  await expect(keptItem).toHaveCount(0);
  const bridge = await api(page);
  const profiles = await bridge.evaluate((spotfolio) => spotfolio.profiles.list());
  expect(profiles.find((p) => p.id === kept)).toMatchObject({
    name: 'Read-only',
    canTrade: false,
  });
  // The entry is the profile's now, not a new one beside it.
  const entries = await keytar.findCredentials(KEYCHAIN_SERVICE);
  expect(entries.filter((e) => e.password.includes(readOnly.apiKey)).map((e) => e.account)).toEqual(
    [account(kept)],
  );
});
