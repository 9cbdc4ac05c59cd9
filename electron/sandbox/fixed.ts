/**
 * Fixed-point amounts for the engine's hot path: every amount is a bigint holding the value times
 * 10^18. Prices and quantities have far fewer decimals, so products divided back by SCALE stay
 * exact; fees round down, and the ledger books exactly what it charged, so nothing is lost.
 */
import { DECIMAL_PATTERN } from '../../shared/decimal';

export const DECIMALS = 18;
export const SCALE = 10n ** 18n;

const ZEROS = '0'.repeat(DECIMALS);

/** A decimal string as the engine needs it, parsed once per distinct string. */
export interface ParsedDecimal {
  value: bigint;
  /** Decimals as written, trailing zeros included: precision limits count those. */
  places: number;
  /** Decimals the value really needs ("0.50" needs 1): a tick of 10^-n divides it iff <= n. */
  scale: number;
  /** The shortest form, what formatFixed writes. */
  text: string;
}

const CACHE_LIMIT = 50_000;
const parseCache = new Map<string, ParsedDecimal>();
const formatCache = new Map<bigint, string>();

/** Parses a non-negative decimal string; undefined when it is not one (sign, exponent, junk). */
export function parseDecimal(text: string): ParsedDecimal | undefined {
  // Prices and quantities repeat a lot in an order flow; parsing is the engine's hot spot.
  const cached = parseCache.get(text);
  if (cached !== undefined) return cached;
  const parsed = parseUncached(text);
  if (parsed !== undefined) {
    if (parseCache.size >= CACHE_LIMIT) parseCache.clear();
    parseCache.set(text, parsed);
  }
  return parsed;
}

/** Parses a non-negative decimal string; undefined when it is not one (sign, exponent, junk). */
export function parseFixed(text: string): bigint | undefined {
  return parseDecimal(text)?.value;
}

function parseUncached(text: string): ParsedDecimal | undefined {
  if (text.length === 0 || text.length > 60 || !DECIMAL_PATTERN.test(text)) return undefined;
  const dot = text.indexOf('.');
  const fraction = dot < 0 ? '' : text.slice(dot + 1);
  if (fraction.length > DECIMALS) return undefined;
  const whole = dot < 0 ? text : text.slice(0, dot);
  const value = BigInt(whole) * SCALE + BigInt(fraction.padEnd(DECIMALS, '0'));
  const formatted = formatFixed(value);
  const point = formatted.indexOf('.');
  return {
    value,
    places: fraction.length,
    scale: point < 0 ? 0 : formatted.length - point - 1,
    text: formatted,
  };
}

/** The shortest decimal string of a fixed-point value ("0.1", "60000", "0"). */
export function formatFixed(value: bigint): string {
  if (value === 0n) return '0';
  const cached = formatCache.get(value);
  if (cached !== undefined) return cached;
  const text = formatUncached(value);
  if (formatCache.size >= CACHE_LIMIT) formatCache.clear();
  formatCache.set(value, text);
  return text;
}

function formatUncached(value: bigint): string {
  // One toString and string slicing: much cheaper than dividing the bigint by SCALE.
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString();
  const point = digits.length - DECIMALS;
  let end = digits.length;
  while (end > point && end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  let text: string;
  if (point <= 0) text = '0.' + ZEROS.slice(0, -point) + digits.slice(0, end);
  else if (end > point) text = digits.slice(0, point) + '.' + digits.slice(point, end);
  else text = digits.slice(0, point);
  return negative ? '-' + text : text;
}

/** price × quantity, both fixed-point. */
export function mulFixed(a: bigint, b: bigint): bigint {
  return (a * b) / SCALE;
}
