/**
 * What every public feed shares: the producer interface, what a feed may use (the clock, the
 * engine, and a way to send to a stream's subscribers), and feeds grouped by symbol so that an
 * engine event reaches only the feeds of its market.
 */
import type { Clock } from '../../core/clock';
import type { MatchingEngine } from '../engine';

/** A public stream's producer; exists while the stream has at least one subscriber. */
export interface PublicFeed {
  start(): void;
  stop(): void;
  /** The message a new subscriber gets at once (current state), if the stream has one. */
  snapshot(): string | undefined;
}

export interface FeedContext {
  readonly clock: Clock;
  readonly engine: MatchingEngine;
  /** Sends one message (JSON text) to every subscriber of `stream`. */
  broadcast(stream: string, text: string): void;
}

/** Live feeds by symbol; a symbol without feeds has no entry, so `size` counts symbols served. */
export class FeedsBySymbol<Feed> {
  private readonly bySymbol = new Map<string, Set<Feed>>();

  get size(): number {
    return this.bySymbol.size;
  }

  add(symbol: string, feed: Feed): void {
    let feeds = this.bySymbol.get(symbol);
    if (!feeds) this.bySymbol.set(symbol, (feeds = new Set()));
    feeds.add(feed);
  }

  remove(symbol: string, feed: Feed): void {
    const feeds = this.bySymbol.get(symbol);
    feeds?.delete(feed);
    if (feeds?.size === 0) this.bySymbol.delete(symbol);
  }

  of(symbol: string): ReadonlySet<Feed> | undefined {
    return this.bySymbol.get(symbol);
  }
}
