import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account, Accounts, ApiKey, SecurityType } from './accounts';
import type { AuthTokens } from './auth-tokens';
import type { Clock } from '../core/clock';
import { isKlineInterval, KLINE_INTERVALS } from '../../shared/market';
import type { MatchingEngine } from './engine';
import { errors, SandboxError } from './errors';
import { formatFixed, mulFixed, parseFixed, SCALE } from './fixed';
import { klineRowsJson } from './klines';
import type { Ledger } from './ledger';
import type { Limit, RateLimiter } from './rate-limits';
import { optionalInteger, type Wallet } from './wallet';

export const MAX_BODY_BYTES = 64 * 1024;
const MAX_RECV_WINDOW = 60_000;
const DEFAULT_RECV_WINDOW = 5_000;
const DEPTH_LIMITS = new Set([1, 5, 10, 20, 50, 100, 500, 1000]);
const SECOND = 1000;
const MINUTE = 60_000;

type Params = Record<string, string | undefined>;

export interface RequestContext {
  params: Params;
  ip: string;
  /** Present on MARKET_DATA, TRADE and USER_DATA endpoints. */
  key: ApiKey | undefined;
  account: Account | undefined;
}

interface Endpoint {
  security: SecurityType;
  limit: Limit;
  /** Needs the SPOT Trade permission of the key. */
  needsTrade?: boolean;
  /** Only the parent account's key may call it. */
  parentOnly?: boolean;
  handle(ctx: RequestContext): unknown;
}

export interface ServerDeps {
  clock: Clock;
  engine: MatchingEngine;
  ledger: Ledger;
  accounts: Accounts;
  wallet: Wallet;
  authTokens: AuthTokens;
  limiter: RateLimiter;
  interceptor?: RequestInterceptor;
}

/**
 * A hook that runs before each request is handled; tests install one to inject faults (see
 * testing/faults.ts), the product none. It may throw (the request fails without being handled) or
 * return a promise (the request waits for it). What it gives back is an HTTP status to answer with
 * once the request has been handled (its effect kept), or undefined to answer normally.
 */
export interface RequestInterceptor {
  before(method: string, path: string): number | undefined | Promise<number | undefined>;
}

/** A body already serialized (the klines, whose amounts go out as JSON numbers). */
class JsonText {
  constructor(readonly text: string) {}
}

// ---------------------------------------------------------------------------------------------
// Parameters

/** Parses an x-www-form-urlencoded string; 1999 on malformed escapes or repeated names. */
export function parseForm(raw: string, where: string): Map<string, string> {
  const out = new Map<string, string>();
  if (raw.length === 0) return out;
  for (const part of raw.split('&')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
      value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      throw errors.badRequest(
        `Malformed ${where}: invalid percent-encoding in "${part.slice(0, 40)}"`,
      );
    }
    if (out.has(name))
      throw errors.badRequest(`Malformed ${where}: parameter ${name} is sent more than once`);
    out.set(name, value);
  }
  return out;
}

/** Removes the signature parameter from a raw query or body string. */
function withoutSignature(raw: string): string {
  if (!raw.includes('signature=')) return raw;
  return raw
    .split('&')
    .filter((part) => !part.startsWith('signature='))
    .join('&');
}

/** HMAC-SHA256 check of a hex signature (any case), in constant time. */
export function verifySignature(
  secret: Buffer | string,
  totalParams: string,
  signature: string,
): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(totalParams).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

function boundedInteger(
  params: Params,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const value = optionalInteger(params, name);
  if (value === undefined) return fallback;
  if (value < min || value > max) throw errors.invalid(name, `from ${min} to ${max}`);
  return value;
}

