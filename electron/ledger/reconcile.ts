/**
 * Reconciliation: the exchange's interface has no deposit history, so what the known movements
 * (trades and their fees, withdrawals and their fees, transfers) do not explain between two
 * balance observations becomes an inferred entry, a credit ("deposit or other credit") or a debit.
 *
 * Where an inferred entry is placed inside its interval (t0, t1]:
 * - a credit at t1, the latest moment the records allow, so a holding period is never counted from
 *   earlier than it can have started and its basis is valued when it was surely there; but when a
 *   known movement inside the interval already needed the funds (the replay would go below zero),
 *   at that movement instead, ordered before it, so replayed holdings and lots never go negative;
 * - a debit at t1: until then the funds were there as far as the records know.
 * When a credit had to be larger than the net difference to keep the replay at or above zero, the
 * rest leaves again as a debit at t1 (something came in and something went out).
 * After the last observation there is nothing to compare with; only a movement that spends more
 * than the replay holds proves a credit, the least that covers it, placed at that movement.
 */
import { units, unitsText, type Units } from './decimal';
import {
  eachBalanceChange,
  sortEntries,
  type InferredEntry,
  type LedgerEntry,
  type UserCostBasis,
} from './entries';

/**
 * Balances of one account at one time, covering every movement at or before it. A full snapshot
 * (`complete`) lists every asset held, so an asset it omits is at 0; a live balance event is a
 * partial one and says nothing of the assets it omits.
 */
export interface BalanceSnapshot {
  account: string;
  time: number;
  balances: Readonly<Record<string, string>>;
  complete: boolean;
}

/** What the user recorded about an inferred entry, kept under its id across reconciliations. */
export interface InferredAnnotation {
  label?: string;
  costBasis?: UserCostBasis;
}

export interface ReconcileOptions {
  /**
   * The account held nothing before this time. Default: one millisecond before the earliest
   * entry or snapshot.
   */
  openedAt?: number;
  annotations?: ReadonlyMap<string, InferredAnnotation>;
}

interface Observation {
  time: number;
  balance: Units;
}

/** One account's movements of one asset, in ledger order (columns, not an object each). */
interface Movements {
  times: number[];
  deltas: Units[];
}

/**
 * The stable id of an inferred entry: the same gap after the same observation keeps its id. The
 * interval's end is left out: the newest observation moves forward with every refresh of the
 * balances, and a label the user gave must stay with its entry.
 */
export function inferredEntryId(
  account: string,
  asset: string,
  from: number,
  direction: 'credit' | 'debit',
): string {
  return `inferred:${account}:${asset}:${from}:${direction}`;
}

/**
 * The inferred entries that make the known movements agree with every balance observation. Any
 * inferred entries among `entries` are ignored: the result replaces them.
 */
