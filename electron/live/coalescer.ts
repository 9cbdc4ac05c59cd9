/**
 * Gathers live updates and hands them on as one batch at most every `intervalMs` (one animation
 * frame by default; the first of a quiet spell at once, what follows it FOLLOW_UP_MS later), so a
 * burst of stream events costs the renderer one render, not hundreds.
 * Within a batch the latest update of an order or a balance wins; trades are all kept.
 */
import type { BalanceUpdate, OrderUpdate, OwnTradeUpdate } from '../../shared/types';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock';

export interface LiveBatch {
  orders: OrderUpdate[];
  trades: OwnTradeUpdate[];
  balances: BalanceUpdate[];
}

export const FRAME_MS = 16;

/**
 * How soon a batch may follow one that went out after a quiet spell. The stream sends one event's
 * messages apart (an order's update, its trade, the balances it moved), so what comes a moment
 * after the first went out is mostly the same event's, not a stream's next: held a frame, a lone
 * fill's trade reached the P&L card 16 ms after its order's update. A stream goes on at one batch
 * a frame after that.
 */
export const FOLLOW_UP_MS = 2;

export class BatchCoalescer {
  private orders = new Map<number, OrderUpdate>();
  private trades: OwnTradeUpdate[] = [];
  private balances = new Map<string, BalanceUpdate>();
  private timer: TimerHandle | undefined;
  private lastFlushAt = -Infinity;
  /**
   * Whether the pending batch, and the last one delivered, began after a quiet spell: its first
   * update came a frame or more after the batch before (not while a stream's batches waited out
   * their frames, which a quiet spell's follow-up would double).
   */
  private pendingLeading = false;
  private lastFlushLeading = false;
  private closed = false;

  constructor(
    private readonly deliver: (batch: LiveBatch) => void,
    private readonly intervalMs = FRAME_MS,
    private readonly clock: Clock = new SystemClock(),
  ) {}

  addOrder(order: OrderUpdate): void {
    this.orders.set(order.orderId, order);
    this.schedule();
  }

  addTrade(trade: OwnTradeUpdate): void {
    this.trades.push(trade);
    this.schedule();
  }

  addBalance(balance: BalanceUpdate): void {
    this.balances.set(balance.asset, balance);
    this.schedule();
  }

  /** Delivers what is pending now (used before closing, so nothing is lost). */
  flush(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.orders.size === 0 && this.trades.length === 0 && this.balances.size === 0) return;
    const batch: LiveBatch = {
      orders: [...this.orders.values()],
      trades: this.trades,
      balances: [...this.balances.values()],
    };
    this.orders = new Map();
    this.trades = [];
    this.balances = new Map();
    this.lastFlushLeading = this.pendingLeading;
    this.pendingLeading = false;
    this.lastFlushAt = this.clock.now();
    this.deliver(batch);
  }

  close(): void {
    this.flush();
    this.closed = true;
  }

  private schedule(): void {
    if (this.closed) {
      this.flush();
      return;
    }
    if (this.timer) return;
    const spacing = this.lastFlushLeading
      ? Math.min(FOLLOW_UP_MS, this.intervalMs)
      : this.intervalMs;
    // Clamped to one spacing: a wall clock set back must not hold a batch for the difference.
    const sinceFlush = this.clock.now() - this.lastFlushAt;
    const wait = Math.min(spacing, Math.max(0, spacing - sinceFlush));
    this.pendingLeading = sinceFlush >= this.intervalMs;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }
}
