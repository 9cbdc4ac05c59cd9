/**
 * REST transport: undici keep-alive pool per base URL, request signing, server-time offset, pacing
 * through the RateLimiter, and the mapping of every answer to either a JSON body or an
 * ExchangeError. Retries only where nothing can have happened at the exchange: a GET (the clock
 * read among them) paused by a 429, and any request the exchange rejected with 2098 (timestamp outside recvWindow) after the
 * offset has been re-measured once.
 */
import type { Pool } from 'undici';
import type { z } from 'zod';
import { errorFromResponse, ExchangeError, TIMESTAMP_ERROR_CODE } from './errors';
import type { EndpointName, RateLimiter } from './limits';
import { encodeParams, signerFor } from './sign';
import { serverTimeSchema } from './wire';
import { parseWireFast } from './wire-fast';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';
export type Security = 'NONE' | 'MARKET_DATA' | 'SIGNED';

export interface EndpointSpec {
  method: HttpMethod;
  path: string;
  security: Security;
}

export const ENDPOINTS = {
  ping: { method: 'GET', path: '/sapi/v1/ping', security: 'NONE' },
  systemStatus: { method: 'GET', path: '/sapi/v1/systemStatus', security: 'NONE' },
  time: { method: 'GET', path: '/sapi/v1/time', security: 'NONE' },
  exchangeInfo: { method: 'GET', path: '/sapi/v1/exchangeInfo', security: 'NONE' },
  tickers: { method: 'GET', path: '/sapi/v1/tickers/24hr', security: 'NONE' },
  ticker: { method: 'GET', path: '/sapi/v1/ticker/24hr', security: 'NONE' },
  klines: { method: 'GET', path: '/sapi/v1/klines', security: 'NONE' },
  depth: { method: 'GET', path: '/sapi/v1/depth', security: 'NONE' },
  trades: { method: 'GET', path: '/sapi/v1/trades', security: 'NONE' },
  historicalTrades: { method: 'GET', path: '/sapi/v1/historicalTrades', security: 'MARKET_DATA' },
  placeOrder: { method: 'POST', path: '/sapi/v1/order', security: 'SIGNED' },
  testOrder: { method: 'POST', path: '/sapi/v1/order/test', security: 'SIGNED' },
  getOrder: { method: 'GET', path: '/sapi/v1/order', security: 'SIGNED' },
  openOrders: { method: 'GET', path: '/sapi/v1/openOrders', security: 'SIGNED' },
  allOrders: { method: 'GET', path: '/sapi/v1/allOrders', security: 'SIGNED' },
  cancelOrder: { method: 'DELETE', path: '/sapi/v1/order', security: 'SIGNED' },
  cancelAllOrders: { method: 'DELETE', path: '/sapi/v1/openOrders', security: 'SIGNED' },
  myTrades: { method: 'GET', path: '/sapi/v1/myTrades', security: 'SIGNED' },
  account: { method: 'GET', path: '/sapi/v1/account', security: 'SIGNED' },
  funds: { method: 'GET', path: '/sapi/v1/funds', security: 'SIGNED' },
  coins: { method: 'GET', path: '/sapi/v1/coins', security: 'SIGNED' },
  withdraws: { method: 'GET', path: '/sapi/v1/crypto/withdraws', security: 'SIGNED' },
  depositAddress: {
    method: 'GET',
    path: '/sapi/v1/crypto/deposits/address',
    security: 'SIGNED',
  },
  subTransfer: { method: 'POST', path: '/sapi/v1/sub_account/fund_transfer', security: 'SIGNED' },
  subTransferHistory: {
    method: 'GET',
    path: '/sapi/v1/sub_account/fund_transfer/history',
    security: 'SIGNED',
  },
  subAccounts: { method: 'GET', path: '/sapi/v1/sub_account/accounts', security: 'SIGNED' },
  createAuthToken: { method: 'POST', path: '/sapi/v1/create_auth_token', security: 'SIGNED' },
} as const satisfies Readonly<Record<EndpointName, EndpointSpec>>;

