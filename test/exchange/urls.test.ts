/**
 * Keys and signed requests never travel unencrypted: the REST base URL must be https: and the
 * stream URL wss:, except to this machine (127.0.0.0/8, ::1, localhost).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../electron/exchange/client';
import { ExchangeError } from '../../electron/exchange/errors';
import { StreamClient } from '../../electron/exchange/stream';
import { isLoopbackHost } from '../../electron/exchange/urls';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
});

function refusal(make: () => unknown): ExchangeError {
  try {
    const made = make() as { close(): Promise<void> };
    opened.push(made);
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error('expected the address to be refused');
}

const LOOPBACK_HTTP = [
  'http://127.0.0.1:8080',
  'http://127.255.3.4/sapi',
  'http://127.1:9000',
  'http://localhost:3000',
  'http://LOCALHOST',
  'http://[::1]:8443',
];
const REMOTE_HTTP = [
  'http://example.com',
  'http://10.0.0.7:8080',
  'http://128.0.0.1',
  'http://[::2]',
  'http://localhost.example.com',
  'http://127.0.0.1.example.com',
];

describe('loopback hosts', () => {
  it('are 127.0.0.0/8, ::1 and localhost, nothing else', () => {
    for (const host of ['127.0.0.1', '127.0.0.255', '127.200.1.1', 'localhost', '[::1]']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['128.0.0.1', '10.0.0.1', '[::2]', 'example.com', 'localhost.example']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('ExchangeClient base URL', () => {
  it.each(REMOTE_HTTP)('refuses plain http to %s at construction, naming baseUrl', (baseUrl) => {
    const error = refusal(() => new ExchangeClient({ baseUrl }));
    expect(error.kind).toBe('invalid-input');
    expect(error.field).toBe('baseUrl');
    expect(error.message).toMatch(/https:/);
  });

  it.each(['ftp://example.com', 'ws://127.0.0.1:1', 'not a url'])('refuses %s', (baseUrl) => {
    expect(refusal(() => new ExchangeClient({ baseUrl })).field).toBe('baseUrl');
  });

  it.each([...LOOPBACK_HTTP, 'https://example.com', 'https://10.0.0.7:8443/api'])(
    'accepts %s',
    (baseUrl) => {
      const client = new ExchangeClient({ baseUrl, rateLimits: false });
      opened.push(client);
      expect(client.clockOffsetMs).toBe(0);
    },
  );
});

describe('StreamClient stream URL', () => {
  it.each(REMOTE_HTTP.map((url) => url.replace('http:', 'ws:')))(
    'refuses plain ws to %s at construction, naming streamUrl',
    (streamUrl) => {
      const error = refusal(() => new StreamClient({ streamUrl }));
      expect(error.kind).toBe('invalid-input');
      expect(error.field).toBe('streamUrl');
      expect(error.message).toMatch(/wss:/);
    },
  );

  it.each(['https://example.com/ws', 'http://127.0.0.1:1/ws'])('refuses %s', (streamUrl) => {
    expect(refusal(() => new StreamClient({ streamUrl })).field).toBe('streamUrl');
  });

  it.each([...LOOPBACK_HTTP.map((url) => url.replace('http:', 'ws:')), 'wss://example.com/ws'])(
    'accepts %s',
    (streamUrl) => {
      const streams = new StreamClient({ streamUrl });
      opened.push(streams);
      expect(streams.connectionState).toBe('offline');
    },
  );
});
