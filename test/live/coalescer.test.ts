/**
 * live.batch coalescing: a burst within one frame becomes one batch, the first moment of a quiet
 * spell goes at once and what follows it a moment later; the latest state wins.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type Clock } from '../../electron/core/clock';
import {
  BatchCoalescer,
  FOLLOW_UP_MS,
  FRAME_MS,
  type LiveBatch,
} from '../../electron/live/coalescer';
import type { OrderUpdate } from '../../shared/types';

function order(orderId: number, status: OrderUpdate['status'], executedQty: string): OrderUpdate {
  return {
    orderId,
    clientOrderId: `c${orderId}`,
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    status,
    price: '100',
    origQty: '1',
    executedQty,
    time: 1,
  };
}

describe('BatchCoalescer', () => {
  let clock: ManualClock;
  let batches: LiveBatch[];
  let coalescer: BatchCoalescer;

  beforeEach(() => {
    clock = new ManualClock(1000);
    batches = [];
    coalescer = new BatchCoalescer((b) => batches.push(b), FRAME_MS, clock);
  });

  it('delivers a burst as one batch, keeping the latest update per order and balance', () => {
    coalescer.addOrder(order(1, 'wait', '0'));
    coalescer.addOrder(order(1, 'wait', '0.5'));
    coalescer.addOrder(order(2, 'wait', '0'));
    coalescer.addBalance({ asset: 'usdt', free: '10', locked: '0', time: 1 });
    coalescer.addBalance({ asset: 'usdt', free: '9', locked: '1', time: 2 });
    coalescer.addTrade({
      tradeId: 7,
      orderId: 1,
      symbol: 'btcusdt',
      side: 'buy',
      price: '100',
      qty: '0.5',
      fee: '0.001',
      feeCurrency: 'btc',
      time: 2,
    });
    expect(batches).toEqual([]);
    clock.advance(FRAME_MS);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.orders.map((o) => [o.orderId, o.executedQty])).toEqual([
      [1, '0.5'],
      [2, '0'],
    ]);
    expect(batches[0]!.balances).toEqual([{ asset: 'usdt', free: '9', locked: '1', time: 2 }]);
    expect(batches[0]!.trades).toHaveLength(1);
  });

  it('sends the first moment of a quiet spell at once, its next a moment later, then a batch a frame', () => {
    coalescer.addOrder(order(1, 'wait', '0'));
    // The first update of a quiet stream goes out at once.
    clock.advance(0);
    expect(batches).toHaveLength(1);
    // The same fill's trade and balances, sent apart by the stream: FOLLOW_UP_MS after it, not a
    // frame.
    clock.advance(1);
    coalescer.addTrade({
      tradeId: 8,
      orderId: 1,
      symbol: 'btcusdt',
      side: 'buy',
      price: '100',
      qty: '1',
      fee: '0',
      feeCurrency: 'btc',
      time: 3,
    });
    coalescer.addBalance({ asset: 'btc', free: '1', locked: '0', time: 3 });
    clock.advance(FOLLOW_UP_MS - 1 - 1);
    expect(batches).toHaveLength(1);
    clock.advance(1);
    expect(batches).toHaveLength(2);
    expect(batches[1]!.trades.map((t) => t.tradeId)).toEqual([8]);
    expect(batches[1]!.balances).toHaveLength(1);
    // A stream goes on: what comes next waits a frame after that batch.
    clock.advance(5);
    coalescer.addOrder(order(1, 'done', '1'));
    clock.advance(FRAME_MS - 5 - 1);
    expect(batches).toHaveLength(2);
    clock.advance(1);
    expect(batches).toHaveLength(3);
    expect(batches[2]!.orders[0]!.status).toBe('done');
    // And one a frame while it goes on.
    clock.advance(1);
    coalescer.addOrder(order(2, 'wait', '0'));
    clock.advance(FRAME_MS - 2);
    expect(batches).toHaveLength(3);
    clock.advance(1);
    expect(batches).toHaveLength(4);
    // After a quiet spell, the first goes at once again.
    clock.advance(FRAME_MS * 3);
    coalescer.addOrder(order(3, 'wait', '0'));
    clock.advance(0);
    expect(batches).toHaveLength(5);
  });

  it('never holds a batch longer than one frame when the wall clock is set back', () => {
    const timers = new ManualClock(0);
    let wall = 10_000;
    const wallClock: Clock = {
      now: () => wall,
      setTimeout: (fn, ms) => timers.setTimeout(fn, ms),
      clearTimeout: (handle) => timers.clearTimeout(handle),
    };
    const other = new BatchCoalescer((b) => batches.push(b), FRAME_MS, wallClock);
    other.addOrder(order(2, 'wait', '0'));
    timers.advance(0);
    expect(batches).toHaveLength(1);
    // The wall clock jumps an hour back: the next batch still waits one frame at most.
    wall -= 3_600_000;
    other.addOrder(order(2, 'done', '1'));
    timers.advance(FRAME_MS);
    expect(batches).toHaveLength(2);
    expect(batches[1]!.orders[0]!.status).toBe('done');
  });

  it('flushes what is pending on close, and nothing when empty', () => {
    coalescer.close();
    expect(batches).toEqual([]);
    const other = new BatchCoalescer((b) => batches.push(b), FRAME_MS, clock);
    other.addOrder(order(3, 'cancel', '0'));
    other.close();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.orders[0]!.orderId).toBe(3);
  });
});
