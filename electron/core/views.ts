/**
 * Orders and trades as the bridge carries them, mapped from what the exchange sends. Both the
 * request handlers (REST answers) and the live session (stream events) shape them here, so a
 * screen sees the same order whichever way it arrived.
 *
 * Each mapper names the fields it reads; the exchange client's parsed wire records have them, so
 * they are passed as they are, and core needs nothing from the client.
 */
import { MAIN_ACCOUNT } from '../../shared/ledger';
import type {
  DecimalText,
  OrderSide,
  OrderStatus,
  OrderType,
  OrderUpdate,
  OrderView,
  OwnTradeUpdate,
  PublicTradeView,
} from '../../shared/types';

/** An order as the REST interface returns it. */
export interface OrderFields {
  id: number;
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: DecimalText;
  stopPrice?: DecimalText | undefined;
  origQty: DecimalText;
  executedQty: DecimalText;
  createdTime: number;
  updatedTime: number;
}

/** An order update of the private stream, in its one-letter field names. */
export interface OrderUpdateFields {
  /** order id */
  i: number;
  /** client order id */
  c: string;
  s: string;
  S: OrderSide;
  /** order type */
  o: OrderType;
  /** order status */
  X: OrderStatus;
  p: DecimalText;
  /** original quantity */
  V: DecimalText;
  /** executed quantity so far */
  z: DecimalText;
  /** time of this update */
  O: number;
}

/** An own trade of the private stream. */
export interface OwnTradeFields {
  /** trade id */
  t: number;
  /** order id */
  o: number;
  s: string;
  S: OrderSide;
  p: DecimalText;
  q: DecimalText;
  /** fee and its asset */
  f: DecimalText;
  U: string;
  E: number;
}

/** A public trade of a symbol's trades stream. */
export interface StreamTradeFields {
  t: number;
  p: DecimalText;
  q: DecimalText;
  E: number;
  /** whether the buyer was the maker */
  m: boolean;
}

/** An order of the exchange's answer as the screens show it, with the account it is of. */
export function toOrderView(order: OrderFields, account: string = MAIN_ACCOUNT): OrderView {
  return {
    account,
    id: order.id,
    clientOrderId: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    status: order.status,
    price: order.price,
    stopPrice: order.stopPrice ?? null,
    origQty: order.origQty,
    executedQty: order.executedQty,
    createdTime: order.createdTime,
    updatedTime: order.updatedTime,
  };
}

export function toOrderUpdate(event: OrderUpdateFields): OrderUpdate {
  return {
    orderId: event.i,
    clientOrderId: event.c,
    symbol: event.s,
    side: event.S,
    type: event.o,
    status: event.X,
    price: event.p,
    origQty: event.V,
    executedQty: event.z,
    time: event.O,
  };
}

export function toOwnTradeUpdate(event: OwnTradeFields): OwnTradeUpdate {
  return {
    tradeId: event.t,
    orderId: event.o,
    symbol: event.s,
    side: event.S,
    price: event.p,
    qty: event.q,
    fee: event.f,
    feeCurrency: event.U,
    time: event.E,
  };
}

export function toStreamTradeView(trade: StreamTradeFields): PublicTradeView {
  return { id: trade.t, price: trade.p, qty: trade.q, time: trade.E, isBuyerMaker: trade.m };
}