function clientIp(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

// ---------------------------------------------------------------------------------------------
// The request handler

export function createRequestHandler(
  deps: ServerDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  const endpoints = buildEndpoints(deps);

  const send = (res: ServerResponse, status: number, body: unknown, retryAfter?: number): void => {
    const text = body instanceof JsonText ? body.text : JSON.stringify(body);
    const headers: Record<string, string | number> = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    };
    if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
    res.writeHead(status, headers);
    res.end(text);
  };

  const sendError = (res: ServerResponse, error: unknown): void => {
    if (error instanceof SandboxError) {
      send(
        res,
        error.httpStatus,
        { code: error.code, message: error.message },
        error.retryAfterSeconds,
      );
      return;
    }
    send(res, 500, { code: 500, message: 'Internal error' });
  };

  const process = async (
    req: IncomingMessage,
    res: ServerResponse,
    rawBody: string,
    tooLarge: boolean,
  ): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    const endpoint = endpoints.get(method + ' ' + path);
    if (!endpoint) throw errors.notFound();
    if (tooLarge) throw errors.payloadTooLarge(MAX_BODY_BYTES);

    let statusAfter: number | undefined;
    if (deps.interceptor) {
      const outcome = deps.interceptor.before(method, path);
      statusAfter = outcome instanceof Promise ? await outcome : outcome;
    }

    const ip = clientIp(req);
    deps.limiter.checkBan(ip);

    if (rawBody.length > 0) {
      const type = (req.headers['content-type'] ?? '').toLowerCase();
      if (type !== '' && !type.startsWith('application/x-www-form-urlencoded')) {
        throw errors.badRequest(
          'Malformed request body: Content-Type must be application/x-www-form-urlencoded',
        );
      }
    }
    const query = parseForm(rawQuery, 'query string');
    const body = parseForm(rawBody, 'request body');
    const params: Params = Object.fromEntries(body);
    for (const [name, value] of query) params[name] = value;

    const ctx: RequestContext = { params, ip, key: undefined, account: undefined };
    if (endpoint.security === 'NONE') {
      deps.limiter.hit(path, 'ip:' + ip, ip, endpoint.limit);
    } else {
      const header = req.headers['x-api-key'];
      const apiKey = Array.isArray(header) ? header[0] : header;
      if (!apiKey) throw errors.apiKeyMissing();
      const key = deps.accounts.key(apiKey);
      if (!key) throw errors.apiKeyInvalid();
      if (key.ipAllowList.length > 0 && !key.ipAllowList.includes(ip))
        throw errors.permissionDenied();
      if (!key.allowedSecurityTypes.has(endpoint.security)) throw errors.permissionDenied();
      deps.limiter.hit(method + ' ' + path, 'key:' + apiKey, ip, endpoint.limit);
      if (endpoint.security === 'TRADE' || endpoint.security === 'USER_DATA') {
        checkSigned(params, rawQuery, rawBody, key);
      }
      if (endpoint.needsTrade && !key.canTrade) throw errors.permissionDenied();
      const account = deps.accounts.get(key.accountId)!;
      if (endpoint.parentOnly && account.parentId !== undefined) throw errors.permissionDenied();
      ctx.key = key;
      ctx.account = account;
    }
    const result = endpoint.handle(ctx);
    if (statusAfter !== undefined) throw errors.internal(statusAfter);
    send(res, 200, result);
  };

  const checkSigned = (params: Params, rawQuery: string, rawBody: string, key: ApiKey): void => {
    const signature = params.signature;
    if (signature === undefined || signature === '') throw errors.signatureMissing();
    const recvWindowText = params.recvWindow;
    let recvWindow = DEFAULT_RECV_WINDOW;
    if (recvWindowText !== undefined) {
      if (!/^-?\d{1,16}$/.test(recvWindowText)) throw errors.invalid('recvWindow', 'an integer');
      recvWindow = Number(recvWindowText);
      if (recvWindow < 1 || recvWindow > MAX_RECV_WINDOW) throw errors.recvWindowRange();
    }
    const timestampText = params.timestamp;
    if (timestampText === undefined || timestampText === '') throw errors.missing('timestamp');
    if (!/^\d{1,16}$/.test(timestampText)) throw errors.invalid('timestamp', 'an integer (ms)');
    const timestamp = Number(timestampText);
    const serverTime = deps.clock.now();
    if (!(timestamp < serverTime + 1000 && serverTime - timestamp <= recvWindow))
      throw errors.outOfWindow();
    const totalParams = withoutSignature(rawQuery) + withoutSignature(rawBody);
    if (!verifySignature(key.secretBytes, totalParams, signature))
      throw errors.signatureIncorrect();
  };

  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining an oversized body so the keep-alive connection stays usable.
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const rawBody = chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8');
      process(req, res, rawBody, tooLarge).catch((error: unknown) => sendError(res, error));
    });
  };
}

