/**
 * The recent prices of one market, minute by minute: what a 1-hour price-move alert measures
 * against. Filled from the ticker stream as it goes and, at start and after a stream gap, from
 * 1-minute candles read over REST. (A 24-hour move needs none of this: every ticker carries the
 * open of its 24-hour window.)
 */

const MINUTE_MS = 60_000;

export class MinutePrices {
  /** Minute start -> the last price seen in that minute, oldest first. */
  private readonly minutes = new Map<number, string>();
  private newest = -Infinity;

  constructor(private readonly keepMs: number) {}

  /** Records a price seen at `at`. Prices older than the newest minute kept are ignored. */
  record(at: number, price: string): void {
    const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    if (minute < this.newest) return;
    if (minute > this.newest) {
      this.newest = minute;
      this.minutes.set(minute, price);
      this.prune();
      return;
    }
    this.minutes.set(minute, price);
  }

  /** Records a 1-minute candle (its close is the minute's last price). */
  recordCandle(openTime: number, close: string): void {
    const minute = Math.floor(openTime / MINUTE_MS) * MINUTE_MS;
    if (this.minutes.has(minute) && minute === this.newest) return;
    if (minute > this.newest) this.newest = minute;
    this.minutes.set(minute, close);
    // A candle may arrive older than minutes already kept: keep the map in time order.
    const sorted = [...this.minutes.entries()].sort((a, b) => a[0] - b[0]);
    this.minutes.clear();
    for (const [key, value] of sorted) this.minutes.set(key, value);
    this.prune();
  }

  /**
   * The price `windowMs` before `at`: the last price of the latest minute that ended by then.
   * undefined when no price that old is known.
   */
  priceBefore(at: number, windowMs: number): string | undefined {
    const limit = Math.floor((at - windowMs) / MINUTE_MS) * MINUTE_MS;
    let found: string | undefined;
    for (const [minute, price] of this.minutes) {
      if (minute >= limit) break;
      found = price;
    }
    return found;
  }

  private prune(): void {
    const cutoff = this.newest - this.keepMs - MINUTE_MS;
    let previous: number | undefined;
    for (const minute of this.minutes.keys()) {
      if (minute >= cutoff) break;
      // The newest minute before the cutoff stays: it is the price at the cutoff.
      if (previous !== undefined) this.minutes.delete(previous);
      previous = minute;
    }
  }
}