/** The endpoints called with HTTP method `M`. */
export type EndpointWith<M extends HttpMethod> = {
  [E in EndpointName]: (typeof ENDPOINTS)[E]['method'] extends M ? E : never;
}[EndpointName];

/** The WireError label of each endpoint's response, built once instead of per call. */
const RESPONSE_LABELS = Object.fromEntries(
  Object.entries(ENDPOINTS).map(([name, spec]) => [name, `${spec.method} ${spec.path} response`]),
) as Readonly<Record<EndpointName, string>>;

/** How long a measured server-time offset is trusted before the next signed call re-measures. */
const OFFSET_MAX_AGE_MS = 5 * 60_000;

/** Network failures where the connection never opened, so the request cannot have arrived. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export type Params = Record<string, string | number | boolean | undefined>;

type HeaderSet = Readonly<Record<string, string>>;

export interface RestOptions {
  baseUrl: string;
  apiKey?: string;
  secretKey?: string;
  recvWindow: number;
  timeoutMs: number;
  now: () => number;
  limiter?: RateLimiter;
}

/** The outcome details the client needs to reconcile a write. */
export interface SentRequest {
  /** The timestamp parameter of the last attempt (server time as we estimated it), if signed. */
  timestamp?: number;
}

export class RestTransport {
  /**
   * The connection pool, made on the first request: undici is loaded only then (evaluating it
   * is tens of ms of the app's start, and the first screen is answered from the cache).
   */
  private pool: Pool | undefined;
  private opening: Promise<Pool> | undefined;
  private closed = false;
  private readonly origin: string;
  private readonly basePath: string;
  private offset = 0;
  private offsetMeasuredAt = -Infinity;
  private measuring: Promise<void> | undefined;
  /** Round trip of the last /time measurement; bounds how wrong the offset can be. */
  private lastRoundTripMs = 0;

  private readonly signer: ((totalParams: string) => string) | undefined;
  /** Base path + endpoint path, joined once instead of on every request. */
  private readonly targets: Readonly<Record<EndpointName, string>>;
  /**
   * Header objects shared by every request of a kind (undici only reads them), so the hot path
   * does not build one per call.
   */
  private readonly headerSets: Readonly<Record<'none' | 'key' | 'form' | 'keyForm', HeaderSet>>;

