/**
 * market.*: public market data through the active profile's client (tickers also refresh the
 * cached prices the valuation uses), and the live trades/depth of the symbol on screen.
 */
import type { ApiContext, HandlerGroup } from './context';
import { toDepthView, toKlineView, toPublicTradeView, toSymbolView, toTickerView } from './views';

export function marketHandlers(ctx: ApiContext) {
  return {
    'market.symbols': async () => {
      const info = await ctx.session.require().client.general.exchangeInfo();
      return info.symbols.map(toSymbolView);
    },
    'market.tickers': async () => {
      const { profile, client } = ctx.session.require();
      const tickers = await client.market.tickers();
      ctx.store.prices.upsertTickers(profile.id, tickers);
      ctx.emit('data.changed', { profileId: profile.id, kinds: ['prices'] });
      return tickers.map(toTickerView);
    },
    'market.klines': async ({ symbol, interval, limit }) => {
      const klines = await ctx.session.require().client.market.klines({ symbol, interval, limit });
      return klines.map(toKlineView);
    },
    'market.depth': async ({ symbol, limit }) => {
      const book = await ctx.session.require().client.market.depth({ symbol, limit });
      return toDepthView(symbol, book);
    },
    'market.trades': async ({ symbol, limit }) => {
      const trades = await ctx.session.require().client.market.trades({ symbol, limit });
      return trades.map(toPublicTradeView);
    },
    'market.watch': async ({ symbol }) => {
      const { profile } = ctx.session.require();
      await ctx.market.watch(profile.streamUrl, symbol);
      return { symbol };
    },
    'market.unwatch': async () => {
      await ctx.market.unwatch();
      return { symbol: null };
    },
  } satisfies HandlerGroup<'market'>;
}
