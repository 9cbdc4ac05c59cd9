/** The `!ticker@arr` stream: every market's 24h ticker, then every second those that changed. */
import type { TimerHandle } from '../../core/clock';
import { dataMessage } from './connection';
import type { FeedContext, PublicFeed } from './feed';

const TICKER_INTERVAL_MS = 1000;

/** A ticker as the stream sends it (the interface's key letters). */
interface TickerPayload {
  E: number;
  T: 'SPOT';
  U: string;
  a: string;
  b: string;
  c: string;
  h: string;
  l: string;
  o: string;
  q: string;
  s: string;
  u: string;
}

/** Missing ticker prices (a market without trades or without one side) go out as "0". */
function decimalOrZero(value: string | undefined | null): string {
  return value === undefined || value === null || value === '' ? '0' : value;
}

/** The ticker without its event time: what tells whether it changed. */
function contentKey(ticker: TickerPayload): string {
  return JSON.stringify({ ...ticker, E: 0 });
}

/** Every second, the tickers whose content changed (the 24h window moves even without trades). */
export class TickerFeed implements PublicFeed {
  private timer: TimerHandle | undefined;
  /** symbol -> the last sent ticker without its event time. */
  private readonly lastSent = new Map<string, string>();

  constructor(
    private readonly context: FeedContext,
    private readonly stream: string,
  ) {}

  start(): void {
    for (const ticker of this.payload()) this.lastSent.set(ticker.s, contentKey(ticker));
    this.schedule();
  }

  stop(): void {
    this.context.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  snapshot(): string {
    return dataMessage(this.stream, this.payload());
  }

  private payload(): TickerPayload[] {
    const { clock, engine } = this.context;
    const now = clock.now();
    return engine.tickers().map((ticker) => ({
      E: now,
      T: 'SPOT',
      U: ticker.quoteAsset,
      a: decimalOrZero(ticker.askPrice),
      b: decimalOrZero(ticker.bidPrice),
      c: decimalOrZero(ticker.lastPrice),
      h: decimalOrZero(ticker.highPrice),
      l: decimalOrZero(ticker.lowPrice),
      o: decimalOrZero(ticker.openPrice),
      q: decimalOrZero(ticker.volume),
      s: ticker.symbol,
      u: ticker.baseAsset,
    }));
  }

  private schedule(): void {
    this.timer = this.context.clock.setTimeout(() => this.tick(), TICKER_INTERVAL_MS);
  }

  private tick(): void {
    const changed = this.payload().filter((ticker) => {
      const key = contentKey(ticker);
      if (this.lastSent.get(ticker.s) === key) return false;
      this.lastSent.set(ticker.s, key);
      return true;
    });
    if (changed.length > 0) this.context.broadcast(this.stream, dataMessage(this.stream, changed));
    this.schedule();
  }
}
