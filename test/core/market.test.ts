/** Asset names compare whatever their case; a market's symbol is base then quote, lowercase. */
import { describe, expect, it } from 'vitest';
import { marketSymbol, sameAsset } from '../../electron/core/market';
import { isSymbol } from '../../shared/market';

describe('asset and symbol rules', () => {
  it('compares assets case-insensitively', () => {
    expect(sameAsset('BTC', 'btc')).toBe(true);
    expect(sameAsset('usdt', 'USDC')).toBe(false);
  });

  it('builds the symbol of a market as the interface writes it', () => {
    expect(marketSymbol('BTC', 'usdt')).toBe('btcusdt');
    expect(isSymbol(marketSymbol('Eth', 'BTC'))).toBe(true);
  });
});
