/**
 * The `<symbol>@trades` streams: the trades of one engine operation (one order can match many
 * makers) go out together, one message per symbol, once the operation has returned.
 */
import type { SandboxTradeEvent } from '../events';
import { dataMessage } from './connection';
import type { FeedContext, PublicFeed } from './feed';

/** One trade as the stream sends it (the interface's key letters). */
interface TradePayloadItem {
  E: number;
  S: 'buy' | 'sell';
  a: number;
  b: number;
  m: boolean;
  p: string;
  q: string;
  s: string;
  t: number;
}

export class PublicTrades {
  /** The trades streams somebody is subscribed to. */
  private readonly active = new Set<string>();
  private readonly pending = new Map<string, TradePayloadItem[]>();
  private pendingTime: number | undefined;
  private flushQueued = false;

  constructor(private readonly context: Pick<FeedContext, 'broadcast'>) {}

  /** Whether any trades stream has subscribers (the engine's trade events are then needed). */
  get wanted(): boolean {
    return this.active.size > 0;
  }

  /** One trades stream's feed: the engine pushes its trades; nothing runs or snapshots. */
  feed(stream: string): PublicFeed {
    return {
      start: () => void this.active.add(stream),
      stop: () => {
        this.active.delete(stream);
        this.pending.delete(stream);
      },
      snapshot: () => undefined,
    };
  }

  onTrade(trade: SandboxTradeEvent): void {
    const stream = `${trade.symbol}@trades`;
    if (!this.active.has(stream)) return;
    // Trades of another moment belong to another operation (a ManualClock runs many operations
    // in one synchronous advance): they go out as their own message.
    if (this.pendingTime !== undefined && this.pendingTime !== trade.time) this.flush();
    this.pendingTime = trade.time;
    let batch = this.pending.get(stream);
    if (!batch) this.pending.set(stream, (batch = []));
    batch.push({
      E: trade.time,
      // The taker's side: a buyer-maker trade was taken by a seller.
      S: trade.isBuyerMaker ? 'sell' : 'buy',
      a: trade.buyOrderId,
      b: trade.sellOrderId,
      m: trade.isBuyerMaker,
      p: trade.price,
      q: trade.qty,
      s: trade.symbol,
      t: trade.id,
    });
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  clear(): void {
    this.pending.clear();
  }

  private flush(): void {
    this.flushQueued = false;
    this.pendingTime = undefined;
    for (const [stream, trades] of this.pending) {
      this.context.broadcast(stream, dataMessage(stream, { trades }));
    }
    this.pending.clear();
  }
}
