/** Turns klines (decimal strings) into points a chart can draw; numbers only for pixel positions. */
import type { KlineView } from '../../../shared/types';

export interface CandlePoint {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** [low, high]: the range a bar spans; the candle shape draws body and wick inside it. */
  range: [number, number];
  rising: boolean;
  /** The exchange's own figures, every digit, for the tooltip (the numbers above only draw). */
  stated: { open: string; high: string; low: string; close: string };
}

export function toCandles(klines: KlineView[]): CandlePoint[] {
  return klines.map((k) => {
    const open = Number(k.open);
    const close = Number(k.close);
    const high = Number(k.high);
    const low = Number(k.low);
    return {
      time: k.time,
      open,
      close,
      high,
      low,
      range: [low, high],
      rising: close >= open,
      stated: { open: k.open, high: k.high, low: k.low, close: k.close },
    };
  });
}

/** Pixel y of `price` within a bar drawn from y (the high) down to y + height (the low). */
export function priceToY(
  price: number,
  high: number,
  low: number,
  y: number,
  height: number,
): number {
  if (high === low) return y + height / 2;
  return y + ((high - price) / (high - low)) * height;
}

/** Price domain with a little headroom so wicks do not touch the frame. */
export function candleDomain(candles: CandlePoint[]): [number, number] {
  if (candles.length === 0) return [0, 1];
  let low = Infinity;
  let high = -Infinity;
  for (const c of candles) {
    low = Math.min(low, c.low);
    high = Math.max(high, c.high);
  }
  const pad = (high - low) * 0.05 || high * 0.01 || 1;
  return [low - pad, high + pad];
}
