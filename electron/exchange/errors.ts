/**
 * One error type for everything the exchange client can fail with. The kind says what the caller
 * can do about it; code/status/exchangeMessage keep what the exchange actually said.
 */
export type ExchangeErrorKind =
  | 'auth'
  | 'permission'
  | 'rate-limited'
  | 'banned'
  | 'invalid-input'
  | 'not-found'
  | 'insufficient-balance'
  | 'network'
  | 'unknown-outcome'
  | 'server';

export interface ExchangeErrorInit {
  code?: number;
  status?: number;
  exchangeMessage?: string;
  /** The input field at fault (invalid input) or the response field that failed to parse. */
  field?: string;
  /** For 429/418: how long the exchange asked us to wait. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class ExchangeError extends Error {
  readonly kind: ExchangeErrorKind;
  readonly code?: number;
  readonly status?: number;
  readonly exchangeMessage?: string;
  readonly field?: string;
  readonly retryAfterMs?: number;

  constructor(kind: ExchangeErrorKind, message: string, init: ExchangeErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ExchangeError';
    this.kind = kind;
    if (init.code !== undefined) this.code = init.code;
    if (init.status !== undefined) this.status = init.status;
    if (init.exchangeMessage !== undefined) this.exchangeMessage = init.exchangeMessage;
    if (init.field !== undefined) this.field = init.field;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

/** The exchange's error codes (docs/exchange-notes.md) mapped to what they mean. */
const KIND_BY_CODE = new Map<number, ExchangeErrorKind>([
  [1999, 'invalid-input'],
  [-1121, 'invalid-input'],
  [2113, 'invalid-input'],
  [94001, 'invalid-input'],
  [2010, 'invalid-input'],
  [2112, 'auth'],
  [2111, 'auth'],
  [2115, 'auth'],
  [2005, 'auth'],
  // A timestamp outside recvWindow after the offset was re-measured: the clock cannot be trusted.
  [2098, 'auth'],
  [2078, 'permission'],
  [2002, 'insufficient-balance'],
  [2004, 'not-found'],
  [2136, 'rate-limited'],
  [2137, 'banned'],
]);

/** Codes whose meaning is a clock problem (the client re-measures the offset once and retries). */
export const TIMESTAMP_ERROR_CODE = 2098;

function kindByStatus(status: number): ExchangeErrorKind {
  if (status === 418) return 'banned';
  if (status === 429) return 'rate-limited';
  if (status === 401) return 'auth';
  if (status === 403) return 'permission';
  if (status === 404) return 'not-found';
  if (status >= 500) return 'server';
  return 'invalid-input';
}

/**
 * Reads the `Retry-After` header: seconds (the interface) or an HTTP date (RFC 9110); falls back
 * to one second for 429 and one minute for 418 when the header is absent or unreadable.
 */
export function retryAfterMs(
  header: string | string[] | undefined,
  status: number,
  nowMs: number,
): number {
  const text = Array.isArray(header) ? header[0] : header;
  const fallback = status === 418 ? 60_000 : 1_000;
  if (!text) return fallback;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(text);
  if (Number.isFinite(date)) return Math.max(0, date - nowMs);
  return fallback;
}

/**
 * Builds the error for a non-2xx answer. The body may be the interface's {code, message}, some
 * other JSON, text or nothing at all; the HTTP status decides when the code is unknown, except a
 * known code on a status that disagrees (e.g. 2004 on a 404 or on a 400) still counts by code.
 */
export function errorFromResponse(input: {
  status: number;
  body: unknown;
  rawText: string;
  method: string;
  path: string;
  retryAfter?: string | string[] | undefined;
  nowMs: number;
}): ExchangeError {
  const { status, body, method, path } = input;
  let code: number | undefined;
  let exchangeMessage: string | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const rawCode = record.code;
    if (typeof rawCode === 'number' && Number.isInteger(rawCode)) code = rawCode;
    else if (typeof rawCode === 'string' && /^-?\d+$/.test(rawCode)) code = Number(rawCode);
    const rawMessage = record.message ?? record.msg ?? record.error;
    if (typeof rawMessage === 'string') exchangeMessage = rawMessage;
  } else if (input.rawText.trim()) {
    exchangeMessage = input.rawText.trim().slice(0, 500);
  }
  let kind: ExchangeErrorKind = kindByStatus(status);
  // Status classes that are unambiguous win over codes: a 5xx is never a plain client error.
  if (status !== 429 && status !== 418 && status < 500 && code !== undefined) {
    kind = KIND_BY_CODE.get(code) ?? kind;
  }
  const init: ExchangeErrorInit = { status };
  if (code !== undefined) init.code = code;
  if (exchangeMessage !== undefined) init.exchangeMessage = exchangeMessage;
  if (status === 429 || status === 418) {
    init.retryAfterMs = retryAfterMs(input.retryAfter, status, input.nowMs);
  }
  const said = exchangeMessage ?? `HTTP ${status}`;
  const codePart = code !== undefined ? ` (code ${code})` : '';
  return new ExchangeError(kind, `${method} ${path} failed: ${said}${codePart}`, init);
}

export function invalidInput(field: string, message: string): ExchangeError {
  return new ExchangeError('invalid-input', `Invalid input: ${field} ${message}`, { field });
}
