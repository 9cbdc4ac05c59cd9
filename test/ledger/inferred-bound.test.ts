/**
 * An inferred credit that a known movement needed is placed at that movement (reconcile.ts), so
 * it happened before that movement, not up to the observation closing its interval:
 * movementsNeeding names the movement; a credit placed at the observation and a debit name none.
 */
import { describe, expect, it } from 'vitest';
import {
  movementsNeeding,
  reconcile,
  type BalanceSnapshot,
  type LedgerEntry,
} from '../../electron/ledger';
import { trade } from './fixtures';

const withdrawal = (id: string, time: number, amount: string): LedgerEntry => ({
  kind: 'withdrawal',
  id,
  account: 'main',
  asset: 'XRP',
  amount,
  fee: '0.25',
  status: 'success',
  time,
});

describe('movementsNeeding', () => {
  it('names the withdrawal a credit had to come before', () => {
    const known = [withdrawal('w1', 100, '646')];
    const snapshots: BalanceSnapshot[] = [
      { account: 'main', time: 200, complete: true, balances: { XRP: '24353.75' } },
    ];
    const [credit, ...rest] = reconcile(known, snapshots, { openedAt: 0 });
    expect(rest).toEqual([]);
    expect(credit).toMatchObject({ amount: '25000', from: 0, to: 200, time: 100 });
    const needing = movementsNeeding([...known, credit!]);
    expect(needing.get(credit!.id)).toEqual({ kind: 'withdrawal', time: 100 });
  });

  it('names the trade that spent more than the records hold, after the last observation too', () => {
    const known: LedgerEntry[] = [
      trade({
        id: '1',
        symbol: 'ETHUSDT',
        side: 'BUY',
        qty: '0.2',
        price: '2000',
        quoteQty: '400',
        time: 300,
      }),
    ];
    const snapshots: BalanceSnapshot[] = [
      { account: 'main', time: 200, complete: true, balances: {} },
    ];
    const inferred = reconcile(known, snapshots, { openedAt: 0 });
    const usdt = inferred.find((entry) => entry.asset === 'USDT')!;
    expect(usdt).toMatchObject({ amount: '400', from: 200, time: 300 });
    expect(movementsNeeding([...known, ...inferred]).get(usdt.id)).toEqual({
      kind: 'trade',
      time: 300,
    });
  });

  it('names nothing for a credit placed at the observation, or for a debit', () => {
    const known = [withdrawal('w1', 100, '10')];
    const snapshots: BalanceSnapshot[] = [
      { account: 'main', time: 50, complete: true, balances: { XRP: '100' } },
      { account: 'main', time: 200, complete: true, balances: { XRP: '500' } },
      { account: 'main', time: 300, complete: true, balances: { XRP: '400' } },
    ];
    const inferred = reconcile(known, snapshots, { openedAt: 0 });
    expect(inferred.map((entry) => [entry.amount, entry.time])).toEqual([
      ['100', 50],
      ['410.25', 200],
      ['-100', 300],
    ]);
    expect(movementsNeeding([...known, ...inferred]).size).toBe(0);
  });
});
