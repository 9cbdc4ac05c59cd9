/** live.batch coalescing: a burst within one frame becomes one batch; the latest state wins. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchCoalescer, FRAME_MS, type LiveBatch } from '../../electron/live/coalescer';
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
  let now = 0;
  let batches: LiveBatch[];
  let coalescer: BatchCoalescer;

  beforeEach(() => {
    vi.useFakeTimers();
    now = 1000;
    batches = [];
    coalescer = new BatchCoalescer(
      (b) => batches.push(b),
      FRAME_MS,
      () => now,
    );
  });

  afterEach(() => {
    vi.useRealTimers();
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
    vi.runAllTimers();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.orders.map((o) => [o.orderId, o.executedQty])).toEqual([
      [1, '0.5'],
      [2, '0'],
    ]);
    expect(batches[0]!.balances).toEqual([{ asset: 'usdt', free: '9', locked: '1', time: 2 }]);
    expect(batches[0]!.trades).toHaveLength(1);
  });

  it('never delivers two batches within one frame', () => {
    coalescer.addOrder(order(1, 'wait', '0'));
    vi.runAllTimers();
    expect(batches).toHaveLength(1);
    now += 5;
    coalescer.addOrder(order(1, 'done', '1'));
    // Not yet: the previous batch went out 5 ms ago.
    vi.advanceTimersByTime(FRAME_MS - 5 - 1);
    expect(batches).toHaveLength(1);
    now += FRAME_MS;
    vi.advanceTimersByTime(1);
    expect(batches).toHaveLength(2);
    expect(batches[1]!.orders[0]!.status).toBe('done');
  });

  it('flushes what is pending on close, and nothing when empty', () => {
    coalescer.close();
    expect(batches).toEqual([]);
    const other = new BatchCoalescer(
      (b) => batches.push(b),
      FRAME_MS,
      () => now,
    );
    other.addOrder(order(3, 'cancel', '0'));
    other.close();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.orders[0]!.orderId).toBe(3);
  });
});