  constructor(private readonly options: RestOptions) {
    this.signer = options.secretKey ? signerFor(options.secretKey) : undefined;
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    const targets = {} as Record<EndpointName, string>;
    for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
      targets[name] = this.basePath + ENDPOINTS[name].path;
    }
    this.targets = targets;
    const key: Record<string, string> =
      options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    this.headerSets = {
      none: Object.freeze({}),
      key: Object.freeze({ ...key }),
      form: Object.freeze({ ...form }),
      keyForm: Object.freeze({ ...key, ...form }),
    };
  }

  private openPool(): Promise<Pool> {
    const closedBefore = this.closed;
    this.opening ??= import('undici').then(async ({ Pool }) => {
      this.pool = new Pool(this.origin, {
        connections: 32,
        pipelining: 1,
        keepAliveTimeout: 60_000,
        keepAliveMaxTimeout: 600_000,
      });
      // A request after close() meets a closed pool, as it always did.
      if (closedBefore) await this.pool.close();
      return this.pool;
    });
    return this.opening;
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** How far off (ms) the offset may be: half the round trip of the measurement. */
  get offsetUncertaintyMs(): number {
    return Math.ceil(this.lastRoundTripMs / 2);
  }

  /** The exchange's clock as we estimate it. */
  serverNow(): number {
    return Math.round(this.options.now() + this.offset);
  }

  get hasCredentials(): boolean {
    return Boolean(this.options.apiKey && this.options.secretKey);
  }

  /** Measures the offset now (coalescing concurrent callers). */
  measureOffset(): Promise<void> {
    if (!this.measuring) {
      this.measuring = this.doMeasure().finally(() => {
        this.measuring = undefined;
      });
    }
    return this.measuring;
  }

  private async doMeasure(): Promise<void> {
    const spec = ENDPOINTS.time;
    const limiter = this.options.limiter;
    for (;;) {
      const release = await limiter?.acquire('time', 'ip');
      try {
        const before = this.options.now();
        const body = await this.send('time', spec, '', '', false);
        const after = this.options.now();
        const { serverTime } = parseWireFast(serverTimeSchema, body, RESPONSE_LABELS.time);
        this.offset = Math.round(serverTime - (before + after) / 2);
        this.lastRoundTripMs = after - before;
        this.offsetMeasuredAt = after;
        return;
      } catch (error) {
        // The clock read is a read like any other: a 429 (another process on this address, such
        // as the app's previous run, used the window) waits as the exchange asks, then reads.
        if (limiter && error instanceof ExchangeError && error.status === 429) {
          limiter.pauseKey('ip', error.retryAfterMs ?? 1000);
          continue;
        }
        throw error;
      } finally {
        release?.();
      }
    }
  }

  private offsetStale(): boolean {
    return this.options.now() - this.offsetMeasuredAt > OFFSET_MAX_AGE_MS;
  }

  /**
   * Calls an endpoint and returns its body parsed with `schema` (a WireError if it does not fit).
   * `sent.timestamp` receives the timestamp of the (last) attempt so a caller can reconcile an
   * unknown outcome against the exchange's records.
   */
  async call<S extends z.ZodType>(
    endpoint: EndpointName,
    params: Params,
    schema: S,
    sent?: SentRequest,
  ): Promise<z.output<S>> {
    const spec = ENDPOINTS[endpoint];
    const signed = spec.security === 'SIGNED';
    if (spec.security !== 'NONE' && !this.options.apiKey) {
      throw new ExchangeError('auth', `${endpoint} needs an API key and none is configured`);
    }
    if (signed && !this.options.secretKey) {
      throw new ExchangeError('auth', `${endpoint} needs a secret key and none is configured`);
    }
    const limiter = this.options.limiter;
    const limitKey = spec.security === 'NONE' ? 'ip' : this.options.apiKey!;
    // The caller's own parameters never change between attempts; only the signed part does.
    const encoded = encodeParams(params);
    const isGet = spec.method === 'GET';
    let remeasured = false;
    let body: unknown;
    for (;;) {
      if (signed && this.offsetStale()) await this.measureOffset();
      // Without pacing there is nothing to wait for: no await, so no extra turn per request.
      const release = limiter ? await limiter.acquire(endpoint, limitKey) : undefined;
      try {
        let text = encoded;
        if (signed) {
          const timestamp = this.serverNow();
          if (sent) sent.timestamp = timestamp;
          // Both are integers, so they need no escaping.
          const signedPart = `recvWindow=${this.options.recvWindow}&timestamp=${timestamp}`;
          text = text ? `${text}&${signedPart}` : signedPart;
          text += `&signature=${this.signer!(text)}`;
        }
        body = await this.send(
          endpoint,
          spec,
          isGet ? text : '',
          isGet ? '' : text,
          spec.security !== 'NONE',
        );
        break;
      } catch (error) {
        if (!(error instanceof ExchangeError)) throw error;
        if (error.status === 429) {
          limiter?.pauseKey(limitKey, error.retryAfterMs ?? 1000);
          // A 429 means the exchange did nothing; only reads are re-sent automatically.
          if (isGet && limiter) continue;
          throw error;
        }
        if (error.status === 418) {
          limiter?.pauseAll(error.retryAfterMs ?? 60_000);
          throw error;
        }
        if (error.code === TIMESTAMP_ERROR_CODE && signed && !remeasured) {
          // Rejected for its timestamp, so nothing happened: fix the clock and send it once more.
          remeasured = true;
          release?.();
          await this.measureOffset();
          continue;
        }
        throw error;
      } finally {
        release?.();
      }
    }
    // Parsed here rather than by the caller: one async step less per request, and the token is
    // already back with the limiter (parsing a long list must not hold it).
    return parseWireFast(schema, body, RESPONSE_LABELS[endpoint]);
  }

  private async send(
    endpoint: EndpointName,
    spec: EndpointSpec,
    query: string,
    body: string,
    withKey: boolean,
  ): Promise<unknown> {
    const target = this.targets[endpoint];
    const isGet = spec.method === 'GET';
    const headers = isGet
      ? withKey
        ? this.headerSets.key
        : this.headerSets.none
      : withKey
        ? this.headerSets.keyForm
        : this.headerSets.form;
    let status: number;
    let text: string;
    let retryAfter: string | string[] | undefined;
    const pool = this.pool ?? (await this.openPool());
    try {
      // undici's own timers (no AbortController and timer per request on the hot path): the
      // answer must start within timeoutMs and the body must not stall for longer either.
      const response = await pool.request({
        path: query ? `${target}?${query}` : target,
        method: spec.method,
        headers,
        body: isGet ? undefined : body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      status = response.statusCode;
      retryAfter = response.headers['retry-after'];
      text = await response.body.text();
    } catch (error) {
      const code = errorCode(error);
      throw this.networkError(spec, error, code !== undefined && TIMEOUT_CODES.has(code));
    }
    let json: unknown = undefined;
    let parsed = false;
    if (text.length > 0) {
      try {
        json = JSON.parse(text);
        parsed = true;
      } catch {
        parsed = false;
      }
    }
    if (status >= 200 && status < 300) {
      if (!parsed || json === null || typeof json !== 'object') {
        throw new ExchangeError(
          'server',
          `${spec.method} ${spec.path} answered ${status} with a body that is not a JSON object or array`,
          { status },
        );
      }
      return json;
    }
    throw errorFromResponse({
      status,
      body: json,
      rawText: text,
      method: spec.method,
      path: spec.path,
      retryAfter,
      nowMs: this.options.now(),
    });
  }

  private networkError(spec: EndpointSpec, error: unknown, timedOut: boolean): ExchangeError {
    const code = errorCode(error);
    const what = timedOut
      ? `timed out after ${this.options.timeoutMs} ms`
      : `failed: ${code ?? (error instanceof Error ? error.message : String(error))}`;
    const failure = new ExchangeError('network', `${spec.method} ${spec.path} ${what}`, {
      cause: error,
    });
    networkFailureInfo.set(failure, {
      timedOut,
      neverSent: !timedOut && code !== undefined && NEVER_SENT_CODES.has(code),
    });
    return failure;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // No request was made: there is no pool (and none is made for a later one but a closed one).
    if (this.opening) await (await this.opening).close();
  }
}

const networkFailureInfo = new WeakMap<ExchangeError, { timedOut: boolean; neverSent: boolean }>();

/**
 * Whether a failed write may have taken effect at the exchange: any 5xx (the interface says the
 * execution status is unknown), a timeout, or a connection lost after it opened.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ExchangeError)) return false;
  if (error.kind === 'server') return true;
  if (error.kind !== 'network') return false;
  return !(networkFailureInfo.get(error)?.neverSent ?? false);
}

/**
 * Why a request found no exchange: 'refused' when nothing listened at the address (the
 * connection was refused outright), 'timeout' when it did not answer in time, 'other' for the
 * rest (a name that does not resolve, a connection lost); undefined for an error that is not a
 * network failure. Repeated refusals say the exchange is stopped or has moved.
 */
export function networkCause(error: unknown): 'refused' | 'timeout' | 'other' | undefined {
  if (!(error instanceof ExchangeError) || error.kind !== 'network') return undefined;
  if (errorCode(error) === 'ECONNREFUSED') return 'refused';
  return networkFailureInfo.get(error)?.timedOut ? 'timeout' : 'other';
}

/** Whether nothing listened at the exchange's address (see networkCause). */
export function connectionRefused(error: unknown): boolean {
  return networkCause(error) === 'refused';
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
