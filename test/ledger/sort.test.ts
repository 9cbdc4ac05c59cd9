/**
 * Ledger order (sortEntries, compareEntries): by time, then credit / known movement / debit, then
 * kind and id (inferred entries by account and asset), then as given; its merging of runs already
 * in order, and mergeEntries of two lists in order, against a plain stable sort on random lists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeEntries, sortEntries, type LedgerEntry } from '../../electron/ledger';

const entryArb = fc
  .tuple(
    fc.integer({ min: 0, max: 6 }),
    fc.constantFrom('trade', 'credit', 'debit', 'withdrawal', 'transfer'),
    fc.integer({ min: 1, max: 12 }),
    fc.constantFrom('BTC', 'ETH'),
  )
  .map(([time, kind, id, asset]): LedgerEntry => {
    if (kind === 'trade') {
      return {
        kind: 'trade',
        id: String(id),
        account: 'main',
        symbol: 'BTCUSDT',
        base: 'BTC',
        quote: 'USDT',
        side: 'BUY',
        qty: '1',
        price: '1',
        quoteQty: '1',
        commission: '0',
        commissionAsset: 'BNB',
        time,
      };
    }
    if (kind === 'withdrawal') {
      return {
        kind: 'withdrawal',
        id: `w${id}`,
        account: 'main',
        asset: 'BTC',
        amount: '1',
        fee: '0',
        status: 'success',
        time,
      };
    }
    if (kind === 'transfer') {
      return {
        kind: 'transfer',
        id: String(id),
        fromAccount: 'main',
        toAccount: 'sub@x',
        asset,
        amount: '1',
        time,
      };
    }
    return {
      kind: 'inferred',
      id: '',
      account: id % 2 ? 'main' : 'sub@x',
      asset,
      amount: kind === 'debit' ? '-1' : '1',
      from: time - 1,
      to: time,
      time,
    };
  });

const rank = (entry: LedgerEntry) =>
  entry.kind !== 'inferred' ? 1 : entry.amount.startsWith('-') ? 2 : 0;

const KINDS = ['trade', 'withdrawal', 'transfer', 'inferred'];

/** What breaks a tie of time, rank and kind. */
const tieKey = (entry: LedgerEntry): [string, number] => {
  if (entry.kind === 'inferred') return [`${entry.account} ${entry.asset}`, entry.from];
  if (entry.kind === 'withdrawal') return [entry.id, 0];
  return ['', Number(entry.id)];
};

/** The rule written plainly: a stable sort by time, rank, kind, then id or account and asset. */
const reference = (entries: LedgerEntry[]) =>
  [...entries].sort((a, b) => {
    const [textA, numberA] = tieKey(a);
    const [textB, numberB] = tieKey(b);
    return (
      a.time - b.time ||
      rank(a) - rank(b) ||
      KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) ||
      textA.localeCompare(textB, 'en') ||
      numberA - numberB
    );
  });

describe('sortEntries', () => {
  it('puts any list in ledger order, ties as given', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 60 }), (entries) => {
        expect(sortEntries(entries)).toStrictEqual(reference(entries));
        // Same objects, in the same places: identity, not only equal fields.
        sortEntries(entries).forEach((entry, index) =>
          expect(entry).toBe(reference(entries)[index]),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('merges a few runs in order (as a build hands them over) the same way', () => {
    const runArb = fc.array(entryArb, { maxLength: 30 }).map(reference);
    fc.assert(
      fc.property(fc.array(runArb, { minLength: 1, maxLength: 20 }), (runs) => {
        const entries = runs.flat();
        const sorted = sortEntries(entries);
        const expected = reference(entries);
        expect(sorted.length).toBe(expected.length);
        sorted.forEach((entry, index) => expect(entry).toBe(expected[index]));
      }),
      { numRuns: 500 },
    );
  });
});

describe('mergeEntries', () => {
  it('merges two lists in ledger order as the stable sort of the two one after the other', () => {
    const runArb = fc.array(entryArb, { maxLength: 40 }).map(reference);
    fc.assert(
      fc.property(runArb, runArb, (first, second) => {
        const merged = mergeEntries(first, second);
        const expected = reference([...first, ...second]);
        expect(merged.length).toBe(expected.length);
        merged.forEach((entry, index) => expect(entry).toBe(expected[index]));
        // A new list, whatever the inputs: a build's entries grow apart from its trades.
        expect(merged).not.toBe(first);
        expect(merged).not.toBe(second);
      }),
      { numRuns: 500 },
    );
  });
});
