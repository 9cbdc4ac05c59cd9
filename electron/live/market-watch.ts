/**
 * Live public market data for the one symbol on screen: trades and the top of the book, held on
 * the profile's one stream client (exchange/shared-stream.ts) beside the private streams and the
 * alerts' tickers. Watching another symbol replaces the previous one; the session's end (a profile
 * switch) closes the watch with the session.
 */
import type { Emit } from '../core/events';
import { toStreamTradeView } from '../core/views';
import type { SharedStream, StreamUser } from '../exchange/shared-stream';

/** Top 20 levels every 100 ms: each message is the whole visible book, not a diff. */
const DEPTH_LEVELS = 20;

export function marketStreams(symbol: string): string[] {
  return [`${symbol}@trades`, `${symbol}@depth${DEPTH_LEVELS}@100ms`];
}

export class MarketWatch {
  private readonly stream: StreamUser;
  private symbol: string | null = null;
  /**
   * Counts watch, unwatch and close calls: a watch whose subscribe fails undoes itself only while
   * no later call has changed what is watched.
   */
  private calls = 0;

  constructor(streams: SharedStream, emit: Emit) {
    const stream = streams.user('market');
    stream.on('trades', (payload, name) => {
      const symbol = name.slice(0, name.indexOf('@'));
      if (symbol !== this.symbol) return;
      emit('market.trades', { symbol, trades: payload.trades.map(toStreamTradeView) });
    });
    stream.on('depth', (payload, name) => {
      const symbol = name.slice(0, name.indexOf('@'));
      if (symbol !== this.symbol) return;
      emit('market.depth', {
        symbol,
        bids: payload.b.map(([price, qty]) => [price, qty]),
        asks: payload.a.map(([price, qty]) => [price, qty]),
        at: payload.E,
      });
    });
    this.stream = stream;
  }

  get watching(): string | null {
    return this.symbol;
  }

  async watch(symbol: string): Promise<void> {
    const stream = this.stream;
    const call = ++this.calls;
    const previous = this.symbol;
    this.symbol = symbol;
    if (previous !== null && previous !== symbol) {
      await stream.unsubscribe(marketStreams(previous));
    }
    try {
      await stream.subscribe(marketStreams(symbol));
    } catch (error) {
      // An unknown symbol (or a lost connection) leaves nothing half-watched behind. A later call
      // has already put things as they should be: an unwatch cut this subscribe short (rejecting
      // it), and a watch of the same symbol after it carries these very streams, which must stay.
      if (call === this.calls) {
        this.symbol = null;
        await stream.unsubscribe(marketStreams(symbol)).catch(() => undefined);
      }
      throw error;
    }
  }

  async unwatch(): Promise<void> {
    this.calls++;
    const previous = this.symbol;
    this.symbol = null;
    if (previous !== null) await this.stream.unsubscribe(marketStreams(previous));
  }

  async close(): Promise<void> {
    this.calls++;
    this.symbol = null;
    await this.stream.release();
  }
}
