/**
 * Browser mode's token reaches no other service on 127.0.0.1. Cookies ignore ports, so a token
 * kept in one would be sent to every local server the browser talks to; the token lives in the
 * page instead. A second HTTP server on another port records every request Chromium sends it
 * while the app is in use (a link followed from the app, the server opened directly, a fetch
 * from its own page with credentials) and none carries the token, in any header or URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { SpotfolioBridge } from '../../shared/contract';
import { startBrowserMode, type StartedChild } from './support/child';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

let app: StartedChild<string>;
let dataDir: string;
let other: Server;
let otherBase: string;
const seen: Seen[] = [];

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-e2e-token-'));
  app = await startBrowserMode(dataDir);
  other = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/direct') {
      // Its own page asks it for more, credentials included, as a local web app would.
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end(
        `<!doctype html><title>other</title><script>fetch('/fetched', { credentials: 'include' }).then(() => { document.title = 'fetched'; });</script>`,
      );
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('other service');
  });
  await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
  const address = other.address();
  if (address === null || typeof address === 'string') throw new Error('No port bound');
  otherBase = `http://127.0.0.1:${address.port}`;
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise<void>((done) => (other ? other.close(() => done()) : done()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function appStatus(page: import('@playwright/test').Page) {
  await page.waitForFunction(() => 'spotfolio' in window, undefined, { polling: 100 });
  return page.evaluate(async () => {
    const api = (window as unknown as { spotfolio: SpotfolioBridge }).spotfolio;
    try {
      return { ok: true as const, mode: (await api.app.status()).mode };
    } catch (error) {
      return { ok: false as const, kind: (error as { kind?: string }).kind };
    }
  });
}

test('a second local server receives no token while the app is used in Chromium', async ({
  context,
  page,
}) => {
  const url = app.value;
  const token = /#token=([0-9a-f]{64})$/.exec(url)?.[1];
  expect(token, `the printed address ${url} carries the token in its fragment`).toBeDefined();
  const appBase = url.slice(0, url.indexOf('#'));

  await page.goto(url);
  expect(await appStatus(page)).toEqual({ ok: true, mode: 'browser' });
  // The token left the address bar, and no cookie exists for any address.
  expect(page.url()).not.toContain(token!);
  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => document.cookie)).toBe('');

  // A link followed from the app to the other service.
  await page.evaluate((target) => void (window.location.href = target), `${otherBase}/from-app`);
  await page.waitForURL(`${otherBase}/from-app`);

  // The other service opened directly in the same browser, fetching from itself.
  const direct = await context.newPage();
  await direct.goto(`${otherBase}/direct`);
  await expect(direct).toHaveTitle('fetched');

  // Back in the app's tab, a reload of the app (no token in the address) still works: the tab
  // kept the token for this origin. A new tab without the token gets nothing.
  await page.goto(appBase);
  expect(await appStatus(page)).toEqual({ ok: true, mode: 'browser' });
  const stranger = await context.newPage();
  await stranger.goto(appBase);
  expect(await appStatus(stranger)).toEqual({ ok: false, kind: 'auth' });
  expect(await context.cookies()).toEqual([]);

  const paths = seen.map((request) => request.url);
  expect(paths).toEqual(expect.arrayContaining(['/from-app', '/direct', '/fetched']));
  for (const request of seen) {
    expect(request.headers.cookie, request.url).toBeUndefined();
    expect(request.url).not.toContain(token!);
    for (const [name, value] of Object.entries(request.headers)) {
      expect(String(value), `${request.url} header ${name}`).not.toContain(token!);
    }
  }
  // The app sends no Referer, so the other service does not even learn the app's address.
  expect(seen.find((request) => request.url === '/from-app')?.headers.referer).toBeUndefined();
});
