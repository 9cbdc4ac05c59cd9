import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserMode, type BrowserModeHost } from '../../electron/serve/host';
import {
  bridgeUrl,
  createWsTransport,
  type SocketLike,
} from '../../renderer/src/bridge/ws-transport';
import { BridgeCallError, bridgeProtocols, createBridge } from '../../shared/bridge-client';
import {
  maxCallBytes,
  type BridgeHandlers,
  type EventName,
  type EventPayloads,
} from '../../shared/contract';

type Listener = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

describe('renderer WebSocket transport against the real host', () => {
  const listeners = new Set<Listener>();
  let dir: string;
  let host: BrowserModeHost;
  const handlers = {
    'app.status': async () => ({ version: 'test' }),
    'market.klines': async (input: unknown) => input,
  } as unknown as BridgeHandlers;

  const socketFor = (port: number) => (url: string, protocols: string[]) =>
    new WebSocket(url, protocols, {
      origin: `http://127.0.0.1:${port}`,
    }) as unknown as SocketLike;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spotfolio-transport-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    host = await startBrowserMode({
      app: {
        handlers,
        onEvent: (listener) => {
          listeners.add(listener);
          return () => void listeners.delete(listener);
        },
      },
      rendererDir: dir,
    });
  });

  afterAll(async () => {
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const url = () => bridgeUrl({ protocol: 'http:', host: `127.0.0.1:${host.port}` });
  const options = () => ({ url: url(), token: host.token, createSocket: socketFor(host.port) });

  it('builds the bridge address from the page address, with no token in it', () => {
    expect(bridgeUrl({ protocol: 'http:', host: '127.0.0.1:5' })).toBe('ws://127.0.0.1:5/bridge');
    expect(bridgeUrl({ protocol: 'http:', host: 'localhost:5' })).toBe('ws://localhost:5/bridge');
  });

  it('offers the token in the handshake and is refused with a wrong one', async () => {
    const offered: string[][] = [];
    const recording = (target: string, protocols: string[]) => {
      offered.push(protocols);
      return socketFor(host.port)(target, protocols);
    };
    const transport = createWsTransport({ ...options(), createSocket: recording });
    expect(await transport.call('app.status', {})).toEqual({
      ok: true,
      value: { version: 'test' },
    });
    expect(offered).toEqual([bridgeProtocols(host.token)]);
    transport.close();

    // A wrong token never opens the socket, so the call is not sent (and not answered).
    const wrong = createWsTransport({
      ...options(),
      token: 'f'.repeat(64),
      reconnectDelay: { min: 5, max: 5 },
    });
    const outcome = await Promise.race([
      wrong.call('app.status', {}),
      new Promise((resolve) => setTimeout(() => resolve('no answer'), 300)),
    ]);
    expect(outcome).toBe('no answer');
    wrong.close();
  });

  it('round-trips calls, typed errors and events through createBridge', async () => {
    const transport = createWsTransport(options());
    const bridge = createBridge(transport);
    const [status, klines] = await Promise.all([
      bridge.app.status(),
      bridge.market.klines({ symbol: 'ETHUSDT', interval: '5m', limit: 3 }),
    ]);
    expect(status).toEqual({ version: 'test' });
    expect(klines).toEqual({ symbol: 'ethusdt', interval: '5m', limit: 3 });
    const error = await bridge.market
      .klines({ symbol: 'ethusdt', interval: '7m' as '5m' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeCallError);
    expect(error).toMatchObject({ kind: 'invalid-input', field: 'interval' });

    const received = new Promise((resolve) => bridge.on('notification', resolve));
    // Subscribing opened the socket already; wait until the host sees it before emitting.
    await bridge.app.status();
    const note = {
      id: 1,
      kind: 'fill',
      title: 'Filled',
      body: '1 BTC',
      time: 5,
      read: false,
    } as const;
    for (const listener of listeners) listener('notification', note);
    expect(await received).toEqual(note);
    transport.close();
  });

  it('refuses an oversized call locally without losing the connection', async () => {
    const transport = createWsTransport(options());
    const bridge = createBridge(transport);
    const error = await bridge.profiles
      .add({
        name: 'x'.repeat(maxCallBytes),
        apiKey: 'k',
        secretKey: 's',
        baseUrl: 'https://a',
        streamUrl: 'wss://a',
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid-input' });
    expect(await bridge.app.status()).toEqual({ version: 'test' });
    transport.close();
  });

  it('fails pending and later calls with kind network after close', async () => {
    const transport = createWsTransport(options());
    const pending = transport.call('app.status', {});
    transport.close();
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(await transport.call('app.status', {})).toMatchObject({
      ok: false,
      error: { kind: 'network' },
    });
  });
});
