/** The ledger's one rounding step: a share by proportion, half-even at 18 places. */
import { describe, expect, it } from 'vitest';
import { amount, decimalText, LedgerDecimal, share } from '../../electron/ledger';

const D = (text: string) => new LedgerDecimal(text);

describe('share', () => {
  it('is exact when it can be and rounds half-even at 18 places when not', () => {
    expect(decimalText(share(D('1200'), D('0.2997'), D('0.5994')))).toBe('600');
    expect(decimalText(share(D('1'), D('1'), D('3')))).toBe('0.333333333333333333');
    expect(decimalText(share(D('2'), D('1'), D('3')))).toBe('0.666666666666666667');
    // Exactly half a unit of the 18th place: to the even neighbour.
    expect(decimalText(share(D('0.000000000000000001'), D('1'), D('2')))).toBe('0');
    expect(decimalText(share(D('0.000000000000000003'), D('1'), D('2')))).toBe(
      '0.000000000000000002',
    );
    expect(decimalText(share(D('-2'), D('1'), D('3')))).toBe('-0.666666666666666667');
    expect(decimalText(share(D('5'), D('7'), D('7')))).toBe('5');
  });

  it('refuses text that is not a decimal, naming the field', () => {
    expect(() => amount('1e3', 'trade:ETHUSDT:1', 'qty')).toThrow(
      'trade:ETHUSDT:1 qty must be a decimal, got "1e3"',
    );
    expect(decimalText(amount('-0.50', 'x', 'y'))).toBe('-0.5');
  });
});
