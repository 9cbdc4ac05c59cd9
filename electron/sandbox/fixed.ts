/**
 * Fixed-point amounts for the engine's hot path: every amount is a bigint holding the value times
 * 10^18. Prices and quantities have far fewer decimals, so products divided back by SCALE stay
 * exact; fees round down, and the ledger books exactly what it charged, so nothing is lost.
 */
export const DECIMALS = 18;
export const SCALE = 10n ** 18n;

const DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

const PARSE_CACHE_LIMIT = 50_000;
const parseCache = new Map<string, bigint>();
const formatCache = new Map<bigint, string>();

/** Parses a non-negative decimal string; undefined when it is not one (sign, exponent, junk). */
export function parseFixed(text: string): bigint | undefined {
  // Prices and quantities repeat a lot in an order flow; parsing is the engine's hot spot.
  const cached = parseCache.get(text);
  if (cached !== undefined) return cached;
  const value = parseUncached(text);
  if (value !== undefined) {
    if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.clear();
    parseCache.set(text, value);
  }
  return value;
}

function parseUncached(text: string): bigint | undefined {
  if (text.length === 0 || text.length > 60 || !DECIMAL_PATTERN.test(text)) return undefined;
  const dot = text.indexOf('.');
  if (dot < 0) return BigInt(text) * SCALE;
  const fraction = text.slice(dot + 1);
  if (fraction.length > DECIMALS) return undefined;
  return BigInt(text.slice(0, dot)) * SCALE + BigInt(fraction.padEnd(DECIMALS, '0'));
}

/** Number of decimals written in a decimal string (its fraction length). */
export function decimalPlaces(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** The shortest decimal string of a fixed-point value ("0.1", "60000", "0"). */
export function formatFixed(value: bigint): string {
  if (value === 0n) return '0';
  const cached = formatCache.get(value);
  if (cached !== undefined) return cached;
  const text = formatUncached(value);
  if (formatCache.size >= PARSE_CACHE_LIMIT) formatCache.clear();
  formatCache.set(value, text);
  return text;
}

function formatUncached(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / SCALE;
  const fraction = abs % SCALE;
  let text = whole.toString();
  if (fraction !== 0n) {
    text += '.' + fraction.toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  }
  return negative ? '-' + text : text;
}

/** price × quantity, both fixed-point. */
export function mulFixed(a: bigint, b: bigint): bigint {
  return (a * b) / SCALE;
}
