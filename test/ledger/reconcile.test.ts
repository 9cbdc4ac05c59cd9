/**
 * Reconciliation against balance snapshots: what the known movements do not explain becomes
 * inferred credits and debits, placed by the rule in reconcile.ts, and the replay then agrees with
 * every snapshot.
 */
import fc from 'fast-check';
import { formatDecimal } from '../../electron/core/decimal';
import { describe, expect, it } from 'vitest';
import {
  holdingsAt,
  inferredEntryId,
  reconcile,
  sortEntries,
  type BalanceSnapshot,
  type LedgerEntry,
} from '../../electron/ledger';
import { RECONCILED_KNOWN as KNOWN, RECONCILED_SNAPSHOTS as SNAPSHOTS, trade } from './fixtures';

/** Decimal text of up to 8 places from an integer count of 1e-8. */
const text = (count: number): string => {
  const digits = String(count).padStart(9, '0');
  const fraction = digits.slice(-8).replace(/0+$/, '');
  return `${digits.slice(0, -8).replace(/^0+(?=\d)/, '')}${fraction ? `.${fraction}` : ''}`;
};

const ACCOUNTS = ['main', 'sub@x'] as const;
const amountArb = fc.integer({ min: 1, max: 5_000_000_000 });

/**
 * Symbols with their assets. The engine finds a trade's lists by account and symbol, so one name
 * is given two pairs here: it must go by the trade's own assets.
 */
const PAIRS = [
  ['BTCUSDT', 'BTC', 'USDT'],
  ['ETHBTC', 'ETH', 'BTC'],
  ['BNBUSDT', 'BNB', 'USDT'],
  ['ODD', 'BTC', 'USDT'],
  ['ODD', 'ETH', 'BNB'],
] as const;

const tradeArb: fc.Arbitrary<LedgerEntry> = fc
  .record({
    time: fc.integer({ min: 1, max: 40 }),
    pair: fc.constantFrom(...PAIRS),
    buy: fc.boolean(),
    qty: amountArb,
    quote: amountArb,
    fee: fc.integer({ min: 0, max: 100_000 }),
    feeIn: fc.constantFrom('base', 'quote', 'BNB', 'XRP'),
    id: fc.integer({ min: 1, max: 1000 }),
    account: fc.constantFrom(...ACCOUNTS),
  })
  .map((t) => {
    const [symbol, base, quote] = t.pair;
    return trade({
      id: String(t.id),
      account: t.account,
      symbol,
      base,
      quote,
      side: t.buy ? 'BUY' : 'SELL',
      qty: text(t.qty),
      price: '1',
      quoteQty: text(t.quote),
      commission: text(t.fee),
      commissionAsset: t.feeIn === 'base' ? base : t.feeIn === 'quote' ? quote : t.feeIn,
      time: t.time,
    });
  });

/** Snapshots of one account at times of their own (two at one time would contradict). */
const snapshotsArb = (account: string): fc.Arbitrary<BalanceSnapshot[]> =>
  fc
    .uniqueArray(
      fc.record({
        time: fc.integer({ min: 1, max: 45 }),
        complete: fc.boolean(),
        balances: fc.dictionary(
          fc.constantFrom('BTC', 'USDT', 'ETH', 'BNB', 'XRP'),
          fc.oneof(amountArb, fc.constant(0)).map(text),
          { maxKeys: 4 },
        ),
      }),
      { selector: (snapshot) => snapshot.time, maxLength: 5 },
    )
    .map((list) => list.map((snapshot) => ({ account, ...snapshot })));

