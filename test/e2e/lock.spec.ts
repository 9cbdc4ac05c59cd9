import { expect, test, type Page } from '@playwright/test';
import keytar from 'keytar';
import { isSealed, KEYCHAIN_SERVICE } from '../../electron/secrets';
import { LOCK_RESET_EXPLANATION } from '../../shared/lock';
import {
  goTo,
  openWithSandboxProfile,
  screenshot,
  startStack,
  tradingKey,
  type Stack,
} from './support/stack';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack();
});
test.afterAll(async () => {
  await stack?.close();
});

/** Calls data methods from the page, as a script injected into it would, and returns each outcome. */
function callDataMethods(page: Page) {
  return page.evaluate(async () => {
    const api = (
      window as unknown as { spotfolio: import('../../shared/contract').SpotfolioBridge }
    ).spotfolio;
    const calls: [string, () => Promise<unknown>][] = [
      ['funds.list', () => api.funds.list()],
      ['portfolio.summary', () => api.portfolio.summary()],
      ['orders.open', () => api.orders.open({})],
      ['withdrawals.list', () => api.withdrawals.list({})],
      ['deposits.coins', () => api.deposits.coins()],
      ['activity.feed', () => api.activity.feed({})],
      ['app.status', () => api.app.status()],
    ];
    const outcomes: Record<string, string> = {};
    for (const [name, call] of calls) {
      try {
        await call();
        outcomes[name] = 'answered';
      } catch (error) {
        outcomes[name] = String((error as { kind?: unknown }).kind);
      }
    }
    return outcomes;
  });
}

test('sets a password, locks, is refused data while locked, unlocks after a wrong try', async ({
  page,
}) => {
  await openWithSandboxProfile(page, stack);
  await expect(page.getByTestId('portfolio-total')).toContainText(/\d/);
  await expect(page.getByTestId('lock-now')).toHaveCount(0);

  await goTo(page, 'settings');
  await page.getByTestId('lock-set-password').click();
  await page.getByTestId('lock-new').fill('blue harbour 77');
  await page.getByTestId('lock-repeat').fill('blue harbour 76');
  await page.getByTestId('lock-save').click();
  await expect(page.getByTestId('lock-settings-error')).toContainText('differ');
  await page.getByTestId('lock-repeat').fill('blue harbour 77');
  await page.getByTestId('lock-save').click();
  await expect(page.getByTestId('lock-settings-done')).toContainText('The password is set');
  await expect(page.getByTestId('lock-sealed-note')).toContainText(
    'Your API keys are sealed with this password',
  );
  await page.getByTestId('lock-idle').selectOption('5');
  await expect(page.getByTestId('lock-idle')).toHaveValue('5');
  await screenshot(page, 'lock-settings');

  // Unlocked, the page's own calls are answered.
  expect(Object.values(await callDataMethods(page))).not.toContain('locked');

  await page.getByTestId('lock-now').click();
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await expect(page.getByTestId('portfolio-total')).toHaveCount(0);
  await expect(page.getByTestId('screen-settings')).toHaveCount(0);

  // The main process refuses every data call while locked, whoever makes it.
  expect(await callDataMethods(page)).toEqual({
    'funds.list': 'locked',
    'portfolio.summary': 'locked',
    'orders.open': 'locked',
    'withdrawals.list': 'locked',
    'deposits.coins': 'locked',
    'activity.feed': 'locked',
    'app.status': 'locked',
  });
  // A reload is no way around it.
  await page.reload();
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await expect(page.getByTestId('nav-portfolio')).toHaveCount(0);

  await page.getByTestId('lock-password').fill('blue harbour 78');
  await page.getByTestId('lock-submit').click();
  await expect(page.getByTestId('lock-message')).toHaveText('That password is not right.');
  await expect(page.getByTestId('lock-attempts')).toHaveText('1 wrong password.');
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await screenshot(page, 'lock-screen');

  // Forgotten password: what a reset removes and keeps is said before anything happens.
  await page.getByTestId('lock-forgot').click();
  await expect(page.getByTestId('lock-reset-explanation')).toHaveText(LOCK_RESET_EXPLANATION);
  await expect(page.getByTestId('lock-reset-explanation')).toContainText(
    'deletes them from the system keychain',
  );
  await page.getByTestId('lock-reset-back').click();

  await page.getByTestId('lock-password').fill('blue harbour 77');
  await page.getByTestId('lock-submit').click();
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);
  await expect(page.getByTestId('screen-settings')).toBeVisible();
  await goTo(page, 'portfolio');
  await expect(page.getByTestId('portfolio-total')).toContainText(/\d/);
  expect(Object.values(await callDataMethods(page))).not.toContain('locked');
  const status = await page.evaluate(() =>
    (
      window as unknown as { spotfolio: import('../../shared/contract').SpotfolioBridge }
    ).spotfolio.lock.status(),
  );
  expect(status).toMatchObject({ enabled: true, locked: false, idleMinutes: 5, failedAttempts: 0 });
});

test('the keys are sealed in the keychain, and a reset without the password leaves none to re-attach', async ({
  page,
}) => {
  // The first journey left a password set and the app unlocked.
  await page.goto(stack.url);
  await expect(page.getByTestId('active-profile')).toContainText('Sandbox');
  const profileId = await page.evaluate(async () => {
    const api = (
      window as unknown as { spotfolio: import('../../shared/contract').SpotfolioBridge }
    ).spotfolio;
    return (await api.profiles.list()).find((p) => p.active)!.id;
  });
  // What the keychain itself holds for the profile (this run's private keyring) is not the secret.
  const key = tradingKey(stack);
  const entries = (await keytar.findCredentials(KEYCHAIN_SERVICE)).filter((e) =>
    e.account.endsWith(`/${profileId}`),
  );
  expect(entries).toHaveLength(1);
  expect(isSealed(entries[0]!.password)).toBe(true);
  expect(entries[0]!.password).not.toContain(key.secretKey);
  expect(entries[0]!.password).not.toContain(key.apiKey);

  await page.getByTestId('lock-now').click();
  await expect(page.getByTestId('lock-screen')).toBeVisible();
  await page.getByTestId('lock-forgot').click();
  await expect(page.getByTestId('lock-reset-explanation')).toContainText(
    'you will enter your API keys again',
  );
  await page.getByTestId('lock-reset-confirm').click();
  await expect(page.getByTestId('lock-screen')).toHaveCount(0);

  // The probe's walk-around: nothing is offered back, and no profile that trades can be made.
  const after = await page.evaluate(
    async ({ id, baseUrl, streamUrl }) => {
      const api = (
        window as unknown as { spotfolio: import('../../shared/contract').SpotfolioBridge }
      ).spotfolio;
      const orphans = await api.profiles.orphanedKeys();
      const reattach = await api.profiles
        .reattachKey({ id, name: 'Taken', baseUrl, streamUrl })
        .then(
          (profile) => ({ made: profile.canTrade }),
          (error: { kind?: string }) => ({ refused: error.kind }),
        );
      return {
        orphans,
        reattach,
        profiles: await api.profiles.list(),
        lock: await api.lock.status(),
      };
    },
    { id: profileId, baseUrl: stack.world.baseUrl, streamUrl: stack.world.streamUrl },
  );
  expect(after).toEqual({
    orphans: [],
    reattach: { refused: 'not-found' },
    profiles: [],
    lock: expect.objectContaining({ enabled: false, locked: false }),
  });
  expect(
    (await keytar.findCredentials(KEYCHAIN_SERVICE)).filter((e) =>
      e.account.endsWith(`/${profileId}`),
    ),
  ).toEqual([]);
});
