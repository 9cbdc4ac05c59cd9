/**
 * Formatting of amounts, percentages and times for people. Amounts arrive as decimal strings and
 * are handled with the project's Decimal (shared/exact-decimal.ts) only: a JavaScript float would
 * show 0.1 + 0.2 as 0.30000000000000004 and silently drop digits of large balances.
 */
import { Decimal, divide } from './exact-decimal';

export type Rounding = 'down' | 'half-up';

export interface AmountFormat {
  /**
   * Most digits after the dot. Default: every digit the value has (an amount as stated; see
   * formatStated). A precision cuts or rounds: only for figures the app computed.
   */
  precision?: number;
  /** Fewest digits after the dot kept when trimming zeros. Default 0. */
  minFraction?: number;
  /** 'down' never shows more than is held (balances); 'half-up' for prices and values. Default 'down'. */
  rounding?: Rounding;
  /** Prefix positive numbers with "+" (changes). */
  signed?: boolean;
  /**
   * How the integer digits are grouped: in thousands ("1,234,567"), or the Indian way, the last
   * three and then in twos ("12,34,567": lakh and crore). Default thousands.
   */
  grouping?: DigitGrouping;
}

export type DigitGrouping = 'thousands' | 'lakh';

const plainNumber = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parses a decimal string (or integer) strictly; null when it is not a number. */
export function toDecimal(value: string | number | null | undefined): Decimal | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? new Decimal(value) : null;
  const trimmed = value.trim();
  if (!plainNumber.test(trimmed)) return null;
  return new Decimal(trimmed);
}

