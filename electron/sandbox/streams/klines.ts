/**
 * The `<symbol>@kline_<interval>` streams: candles of one symbol and interval, built from trades
 * with the same candle functions as the REST klines (../klines.ts), so both agree.
 */
import type { TimerHandle } from '../../core/clock';
import { parseFixed } from '../fixed';
import {
  addTrade,
  candleBounds,
  candleStart,
  klineRow,
  openCandle,
  type Candle,
  type KlineSpan,
} from '../klines';
import type { FeedContext, FeedsBySymbol, PublicFeed } from './feed';

/** How often a kline stream sends its candles. */
const KLINE_PUSH_INTERVAL_MS = 5000;

/**
 * Candles of one symbol and interval: seeded at start from the engine's candle of the current
 * span (what the REST klines answer), then updated from every trade event. Every 5 seconds it
 * sends the candles closed since the last send (their final state) and the current one (an empty
 * current candle shows the last close with volume 0).
 */
export class KlineFeed implements PublicFeed {
  private timer: TimerHandle | undefined;
  private current: Candle | undefined;
  private readonly closedUnsent: Candle[] = [];
  private lastClose: bigint | undefined;

  constructor(
    private readonly context: FeedContext,
    private readonly feeds: FeedsBySymbol<KlineFeed>,
    private readonly stream: string,
    private readonly symbol: string,
    private readonly span: KlineSpan,
  ) {}

  start(): void {
    this.seed();
    this.feeds.add(this.symbol, this);
    this.schedule();
  }

  stop(): void {
    this.context.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.feeds.remove(this.symbol, this);
  }

  snapshot(): string | undefined {
    const candle = this.currentCandle(this.context.clock.now());
    return candle && this.message(candle);
  }

  onTrade(priceText: string, quantityText: string, time: number): void {
    const price = parseFixed(priceText)!;
    const quantity = parseFixed(quantityText)!;
    const start = candleStart(this.span, time);
    const candle = this.current;
    if (candle && candle.start === start) {
      addTrade(candle, price, quantity);
      return;
    }
    // A trade older than the current candle (clock moved back) cannot reopen it; ignore it.
    if (candle && candle.start > start) return;
    if (candle) this.close(candle);
    this.current = openCandle(start, price, quantity);
  }

  private seed(): void {
    const { clock, engine } = this.context;
    const now = clock.now();
    const start = candleStart(this.span, now);
    const last = engine.lastPrice(this.symbol);
    this.lastClose = last === undefined ? undefined : parseFixed(last);
    this.current = engine.candles(this.symbol, this.span, {
      limit: 1,
      startTime: start,
      endTime: now,
    })[0];
  }

  private close(candle: Candle): void {
    this.closedUnsent.push(candle);
    this.lastClose = candle.close;
  }

  private currentCandle(now: number): Candle | undefined {
    const start = candleStart(this.span, now);
    if (this.current && this.current.start === start) return this.current;
    if (this.current) {
      this.close(this.current);
      this.current = undefined;
    }
    if (this.lastClose === undefined) return undefined;
    return openCandle(start, this.lastClose, 0n);
  }

  /**
   * The stream message of a candle. Its amounts go out as strings, as the interface's stream table
   * says (only the REST klines are arrays of numbers); the decimal text needs no escaping.
   */
  private message(candle: Candle): string {
    const [t, open, high, low, close, volume] = klineRow(candle);
    const end = candleBounds(this.span, t)[1];
    const data =
      `{"E":${this.context.clock.now()},"s":${JSON.stringify(this.symbol)},"t":${t},"T":${end},` +
      `"i":${JSON.stringify(this.span.name)},"o":"${open}","c":"${close}","h":"${high}",` +
      `"l":"${low}","v":"${volume}"}`;
    return `{"data":${data},"stream":${JSON.stringify(this.stream)}}`;
  }

  private schedule(): void {
    this.timer = this.context.clock.setTimeout(() => this.tick(), KLINE_PUSH_INTERVAL_MS);
  }

  private tick(): void {
    const current = this.currentCandle(this.context.clock.now());
    for (const candle of this.closedUnsent.splice(0)) {
      this.context.broadcast(this.stream, this.message(candle));
    }
    if (current) this.context.broadcast(this.stream, this.message(current));
    this.schedule();
  }
}