describe('reconcile', () => {
  const inferred = reconcile(KNOWN, SNAPSHOTS, { openedAt: 0 });

  it('infers what the movements do not explain, placed by the rule, in ledger order', () => {
    expect(inferred.map((e) => [e.asset, e.amount, e.from, e.to, e.time])).toEqual([
      // (0, 10]: 1,000 held after spending 400: a credit of 1,400, needed by the buy at t=5.
      ['USDT', '1400', 0, 10, 5],
      // (10, 20]: 1,000 − 101 (the cancelled withdrawal moves nothing) = 899 where 700 is seen.
      ['USDT', '-199', 10, 20, 20],
      // (20, 25]: BNB from 0 (absent from the full snapshot at 20) to 5: a credit at the end.
      ['BNB', '5', 20, 25, 25],
      // (20, 30]: 700 − 800 goes below zero at t=27 (a credit of 100 needed there), then +500
      // gives 400 where 0 is seen: the rest, 500, left as a debit at the end.
      ['USDT', '100', 20, 30, 27],
      ['USDT', '-500', 20, 30, 30],
    ]);
    expect(inferred[0]!.id).toBe(inferredEntryId('main', 'USDT', 'open', 'credit'));
  });

  it('makes the replay agree with every snapshot and never go below zero', () => {
    const all = [...KNOWN, ...inferred];
    for (const snapshot of SNAPSHOTS) {
      const held = holdingsAt(all, snapshot.time).byAccount.get('main')!;
      for (const [asset, balance] of Object.entries(snapshot.balances)) {
        expect(formatDecimal(held.get(asset)!), `${asset} at ${snapshot.time}`).toBe(balance);
      }
    }
    for (let time = 0; time <= 30; time++) {
      for (const [asset, balance] of holdingsAt(all, time).total) {
        expect(balance.isNegative(), `${asset} at ${time}`).toBe(false);
      }
    }
  });

  it('keeps the user label and basis under the same id, and replaces inferred entries given', () => {
    const id = inferredEntryId('main', 'USDT', 'open', 'credit');
    const again = reconcile([...KNOWN, ...inferred], SNAPSHOTS, {
      openedAt: 0,
      annotations: new Map([
        [id, { label: 'Salary', costBasis: { amount: '1400', currency: 'USDT' } }],
      ]),
    });
    expect(again).toHaveLength(inferred.length);
    expect(again[0]).toMatchObject({
      id,
      label: 'Salary',
      costBasis: { amount: '1400', currency: 'USDT' },
    });
  });

  it('names an entry of the opening interval the same when older records move the opening', () => {
    // The withdraw history fetched in full: a withdrawal older than anything read before.
    const older: LedgerEntry = {
      kind: 'withdrawal',
      id: 'w0',
      account: 'main',
      asset: 'USDT',
      amount: '50',
      fee: '0',
      status: 'success',
      time: 2,
    };
    const before = reconcile(KNOWN, SNAPSHOTS);
    const after = reconcile([older, ...KNOWN], SNAPSHOTS);
    const opening = (list: typeof before) => list.find((entry) => entry.to === 10)!;
    expect(opening(before).from).toBe(4);
    expect(opening(after).from).toBe(1);
    expect(opening(after).id).toBe(opening(before).id);
    expect(opening(after).id).toBe(inferredEntryId('main', 'USDT', 'open', 'credit'));
    // Re-dated and larger (the older withdrawal needed 50 more, first), under the same id.
    expect([opening(before).amount, opening(before).time]).toEqual(['1400', 5]);
    expect([opening(after).amount, opening(after).time]).toEqual(['1450', 2]);
    // Every other entry keeps its id: each names the observation that opens its interval.
    expect(after.map((entry) => entry.id)).toEqual(before.map((entry) => entry.id));
  });

  it('reconciles each account on its own', () => {
    const entries: LedgerEntry[] = [
      {
        kind: 'transfer',
        id: 't1',
        fromAccount: 'main',
        toAccount: 'sub@x',
        asset: 'BTC',
        amount: '1',
        time: 5,
      },
    ];
    const result = reconcile(entries, [
      { account: 'main', time: 10, complete: true, balances: {} },
      { account: 'sub@x', time: 10, complete: true, balances: { BTC: '1.5' } },
    ]);
    expect(result.map((e) => [e.account, e.asset, e.amount, e.time])).toEqual([
      // main must have had the 1 BTC it sent: a credit needed at the transfer.
      ['main', 'BTC', '1', 5],
      ['sub@x', 'BTC', '0.5', 10],
    ]);
  });

  it('on random trade histories, makes the replay agree with every snapshot and stay at or above zero', () => {
    fc.assert(
      fc.property(
        fc.array(tradeArb, { maxLength: 40 }),
        snapshotsArb('main'),
        snapshotsArb('sub@x'),
        (trades, mainSnapshots, subSnapshots) => {
          const known = sortEntries(trades);
          const snapshots = [...mainSnapshots, ...subSnapshots];
          const all = [...known, ...reconcile(known, snapshots)];
          for (const snapshot of snapshots) {
            const held = holdingsAt(all, snapshot.time).byAccount.get(snapshot.account);
            const assets = new Set(Object.keys(snapshot.balances));
            // A full snapshot lists every asset held: the others are at 0.
            if (snapshot.complete) for (const asset of held?.keys() ?? []) assets.add(asset);
            for (const asset of assets) {
              const balance = held?.get(asset);
              expect(
                balance ? formatDecimal(balance) : '0',
                `${snapshot.account} ${asset} at ${snapshot.time}`,
              ).toBe(snapshot.balances[asset] ?? '0');
            }
          }
          for (const time of new Set(all.map((entry) => entry.time))) {
            for (const [account, held] of holdingsAt(all, time).byAccount) {
              for (const [asset, balance] of held) {
                expect(balance.isNegative(), `${account} ${asset} at ${time}`).toBe(false);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