/** Inserts thousands separators into a run of digits. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The Indian grouping: the last three digits, then pairs ("1,23,45,678": 1 crore 23 lakh ...). */
export function groupLakh(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${head},${digits.slice(-3)}`;
}

/** How amounts in a currency are grouped where people use it (INR in lakh and crore). */
export function groupingOf(currency: string): DigitGrouping {
  return currency.toLowerCase() === 'inr' ? 'lakh' : 'thousands';
}

/**
 * "1234567.50000000" with precision 8 -> "1,234,567.5". Invalid input gives "—" so a bad value is
 * visible rather than shown as zero.
 */
export function formatAmount(
  value: string | number | null | undefined,
  format: AmountFormat = {},
): string {
  const decimal = toDecimal(value);
  if (decimal === null) return '—';
  const precision =
    format.precision === undefined
      ? Math.max(0, decimal.decimalPlaces(), format.minFraction ?? 0)
      : clampPrecision(format.precision);
  const minFraction = Math.min(precision, Math.max(0, format.minFraction ?? 0));
  const mode = format.rounding === 'half-up' ? Decimal.ROUND_HALF_UP : Decimal.ROUND_DOWN;
  const fixed = decimal.toFixed(precision, mode);
  const negative = fixed.startsWith('-');
  const unsigned = negative ? fixed.slice(1) : fixed;
  const [integerPart = '0', fractionPart = ''] = unsigned.split('.');
  let fraction = fractionPart.replace(/0+$/, '');
  if (fraction.length < minFraction) fraction = fraction.padEnd(minFraction, '0');
  const isZero = /^0*$/.test(integerPart) && /^0*$/.test(fraction);
  const sign = negative && !isZero ? '-' : format.signed && !isZero ? '+' : '';
  const grouped = format.grouping === 'lakh' ? groupLakh(integerPart) : groupThousands(integerPart);
  return `${sign}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An amount with its unit, the one way amounts are written in sentences (toasts, notifications,
 * error texts): "1,234.5 BTC". The unit is the asset's ticker in capitals.
 */
export function formatAmountWithUnit(
  value: string | number | null | undefined,
  asset: string,
  format: AmountFormat = {},
): string {
  const text = formatAmount(value, format);
  return text === '—' ? text : `${text} ${asset.toUpperCase()}`;
}

/** A fee in a sentence: "no fee" when nothing was charged, else the amount with its unit. */
export function formatFee(value: string | null | undefined, asset: string): string {
  const decimal = toDecimal(value);
  if (decimal !== null && decimal.isZero()) return 'no fee';
  return `fee ${formatAmountWithUnit(value, asset)}`;
}

/**
 * Ends a sentence with one full stop: a message that already ends with ".", "!", "?" or "…" (the
 * exchange's own words often do) gets none more, so joined texts never read "denied..".
 */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  if (trimmed === '') return trimmed;
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export interface OrderDescription {
  side: string;
  qty: string;
  /** Omitted for a fill summary that names no single price. */
  price?: string;
  stopPrice?: string | null;
  symbol: string;
  /** The market's assets: the quantity is in the base asset, prices in the quote asset. */
  baseAsset?: string;
  quoteAsset?: string;
}

/**
 * "Buy 0.5 BTC at 60,000 USDT" (or "Buy 0.5 BTCUSDT at 60,000" when the market's assets are not
 * known), with ", stop 2,850 USDT" for a stop-limit order: how toasts and notifications name an
 * order or a fill.
 */
export function describeOrder(order: OrderDescription): string {
  const side = order.side.charAt(0).toUpperCase() + order.side.slice(1).toLowerCase();
  const known = Boolean(order.baseAsset && order.quoteAsset);
  const qty = known
    ? formatAmountWithUnit(order.qty, order.baseAsset!)
    : `${formatAmount(order.qty)} ${order.symbol.toUpperCase()}`;
  const price = (value: string) =>
    known ? formatAmountWithUnit(value, order.quoteAsset!) : formatAmount(value);
  let text = `${side} ${qty}`;
  if (order.price !== undefined) text += ` at ${price(order.price)}`;
  if (order.stopPrice) text += `, stop ${price(order.stopPrice)}`;
  return text;
}

/**
 * How amounts are written on screen, one rule for each kind (docs/architecture.md, "Amounts on
 * screen"):
 * - an amount the exchange stated (a balance, a fee, a quantity, a price, a withdrawal's amount),
 *   or an exact sum of such amounts: every digit it has (formatStated), never cut to a market's
 *   step or an asset's precision;
 * - a figure the app computed in a quote asset (a value, a P&L, a cost): rounded half-up to the
 *   quote asset's precision (formatValue); a computed price keeps at least PRICE_SIGNIFICANT
 *   significant digits besides (formatPrice), so 0.52291 USDT does not read "0.52";
 * - a rounded figure carries its exact one (exactFigure) for its tooltip and for copies.
 */
export function formatStated(
  value: string | number | null | undefined,
  /** minFraction pads with zeros (a column of prices lined up at the tick); it never cuts. */
  options: { signed?: boolean; grouping?: DigitGrouping; minFraction?: number } = {},
): string {
  return formatAmount(value, options);
}

/** Digits after the dot of a figure computed in a quote asset: cents for fiat-like quotes. */
export function quotePrecision(quoteAsset: string): number {
  const asset = quoteAsset.toLowerCase();
  if (fiatLike.has(asset)) return 2;
  return coinPrecision[asset] ?? 8;
}

const fiatLike = new Set([
  'usdt',
  'usdc',
  'busd',
  'tusd',
  'dai',
  'fdusd',
  'usd',
  'eur',
  'gbp',
  'inr',
]);

/** Coins worth enough that 8 places would show noise (a millionth of an ETH is cents). */
const coinPrecision: Readonly<Record<string, number>> = { btc: 8, eth: 6, bnb: 6 };

/** A value in the quote asset: "12,345.68 USDT". */
export function formatValue(
  value: string | null | undefined,
  quoteAsset: string,
  options: { signed?: boolean; withUnit?: boolean } = {},
): string {
  const precision = quotePrecision(quoteAsset);
  const text = formatAmount(value, {
    precision,
    minFraction: precision === 2 ? 2 : 0,
    rounding: 'half-up',
    signed: options.signed,
    grouping: groupingOf(quoteAsset),
  });
  return withUnit(text, quoteAsset, options.withUnit);
}

/** Significant digits a computed price keeps however small it is. */
export const PRICE_SIGNIFICANT = 6;

/**
 * A price the app computed (an average cost, a price through a bridge asset) in the quote asset:
 * the quote's precision, or more places when that leaves fewer than PRICE_SIGNIFICANT significant
 * digits ("0.522913 USDT", "60,123.46 USDT").
 */
export function formatPrice(
  value: string | null | undefined,
  quoteAsset: string,
  options: { withUnit?: boolean } = {},
): string {
  const decimal = toDecimal(value);
  if (decimal === null) return '—';
  const quote = quotePrecision(quoteAsset);
  // decimal.exponent() is the power of ten of the first significant digit (0.5229 -> -1, 60123 -> 4).
  const places = decimal.isZero()
    ? quote
    : Math.max(quote, PRICE_SIGNIFICANT - 1 - decimal.exponent());
  const text = formatAmount(value, {
    precision: places,
    minFraction: quote === 2 ? 2 : 0,
    rounding: 'half-up',
    grouping: groupingOf(quoteAsset),
  });
  return withUnit(text, quoteAsset, options.withUnit);
}

/**
 * The exact figure behind a rounded one, for its tooltip and for copies: every digit, no
 * separators (so it pastes into a spreadsheet as a number); null when it is not a number.
 */
export function exactFigure(value: string | null | undefined): string | null {
  const decimal = toDecimal(value);
  if (decimal === null) return null;
  const fixed = decimal.toFixed();
  return fixed === '-0' ? '0' : fixed;
}

function withUnit(text: string, asset: string, unit: boolean | undefined): string {
  return unit === false || text === '—' ? text : `${text} ${asset.toUpperCase()}`;
}

const compactUnits: [Decimal, string][] = [
  [new Decimal('1e12'), 'T'],
  [new Decimal('1e9'), 'B'],
  [new Decimal('1e6'), 'M'],
  [new Decimal('1e3'), 'K'],
];

/**
 * Short form for chart axes and tight spaces: 1234 -> "1.23K", 12_500_000 -> "12.5M",
 * 0.000123 -> "0.000123". At most three significant digits above a thousand.
 */
export function formatCompact(value: string | number | null | undefined): string {
  const decimal = toDecimal(value);
  if (decimal === null) return '—';
  const magnitude = decimal.abs();
  for (const [unit, suffix] of compactUnits) {
    if (magnitude.gte(unit)) {
      const scaled = divide(decimal, unit);
      const digitsBeforeDot = scaled.abs().trunc().toString().length;
      const fractionDigits = Math.max(0, 3 - digitsBeforeDot);
      return `${formatAmount(scaled.toString(), { precision: fractionDigits, rounding: 'half-up' })}${suffix}`;
    }
  }
  if (magnitude.gte(1))
    return formatAmount(decimal.toString(), { precision: 2, rounding: 'half-up' });
  if (magnitude.isZero()) return '0';
  return formatAmount(decimal.toSignificantDigits(3, Decimal.ROUND_HALF_UP).toString(), {
    precision: 12,
    rounding: 'half-up',
  });
}

/**
 * A chart axis tick: the compact form, with as many fraction digits as the axis needs so that
 * neighbouring ticks read differently (a value history between 249,950 and 250,000 would
 * otherwise read "250K" at every tick). `span` is the axis's extent (max - min).
 */
export function formatAxisTick(value: number, span: number): string {
  const magnitude = Math.abs(value);
  if (!Number.isFinite(span) || span <= 0 || magnitude < 1000) return formatCompact(value);
  const [unit, suffix] = compactUnits.find(([size]) => magnitude >= size.toNumber())!;
  // Four or five ticks share the span; a tick step needs its first significant digit shown.
  const step = span / 4 / unit.toNumber();
  const digitsBeforeDot = Math.trunc(magnitude / unit.toNumber()).toString().length;
  const fractionDigits = Math.min(
    8,
    Math.max(0, 3 - digitsBeforeDot, Math.ceil(-Math.log10(step))),
  );
  const scaled = divide(value, unit);
  return `${formatAmount(scaled.toString(), { precision: fractionDigits, rounding: 'half-up' })}${suffix}`;
}

/** "0.0523" (a share or a ratio) -> "+5.23%" when signed, "5.23%" otherwise. */
export function formatPercent(
  ratioOrPercent: string | null | undefined,
  options: { signed?: boolean; isRatio?: boolean; precision?: number } = {},
): string {
  const decimal = toDecimal(ratioOrPercent);
  if (decimal === null) return '—';
  const percent = options.isRatio ? decimal.times(100) : decimal;
  return `${formatAmount(percent.toString(), {
    precision: options.precision ?? 2,
    minFraction: options.precision ?? 2,
    rounding: 'half-up',
    signed: options.signed,
  })}%`;
}

/** Percentage change from `from` to `to`, as a percent decimal string; null when from is zero. */
export function percentChange(from: string, to: string): string | null {
  const start = toDecimal(from);
  const end = toDecimal(to);
  if (start === null || end === null || start.isZero()) return null;
  return divide(end.minus(start).times(100), start).toString();
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** "2026-11-22 21:05:09" in local time (or UTC). */
export function formatDateTime(
  ms: number | null | undefined,
  options: { utc?: boolean } = {},
): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  const [y, mo, day, h, mi, s] = options.utc
    ? [
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        d.getUTCDate(),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
      ]
    : [
        d.getFullYear(),
        d.getMonth() + 1,
        d.getDate(),
        d.getHours(),
        d.getMinutes(),
        d.getSeconds(),
      ];
  return `${y}-${pad(mo)}-${pad(day)} ${pad(h)}:${pad(mi)}:${pad(s)}`;
}

/** "21:05:09" in local time (or UTC). */
export function formatTime(ms: number, options: { utc?: boolean } = {}): string {
  return formatDateTime(ms, options).slice(11);
}

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 days ago"; "never" for null. */
export function formatAge(ms: number | null | undefined, now: number): string {
  if (ms === null || ms === undefined) return 'never';
  const seconds = Math.max(0, Math.floor((now - ms) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} days ago`;
}

/** Hides an amount in privacy mode; keeps the same text otherwise. */
export const privacyMask = '••••';

export function maskAmount(text: string, privacyMode: boolean): string {
  return privacyMode ? privacyMask : text;
}

const numberInText = /[+-]?\d[\d,]*(?:\.\d+)?/g;

/**
 * A sentence with every number hidden in privacy mode. Notification texts carry amounts inside
 * their words ("Buy 0.5 BTCUSDT at 60,000"), so they are masked as a whole, ids and counts too.
 */
export function maskNumbers(text: string, privacyMode: boolean): string {
  return privacyMode ? text.replace(numberInText, privacyMask) : text;
}

/** "btcusdt" with its assets -> "BTC/USDT". */
export function formatSymbol(symbol: string, baseAsset?: string, quoteAsset?: string): string {
  if (baseAsset && quoteAsset) return `${baseAsset.toUpperCase()}/${quoteAsset.toUpperCase()}`;
  return symbol.toUpperCase();
}

/** Number of digits after the dot of a tick size like "0.01000000" -> 2. */
export function decimalsOfStep(step: string): number {
  const decimal = toDecimal(step);
  if (decimal === null || decimal.isZero()) return 8;
  return Math.max(0, decimal.decimalPlaces());
}

function clampPrecision(precision: number): number {
  if (!Number.isInteger(precision) || precision < 0) return 0;
  return Math.min(precision, 30);
}
