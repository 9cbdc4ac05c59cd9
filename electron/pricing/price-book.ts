/**
 * Prices of one asset in another from 24h tickers: a direct pair (asset/quote), the inverse pair
 * (quote/asset) or a path through one bridge asset (usdt, btc, ...). Decimal only: an amount is
 * never a JavaScript float.
 */
import { Decimal, divide } from '../../shared/exact-decimal';
import { assetKey } from '../../shared/market';
import { parseDecimal } from '../core/decimal';

/** The ticker fields valuation needs (TickerView, the wire Ticker and store rows all have them). */
export interface PriceTicker {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  lastPrice: string;
  openPrice: string;
}

/** Bridge assets tried in this order when neither the direct nor the inverse pair exists. */
export const BRIDGE_ASSETS = ['usdt', 'btc', 'eth', 'usdc', 'busd'] as const;

/** Which price of a ticker to read: the last trade, or the open of the 24h window. */
export type PriceField = 'lastPrice' | 'openPrice';

/** Index of tickers by "base/quote", built once per valuation. */
export class PriceBook {
  private readonly pairs = new Map<string, PriceTicker>();
  private readonly bySymbol = new Map<string, PriceTicker>();

  constructor(tickers: Iterable<PriceTicker>) {
    for (const ticker of tickers) {
      this.pairs.set(pairKey(ticker.baseAsset, ticker.quoteAsset), ticker);
      this.bySymbol.set(ticker.symbol, ticker);
    }
  }

  /** One hop: direct pair or inverse pair; null when neither exists or the price is not positive. */
  private hop(from: string, to: string, field: PriceField): PriceHop | null {
    const direct = this.pairs.get(pairKey(from, to));
    if (direct && parseDecimal(direct[field], direct.symbol).gt(0))
      return { symbol: direct.symbol, inverse: false };
    const inverse = this.pairs.get(pairKey(to, from));
    if (inverse && parseDecimal(inverse[field], inverse.symbol).gt(0))
      return { symbol: inverse.symbol, inverse: true };
    return null;
  }

  /**
   * The pairs that price `asset` in `quote`: [] for the quote asset itself, one hop for a direct or
   * inverse pair, two hops through a bridge asset; null when no path exists.
   */
  path(quote: string, asset: string, field: PriceField = 'lastPrice'): PriceHop[] | null {
    const from = assetKey(asset);
    const to = assetKey(quote);
    if (from === to) return [];
    const oneHop = this.hop(from, to, field);
    if (oneHop) return [oneHop];
    for (const bridge of BRIDGE_ASSETS) {
      if (bridge === from || bridge === to) continue;
      const first = this.hop(from, bridge, field);
      if (!first) continue;
      const second = this.hop(bridge, to, field);
      if (second) return [first, second];
    }
    return null;
  }

  /** Price of one unit of `asset` in `quote`, or null when no path exists. */
  price(quote: string, asset: string, field: PriceField = 'lastPrice'): Decimal | null {
    const hops = this.path(quote, asset, field);
    if (!hops) return null;
    return priceAlong(hops, (symbol) => {
      const ticker = this.bySymbol.get(symbol);
      return ticker ? parseDecimal(ticker[field], symbol) : null;
    });
  }
}

export interface PriceHop {
  symbol: string;
  /** true when the pair is quote/asset, so its price is divided into 1. */
  inverse: boolean;
}

/**
 * The hops' prices multiplied, inverse pairs divided into the product: one division at the end
 * (divide()'s rule), so a path through a bridge rounds once; null when a price is missing or zero.
 */
export function priceAlong(
  hops: PriceHop[],
  priceOf: (symbol: string) => Decimal | null,
): Decimal | null {
  let numerator = new Decimal(1);
  let denominator = new Decimal(1);
  for (const hop of hops) {
    const pair = priceOf(hop.symbol);
    if (!pair || !pair.gt(0)) return null;
    if (hop.inverse) denominator = denominator.times(pair);
    else numerator = numerator.times(pair);
  }
  return denominator.eq(1) ? numerator : divide(numerator, denominator);
}

function pairKey(base: string, quote: string): string {
  return `${assetKey(base)}/${assetKey(quote)}`;
}

/** Price of `asset` in `quote`: direct pair, inverse pair, or through a bridge asset (usdt, btc). */
export function priceIn(
  quote: string,
  asset: string,
  tickers: Iterable<PriceTicker>,
  field: PriceField = 'lastPrice',
): Decimal | null {
  return new PriceBook(tickers).price(quote, asset, field);
}
