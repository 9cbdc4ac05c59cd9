/**
 * Mapping exchange wire records to the views the bridge carries. Pure functions: no store, no
 * client, so every handler and the live session shape data the same way.
 */
import type {
  AccountInfo,
  Kline,
  Order,
  OrderBook,
  OrderUpdateEvent,
  OwnTradeEvent,
  PublicTrade,
  StreamTrade,
  SymbolInfo,
  Ticker,
} from '../exchange/wire';
import type {
  AccountView,
  DepthView,
  KlineView,
  OrderType,
  OrderUpdate,
  OrderView,
  OwnTradeUpdate,
  PublicTradeView,
  SymbolView,
  TickerView,
} from '../../shared/types';

export function toOrderView(order: Order): OrderView {
  return {
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

export function toOrderUpdate(event: OrderUpdateEvent): OrderUpdate {
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

export function toOwnTradeUpdate(event: OwnTradeEvent): OwnTradeUpdate {
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

const ORDER_TYPES: readonly OrderType[] = ['limit', 'stop_limit'];

export function toSymbolView(info: SymbolInfo): SymbolView {
  const priceFilter = info.filters.find((f) => f.filterType.toUpperCase() === 'PRICE_FILTER');
  return {
    symbol: info.symbol,
    baseAsset: info.baseAsset,
    quoteAsset: info.quoteAsset,
    baseAssetPrecision: info.baseAssetPrecision,
    quoteAssetPrecision: info.quoteAssetPrecision,
    tickSize: priceFilter?.tickSize ?? '0',
    minPrice: priceFilter?.minPrice ?? '0',
    orderTypes: ORDER_TYPES.filter((type) => info.orderTypes.some((t) => t.toLowerCase() === type)),
  };
}

export function toTickerView(ticker: Ticker): TickerView {
  return {
    symbol: ticker.symbol,
    baseAsset: ticker.baseAsset,
    quoteAsset: ticker.quoteAsset,
    lastPrice: ticker.lastPrice,
    openPrice: ticker.openPrice,
    highPrice: ticker.highPrice,
    lowPrice: ticker.lowPrice,
    volume: ticker.volume,
    bidPrice: ticker.bidPrice,
    askPrice: ticker.askPrice,
    at: ticker.at,
  };
}

export function toKlineView(kline: Kline): KlineView {
  const [time, open, high, low, close, volume] = kline;
  return { time, open, high, low, close, volume };
}

export function toDepthView(symbol: string, book: OrderBook): DepthView {
  return {
    symbol,
    bids: book.bids.map(([price, qty]) => [price, qty]),
    asks: book.asks.map(([price, qty]) => [price, qty]),
    at: book.lastUpdateAt,
  };
}

export function toPublicTradeView(trade: PublicTrade): PublicTradeView {
  return {
    id: trade.id,
    price: trade.price,
    qty: trade.qty,
    time: trade.time,
    isBuyerMaker: trade.isBuyerMaker,
  };
}

export function streamTradeView(trade: StreamTrade): PublicTradeView {
  return { id: trade.t, price: trade.p, qty: trade.q, time: trade.E, isBuyerMaker: trade.m };
}

export function toAccountView(info: AccountInfo): AccountView {
  return {
    accountType: info.accountType,
    canTrade: info.canTrade,
    canWithdraw: info.canWithdraw,
    updateTime: info.updateTime,
  };
}
