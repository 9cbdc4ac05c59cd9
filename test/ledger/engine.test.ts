/**
 * The one reconciliation engine (reconcile.ts, Reconciliation): a full build is the engine run
 * from empty, and it gives what the former full build gave on random worlds; fed the same world
 * in pieces (movements and snapshots as they come, in time order), it gives the same entries as
 * the run from empty, or answers null (then the caller builds anew).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Reconciliation,
  reconcile,
  reconcileBefore,
  sortEntries,
  type BalanceSnapshot,
  type InferredEntry,
  type LedgerEntry,
} from '../../electron/ledger';
import { trade } from './fixtures';

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
const timeArb = fc.integer({ min: 1, max: 40 });

const movementArb: fc.Arbitrary<LedgerEntry> = fc.oneof(
  fc
    .record({
      time: timeArb,
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
        symbol: 'BTCUSDT',
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
    .map(
      (w): LedgerEntry => ({
        kind: 'withdrawal',
        id: `w${w.id}`,
        account: 'main',
        asset: w.asset,
        amount: text(w.amount),
        fee: text(w.fee),
        status: w.status,
        time: w.time,
      }),
    ),
  fc
    .record({
      time: timeArb,
      asset: fc.constantFrom(...ASSETS),
      amount: amountArb,
      up: fc.boolean(),
      id: fc.integer({ min: 1, max: 1000 }),
    })
    .map(
      (t): LedgerEntry => ({
        kind: 'transfer',
        id: String(t.id),
        fromAccount: t.up ? 'sub@x' : 'main',
        toAccount: t.up ? 'main' : 'sub@x',
        asset: t.asset,
        amount: text(t.amount),
        time: t.time,
      }),
    ),
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

const byId = (entries: readonly InferredEntry[]) =>
  [...entries].sort((a, b) => (a.id + a.time < b.id + b.time ? -1 : 1));

describe('the reconciliation engine', () => {
  it('run from empty gives what the former full build gave', () => {
    fc.assert(
      fc.property(worldArb, ({ movements, snapshots, openedAt }) => {
        const options = openedAt === undefined ? {} : { openedAt };
        const engine = reconcile(movements, snapshots, options);
        const before = reconcileBefore(movements, snapshots, options);
        expect(byId(engine)).toEqual(byId(before));
        // In ledger order.
        expect(engine).toEqual(sortEntries(engine));
      }),
      { numRuns: 500 },
    );
  });

  it('fed in pieces gives what it gives from empty, or asks to be run anew', () => {
    fc.assert(
      fc.property(worldArb, fc.array(fc.nat(45), { maxLength: 4 }), (world, cuts) => {
        const snapshots = [...world.snapshots].sort((a, b) => a.time - b.time);
        const known = sortEntries(world.movements);
        const whole = reconcile(known, snapshots, { openedAt: 0 });
        const engine = new Reconciliation({ openedAt: 0 });
        const found: InferredEntry[] = [];
        let taken = -Infinity;
        let seen = -Infinity;
        for (const cut of [...cuts.sort((a, b) => a - b), Infinity]) {
          const entries = known.filter((entry) => entry.time > taken && entry.time <= cut);
          const added = snapshots
            .filter((snapshot) => snapshot.time > seen && snapshot.time <= cut)
            .map((snapshot) => ({ snapshot, group: 0 as const }));
          taken = seen = cut;
          const extras = engine.update(entries, added);
          if (!extras) return;
          found.push(...extras);
        }
        expect(sortEntries(found)).toEqual(whole);
        expect(engine.inferred()).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });
});
