/**
 * A Ledger's checkpoints (cost-basis.ts): taken anywhere along a history, one restored and the
 * entries after it applied again gives the ledger applied straight through, under every cost
 * method, whichever checkpoint and however often (a checkpoint shares the lots an earlier one
 * copied while they are unchanged, so a lot taken in part between two of them must not be).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ledger, type CostMethod, type LedgerEntry } from '../../electron/ledger';
import { T, trade } from './fixtures';

const CASH: LedgerEntry = {
  kind: 'inferred',
  id: 'cash',
  account: 'main',
  asset: 'USDT',
  amount: '1000000',
  from: T(0),
  to: T(1),
  time: T(1),
};

/** A buy of `qty` ETH or a sale of `qty` tenths of what the step before held, at `price`. */
const stepArb = fc.record({
  buy: fc.boolean(),
  qty: fc.integer({ min: 1, max: 9 }),
  price: fc.integer({ min: 1000, max: 4000 }),
});

function history(steps: readonly { buy: boolean; qty: number; price: number }[]): LedgerEntry[] {
  const entries: LedgerEntry[] = [CASH];
  steps.forEach((step, index) => {
    const qty = step.buy ? String(step.qty) : `0.${step.qty}`;
    entries.push(
      trade({
        id: String(index + 1),
        symbol: 'ETHUSDT',
        side: step.buy ? 'BUY' : 'SELL',
        qty,
        price: String(step.price),
        quoteQty: String(Number(qty) * step.price),
        commission: '0.001',
        commissionAsset: step.buy ? 'ETH' : 'USDT',
        time: T(2) + index * 60_000,
      }),
    );
  });
  return entries;
}

function ledgerOf(method: CostMethod): Ledger {
  return new Ledger({ method, reportingAsset: 'USDT', priceAt: () => '2000' });
}

/** Everything a ledger holds, as text. */
function picture(ledger: Ledger) {
  const text = (value: { toString(): string }) => value.toString();
  return JSON.stringify({
    applied: ledger.applied,
    time: ledger.time,
    positions: [...ledger.positions.values()].map((p) => [
      p.account,
      p.asset,
      text(p.quantity),
      text(p.cost),
      text(p.realized),
      p.lots().map((lot) => [text(lot.quantity), text(lot.cost), lot.acquiredAt, lot.basis]),
    ]),
    disposals: ledger.disposals.map((d) => [
      d.asset,
      text(d.quantity),
      text(d.proceeds),
      text(d.cost),
    ]),
    fees: ledger.fees.map((f) => [f.asset, text(f.amount), text(f.value)]),
    feeValues: [...ledger.feeValues].map(([account, values]) => [
      account,
      [...values].map(([asset, value]) => [asset, text(value)]),
    ]),
    flows: ledger.flows.length,
    shortfalls: ledger.shortfalls.length,
    withdrawalFeeCost: text(ledger.withdrawalFeeCost),
  });
}

describe('a ledger checkpoint', () => {
  it('restored, with the entries after it applied again, is the ledger applied straight', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 2, maxLength: 40 }),
        fc.constantFrom<CostMethod>('fifo', 'lifo', 'hifo', 'average'),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        (steps, method, at, restores, askAt) => {
          const entries = history(steps);
          const straight = ledgerOf(method);
          for (const entry of entries) straight.apply(entry);
          // Checkpoints at some points along the way, of one ledger applying the whole history.
          const cuts = new Set(at.map((n) => n % (entries.length + 1)));
          const ledger = ledgerOf(method);
          const checkpoints = [];
          // The disposal and fee records are made when first asked for: checkpoints taken before
          // that ask keep none of them, those after keep their lengths.
          const recordsAskedAt = askAt % (entries.length + 2);
          for (let index = 0; index <= entries.length; index++) {
            if (index === recordsAskedAt) expect(ledger.disposals.length).toBeGreaterThanOrEqual(0);
            if (cuts.has(index)) checkpoints.push(ledger.checkpoint());
            if (index < entries.length) ledger.apply(entries[index]!);
          }
          for (const n of restores) {
            const checkpoint = checkpoints[n % checkpoints.length]!;
            const undone = entries.slice(checkpoint.applied);
            ledger.restore(checkpoint, undone);
            for (const entry of undone) ledger.apply(entry);
            expect(picture(ledger)).toBe(picture(straight));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
