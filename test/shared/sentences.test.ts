/** Amounts in sentences (toasts, notifications, error texts): one formatter, units, no "..". */
import { describe, expect, it } from 'vitest';
import {
  describeOrder,
  endSentence,
  formatAmountWithUnit,
  formatFee,
  maskNumbers,
} from '../../shared/format';

describe('amounts in sentences', () => {
  it('says "no fee" for a zero fee, and the fee with its unit otherwise', () => {
    expect(formatFee('0', 'btc')).toBe('no fee');
    expect(formatFee('0.00000000', 'bnb')).toBe('no fee');
    expect(formatFee('0.0012', 'btc')).toBe('fee 0.0012 BTC');
    expect(formatFee('1234.5', 'usdt')).toBe('fee 1,234.5 USDT');
  });

  it('writes every amount with separators and its unit', () => {
    expect(formatAmountWithUnit('100000.5', 'usdt')).toBe('100,000.5 USDT');
    expect(formatAmountWithUnit('not a number', 'usdt')).toBe('—');
  });

  it('names an order with the units of its market, its stop price too', () => {
    expect(
      describeOrder({
        side: 'sell',
        qty: '1',
        price: '2800',
        stopPrice: '2850',
        symbol: 'ethusdt',
        baseAsset: 'eth',
        quoteAsset: 'usdt',
      }),
    ).toBe('Sell 1 ETH at 2,800 USDT, stop 2,850 USDT');
    expect(describeOrder({ side: 'buy', qty: '0.5', price: '60000', symbol: 'btcusdt' })).toBe(
      'Buy 0.5 BTCUSDT at 60,000',
    );
  });

  it('hides every figure of such a sentence in privacy mode, the stop price included', () => {
    const text = describeOrder({
      side: 'sell',
      qty: '1',
      price: '2800',
      stopPrice: '2850',
      symbol: 'ethusdt',
      baseAsset: 'eth',
      quoteAsset: 'usdt',
    });
    expect(maskNumbers(text, true)).toBe('Sell •••• ETH at •••• USDT, stop •••• USDT');
  });

  it('ends a sentence with one full stop, whatever the message ended with', () => {
    expect(endSentence('Permission denied.')).toBe('Permission denied.');
    expect(endSentence('Permission denied')).toBe('Permission denied.');
    expect(endSentence('Really?')).toBe('Really?');
    expect(endSentence('Waiting…')).toBe('Waiting…');
  });
});
