import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import type { BridgeHandlers, EventName, EventPayloads } from '../../shared/contract';
import {
  bridgeProtocol,
  bridgeProtocols,
  maxCallBytes,
  type WireServerMessage,
} from '../../shared/bridge-client';

type Listener = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

/** A tiny app: real handlers for a few methods, and an event source the test drives. */
function tinyApp() {
  const listeners = new Set<Listener>();
  let release: () => void = () => undefined;
  let blocked: Promise<void> | null = null;
  const handlers = {
    'app.status': async () => ({ version: 'test', mode: 'browser' }),
    'market.klines': async (input: { symbol: string; limit: number }) => [input],
    'funds.list': async () => {
      if (blocked) await blocked;
      return { rows: [] };
    },
  } as unknown as BridgeHandlers;
  return {
    app: {
      handlers,
      onEvent(listener: Listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
    emit<E extends EventName>(event: E, payload: EventPayloads[E]) {
      for (const listener of listeners) listener(event, payload);
    },
    listenerCount: () => listeners.size,
    /** funds.list waits until the returned function is called. */
    block() {
      blocked = new Promise((done) => (release = done));
      return () => {
        blocked = null;
        release();
      };
    },
  };
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sends a raw request line so the path reaches the server exactly as written. */
function rawGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** A WebSocket handshake with our Origin and Host but no token, read back raw. */
function rawUpgrade(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        [
          'GET /bridge HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          `Origin: http://127.0.0.1:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          `Sec-WebSocket-Protocol: ${bridgeProtocol}`,
          '',
          '',
        ].join('\r\n'),
      );
    });
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/**
 * A non-browser client: it sets any Origin and Host it likes. The token goes where the page puts
 * it (a subprotocol value) unless `protocols` says otherwise; `path` and `headers` let a test try
 * the query string or a cookie instead.
 */
function openSocket(
  port: number,
  options: {
    token?: string;
    origin?: string;
    host?: string;
    protocols?: string[];
    path?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<WebSocket> {
  const protocols =
    options.protocols ?? (options.token === undefined ? [] : bridgeProtocols(options.token));
  const ws = new WebSocket(`ws://127.0.0.1:${port}${options.path ?? '/bridge'}`, protocols, {
    origin: options.origin ?? `http://127.0.0.1:${port}`,
    headers: { host: options.host ?? `127.0.0.1:${port}`, ...options.headers },
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`refused with ${res.statusCode}`)),
    );
    ws.once('error', reject);
  });
}

/** Collects every message of a socket; `next` waits for one matching a predicate. */
function inbox(ws: WebSocket) {
  const messages: WireServerMessage[] = [];
  const waiters: {
    match: (m: WireServerMessage) => boolean;
    done: (m: WireServerMessage) => void;
  }[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as WireServerMessage;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.done(message);
      }
    }
  });
  return {
    messages,
    next(match: (m: WireServerMessage) => boolean): Promise<WireServerMessage> {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((done) => waiters.push({ match, done }));
    },
    reply(id: number | null) {
      return this.next((m) => 'id' in m && m.id === id);
    },
  };
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

