/**
 * Orders and trades shaped for the bridge from what the exchange sends: the REST order, the
 * stream's one-letter order update and own trade, and a public stream trade.
 */
import { describe, expect, it } from 'vitest';
import {
  toOrderUpdate,
  toOrderView,
  toOwnTradeUpdate,
  toStreamTradeView,
} from '../../electron/core/views';
import type {
  Order,
  OrderUpdateEvent,
  OwnTradeEvent,
  StreamTrade,
} from '../../electron/exchange/wire';

describe('order and trade views', () => {
  it("maps a REST order, with no stop price as null, as the main account's unless another is named", () => {
    const order: Order = {
      id: 7,
      clientOrderId: 'abc',
      symbol: 'btcusdt',
      price: '60000',
      origQty: '0.5',
      executedQty: '0.1',
      status: 'wait',
      type: 'limit',
      side: 'buy',
      createdTime: 1,
      updatedTime: 2,
    };
    expect(toOrderView(order)).toEqual({
      account: 'main',
      id: 7,
      clientOrderId: 'abc',
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      status: 'wait',
      price: '60000',
      stopPrice: null,
      origQty: '0.5',
      executedQty: '0.1',
      createdTime: 1,
      updatedTime: 2,
    });
    expect(toOrderView({ ...order, type: 'stop_limit', stopPrice: '59000' }).stopPrice).toBe(
      '59000',
    );
    expect(toOrderView(order, 'sub1@example.com').account).toBe('sub1@example.com');
  });

  it('maps the stream order update and own trade to the live batch shapes', () => {
    const update: OrderUpdateEvent = {
      E: 10,
      O: 11,
      S: 'sell',
      V: '1',
      X: 'done',
      i: 3,
      c: 'cid',
      m: false,
      o: 'limit',
      p: '2.5',
      q: '1',
      s: 'ethusdt',
      v: '1',
      z: '1',
    };
    expect(toOrderUpdate(update)).toEqual({
      orderId: 3,
      clientOrderId: 'cid',
      symbol: 'ethusdt',
      side: 'sell',
      type: 'limit',
      status: 'done',
      price: '2.5',
      origQty: '1',
      executedQty: '1',
      time: 11,
    });
    const trade: OwnTradeEvent = {
      E: 12,
      S: 'sell',
      U: 'usdt',
      a: 1,
      b: 2,
      f: '0.01',
      m: true,
      o: 3,
      c: 'cid',
      p: '2.5',
      q: '1',
      s: 'ethusdt',
      t: 99,
      w: '2.5',
    };
    expect(toOwnTradeUpdate(trade)).toEqual({
      tradeId: 99,
      orderId: 3,
      symbol: 'ethusdt',
      side: 'sell',
      price: '2.5',
      qty: '1',
      fee: '0.01',
      feeCurrency: 'usdt',
      time: 12,
    });
  });

  it('maps a public stream trade', () => {
    const trade: StreamTrade = {
      E: 5,
      S: 'buy',
      a: 1,
      b: 2,
      m: true,
      p: '1.1',
      q: '3',
      s: 'x',
      t: 4,
    };
    expect(toStreamTradeView(trade)).toEqual({
      id: 4,
      price: '1.1',
      qty: '3',
      time: 5,
      isBuyerMaker: true,
    });
  });
});