export function reconcile(
  entries: readonly LedgerEntry[],
  snapshots: readonly BalanceSnapshot[],
  options: ReconcileOptions = {},
): InferredEntry[] {
  const known = sortEntries(entries.filter((entry) => entry.kind !== 'inferred'));
  const movements = new Map<string, Map<string, Movements>>();
  const assetsOf = (account: string): Map<string, Movements> => {
    let assets = movements.get(account);
    if (!assets) movements.set(account, (assets = new Map()));
    return assets;
  };
  let time = 0;
  const add = (account: string, asset: string, delta: Units) => {
    const assets = assetsOf(account);
    let list = assets.get(asset);
    if (!list) assets.set(asset, (list = { times: [], deltas: [] }));
    list.times.push(time);
    list.deltas.push(delta);
  };
  for (const entry of known) {
    time = entry.time;
    eachBalanceChange(entry, add);
  }
  const ordered = [...snapshots].sort((a, b) => a.time - b.time);
  for (const snapshot of ordered) {
    const assets = assetsOf(snapshot.account);
    for (const asset of Object.keys(snapshot.balances)) {
      if (!assets.has(asset)) assets.set(asset, { times: [], deltas: [] });
    }
  }
  let earliest = Infinity;
  for (const entry of known) earliest = Math.min(earliest, entry.time);
  for (const snapshot of ordered) earliest = Math.min(earliest, snapshot.time);
  const openedAt = options.openedAt ?? earliest - 1;

  const inferred: InferredEntry[] = [];
  for (const [account, assets] of movements) {
    const accountSnapshots = ordered.filter((snapshot) => snapshot.account === account);
    for (const [asset, assetMovements] of assets) {
      const observations: Observation[] = [{ time: openedAt, balance: 0n }];
      for (const snapshot of accountSnapshots) {
        const text = snapshot.balances[asset];
        if (text !== undefined) {
          observations.push({
            time: snapshot.time,
            balance: units(text, `${account} ${asset}`, 'balance'),
          });
        } else if (snapshot.complete) {
          observations.push({ time: snapshot.time, balance: 0n });
        }
      }
      inferred.push(
        ...reconcileAsset(account, asset, observations, assetMovements, options.annotations),
      );
    }
  }
  return sortEntries(inferred) as InferredEntry[];
}

function reconcileAsset(
  account: string,
  asset: string,
  observations: Observation[],
  movements: Movements,
  annotations: ReadonlyMap<string, InferredAnnotation> | undefined,
): InferredEntry[] {
  const result: InferredEntry[] = [];
  const make = (from: number, to: number, time: number, value: Units): InferredEntry => {
    const id = inferredEntryId(account, asset, from, value < 0n ? 'debit' : 'credit');
    const annotation = annotations?.get(id);
    return {
      kind: 'inferred',
      id,
      account,
      asset,
      amount: unitsText(value),
      from,
      to,
      time,
      ...(annotation?.label !== undefined ? { label: annotation.label } : {}),
      ...(annotation?.costBasis !== undefined ? { costBasis: annotation.costBasis } : {}),
    };
  };
  const cursor = { next: 0 };
  const times = movements.times;
  while (cursor.next < times.length && times[cursor.next]! <= observations[0]!.time) {
    cursor.next++;
  }
  for (let i = 1; i < observations.length; i++) {
    const { time: from, balance: start } = observations[i - 1]!;
    const { time: to, balance: end } = observations[i]!;
    const { running, lowest, firstShortAt } = replayUntil(start, movements, cursor, to);
    const unexplained = end - running;
    const needed = lowest < 0n ? -lowest : 0n;
    const credit = unexplained > needed ? unexplained : needed;
    if (credit > 0n) result.push(make(from, to, firstShortAt ?? to, credit));
    const debit = credit - unexplained;
    if (debit > 0n) result.push(make(from, to, to, -debit));
  }
  // After the last observation nothing can be compared, but a movement that spends more than the
  // replay holds proves a credit came first: the least that covers it, by that movement.
  const last = observations[observations.length - 1]!;
  const tail = replayUntil(last.balance, movements, cursor, Infinity);
  if (tail.firstShortAt !== null) {
    result.push(make(last.time, tail.firstShortAt, tail.firstShortAt, -tail.lowest));
  }
  return result;
}

/** Replays movements from `cursor.next` up to `until` (inclusive), advancing the cursor. */
function replayUntil(
  start: Units,
  movements: Movements,
  cursor: { next: number },
  until: number,
): { running: Units; lowest: Units; firstShortAt: number | null } {
  const { times, deltas } = movements;
  let running = start;
  let lowest = start;
  let firstShortAt: number | null = null;
  for (; cursor.next < times.length && times[cursor.next]! <= until; cursor.next++) {
    running += deltas[cursor.next]!;
    if (running < 0n && firstShortAt === null) firstShortAt = times[cursor.next]!;
    if (running < lowest) lowest = running;
  }
  return { running, lowest, firstShortAt };
}