describe('browser mode host', () => {
  let rendererDir: string;
  let outside: string;
  let tiny: ReturnType<typeof tinyApp>;
  let host: BrowserModeHost;

  beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), 'spotfolio-serve-'));
    rendererDir = join(base, 'renderer');
    outside = join(base, 'secret.txt');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Spotfolio</title>');
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(outside, 'top secret');
    symlinkSync(outside, join(rendererDir, 'assets', 'link.txt'));
    tiny = tinyApp();
    host = await startBrowserMode({
      app: tiny.app,
      rendererDir,
      port: 0,
      limits: { maxPendingPerConnection: 12 },
    });
  });

  afterAll(async () => {
    await host.close();
    rmSync(join(rendererDir, '..'), { recursive: true, force: true });
  });

  it('prints a loopback URL with a 64-hex-digit token in the fragment, which no server sees', () => {
    expect(host.token).toMatch(/^[0-9a-f]{64}$/);
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
  });

  it('refuses to bind anything but 127.0.0.1', async () => {
    for (const address of ['0.0.0.0', '::', '192.168.1.10', 'localhost']) {
      await expect(
        startBrowserMode({
          app: tiny.app,
          rendererDir,
          host: address as '127.0.0.1',
        }),
      ).rejects.toThrow(/127\.0\.0\.1 only/);
    }
  });

  it('serves the page without a token, with security headers and no cookie', async () => {
    const res = await get(host.port, '/');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Spotfolio</title>');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`ws://127.0.0.1:${host.port}`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['set-cookie']).toBeUndefined();
    // An old-style address with the token in the query sets no cookie either.
    const withQuery = await get(host.port, `/?token=${host.token}`);
    expect(withQuery.status).toBe(200);
    expect(withQuery.headers['set-cookie']).toBeUndefined();
  });

  it("serves the built renderer's assets without a token", async () => {
    const res = await get(host.port, '/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toBe('console.log(1)');
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    for (const foreign of ['evil.example', `evil.example:${host.port}`, '127.0.0.1:1']) {
      const res = await get(host.port, '/', { host: foreign });
      expect(res.status).toBe(403);
    }
    const viaLocalhost = await get(host.port, '/', {
      host: `localhost:${host.port}`,
    });
    expect(viaLocalhost.status).toBe(200);
  });

  it('refuses a foreign Origin and anything but GET/HEAD', async () => {
    const foreign = await get(host.port, '/', {
      origin: 'http://evil.example',
    });
    expect(foreign.status).toBe(403);
    const crossSite = await get(host.port, '/', {
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    const post = await get(host.port, '/', { origin: `http://127.0.0.1:${host.port}` }, 'POST');
    expect(post.status).toBe(405);
  });

  it('guards against path traversal', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/link.txt',
      '/%00index.html',
      '/%E0%A4%A',
    ]) {
      const text = await rawGet(host.port, path);
      expect(text, path).not.toContain('top secret');
      expect(text, path).toMatch(/^HTTP\/1\.1 (400|403|404)/);
    }
  });

  it('answers calls over the WebSocket with the token and our Origin', async () => {
    const ws = await openSocket(host.port, { token: host.token });
    // The handshake's answer names the bridge's protocol, never the token offered beside it.
    expect(ws.protocol).toBe(bridgeProtocol);
    const messages = inbox(ws);
    ws.send(JSON.stringify({ id: 1, method: 'app.status', input: {} }));
    expect(await messages.reply(1)).toEqual({
      id: 1,
      outcome: { ok: true, value: { version: 'test', mode: 'browser' } },
    });
    ws.send(
      JSON.stringify({
        id: 2,
        method: 'market.klines',
        input: { symbol: 'BTCUSDT', interval: '1m' },
      }),
    );
    expect(await messages.reply(2)).toEqual({
      id: 2,
      outcome: { ok: true, value: [{ symbol: 'btcusdt', interval: '1m', limit: 200 }] },
    });
    ws.send(JSON.stringify({ id: 3, method: 'market.klines', input: { interval: '1m' } }));
    expect(await messages.reply(3)).toMatchObject({
      outcome: { ok: false, error: { kind: 'invalid-input', field: 'symbol' } },
    });
    ws.close();
  });

  it('refuses a WebSocket without the token, with a wrong one, or from elsewhere', async () => {
    await expect(openSocket(host.port)).rejects.toThrow('401');
    await expect(openSocket(host.port, { token: 'a'.repeat(64) })).rejects.toThrow('401');
    await expect(openSocket(host.port, { token: host.token.slice(0, 32) })).rejects.toThrow('401');
    await expect(openSocket(host.port, { token: `${host.token}0` })).rejects.toThrow('401');
    // Two tokens offered at once: neither is taken.
    await expect(
      openSocket(host.port, {
        protocols: [...bridgeProtocols(host.token), `spotfolio.token.${'b'.repeat(64)}`],
      }),
    ).rejects.toThrow('401');
    await expect(
      openSocket(host.port, { token: host.token, origin: 'http://evil.example' }),
    ).rejects.toThrow('403');
    await expect(
      openSocket(host.port, { token: host.token, origin: `http://127.0.0.1:${host.port + 1}` }),
    ).rejects.toThrow('403');
    await expect(
      openSocket(host.port, { token: host.token, host: `evil.example:${host.port}` }),
    ).rejects.toThrow('403');
  });

  it('refuses a non-browser client that forges our Origin and Host but has no token', async () => {
    const forged = { origin: `http://127.0.0.1:${host.port}`, host: `127.0.0.1:${host.port}` };
    await expect(openSocket(host.port, forged)).rejects.toThrow('401');
    await expect(openSocket(host.port, { ...forged, protocols: [bridgeProtocol] })).rejects.toThrow(
      '401',
    );
    // The token where earlier versions took it (the query string, a cookie) opens nothing now.
    await expect(
      openSocket(host.port, { ...forged, path: `/bridge?token=${host.token}` }),
    ).rejects.toThrow('401');
    await expect(
      openSocket(host.port, {
        ...forged,
        headers: { cookie: `spotfolio_token_${host.port}=${host.token}` },
      }),
    ).rejects.toThrow('401');
    await expect(
      openSocket(host.port, {
        ...forged,
        headers: { authorization: `Bearer ${host.token}` },
      }),
    ).rejects.toThrow('401');
    // The refusal names no token and sets none.
    const refusal = await rawUpgrade(host.port);
    expect(refusal).toMatch(/^HTTP\/1\.1 401 /);
    expect(refusal).not.toContain(host.token);
    expect(refusal.toLowerCase()).not.toContain('set-cookie');
  });

  it('answers malformed messages with a typed error and keeps the connection', async () => {
    const ws = await openSocket(host.port, { token: host.token });
    const messages = inbox(ws);
    ws.send('{not json');
    expect(await messages.reply(null)).toEqual({
      id: null,
      outcome: {
        ok: false,
        error: { kind: 'invalid-input', message: 'The message is not valid JSON.' },
      },
    });
    ws.send(JSON.stringify({ id: 'x', method: 'app.status' }));
    ws.send(JSON.stringify({ id: 7, method: 12 }));
    ws.send(JSON.stringify({ id: 8, method: 'no.such', input: {} }));
    expect(await messages.reply(7)).toMatchObject({
      outcome: { error: { kind: 'invalid-input' } },
    });
    expect(await messages.reply(8)).toMatchObject({
      outcome: { error: { kind: 'invalid-input', message: 'Unknown method no.such' } },
    });
    ws.send(JSON.stringify({ id: 9, method: 'app.status', input: {} }));
    expect(await messages.reply(9)).toMatchObject({ outcome: { ok: true } });
    ws.close();
  });

  it('closes a connection that sends 10 MB with 1009 and keeps serving the others', async () => {
    const bystander = await openSocket(host.port, { token: host.token });
    const bystanderInbox = inbox(bystander);
    const flooder = await openSocket(host.port, { token: host.token });
    flooder.on('error', () => undefined);
    const code = closed(flooder);
    flooder.send(
      JSON.stringify({ id: 1, method: 'app.status', input: { pad: 'x'.repeat(10 * 1024 * 1024) } }),
    );
    expect(await code).toBe(1009);
    bystander.send(JSON.stringify({ id: 1, method: 'app.status', input: {} }));
    expect(await bystanderInbox.reply(1)).toMatchObject({ outcome: { ok: true } });
    const again = await openSocket(host.port, { token: host.token });
    const againInbox = inbox(again);
    // Just under the limit is still read (and then refused by the schema, not by size).
    const padding = 'x'.repeat(maxCallBytes - 100);
    again.send(JSON.stringify({ id: 2, method: 'app.status', input: { padding } }));
    expect(await againInbox.reply(2)).toMatchObject({
      outcome: { ok: false, error: { kind: 'invalid-input', field: 'padding' } },
    });
    bystander.close();
    again.close();
  });

  it('answers each call as it finishes: one waiting never holds up the next', async () => {
    const unblock = tiny.block();
    const ws = await openSocket(host.port, { token: host.token });
    const messages = inbox(ws);
    ws.send(JSON.stringify({ id: 1, method: 'funds.list', input: {} }));
    ws.send(JSON.stringify({ id: 2, method: 'app.status', input: {} }));
    // The second call is answered while the first still waits.
    expect(await messages.next((m) => 'id' in m)).toMatchObject({ id: 2, outcome: { ok: true } });
    unblock();
    expect(await messages.reply(1)).toEqual({ id: 1, outcome: { ok: true, value: { rows: [] } } });
    ws.close();
  });

  it('holds a flood of calls up to a limit, refuses the rest, and keeps serving', async () => {
    const unblock = tiny.block();
    const ws = await openSocket(host.port, { token: host.token });
    const messages = inbox(ws);
    const total = 50;
    for (let id = 1; id <= total; id++) {
      ws.send(JSON.stringify({ id, method: 'funds.list', input: {} }));
    }
    // 12 pending are accepted; the other 38 are refused at once.
    for (let id = 13; id <= total; id++) {
      expect(await messages.reply(id)).toMatchObject({
        outcome: { ok: false, error: { kind: 'rate-limited' } },
      });
    }
    unblock();
    for (let id = 1; id <= 12; id++) {
      expect(await messages.reply(id)).toEqual({ id, outcome: { ok: true, value: { rows: [] } } });
    }
    ws.send(JSON.stringify({ id: 99, method: 'app.status', input: {} }));
    expect(await messages.reply(99)).toMatchObject({ outcome: { ok: true } });
    ws.close();
  });

  it('forwards events to every connected page', async () => {
    const first = await openSocket(host.port, { token: host.token });
    const second = await openSocket(host.port, { token: host.token });
    const inboxes = [inbox(first), inbox(second)];
    tiny.emit('data.changed', { profileId: 'p1', kinds: ['funds'] });
    for (const messages of inboxes) {
      expect(await messages.next((m) => 'event' in m)).toEqual({
        event: 'data.changed',
        payload: { profileId: 'p1', kinds: ['funds'] },
      });
    }
    first.close();
    second.close();
  });

  it('stops listening and unsubscribes on close', async () => {
    const other = tinyApp();
    const second = await startBrowserMode({ app: other.app, rendererDir });
    expect(other.listenerCount()).toBe(1);
    const ws = await openSocket(second.port, { token: second.token });
    const code = closed(ws);
    await second.close();
    expect(await code).toBe(1001);
    expect(other.listenerCount()).toBe(0);
    await expect(get(second.port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});
