/**
 * Facts of the exchange interface that every layer needs the same way: how symbols, assets and
 * networks are written, the candle intervals, and the withdraw status codes. One definition here;
 * the client, the sandbox, the bridge contract and the renderer all read it. shared/ imports
 * nothing, so the renderer may take it too.
 */

/** A market symbol: lowercase base asset followed by quote asset, e.g. "btcusdt". */
export const SYMBOL_PATTERN = /^[a-z0-9]{2,32}$/;

/** An asset (coin) name as the wire carries it; compared case-insensitively. */
export const ASSET_PATTERN = /^[A-Za-z0-9]{1,20}$/;

/** A network name (e.g. "ERC20", "BEP20", "SOL"). */
export const NETWORK_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** A client order id the user or the app chooses. */
export const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function isSymbol(value: unknown): value is string {
  return typeof value === 'string' && SYMBOL_PATTERN.test(value);
}

export function isAsset(value: unknown): value is string {
  return typeof value === 'string' && ASSET_PATTERN.test(value);
}

/** The canonical (lowercase) form of an asset name, as the app stores and compares it. */
export function assetKey(asset: string): string {
  return asset.toLowerCase();
}

/** The candle intervals the interface offers, shortest first. */
export const KLINE_INTERVALS = [
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '12h',
  '1d',
  '1w',
] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

const MINUTE = 60_000;
/** Each interval's length in ms. */
export const KLINE_INTERVAL_MS: Record<KlineInterval, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '2h': 120 * MINUTE,
  '4h': 240 * MINUTE,
  '6h': 360 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': 1440 * MINUTE,
  '1w': 10_080 * MINUTE,
};

export function isKlineInterval(value: unknown): value is KlineInterval {
  return typeof value === 'string' && (KLINE_INTERVALS as readonly string[]).includes(value);
}

/**
 * Withdraw status codes. The interface names the meanings (Success, Failed, Pending, Cancelled)
 * but not their numbers; the project settled on these (docs/exchange-notes.md).
 */
export const WITHDRAW_STATUS_CODES = { success: 0, failed: 1, pending: 2, cancelled: 3 } as const;
export type WithdrawStatus = keyof typeof WITHDRAW_STATUS_CODES;
export const WITHDRAW_STATUSES = Object.keys(WITHDRAW_STATUS_CODES) as WithdrawStatus[];

const STATUS_BY_CODE = new Map<number, WithdrawStatus>(
  WITHDRAW_STATUSES.map((status) => [WITHDRAW_STATUS_CODES[status], status]),
);

/** The status of a code; a code this version does not know reads as pending (not final). */
export function withdrawStatusOf(code: number): WithdrawStatus {
  return STATUS_BY_CODE.get(code) ?? 'pending';
}

/** The account streams of the WebSocket interface; subscribing to them needs an auth_key. */
export const PRIVATE_STREAM_NAMES = ['outboundAccountPosition', 'orderUpdate', 'ownTrade'] as const;
export type PrivateStream = (typeof PRIVATE_STREAM_NAMES)[number];
/** The same names as a set of strings, so any stream name can be looked up. */
export const PRIVATE_STREAMS: ReadonlySet<string> = new Set<string>(PRIVATE_STREAM_NAMES);

export function isPrivateStream(name: string): name is PrivateStream {
  return PRIVATE_STREAMS.has(name);
}
