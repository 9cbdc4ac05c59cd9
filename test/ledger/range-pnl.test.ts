/**
 * The P&L of an interval (from, to], worked by hand: 10,000 USDT in at T(1); 1 ETH bought at
 * 1,000 (T(2)) and 1 at 3,000 (T(3)), each with a fee of 0.001 ETH; 0.999 ETH sold at 2,500 (T(5))
 * with a fee of 2.5 USDT. ETH is 3,000 at T(3) and 2,000 at T(6). Reported in USDT, FIFO.
 */
import { describe, expect, it } from 'vitest';
import {
  MissingPriceError,
  pnlForRange,
  type LedgerEntry,
  type PriceAt,
} from '../../electron/ledger';
import { T, text, trade } from './fixtures';

const ENTRIES: LedgerEntry[] = [
  {
    kind: 'inferred',
    id: 'cash',
    account: 'main',
    asset: 'USDT',
    amount: '10000',
    from: T(0),
    to: T(1),
    time: T(1),
  },
  // 0.999 ETH for 1,000; the fee 0.001 ETH is worth 1 at the trade's price.
  trade({
    id: '1',
    symbol: 'ETHUSDT',
    side: 'BUY',
    qty: '1',
    price: '1000',
    quoteQty: '1000',
    commission: '0.001',
    commissionAsset: 'ETH',
    time: T(2),
  }),
  // 0.999 ETH for 3,000; fee worth 3.
  trade({
    id: '2',
    symbol: 'ETHUSDT',
    side: 'BUY',
    qty: '1',
    price: '3000',
    quoteQty: '3000',
    commission: '0.001',
    commissionAsset: 'ETH',
    time: T(3),
  }),
  // The first lot whole: proceeds 2,497.5 − 2.5 = 2,495, cost 1,000, gain 1,495.
  trade({
    id: '3',
    symbol: 'ETHUSDT',
    side: 'SELL',
    qty: '0.999',
    price: '2500',
    quoteQty: '2497.5',
    commission: '2.5',
    commissionAsset: 'USDT',
    time: T(5),
  }),
];

const PRICES: Record<number, string> = { [T(3)]: '3000', [T(6)]: '2000' };
const priceAt: PriceAt = (asset, _quote, time) => (asset === 'ETH' ? PRICES[time] : null);

const figures = (from: number, to: number) => {
  const range = pnlForRange(
    ENTRIES,
    { method: 'fifo', reportingAsset: 'USDT', priceAt },
    { from, to },
  );
  return [range.realizedPnl, range.feesPaid, range.unrealizedChange, range.pnl].map(text);
};

describe('P&L of an interval', () => {
  it('(T(1), T(3)]: the two buys, the one at T(3) included', () => {
    // Nothing but cash at T(1). At T(3): 1.998 ETH at 4,000, worth 5,994: unrealized 1,994.
    // Fees 1 + 3. Realized 0; P&L 1,994.
    expect(figures(T(1), T(3))).toEqual(['0', '4', '1994', '1994']);
  });

  it('(T(3), T(6)]: the sale, not the buy at T(3)', () => {
    // At T(6): 0.999 ETH at 3,000, worth 1,998: unrealized −1,002, a change of −2,996. Realized
    // 1,495, fee 2.5; P&L 1,495 − 2,996 = −1,501.
    expect(figures(T(3), T(6))).toEqual(['1495', '2.5', '-2996', '-1501']);
  });

  it('(T(1), T(6)]: the sum of the two', () => {
    // 1,994 − 1,501 = 493: the value at T(6) (8,495 USDT + 1,998) less the 10,000 that came in.
    expect(figures(T(1), T(6))).toEqual(['1495', '6.5', '-1002', '493']);
  });

  it('leaves out an asset no market prices now (the summary names it), and only that one', () => {
    // 5 FOO credited at T(2), which no market prices (its basis missing, as the app builds the
    // ledger): left out, every interval's figures are those without it. A price of the time
    // still missing for another asset fails as before.
    const foo: LedgerEntry = {
      kind: 'inferred',
      id: 'foo',
      account: 'main',
      asset: 'FOO',
      amount: '5',
      from: T(1),
      to: T(2),
      time: T(2),
    };
    const withFoo = [...ENTRIES.slice(0, 1), foo, ...ENTRIES.slice(1)];
    const options = {
      method: 'fifo',
      reportingAsset: 'USDT',
      priceAt,
      unpricedCredits: 'missing-basis',
    } as const;
    const leftOut = new Set(['FOO']);
    for (const [from, to] of [
      [T(1), T(3)],
      [T(3), T(6)],
      [T(1), T(6)],
    ] as const) {
      const range = pnlForRange(withFoo, options, { from, to, leftOut });
      expect(
        [range.realizedPnl, range.feesPaid, range.unrealizedChange, range.pnl].map(text),
      ).toEqual(figures(from, to));
    }
    expect(() => pnlForRange(withFoo, options, { from: T(1), to: T(6) })).toThrow(
      MissingPriceError,
    );
    // ETH has no price at T(4): the start of (T(4), T(6)] fails though FOO is left out.
    expect(() => pnlForRange(withFoo, options, { from: T(4), to: T(6), leftOut })).toThrow(
      MissingPriceError,
    );
  });
});
