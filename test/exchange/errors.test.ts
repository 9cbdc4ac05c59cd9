import { describe, expect, it } from 'vitest';
import { errorFromResponse, retryAfterMs } from '../../electron/exchange/errors';

const base = { method: 'GET', path: '/sapi/v1/order', nowMs: 1_000_000, rawText: '' };

describe('errorFromResponse', () => {
  it.each([
    [400, 1999, 'invalid-input'],
    [400, -1121, 'invalid-input'],
    [401, 2112, 'auth'],
    [401, 2005, 'auth'],
    [400, 2098, 'auth'],
    [403, 2078, 'permission'],
    [400, 2002, 'insufficient-balance'],
    [400, 2004, 'not-found'],
    [404, 2004, 'not-found'],
    [400, 2010, 'invalid-input'],
    [400, 94001, 'invalid-input'],
    [429, 2136, 'rate-limited'],
    [418, 2137, 'banned'],
    [500, 500, 'server'],
    [503, 2004, 'server'],
  ])('HTTP %d with code %d is %s, keeping the exchange message', (status, code, kind) => {
    const error = errorFromResponse({ ...base, status, body: { code, message: 'said so' } });
    expect(error.kind).toBe(kind);
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.exchangeMessage).toBe('said so');
    expect(error.message).toContain('said so');
  });

  it('copes with other answers: unknown codes, text bodies, "msg" fields, string codes', () => {
    expect(
      errorFromResponse({ ...base, status: 400, body: { code: 777, message: 'x' } }).kind,
    ).toBe('invalid-input');
    expect(
      errorFromResponse({ ...base, status: 403, body: { code: 777, message: 'x' } }).kind,
    ).toBe('permission');
    const html = errorFromResponse({
      ...base,
      status: 502,
      body: undefined,
      rawText: '<html>Bad gateway</html>',
    });
    expect(html.kind).toBe('server');
    expect(html.exchangeMessage).toBe('<html>Bad gateway</html>');
    const msg = errorFromResponse({
      ...base,
      status: 401,
      body: { code: '2111', msg: 'API key is invalid' },
    });
    expect(msg.kind).toBe('auth');
    expect(msg.code).toBe(2111);
    expect(msg.exchangeMessage).toBe('API key is invalid');
    expect(errorFromResponse({ ...base, status: 404, body: undefined }).kind).toBe('not-found');
  });

  it('reads Retry-After as seconds or as an HTTP date, with a fallback', () => {
    expect(retryAfterMs('3', 429, 0)).toBe(3000);
    expect(retryAfterMs('0.5', 429, 0)).toBe(500);
    expect(retryAfterMs(new Date(61_000).toUTCString(), 418, 1_000)).toBe(60_000);
    expect(retryAfterMs(undefined, 429, 0)).toBe(1000);
    expect(retryAfterMs('soon', 418, 0)).toBe(60_000);
    const limited = errorFromResponse({
      ...base,
      status: 429,
      body: { code: 2136, message: 'x' },
      retryAfter: '2',
    });
    expect(limited.retryAfterMs).toBe(2000);
  });
});
