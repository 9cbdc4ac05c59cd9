/**
 * Mapping the exchange's market records to the views the bridge carries. Pure
 * functions: no store, no client. Orders and trades, which the live session shapes too, are
 * mapped in electron/core/views.ts.
 */
import type { Kline, OrderBook, PublicTrade, SymbolInfo, Ticker } from '../exchange/wire';
import type {
  DepthView,
  KlineView,
  OrderType,
  PublicTradeView,
  SymbolView,
  TickerView,
} from '../../shared/types';
import { isDecimalText } from '../../shared/decimal';
import { formatDecimal, parseDecimal } from '../core/decimal';

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

/**
 * A ticker's 24h quote volume: the exchange's own sum when it sends one (`quoteVolume`), or else
 * the base volume at the last price, marked as an estimate.
 */
function quoteVolumeOf(ticker: Ticker): { quoteVolume: string; estimated: boolean } {
  const sent = (ticker as Record<string, unknown>).quoteVolume;
  if (typeof sent === 'string' && isDecimalText(sent))
    return { quoteVolume: sent, estimated: false };
  return {
    quoteVolume: formatDecimal(parseDecimal(ticker.volume, 'volume').times(ticker.lastPrice)),
    estimated: true,
  };
}

export function toTickerView(ticker: Ticker): TickerView {
  const { quoteVolume, estimated } = quoteVolumeOf(ticker);
  return {
    symbol: ticker.symbol,
    baseAsset: ticker.baseAsset,
    quoteAsset: ticker.quoteAsset,
    lastPrice: ticker.lastPrice,
    openPrice: ticker.openPrice,
    highPrice: ticker.highPrice,
    lowPrice: ticker.lowPrice,
    volume: ticker.volume,
    quoteVolume,
    quoteVolumeEstimated: estimated,
    quoteVolumeValue: null,
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
