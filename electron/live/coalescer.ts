/**
 * Gathers live updates and hands them on as one batch at most every `intervalMs` (one animation
 * frame by default), so a burst of stream events costs the renderer one render, not hundreds.
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

export class BatchCoalescer {
  private orders = new Map<number, OrderUpdate>();
  private trades: OwnTradeUpdate[] = [];
  private balances = new Map<string, BalanceUpdate>();
  private timer: TimerHandle | undefined;
  private lastFlushAt = -Infinity;
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
    // Clamped to one interval: a wall clock set back must not hold a batch for the difference.
    const sinceFlush = this.clock.now() - this.lastFlushAt;
    const wait = Math.min(this.intervalMs, Math.max(0, this.intervalMs - sinceFlush));
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }
}
