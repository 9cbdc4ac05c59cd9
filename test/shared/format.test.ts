import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Decimal from 'decimal.js';
import {
  decimalsOfStep,
  exactFigure,
  formatAge,
  formatAmount,
  formatAxisTick,
  formatCompact,
  formatDateTime,
  formatPercent,
  formatPrice,
  formatStated,
  formatSymbol,
  formatValue,
  groupThousands,
  maskAmount,
  maskNumbers,
  percentChange,
  quotePrecision,
  toDecimal,
} from '../../shared/format';

describe('formatAmount', () => {
  it('groups thousands and trims trailing zeros', () => {
    expect(formatAmount('1234567.50000000')).toBe('1,234,567.5');
    expect(formatAmount('1000')).toBe('1,000');
    expect(formatAmount('0.00000000')).toBe('0');
  });

  it('cuts to the precision rounding down by default, so a balance is never overstated', () => {
    expect(formatAmount('0.123456789', { precision: 8 })).toBe('0.12345678');
    expect(formatAmount('1.999', { precision: 2 })).toBe('1.99');
  });

  it('rounds half up when asked', () => {
    expect(formatAmount('1.995', { precision: 2, rounding: 'half-up' })).toBe('2');
    expect(formatAmount('1.994', { precision: 2, rounding: 'half-up', minFraction: 2 })).toBe(
      '1.99',
    );
  });

  it('keeps digits a float would lose', () => {
    expect(formatAmount('123456789012345678.12345678')).toBe('123,456,789,012,345,678.12345678');
  });

  it('signs changes and never shows -0', () => {
    expect(formatAmount('5.5', { signed: true })).toBe('+5.5');
    expect(formatAmount('-5.5', { signed: true })).toBe('-5.5');
    expect(formatAmount('-0.000000001', { precision: 8 })).toBe('0');
    expect(formatAmount('0', { signed: true })).toBe('0');
  });

  it('pads to minFraction', () => {
    expect(formatAmount('12', { precision: 2, minFraction: 2 })).toBe('12.00');
  });

  it('shows a dash for what is not a number', () => {
    expect(formatAmount('abc')).toBe('—');
    expect(formatAmount(null)).toBe('—');
    expect(formatAmount('1e')).toBe('—');
  });

  it('round-trips: removing separators gives the value cut to the precision', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 8 }),
        (units, scale) => {
          const value = new Decimal(units.toString())
            .div(new Decimal(10).pow(scale))
            .toFixed(scale);
          const shown = formatAmount(value, { precision: 8 });
          expect(new Decimal(shown.replace(/,/g, '')).eq(new Decimal(value))).toBe(true);
        },
      ),
    );
  });
});

describe('formatValue and quotePrecision', () => {
  it('shows cents for a fiat-like quote and more digits for a coin quote', () => {
    expect(quotePrecision('USDT')).toBe(2);
    expect(quotePrecision('btc')).toBe(8);
    expect(formatValue('12345.678', 'usdt')).toBe('12,345.68 USDT');
    expect(formatValue('0.123456789', 'btc')).toBe('0.12345679 BTC');
    expect(formatValue('-3', 'usdt', { signed: true, withUnit: false })).toBe('-3.00');
  });
});

describe('formatCompact', () => {
  it('shortens big values to three significant digits with a unit', () => {
    expect(formatCompact('1234')).toBe('1.23K');
    expect(formatCompact('12500000')).toBe('12.5M');
    expect(formatCompact('999999')).toBe('1,000K');
    expect(formatCompact('-2500000000')).toBe('-2.5B');
    expect(formatCompact(3_400_000_000_000)).toBe('3.4T');
  });

  it('keeps small values readable', () => {
    expect(formatCompact('12.345')).toBe('12.35');
    expect(formatCompact('0.000123456')).toBe('0.000123');
    expect(formatCompact('0')).toBe('0');
  });
});

describe('percentages', () => {
  it('formats ratios and percents, signed when asked', () => {
    expect(formatPercent('0.0523', { isRatio: true })).toBe('5.23%');
    expect(formatPercent('5.234', { signed: true })).toBe('+5.23%');
    expect(formatPercent('-1.5')).toBe('-1.50%');
    expect(formatPercent(null)).toBe('—');
  });

  it('computes the change from open to last, none from zero', () => {
    expect(percentChange('100', '110')).toBe('10');
    expect(percentChange('200', '150')).toBe('-25');
    expect(percentChange('0', '5')).toBeNull();
  });
});

