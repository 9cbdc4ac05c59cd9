/**
 * The stream URL is checked like the key: onboarding connects to the private stream and
 * subscribes with an auth token before anything is saved. The app tells the REST interface and
 * the stream apart ("REST ok, stream offline", not "the exchange cannot be reached" while
 * balances refresh), and a profile's name and addresses can be edited, checked again first.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import { expect, test } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { goTo, screenshot, startStack, tradingKey, type Stack } from './support/stack';

let stack: Stack;
/** A TCP relay to the sandbox's stream port: closing it takes the stream away, not REST. */
let relay: Server;
const relayed = new Set<Socket>();
let relayUrl: string;

test.beforeAll(async () => {
  stack = await startStack();
  const target = new URL(stack.world.streamUrl);
  relay = createServer((socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    relayed.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    const drop = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((done) => relay.listen(0, '127.0.0.1', done));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('No port bound');
  relayUrl = `ws://127.0.0.1:${address.port}${target.pathname}`;
});
test.afterAll(async () => {
  for (const socket of relayed) socket.destroy();
  await new Promise<void>((done) => (relay ? relay.close(() => done()) : done()));
  await stack?.close();
});

test('a wrong stream URL is refused, stream and REST are told apart, and URLs can be edited', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(stack.url);
  await page.goto(`${stack.url.split('#')[0]}#/onboarding`);
  await expect(page.getByTestId('screen-onboarding')).toBeVisible();
  const key = tradingKey(stack);
  const wrongStream = `${stack.world.streamUrl.replace(/\/ws$/, '')}/not-the-stream`;
  await page.getByTestId('profile-name').fill('Wrong stream');
  await page.getByTestId('profile-apiKey').fill(key.apiKey);
  await page.getByTestId('profile-secretKey').fill(key.secretKey);
  await page.getByTestId('profile-baseUrl').fill(stack.world.baseUrl);
  await page.getByTestId('profile-streamUrl').fill(wrongStream);
  await page.getByTestId('profile-submit').click();
  // Refused, naming the stream URL, and nothing saved.
  await expect(page.getByTestId('profile-streamUrl')).toHaveAttribute('aria-invalid', 'true', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('profile-form')).toContainText(/stream/i);
  await expect(page.getByTestId('profile-added')).toHaveCount(0);
  const names = await page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    return (await api.profiles.list()).map((p) => p.name);
  });
  expect(names).not.toContain('Wrong stream');

  // Through the relay the stream answers: the key and the stream are verified and saved.
  await page.getByTestId('profile-name').fill('Main');
  await page.getByTestId('profile-streamUrl').fill(relayUrl);
  await page.getByTestId('profile-submit').click();
  await expect(page.getByTestId('profile-added')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('onboarding-continue').click();
  await expect(page.getByTestId('active-profile')).toHaveText('Main');
  const state = page.getByTestId('connection-state');
  await expect(state).toHaveAttribute('data-state', 'live', { timeout: 20_000 });

  // The stream goes away, REST stays: the status says which, and no "cannot be reached".
  for (const socket of relayed) socket.destroy();
  await new Promise<void>((done) => relay.close(() => done()));
  await goTo(page, 'portfolio');
  await expect(state).toHaveAttribute('data-state', /offline|reconnecting/, { timeout: 30_000 });
  await expect(state).toHaveAttribute('data-rest', 'ok', { timeout: 30_000 });
  await expect(state).toContainText(/REST ok/);
  await expect(state).toContainText(/stream (offline|reconnecting)/i);
  await expect(page.getByText('the exchange cannot be reached', { exact: false })).toHaveCount(0);
  await expect(page.getByTestId('stream-banner')).toContainText(/stream/i);
  await screenshot(page, 'stream-offline');

  // Edit the profile: a wrong stream URL is refused again, the right one is checked and saved.
  await goTo(page, 'settings');
  const row = page.getByTestId('profile-Main');
  await row.getByTestId('profile-edit').click();
  const editor = page.getByTestId('profile-editor');
  await editor.getByTestId('profile-streamUrl').fill(wrongStream);
  await editor.getByTestId('profile-save').click();
  await expect(editor.getByTestId('profile-streamUrl')).toHaveAttribute('aria-invalid', 'true', {
    timeout: 30_000,
  });
  await editor.getByTestId('profile-name').fill('Main trading');
  await editor.getByTestId('profile-streamUrl').fill(stack.world.streamUrl);
  await editor.getByTestId('profile-save').click();
  await expect(editor).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('profile-Main trading')).toContainText(stack.world.streamUrl);
  await expect(page.getByTestId('active-profile')).toHaveText('Main trading');
  await expect(state).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
});