// ---------------------------------------------------------------------------------------------
// Endpoints

function buildEndpoints(deps: ServerDeps): Map<string, Endpoint> {
  const { clock, engine, ledger, accounts, wallet, authTokens } = deps;
  const perSecond = (count: number): Limit => ({ count, windowMs: SECOND });
  const perMinute = (count: number): Limit => ({ count, windowMs: MINUTE });
  const map = new Map<string, Endpoint>();
  const add = (method: string, path: string, endpoint: Endpoint) =>
    map.set(`${method} /sapi/v1/${path}`, endpoint);

  const symbolParam = (params: Params, required = true): string | undefined => {
    const symbol = params.symbol;
    if (symbol === undefined || symbol === '') {
      if (required) throw errors.missing('symbol');
      return undefined;
    }
    if (!engine.hasSymbol(symbol)) throw errors.invalidSymbol();
    return symbol;
  };
  const account = (ctx: RequestContext): Account => ctx.account!;

  add('GET', 'ping', { security: 'NONE', limit: perSecond(1), handle: () => ({}) });
  add('GET', 'systemStatus', {
    security: 'NONE',
    limit: perSecond(1),
    handle: () => ({ status: 'normal', message: 'System is running normally' }),
  });
  add('GET', 'time', {
    security: 'NONE',
    limit: perSecond(1),
    handle: () => ({ serverTime: clock.now() }),
  });
  add('GET', 'exchangeInfo', {
    security: 'NONE',
    limit: perSecond(1),
    handle: () => ({
      timezone: 'UTC',
      serverTime: clock.now(),
      symbols: engine.symbols().map((m) => ({
        symbol: m.symbol,
        status: 'trading',
        baseAsset: m.baseAsset,
        quoteAsset: m.quoteAsset,
        baseAssetPrecision: m.baseAssetPrecision,
        quoteAssetPrecision: m.quoteAssetPrecision,
        orderTypes: ['limit', 'stop_limit'],
        isSpotTradingAllowed: true,
        filters: [{ filterType: 'PRICE_FILTER', minPrice: m.minPrice, tickSize: m.tickSize }],
      })),
    }),
  });

  add('GET', 'tickers/24hr', {
    security: 'NONE',
    limit: perSecond(1),
    handle: () => engine.tickers(),
  });
  add('GET', 'ticker/24hr', {
    security: 'NONE',
    limit: perSecond(1),
    handle: ({ params }) => engine.ticker(symbolParam(params)!),
  });
  add('GET', 'klines', {
    security: 'NONE',
    limit: perSecond(1),
    handle: ({ params }) => {
      const symbol = symbolParam(params)!;
      const interval = params.interval ?? '1m';
      if (!isKlineInterval(interval)) throw errors.invalid('interval', KLINE_INTERVALS.join(', '));
      const query: { interval: string; limit: number; startTime?: number; endTime?: number } = {
        interval,
        limit: boundedInteger(params, 'limit', 500, 1, 2000),
      };
      const startTime = optionalInteger(params, 'startTime');
      const endTime = optionalInteger(params, 'endTime');
      if (startTime !== undefined) query.startTime = startTime;
      if (endTime !== undefined) query.endTime = endTime;
      if (startTime !== undefined && endTime !== undefined && startTime > endTime) {
        throw errors.invalid('startTime', 'must not be after endTime');
      }
      return new JsonText(klineRowsJson(engine.klines(symbol, query)));
    },
  });
  add('GET', 'depth', {
    security: 'NONE',
    limit: perSecond(2),
    handle: ({ params }) => {
      const symbol = symbolParam(params)!;
      const limit = optionalInteger(params, 'limit') ?? 20;
      if (!DEPTH_LIMITS.has(limit))
        throw errors.invalid('limit', 'one of 1, 5, 10, 20, 50, 100, 500, 1000');
      return engine.depth(symbol, limit);
    },
  });
  add('GET', 'trades', {
    security: 'NONE',
    limit: perSecond(1),
    handle: ({ params }) =>
      engine.recentTrades(symbolParam(params)!, boundedInteger(params, 'limit', 500, 1, 1000)),
  });
  add('GET', 'historicalTrades', {
    security: 'MARKET_DATA',
    limit: perSecond(1),
    handle: ({ params }) => {
      const symbol = symbolParam(params)!;
      const limit = boundedInteger(params, 'limit', 500, 1, 1000);
      const fromId = optionalInteger(params, 'fromId');
      if (fromId !== undefined && fromId < 0)
        throw errors.invalid('fromId', 'must not be negative');
      return engine.historicalTrades(symbol, limit, fromId);
    },
  });

  // Trading
  add('POST', 'order', {
    security: 'TRADE',
    limit: perSecond(10),
    needsTrade: true,
    handle: (ctx) => engine.placeOrder(account(ctx).id, engine.validateOrder(ctx.params)),
  });
  add('POST', 'order/test', {
    security: 'TRADE',
    limit: perSecond(2),
    needsTrade: true,
    handle: (ctx) => {
      engine.validateOrder(ctx.params);
      return {};
    },
  });
  const orderRef = (params: Params): { orderId?: number; clientOrderId?: string } => {
    const ref: { orderId?: number; clientOrderId?: string } = {};
    const orderId = optionalInteger(params, 'orderId');
    if (orderId !== undefined) ref.orderId = orderId;
    if (params.clientOrderId !== undefined && params.clientOrderId !== '')
      ref.clientOrderId = params.clientOrderId;
    if (ref.orderId === undefined && ref.clientOrderId === undefined)
      throw errors.missing('orderId');
    return ref;
  };
  add('GET', 'order', {
    security: 'USER_DATA',
    limit: perSecond(2),
    handle: (ctx) => engine.getOrder(account(ctx).id, orderRef(ctx.params)),
  });
  const listFilter = (params: Params) => {
    const filter: { orderId?: number; startTime?: number; endTime?: number } = {};
    const orderId = optionalInteger(params, 'orderId');
    const startTime = optionalInteger(params, 'startTime');
    const endTime = optionalInteger(params, 'endTime');
    if (orderId !== undefined) filter.orderId = orderId;
    if (startTime !== undefined) filter.startTime = startTime;
    if (endTime !== undefined) filter.endTime = endTime;
    return filter;
  };
  add('GET', 'openOrders', {
    security: 'USER_DATA',
    limit: perSecond(1),
    handle: (ctx) => {
      const symbol = symbolParam(ctx.params, false);
      return engine.openOrders(account(ctx).id, {
        ...listFilter(ctx.params),
        ...(symbol ? { symbol } : {}),
      });
    },
  });
  add('GET', 'allOrders', {
    security: 'USER_DATA',
    limit: perSecond(1),
    handle: (ctx) => {
      const symbol = symbolParam(ctx.params)!;
      const limit = boundedInteger(ctx.params, 'limit', 500, 1, 1000);
      return engine.allOrders(account(ctx).id, { ...listFilter(ctx.params), symbol, limit });
    },
  });
  add('DELETE', 'order', {
    security: 'TRADE',
    limit: perSecond(10),
    needsTrade: true,
    handle: (ctx) =>
      engine.cancelOrder(account(ctx).id, symbolParam(ctx.params)!, orderRef(ctx.params)),
  });
  add('DELETE', 'openOrders', {
    security: 'TRADE',
    limit: perSecond(1),
    needsTrade: true,
    handle: (ctx) => engine.cancelAll(account(ctx).id, symbolParam(ctx.params)!),
  });
  add('GET', 'myTrades', {
    security: 'TRADE',
    limit: perSecond(2),
    handle: (ctx) => {
      const params = ctx.params;
      const symbol = symbolParam(params, false);
      const filter: {
        symbol?: string;
        orderId?: number;
        fromId?: number;
        startTime?: number;
        endTime?: number;
        limit: number;
      } = {
        limit: boundedInteger(params, 'limit', 500, 1, 1000),
      };
      if (symbol !== undefined) filter.symbol = symbol;
      for (const name of ['orderId', 'fromId', 'startTime', 'endTime'] as const) {
        const value = optionalInteger(params, name);
        if (value !== undefined) filter[name] = value;
      }
      return engine.myTrades(account(ctx).id, filter);
    },
  });

  // Account
  add('GET', 'account', {
    security: 'USER_DATA',
    limit: perSecond(1),
    handle: (ctx) => ({
      accountType: 'default',
      canTrade: ctx.key!.canTrade,
      canWithdraw: account(ctx).parentId === undefined,
      updateTime: clock.now(),
    }),
  });
  add('GET', 'funds', {
    security: 'USER_DATA',
    limit: perSecond(1),
    handle: (ctx) => {
      const id = account(ctx).id;
      const reserved = wallet.reservedFees(id);
      return ledger.assetsOf(id).map(([asset, balance]) => {
        const fund: { asset: string; free: string; locked: string; reservedFee?: string } = {
          asset,
          free: formatFixed(balance.free),
          locked: formatFixed(balance.locked),
        };
        const fee = reserved.get(asset);
        if (fee !== undefined) fund.reservedFee = formatFixed(fee);
        return fund;
      });
    },
  });

  // Wallet
  add('GET', 'coins', { security: 'USER_DATA', limit: perMinute(5), handle: () => wallet.coins });
  add('GET', 'crypto/withdraws', {
    security: 'USER_DATA',
    limit: perMinute(5),
    handle: (ctx) => wallet.queryWithdraws(account(ctx).id, ctx.params),
  });
  add('GET', 'crypto/deposits/address', {
    security: 'USER_DATA',
    limit: perMinute(1),
    handle: (ctx) => wallet.depositAddress(account(ctx).id, ctx.params.coin, ctx.params.network),
  });

  // Sub-accounts
  add('POST', 'sub_account/fund_transfer', {
    security: 'TRADE',
    limit: perSecond(1),
    needsTrade: true,
    parentOnly: true,
    handle: (ctx) => accounts.transfer(account(ctx).id, ctx.params),
  });
  add('GET', 'sub_account/fund_transfer/history', {
    security: 'USER_DATA',
    limit: perSecond(1),
    parentOnly: true,
    handle: (ctx) => accounts.transferHistory(account(ctx).id),
  });
  add('GET', 'sub_account/accounts', {
    security: 'USER_DATA',
    limit: perSecond(1),
    parentOnly: true,
    handle: (ctx) =>
      accounts.subAccountsOf(account(ctx).id).map((sub) => {
        let portfolio = 0n;
        const balance = ledger.assetsOf(sub.id).map(([asset, b]) => {
          const total = b.free + b.locked;
          portfolio += mulFixed(total, usdtPrice(engine, asset));
          return { balance: formatFixed(total), symbol: asset };
        });
        return {
          action: 'none',
          balance,
          created_at: sub.createdAt,
          email: sub.email,
          emailVerification: 'verified',
          portfolio: formatFixed(portfolio - (portfolio % (SCALE / 100_000_000n))),
          status: 'active',
        };
      }),
  });

  add('POST', 'create_auth_token', {
    security: 'USER_DATA',
    limit: perSecond(1),
    handle: (ctx) => authTokens.issue(account(ctx).id),
  });
  return map;
}

/** The value of one unit of an asset in usdt: direct market, or through btc; 0 when unknown. */
export function usdtPrice(engine: MatchingEngine, asset: string): bigint {
  if (asset === 'usdt') return SCALE;
  const direct = engine.hasSymbol(asset + 'usdt') ? engine.lastPrice(asset + 'usdt') : undefined;
  if (direct !== undefined) return parseFixed(direct)!;
  if (engine.hasSymbol(asset + 'btc') && engine.hasSymbol('btcusdt')) {
    const viaBtc = engine.lastPrice(asset + 'btc');
    const btc = engine.lastPrice('btcusdt');
    if (viaBtc !== undefined && btc !== undefined)
      return mulFixed(parseFixed(viaBtc)!, parseFixed(btc)!);
  }
  return 0n;
}
