/**
 * The exchange moved to another port under the app: once its old address has refused every
 * connection for a while, the app says nothing answers there, that the exchange may be stopped or
 * moved, and links to the profile's editor; a new address is checked with the exchange before it
 * is saved (one where nothing answers is refused and nothing changes), and with the right one the
 * app is live again. Meanwhile no badge claims to be live: Activity's feed says it is paused.
 */
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { startAdminStack, type AdminStack } from './support/admin-stack';
import { goTo, openWithSandboxProfile } from './support/stack';

let stack: AdminStack;
test.beforeAll(async () => {
  stack = await startAdminStack();
});
test.afterAll(async () => {
  await stack?.close();
});

/** A loopback port where nothing listens. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

test('a moved exchange is named, and its new address is checked before it is saved', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await openWithSandboxProfile(page, stack);
  const badge = page.getByTestId('connection-state');
  await expect(badge).toHaveAttribute('data-kind', 'live', { timeout: 30_000 });
  const oldBaseUrl = stack.world.baseUrl;

  const moved = await stack.moveSandbox();
  const banner = page.getByTestId('address-refused');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toContainText(`Nothing answers at ${oldBaseUrl}`);
  await expect(banner).toContainText('its address may have changed');
  await expect(badge).toHaveAttribute('data-kind', 'refused');
  await expect(badge).toContainText('Offline');
  // Said once: the screen's own banner keeps to the data's age, without waiting "by itself".
  const stale = page.getByTestId('stale-banner');
  await expect(stale).toContainText('Showing cached data from');
  await expect(stale).not.toContainText('refreshes by itself');
  await expect(page.getByText('cannot be reached', { exact: false })).toHaveCount(0);
  // Activity's feed is the stream's: it does not claim to be live while the stream is gone.
  await goTo(page, 'activity');
  await expect(page.getByTestId('feed-state')).toContainText('paused');
  await expect(page.getByTestId('feed-state')).not.toHaveAttribute('data-state', 'live');

  await banner.getByTestId('edit-exchange-address').click();
  await page.getByTestId('screen-settings').waitFor();
  const editor = page.getByTestId('profile-editor');
  await expect(editor.getByTestId('profile-baseUrl')).toHaveValue(oldBaseUrl);

  // An address where nothing answers either: refused after the check, nothing saved.
  const dead = await deadPort();
  await editor.getByTestId('profile-baseUrl').fill(`http://127.0.0.1:${dead}`);
  await editor.getByTestId('profile-streamUrl').fill(`ws://127.0.0.1:${dead}/ws`);
  await editor.getByTestId('profile-save').click();
  await expect(editor.getByTestId('profile-error')).toContainText(
    "Nothing answers at the exchange's address: the connection was refused.",
  );
  await expect(page.getByTestId('profiles')).toContainText(oldBaseUrl);

  await editor.getByTestId('profile-baseUrl').fill(moved.baseUrl);
  await editor.getByTestId('profile-streamUrl').fill(moved.streamUrl);
  await editor.getByTestId('profile-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Saved Sandbox' })).toBeVisible();
  await expect(page.getByTestId('profiles')).toContainText(moved.baseUrl);
  await expect(badge).toHaveAttribute('data-kind', 'live', { timeout: 30_000 });
  await expect(page.getByTestId('address-refused')).toHaveCount(0);
  await goTo(page, 'activity');
  await expect(page.getByTestId('feed-state')).toHaveText('live');
});
