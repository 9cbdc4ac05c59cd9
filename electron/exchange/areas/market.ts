/** Market data and the exchange's general endpoints: public, no key needed (historicalTrades aside). */
import { validate, type InputOf } from '../inputs';
import type { Requests } from '../requests';
import {
  emptyObject,
  exchangeInfoSchema,
  klineListSchema,
  orderBookSchema,
  publicTradeListSchema,
  serverTimeSchema,
  systemStatusSchema,
  tickerListSchema,
  tickerSchema,
} from '../wire';

export function generalArea(requests: Requests) {
  return {
    ping: () => requests.get('ping', {}, emptyObject),
    systemStatus: () => requests.get('systemStatus', {}, systemStatusSchema),
    time: () => requests.get('time', {}, serverTimeSchema),
    exchangeInfo: () => requests.get('exchangeInfo', {}, exchangeInfoSchema),
  };
}

export function marketArea(requests: Requests) {
  return {
    /** `takeKept`: the answer another caller got in the last few seconds will do. */
    tickers: (options: { takeKept?: boolean } = {}) =>
      requests.get('tickers', {}, tickerListSchema, options),
    ticker: async (p: InputOf<'ticker'>) => {
      const v = validate('ticker', p, 'market.ticker');
      return requests.get('ticker', v, tickerSchema);
    },
    /** Candles with their amounts as decimal text, whether the exchange sent numbers or strings. */
    klines: async (p: InputOf<'klines'>) => {
      const v = validate('klines', p, 'market.klines');
      return requests.get('klines', v, klineListSchema);
    },
    depth: async (p: InputOf<'depth'>) => {
      const v = validate('depth', p, 'market.depth');
      return requests.get('depth', v, orderBookSchema);
    },
    trades: async (p: InputOf<'trades'>) => {
      const v = validate('trades', p, 'market.trades');
      return requests.get('trades', v, publicTradeListSchema);
    },
    historicalTrades: async (p: InputOf<'historicalTrades'>) => {
      const v = validate('historicalTrades', p, 'market.historicalTrades');
      return requests.get('historicalTrades', v, publicTradeListSchema);
    },
  };
}
