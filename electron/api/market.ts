/**
 * market.*: public market data of the active profile, served from the last answers kept when the
 * exchange does not answer (market/cache.ts: the symbols, candles, book and recent trades), and the live trades and book of the symbol on screen.
 */
import type { ApiContext, HandlerGroup } from './context';

export function marketHandlers(ctx: ApiContext) {
  return {
    'market.symbols': () => ctx.marketCache.symbols(ctx.session.require()),
    'market.tickers': () =>
      ctx.marketCache.tickers(ctx.session.require(), ctx.settings().quoteAsset),
    'market.klines': ({ symbol, interval, limit }) =>
      ctx.marketCache.klines(ctx.session.require(), { symbol, interval, limit }),
    'market.depth': ({ symbol, limit }) =>
      ctx.marketCache.depth(ctx.session.require(), { symbol, limit }),
    'market.trades': ({ symbol, limit }) =>
      ctx.marketCache.trades(ctx.session.require(), { symbol, limit }),
    'market.watch': async ({ symbol }) => {
      await ctx.session.require().market.watch(symbol);
      return { symbol };
    },
    'market.unwatch': async () => {
      await ctx.session.current()?.market.unwatch();
      return { symbol: null };
    },
  } satisfies HandlerGroup<'market'>;
}
