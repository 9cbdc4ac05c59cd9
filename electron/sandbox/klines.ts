/**
 * Candles: which candle a moment belongs to, and how trades and shorter candles add up to one.
 * The REST klines (the engine, from its 1-minute candles) and the kline streams (from trades) both
 * build their candles with these functions, so the two give the same candle for the same trades.
 *
 * Candles are aligned in UTC: minutes, hours and days from the epoch, weeks on Monday, months on
 * the 1st. Amounts are the engine's fixed-point bigints; they become decimal text (the engine's
 * answers) or JSON numbers (the wire, which the interface shows as numbers) only at the edge.
 */
import { formatFixed } from './fixed';

export type KlineUnit = 'm' | 'h' | 'd' | 'w' | 'M';

/** A candle interval: `count` units (a stream may ask for any, e.g. "7m" or "3M"). */
export interface KlineSpan {
  readonly name: string;
  readonly count: number;
  readonly unit: KlineUnit;
  /** The candle's length in ms; undefined for months, whose length varies. */
  readonly lengthMs: number | undefined;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const UNIT_MS: Record<Exclude<KlineUnit, 'M'>, number> = {
  m: MINUTE_MS,
  h: 60 * MINUTE_MS,
  d: DAY_MS,
  w: 7 * DAY_MS,
};
/** 1970-01-01 was a Thursday; the first Monday is four days later. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

/** Up to 9999 units: beyond that a candle would outlast any date the clock can represent. */
const SPAN_PATTERN = /^([1-9]\d{0,3})([mhdwM])$/;

export function parseKlineSpan(name: string): KlineSpan | undefined {
  const match = SPAN_PATTERN.exec(name);
  if (!match) return undefined;
  const count = Number(match[1]);
  const unit = match[2] as KlineUnit;
  return { name, count, unit, lengthMs: unit === 'M' ? undefined : UNIT_MS[unit] * count };
}

/** The open time of the candle of `span` that contains `time`. */
export function candleStart(span: KlineSpan, time: number): number {
  const length = span.lengthMs;
  if (length === undefined) return monthCandle(span.count, time)[0];
  const origin = span.unit === 'w' ? FIRST_MONDAY_MS : 0;
  return Math.floor((time - origin) / length) * length + origin;
}

/** [open time, close time] (inclusive, ms) of the candle of `span` that contains `time`. */
export function candleBounds(span: KlineSpan, time: number): [number, number] {
  if (span.lengthMs === undefined) return monthCandle(span.count, time);
  const start = candleStart(span, time);
  return [start, start + span.lengthMs - 1];
}

function monthCandle(count: number, time: number): [number, number] {
  const date = new Date(time);
  const monthIndex = (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
  const first = Math.floor(monthIndex / count) * count;
  const next = first + count;
  return [
    Date.UTC(1970 + Math.floor(first / 12), first % 12, 1),
    Date.UTC(1970 + Math.floor(next / 12), next % 12, 1) - 1,
  ];
}

/** One candle; `start` is its open time. */
export interface Candle {
  start: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

/** A candle opened by a trade. */
export function openCandle(start: number, price: bigint, quantity: bigint): Candle {
  return { start, open: price, high: price, low: price, close: price, volume: quantity };
}

/** A later trade of the same candle. */
export function addTrade(candle: Candle, price: bigint, quantity: bigint): void {
  if (price > candle.high) candle.high = price;
  if (price < candle.low) candle.low = price;
  candle.close = price;
  candle.volume += quantity;
}

/** A copy of `part` as the first piece of the candle opening at `start`. */
export function candleFrom(start: number, part: Candle): Candle {
  return { ...part, start };
}

/** Adds a shorter candle that comes after everything in `candle` (its close is the new close). */
export function appendCandle(candle: Candle, later: Candle): void {
  if (later.high > candle.high) candle.high = later.high;
  if (later.low < candle.low) candle.low = later.low;
  candle.close = later.close;
  candle.volume += later.volume;
}

/** Adds a shorter candle that comes before everything in `candle` (its open is the new open). */
export function prependCandle(candle: Candle, earlier: Candle): void {
  if (earlier.high > candle.high) candle.high = earlier.high;
  if (earlier.low < candle.low) candle.low = earlier.low;
  candle.open = earlier.open;
  candle.volume += earlier.volume;
}

/** [open time, open, high, low, close, base volume], amounts as decimal text. */
export type KlineRow = [number, string, string, string, string, string];

export function klineRow(candle: Candle): KlineRow {
  return [
    candle.start,
    formatFixed(candle.open),
    formatFixed(candle.high),
    formatFixed(candle.low),
    formatFixed(candle.close),
    formatFixed(candle.volume),
  ];
}

/**
 * Klines as the JSON the interface shows: arrays of six numbers. Written from the decimal text
 * (which is valid JSON number syntax), so no amount passes through a float on its way out.
 */
export function klineRowsJson(rows: readonly KlineRow[]): string {
  return '[' + rows.map((row) => '[' + row.join(',') + ']').join(',') + ']';
}
