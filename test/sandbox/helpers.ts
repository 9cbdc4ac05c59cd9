import { createHmac } from 'node:crypto';
import type { Sandbox } from '../../electron/sandbox/index';

export interface Reply {
  status: number;
  // Parsed JSON of any endpoint; tests assert its exact shape and values.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export interface Key {
  apiKey: string;
  secretKey: string;
}

export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** A raw request: query and body exactly as given (strings), optional X-API-KEY. */
export async function raw(
  sandbox: Sandbox,
  method: string,
  path: string,
  opts: { query?: string; body?: string; apiKey?: string; contentType?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.apiKey !== undefined) headers['X-API-KEY'] = opts.apiKey;
  if (opts.body !== undefined)
    headers['content-type'] = opts.contentType ?? 'application/x-www-form-urlencoded';
  const url = `${sandbox.baseUrl}/sapi/v1/${path}${opts.query ? '?' + opts.query : ''}`;
  const init: RequestInit = { method, headers };
  if (opts.body !== undefined) init.body = opts.body;
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    headers: response.headers,
  };
}

/**
 * A signed request: GET params in the query, others in the body (unless `where` says otherwise),
 * timestamp from the sandbox clock, signature over query + body.
 */
export async function signed(
  sandbox: Sandbox,
  key: Key,
  method: string,
  path: string,
  params: Record<string, string | number> = {},
  opts: { where?: 'query' | 'body'; timestamp?: number; recvWindow?: number } = {},
): Promise<Reply> {
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) all[name] = String(value);
  if (opts.recvWindow !== undefined) all.recvWindow = String(opts.recvWindow);
  all.timestamp = String(opts.timestamp ?? sandbox.clock.now());
  const encoded = new URLSearchParams(all).toString();
  const where = opts.where ?? (method === 'GET' ? 'query' : 'body');
  const signature = hmacHex(key.secretKey, encoded);
  if (where === 'query') {
    return raw(sandbox, method, path, {
      query: `${encoded}&signature=${signature}`,
      apiKey: key.apiKey,
    });
  }
  return raw(sandbox, method, path, {
    body: `${encoded}&signature=${signature}`,
    apiKey: key.apiKey,
  });
}

export function worldKeys(sandbox: Sandbox) {
  const parent = sandbox.world.accounts.find((a) => a.role === 'parent')!;
  const subs = sandbox.world.accounts.filter((a) => a.role === 'sub');
  return {
    parent,
    trade: parent.keys.find((k) => k.canTrade)!,
    readOnly: parent.keys.find((k) => !k.canTrade)!,
    subs,
    subKey: subs[0]!.keys[0]!,
  };
}

/** Every key of an object with the JS type of its value, for exact shape assertions. */
export function shape(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, Array.isArray(v) ? 'array' : typeof v]),
  );
}

export const DECIMAL = /^\d+(\.\d+)?$/;
