/**
 * How the app compares and combines asset and symbol names. The interface writes assets in any
 * case ("BTC", "btc") and symbols as the lowercase base followed by the quote ("btcusdt");
 * the patterns themselves are in shared/market.ts.
 */
import { assetKey } from '../../shared/market';

/** True when two asset names mean the same asset, whatever their case. */
export function sameAsset(a: string, b: string): boolean {
  return assetKey(a) === assetKey(b);
}

/** The symbol of the market trading `base` against `quote`: ("BTC", "usdt") -> "btcusdt". */
export function marketSymbol(base: string, quote: string): string {
  return `${assetKey(base)}${assetKey(quote)}`;
}
