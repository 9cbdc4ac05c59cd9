/**
 * The host listening before the app has started (browser mode starts both at once): the page is
 * served meanwhile, calls wait for the app, a failed start answers 'internal' without details,
 * and the host says when a page has its files (the command starts the app after that).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserMode, type HostedApp } from '../../electron/serve/host';
import type { BridgeHandlers } from '../../shared/contract';
import { bridgeProtocols, type WireServerMessage } from '../../shared/bridge-client';

let rendererDir: string;

beforeAll(() => {
  rendererDir = mkdtempSync(join(tmpdir(), 'spotfolio-serve-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Spotfolio</title>');
});

afterAll(() => rmSync(rendererDir, { recursive: true, force: true }));

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function page(port: number, path = '/'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host: `127.0.0.1:${port}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function body(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/', headers: { host: `127.0.0.1:${port}` } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function call(port: number, token: string, method: string): Promise<WireServerMessage> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, bridgeProtocols(token), {
    origin: `http://127.0.0.1:${port}`,
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const reply = new Promise<WireServerMessage>((resolve) =>
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as WireServerMessage;
      if ('id' in message) resolve(message);
    }),
  );
  ws.send(JSON.stringify({ id: 1, method, input: {} }));
  try {
    return await reply;
  } finally {
    ws.close();
  }
}

const status = { version: 'test', mode: 'browser' };
const handlers = { 'app.status': async () => status } as unknown as BridgeHandlers;
const noEvents: HostedApp['onEvent'] = () => () => undefined;

describe('a host whose app is still starting', () => {
  it('serves the page at once and answers calls once the app is there', async () => {
    const app = deferred<HostedApp>();
    const host = await startBrowserMode({ app: app.promise, rendererDir });
    try {
      expect(await page(host.port)).toBe(200);
      const answer = call(host.port, host.token, 'app.status');
      let answered = false;
      void answer.then(() => (answered = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
      app.resolve({ handlers, onEvent: noEvents });
      expect(await answer).toEqual({ id: 1, outcome: { ok: true, value: status } });
    } finally {
      await host.close();
    }
  });

  it("answers 'internal' when the app fails to start, without the reason", async () => {
    const app = deferred<HostedApp>();
    const host = await startBrowserMode({ app: app.promise, rendererDir });
    try {
      app.reject(new Error('/home/ann/secret path: database is locked'));
      const reply = await call(host.port, host.token, 'app.status');
      expect(reply).toMatchObject({ id: 1, outcome: { ok: false, error: { kind: 'internal' } } });
      expect(JSON.stringify(reply)).not.toContain('secret path');
    } finally {
      await host.close();
    }
  });

  it('says when a page has been sent index.html and the files it names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotfolio-serve-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(
      join(dir, 'index.html'),
      '<link rel="icon" href="data:,"><script type="module" src="./assets/a.js"></script>' +
        '<link rel="stylesheet" href="/assets/a.css">',
    );
    writeFileSync(join(dir, 'assets', 'a.js'), 'export {};');
    writeFileSync(join(dir, 'assets', 'a.css'), 'body {}');
    const host = await startBrowserMode({ app: deferred<HostedApp>().promise, rendererDir: dir });
    let loaded = false;
    void host.pageLoaded.then(() => (loaded = true));
    try {
      expect(await page(host.port)).toBe(200);
      expect(await page(host.port, '/assets/a.js')).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(loaded).toBe(false);
      expect(await page(host.port, '/assets/a.css')).toBe(200);
      await host.pageLoaded;
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves a read-ahead file from disk once it has changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spotfolio-serve-'));
    writeFileSync(join(dir, 'index.html'), '<title>old</title>');
    const host = await startBrowserMode({ app: deferred<HostedApp>().promise, rendererDir: dir });
    try {
      await body(host.port); // read ahead by now
      writeFileSync(join(dir, 'index.html'), '<title>new build</title>');
      expect(await body(host.port)).toBe('<title>new build</title>');
    } finally {
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
