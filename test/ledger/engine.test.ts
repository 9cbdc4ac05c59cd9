/**
 * The one reconciliation engine (reconcile.ts, Reconciliation): a full build is the engine run
 * from empty. It was shown to give what the former full build (a second engine, since deleted)
 * gave on random worlds; here it gives the hand-worked reconciliations from empty and fed in
 * pieces cut at every time, and on random worlds, fed in pieces (movements and snapshots as they
 * come, in time order), the same entries as the run from empty, or null (then the caller builds
 * anew).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Reconciliation,
  reconcile,
  sortEntries,
  type BalanceSnapshot,
  type InferredEntry,
  type LedgerEntry,
} from '../../electron/ledger';
import { RECONCILED_KNOWN, RECONCILED_SNAPSHOTS, trade } from './fixtures';

const ACCOUNTS = ['main', 'sub@x'] as const;
const ASSETS = ['BTC', 'USDT', 'BNB'] as const;

/** Decimal text of up to 8 places from an integer count of 1e-8. */
const text = (count: number): string => {
  const negative = count < 0;
  const digits = String(Math.abs(count)).padStart(9, '0');
  const whole = digits.slice(0, -8).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-8).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
};

const amountArb = fc.integer({ min: 1, max: 5_000_000_000 });

/**
 * Symbols with their assets; one name given two pairs (the engine finds a trade's lists by
 * symbol, kept across updates, and must still go by the trade's own assets).
 */
const PAIRS = [
  ['BTCUSDT', 'BTC', 'USDT'],
  ['BNBBTC', 'BNB', 'BTC'],
  ['ODD', 'BNB', 'USDT'],
] as const;
const timeArb = fc.integer({ min: 1, max: 40 });

const movementArb: fc.Arbitrary<LedgerEntry> = fc.oneof(
  fc
    .record({
      time: timeArb,
      pair: fc.constantFrom(...PAIRS),
      buy: fc.boolean(),
      qty: amountArb,
      quote: amountArb,
      fee: fc.integer({ min: 0, max: 100_000 }),
      feeIn: fc.constantFrom('BTC', 'USDT', 'BNB'),
      id: fc.integer({ min: 1, max: 1000 }),
      sub: fc.boolean(),
    })
    .map((t) => ({
      ...trade({
        id: String(t.id),
        symbol: t.pair[0],
        base: t.pair[1],
        quote: t.pair[2],
        side: t.buy ? 'BUY' : 'SELL',
        qty: text(t.qty),
        price: '1',
        quoteQty: text(t.quote),
        commission: text(t.fee),
        commissionAsset: t.feeIn,
        time: t.time,
      }),
      account: t.sub ? 'sub@x' : 'main',
    })),
  fc
    .record({
      time: timeArb,
      asset: fc.constantFrom(...ASSETS),
      amount: amountArb,
      fee: fc.integer({ min: 0, max: 100_000 }),
      status: fc.constantFrom('success' as const, 'pending' as const, 'failed' as const),
      id: fc.integer({ min: 1, max: 1000 }),
    })
    .map((w): LedgerEntry => ({
      kind: 'withdrawal',
      id: `w${w.id}`,
      account: 'main',
      asset: w.asset,
      amount: text(w.amount),
      fee: text(w.fee),
      status: w.status,
      time: w.time,
    })),
  fc
    .record({
      time: timeArb,
      asset: fc.constantFrom(...ASSETS),
      amount: amountArb,
      up: fc.boolean(),
      id: fc.integer({ min: 1, max: 1000 }),
    })
    .map((t): LedgerEntry => ({
      kind: 'transfer',
      id: String(t.id),
      fromAccount: t.up ? 'sub@x' : 'main',
      toAccount: t.up ? 'main' : 'sub@x',
      asset: t.asset,
      amount: text(t.amount),
      time: t.time,
    })),
);

const snapshotArb: fc.Arbitrary<BalanceSnapshot> = fc
  .record({
    account: fc.constantFrom(...ACCOUNTS),
    time: fc.integer({ min: 0, max: 45 }),
    complete: fc.boolean(),
    balances: fc.dictionary(fc.constantFrom(...ASSETS), amountArb.map(text), { maxKeys: 3 }),
  })
  .map((s) => ({ ...s, balances: { ...s.balances } }));

const worldArb = fc.record({
  movements: fc.array(movementArb, { maxLength: 30 }),
  snapshots: fc.array(snapshotArb, { maxLength: 10 }),
  openedAt: fc.constantFrom(undefined, 0),
});

