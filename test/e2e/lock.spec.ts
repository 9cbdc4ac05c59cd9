import { expect, test, type Page } from '@playwright/test';
import { LOCK_RESET_EXPLANATION } from '../../shared/lock';
import { goTo, openWithSandboxProfile, screenshot, startStack, type Stack } from './support/stack';

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
    'Your API keys stay in the system keychain',
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