describe('times', () => {
  it('formats a UTC date and time', () => {
    expect(formatDateTime(Date.UTC(2026, 10, 22, 21, 5, 9), { utc: true })).toBe(
      '2026-11-22 21:05:09',
    );
    expect(formatDateTime(null)).toBe('—');
  });

  it('formats local time with the local clock fields', () => {
    const ms = Date.UTC(2026, 0, 2, 3, 4, 5);
    const d = new Date(ms);
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(formatDateTime(ms)).toBe(
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
    );
  });

  it('says how old something is', () => {
    const now = 1_000_000_000_000;
    expect(formatAge(now - 2_000, now)).toBe('just now');
    expect(formatAge(now - 42_000, now)).toBe('42 s ago');
    expect(formatAge(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(formatAge(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(formatAge(now - 3 * 86_400_000, now)).toBe('3 days ago');
    expect(formatAge(null, now)).toBe('never');
  });
});

describe('small helpers', () => {
  it('groups digits, masks amounts, names symbols and reads tick sizes', () => {
    expect(groupThousands('1234567')).toBe('1,234,567');
    expect(maskAmount('1,000', true)).toBe('••••');
    expect(maskAmount('1,000', false)).toBe('1,000');
    expect(maskNumbers('Buy 1,234.5 BTCUSDT at 60,000 (fee -0.1 USDT) #7', true)).toBe(
      'Buy •••• BTCUSDT at •••• (fee •••• USDT) #••••',
    );
    expect(maskNumbers('Buy 1,234.5 BTCUSDT', false)).toBe('Buy 1,234.5 BTCUSDT');
    expect(formatSymbol('btcusdt', 'btc', 'usdt')).toBe('BTC/USDT');
    expect(formatSymbol('btcusdt')).toBe('BTCUSDT');
    expect(decimalsOfStep('0.01000000')).toBe(2);
    expect(decimalsOfStep('1')).toBe(0);
    expect(toDecimal(' 1.5 ')?.toString()).toBe('1.5');
    expect(toDecimal('1,5')).toBeNull();
  });
});

describe('formatAxisTick', () => {
  it('keeps neighbouring ticks of a narrow axis apart', () => {
    const ticks = [249_950, 249_962.5, 249_975, 249_987.5, 250_000];
    const labels = ticks.map((t) => formatAxisTick(t, 50));
    expect(labels).toEqual(['249.95K', '249.96K', '249.98K', '249.99K', '250K']);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('reads like the compact form on a wide axis and below a thousand', () => {
    expect(formatAxisTick(315_000, 60_000)).toBe('315K');
    expect(formatAxisTick(12_500_000, 10_000_000)).toBe('12.5M');
    expect(formatAxisTick(512.5, 100)).toBe(formatCompact(512.5));
    expect(formatAxisTick(300_000, 0)).toBe(formatCompact(300_000));
  });
});

describe('amounts on screen: one rule for each kind', () => {
  it('writes an amount the exchange stated with every digit it has, whatever its asset', () => {
    // The figures people saw cut to a market's step: a fee, a withdrawal, a credit, a balance.
    expect(formatStated('0.25000000')).toBe('0.25');
    expect(formatStated('-646.25', { signed: true })).toBe('-646.25');
    expect(formatStated('28688.15', { signed: true })).toBe('+28,688.15');
    expect(formatStated('321.6766')).toBe('321.6766');
    expect(formatStated('0.000000000000000001')).toBe('0.000000000000000001');
    expect(formatStated('123456789012.123456789012345678')).toBe(
      '123,456,789,012.123456789012345678',
    );
    // Padding lines a column of prices up; it never cuts a digit the price has beyond the tick.
    expect(formatStated('60000.5', { minFraction: 2 })).toBe('60,000.50');
    expect(formatStated('0.52291', { minFraction: 2 })).toBe('0.52291');
    expect(formatStated('abc')).toBe('—');
  });

  it('keeps every digit of any stated amount (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (units, places) => {
          const value = new Decimal(units.toString()).div(new Decimal(10).pow(places));
          const shown = formatStated(value.toFixed());
          expect(new Decimal(shown.replace(/,/g, '')).eq(value)).toBe(true);
        },
      ),
    );
  });

  it('rounds a computed value half-up to its quote asset: cents, 8 for BTC, 6 for ETH', () => {
    expect(quotePrecision('usdt')).toBe(2);
    expect(quotePrecision('INR')).toBe(2);
    expect(quotePrecision('btc')).toBe(8);
    expect(quotePrecision('eth')).toBe(6);
    expect(formatValue('306292.65859294', 'usdt')).toBe('306,292.66 USDT');
    expect(formatValue('1234567.891', 'inr')).toBe('12,34,567.89 INR');
    expect(formatValue('0.123456789', 'btc')).toBe('0.12345679 BTC');
    expect(formatValue('1.2345675', 'eth', { withUnit: false })).toBe('1.234568');
    expect(formatValue('-12.345', 'usdt', { signed: true })).toBe('-12.35 USDT');
  });

  it('keeps six significant digits of a computed price, at least the quote precision', () => {
    expect(formatPrice('0.52291234', 'usdt')).toBe('0.522912 USDT');
    expect(formatPrice('0.5229', 'usdt', { withUnit: false })).toBe('0.5229');
    expect(formatPrice('60123.456', 'usdt')).toBe('60,123.46 USDT');
    expect(formatPrice('60000', 'usdt')).toBe('60,000.00 USDT');
    expect(formatPrice('0.0000181818181818181818', 'btc')).toBe('0.0000181818 BTC');
    expect(formatPrice('0', 'usdt')).toBe('0.00 USDT');
    expect(formatPrice(null, 'usdt')).toBe('—');
  });

  it('gives the exact figure behind a rounded one, plain digits for a paste', () => {
    expect(exactFigure('306292.658592941234000')).toBe('306292.658592941234');
    expect(exactFigure('-0.000')).toBe('0');
    expect(exactFigure('1e-20')).toBe('0.00000000000000000001');
    expect(exactFigure('x')).toBeNull();
  });
});
