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

/** An account's balance of one asset at a time it was observed. */
export interface Observation {
  time: number;
  balance: Units;
  /** The account's opening (nothing held before), not a balance read. */
  opening?: true;
}

/**
 * The stable id of an inferred entry: its account, asset and direction, and the observation that
 * opens its interval; the same gap after the same observation keeps its id. The interval's end is
 * left out: the newest observation moves forward with every refresh of the balances, and a label
 * the user gave must stay with its entry. An interval that opens at the account's opening is
 * named "open", not by the opening's time: that is one millisecond before the earliest record, and
 * moves whenever older records arrive (a withdraw history fetched in full, an import).
 */
export function inferredEntryId(
  account: string,
  asset: string,
  from: number | 'open',
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
  const ordered = [...snapshots].sort((a, b) => a.time - b.time);
  let earliest = Infinity;
  for (const entry of known) earliest = Math.min(earliest, entry.time);
  for (const snapshot of ordered) earliest = Math.min(earliest, snapshot.time);
  const openedAt = options.openedAt ?? earliest - 1;

  // Each (account, asset) replayed as its movements come, in the order the known movements first
  // name them and then the snapshots: the order its inferred entries are listed in.
  const replays = new Map<string, Map<string, AssetReplay>>();
  const snapshotsOf = new Map<string, BalanceSnapshot[]>();
  const assetsOf = (account: string): Map<string, AssetReplay> => {
    let assets = replays.get(account);
    if (!assets) replays.set(account, (assets = new Map()));
    return assets;
  };
  const replayOf = (account: string, asset: string): AssetReplay => {
    const assets = assetsOf(account);
    let replay = assets.get(asset);
    if (!replay) {
      let accountSnapshots = snapshotsOf.get(account);
      if (!accountSnapshots) {
        accountSnapshots = ordered.filter((snapshot) => snapshot.account === account);
        snapshotsOf.set(account, accountSnapshots);
      }
      const observations = observationsOf(account, asset, accountSnapshots, openedAt);
      replay = new AssetReplay(account, asset, observations, options.annotations);
      assets.set(asset, replay);
    }
    return replay;
  };
  let time = 0;
  const move = (account: string, asset: string, delta: Units, subtract: boolean) => {
    replayOf(account, asset).move(time, delta, subtract);
  };
  for (const entry of known) {
    time = entry.time;
    eachBalanceChange(entry, move);
  }
  for (const snapshot of ordered) {
    assetsOf(snapshot.account);
    for (const asset of Object.keys(snapshot.balances)) replayOf(snapshot.account, asset);
  }

  const inferred: InferredEntry[] = [];
  for (const assets of replays.values()) {
    for (const replay of assets.values()) inferred.push(...replay.finish());
  }
  return sortEntries(inferred) as InferredEntry[];
}

/** The account's balance of `asset` at each of its snapshots, from 0 when it opened. */
function observationsOf(
  account: string,
  asset: string,
  accountSnapshots: readonly BalanceSnapshot[],
  openedAt: number,
): Observation[] {
  const observations: Observation[] = [{ time: openedAt, balance: 0n, opening: true }];
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
  return observations;
}

/**
 * The reconciliation rule (this file's header), the one statement of it: one (account, asset)
 * replayed movement by movement (in ledger order) through its intervals between observations; at
 * each interval's end, what the movements do not explain becomes inferred entries; after the
 * last, only a shortfall does. Nothing is kept per movement. reconcile() runs one per asset from
 * the account's opening; the kept reconciliation (incremental.ts) one from an asset's last
 * observation before what changed.
 */
export class AssetReplay {
  private readonly result: InferredEntry[] = [];
  /** The observation that ends the interval being replayed (past the last: the tail). */
  private next = 1;
  private running: Units;
  private lowest: Units;
  private firstShortAt: number | null = null;

  constructor(
    private readonly account: string,
    private readonly asset: string,
    private readonly observations: readonly Observation[],
    private readonly annotations: ReadonlyMap<string, InferredAnnotation> | undefined,
  ) {
    this.running = observations[0]!.balance;
    this.lowest = this.running;
  }

  /** A movement of `delta` (taken away when `subtract`) at `time`, no earlier than the last. */
  move(time: number, delta: Units, subtract: boolean): void {
    const observations = this.observations;
    // Before the account opened: nothing to replay.
    if (time <= observations[0]!.time) return;
    while (this.next < observations.length && time > observations[this.next]!.time) this.close();
    const running = subtract ? this.running - delta : this.running + delta;
    this.running = running;
    if (running < 0n && this.firstShortAt === null) this.firstShortAt = time;
    if (running < this.lowest) this.lowest = running;
  }

  /** Every interval closed, and the tail's shortfall: this (account, asset)'s inferred entries. */
  finish(): InferredEntry[] {
    while (this.next < this.observations.length) this.close();
    // After the last observation nothing can be compared, but a movement that spends more than
    // the replay holds proves a credit came first: the least that covers it, by that movement.
    if (this.firstShortAt !== null) {
      const last = this.observations[this.observations.length - 1]!;
      this.make(last.time, this.firstShortAt, this.firstShortAt, -this.lowest);
    }
    return this.result;
  }

  private close(): void {
    const { time: from } = this.observations[this.next - 1]!;
    const { time: to, balance: end } = this.observations[this.next]!;
    const unexplained = end - this.running;
    const needed = this.lowest < 0n ? -this.lowest : 0n;
    const credit = unexplained > needed ? unexplained : needed;
    if (credit > 0n) this.make(from, to, this.firstShortAt ?? to, credit);
    const debit = credit - unexplained;
    if (debit > 0n) this.make(from, to, to, -debit);
    this.next++;
    this.running = end;
    this.lowest = end;
    this.firstShortAt = null;
  }

  private make(from: number, to: number, time: number, value: Units): void {
    const { account, asset } = this;
    const first = this.observations[0]!;
    const opens = first.opening && from === first.time ? 'open' : from;
    const id = inferredEntryId(account, asset, opens, value < 0n ? 'debit' : 'credit');
    const annotation = this.annotations?.get(id);
    this.result.push({
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
    });
  }
}