/**
 * The engine fed `known` and `snapshots` in pieces, cut after each of `cuts`, run anew from empty
 * over everything so far whenever it answers null (as the ledger service does): what it found
 * and how often it was run anew.
 */
function inPieces(
  known: readonly LedgerEntry[],
  snapshots: readonly BalanceSnapshot[],
  cuts: readonly number[],
): { found: InferredEntry[]; engine: Reconciliation; anew: number } {
  let engine = new Reconciliation({ openedAt: 0 });
  let found: InferredEntry[] = [];
  let anew = 0;
  let taken = -Infinity;
  const upTo = <T extends { time: number }>(items: readonly T[], from: number, to: number) =>
    items.filter((item) => item.time > from && item.time <= to);
  const added = (from: number, to: number) =>
    upTo(snapshots, from, to).map((snapshot) => ({ snapshot, group: 0 as const }));
  for (const cut of [...cuts].sort((a, b) => a - b).concat(Infinity)) {
    const extras = engine.update(upTo(known, taken, cut), added(taken, cut));
    if (extras) {
      found.push(...extras);
    } else {
      anew++;
      engine = new Reconciliation({ openedAt: 0 });
      found = engine.update(upTo(known, -Infinity, cut), added(-Infinity, cut))!;
    }
    taken = cut;
  }
  return { found: sortEntries(found) as InferredEntry[], engine, anew };
}

const XRP_WITHDRAWAL: LedgerEntry = {
  kind: 'withdrawal',
  id: 'w1',
  account: 'main',
  asset: 'XRP',
  amount: '10',
  fee: '0.25',
  status: 'success',
  time: 100,
};

const row = (e: InferredEntry) => [e.asset, e.amount, e.from, e.to, e.time];

/**
 * Hand-worked: known movements, snapshots, [asset, amount, from, to, time] of each entry, and
 * whether a cut may need a run anew (a shortfall after the last observation is a credit the next
 * observation may make larger).
 */
const WORKED: [LedgerEntry[], BalanceSnapshot[], (string | number)[][], boolean][] = [
  [
    RECONCILED_KNOWN,
    RECONCILED_SNAPSHOTS,
    // Worked out in reconcile.test.ts.
    [
      ['USDT', '1400', 0, 10, 5],
      ['USDT', '-199', 10, 20, 20],
      ['BNB', '5', 20, 25, 25],
      ['USDT', '100', 20, 30, 27],
      ['USDT', '-500', 20, 30, 30],
    ],
    true,
  ],
  [
    [XRP_WITHDRAWAL],
    [
      { account: 'main', time: 50, complete: true, balances: { XRP: '100' } },
      { account: 'main', time: 200, complete: true, balances: { XRP: '500' } },
      { account: 'main', time: 300, complete: true, balances: { XRP: '400' } },
    ],
    [
      // (0, 50]: 100 seen. (50, 200]: 100 − 10.25 = 89.75 where 500 is seen: 410.25 came in.
      // (200, 300]: nothing moved, 100 fewer seen: a debit at the end.
      ['XRP', '100', 0, 50, 50],
      ['XRP', '410.25', 50, 200, 200],
      ['XRP', '-100', 200, 300, 300],
    ],
    false,
  ],
];

describe('the reconciliation engine', () => {
  it('run from empty and fed in pieces gives the hand-worked reconciliations', () => {
    for (const [known, snapshots, expected, anew] of WORKED) {
      const times = [...new Set([...known, ...snapshots].map((item) => item.time))];
      const cutsList = [...times.flatMap((time) => [[time], [time - 1]]), times];
      expect(reconcile(known, snapshots, { openedAt: 0 }).map(row)).toEqual(expected);
      for (const cuts of cutsList) {
        const pieces = inPieces(known, snapshots, cuts);
        expect(pieces.found.map(row), `cut at ${cuts.join()}`).toEqual(expected);
        expect(pieces.engine.inferred().map(row)).toEqual(expected);
        if (!anew) expect(pieces.anew, `cut at ${cuts.join()}`).toBe(0);
      }
    }
  });

  it('fed in pieces gives what it gives from empty (run anew where it asks)', () => {
    fc.assert(
      fc.property(worldArb, fc.array(fc.nat(45), { maxLength: 4 }), (world, cuts) => {
        const snapshots = [...world.snapshots].sort((a, b) => a.time - b.time);
        const known = sortEntries(world.movements);
        const whole = reconcile(known, snapshots, { openedAt: 0 });
        const { found, engine } = inPieces(known, snapshots, cuts);
        expect(found).toEqual(whole);
        expect(engine.inferred()).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });
});
