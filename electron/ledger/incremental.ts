/**
 * The reconciliation kept between asks, so new movements and observations re-run only the newest
 * intervals of the assets they touch (reconcile.ts runs every interval of every asset). What it
 * finds must be what a fresh reconcile would: the entries already in the ledger unchanged, and new
 * ones that come after everything applied, in the order a fresh build would put them. When that
 * cannot be shown, the caller rebuilds.
 */
import { units, type Units } from './decimal';
import { eachBalanceChange, sameTimeRank, type InferredEntry, type LedgerEntry } from './entries';
import {
  AssetReplay,
  type BalanceSnapshot,
  type InferredAnnotation,
  type Observation,
} from './reconcile';

interface Movement {
  time: number;
  /** Signed. */
  delta: Units;
}

/** Where a snapshot comes from; a fresh read lists them in this order before sorting by time. */
export type SnapshotGroup = 0 | 1 | 2;

const keyOf = (account: string, asset: string) => `${account}\u0000${asset}`;

const GROUP = { trade: 0, withdrawal: 1, transfer: 2, inferred: 3 } as const;

export class Reconciliation {
  private readonly movements = new Map<string, Movement[]>();
  /** Accounts and their assets in the order known movements first name them. */
  private readonly known = new Map<string, Set<string>>();
  /** Assets named by snapshots, per account. */
  private readonly snapshotAssets = new Map<string, Set<string>>();
  /** Each (account, asset)'s inferred entries in the order reconcile makes them. */
  private readonly inferred = new Map<string, InferredEntry[]>();
  /** Snapshots as a fresh read sorts them: by time, then by group, then as read. */
  private readonly sorted: BalanceSnapshot[];
  private readonly groups = new WeakMap<BalanceSnapshot, SnapshotGroup>();
  private order: Map<string, number> | null = null;
  readonly openedAt: number;

  constructor(
    /** Known entries in ledger order. */
    known: readonly LedgerEntry[],
    inferred: readonly InferredEntry[],
    snapshots: {
      fundSnapshots: BalanceSnapshot[];
      observations: BalanceSnapshot[];
      current: BalanceSnapshot[];
    },
    private readonly annotations: ReadonlyMap<string, InferredAnnotation>,
  ) {
    let earliest = Infinity;
    for (const entry of known) {
      earliest = Math.min(earliest, entry.time);
      eachBalanceChange(entry, (account, asset, delta, subtract) =>
        this.addMovement(account, asset, entry.time, subtract ? -delta : delta),
      );
    }
    const all: BalanceSnapshot[] = [];
    ([snapshots.fundSnapshots, snapshots.observations, snapshots.current] as const).forEach(
      (list, group) => {
        for (const snapshot of list) {
          this.groups.set(snapshot, group as SnapshotGroup);
          all.push(snapshot);
          earliest = Math.min(earliest, snapshot.time);
        }
      },
    );
    this.sorted = all.sort((a, b) => a.time - b.time);
    for (const snapshot of this.sorted) this.noteAssets(snapshot);
    for (const entry of inferred) {
      const key = keyOf(entry.account, entry.asset);
      let list = this.inferred.get(key);
      if (!list) this.inferred.set(key, (list = []));
      list.push(entry);
    }
    this.openedAt = earliest - 1;
  }

  /** True when nothing was there to reconcile (the first movement sets where the account opens). */
  get empty(): boolean {
    return !Number.isFinite(this.openedAt);
  }

  private addMovement(account: string, asset: string, time: number, delta: Units): void {
    let assets = this.known.get(account);
    if (!assets) this.known.set(account, (assets = new Set()));
    assets.add(asset);
    const key = keyOf(account, asset);
    let list = this.movements.get(key);
    if (!list) this.movements.set(key, (list = []));
    list.push({ time, delta });
  }

  private noteAssets(snapshot: BalanceSnapshot): void {
    let assets = this.snapshotAssets.get(snapshot.account);
    if (!assets) this.snapshotAssets.set(snapshot.account, (assets = new Set()));
    for (const asset of Object.keys(snapshot.balances)) assets.add(asset);
  }

  /**
   * Takes new known entries (in ledger order, all after those given before) and snapshot
   * changes, and returns the inferred entries that come of them, or null when entries already
   * made would change (or a fresh reconcile would order things otherwise): then rebuild.
   */
  update(
    entries: readonly LedgerEntry[],
    added: readonly { snapshot: BalanceSnapshot; group: SnapshotGroup }[],
    removed: readonly BalanceSnapshot[],
  ): InferredEntry[] | null {
    if (this.empty) return null;
    const changedAt = new Map<string, number>();
    const touch = (account: string, asset: string, time: number) => {
      const key = keyOf(account, asset);
      changedAt.set(key, Math.min(changedAt.get(key) ?? Infinity, time));
    };
    for (const entry of entries) {
      let unknown = false;
      eachBalanceChange(entry, (account, asset, delta, subtract) => {
        // A new account or asset moves the order reconcile lists them in: rebuild.
        if (unknown || !this.known.get(account)?.has(asset)) {
          unknown = true;
          return;
        }
        this.addMovement(account, asset, entry.time, subtract ? -delta : delta);
        touch(account, asset, entry.time);
      });
      if (unknown) return null;
    }
    const touchSnapshot = (snapshot: BalanceSnapshot) => {
      for (const asset of Object.keys(snapshot.balances))
        touch(snapshot.account, asset, snapshot.time);
      if (!snapshot.complete) return;
      for (const asset of this.known.get(snapshot.account) ?? [])
        touch(snapshot.account, asset, snapshot.time);
      for (const asset of this.snapshotAssets.get(snapshot.account) ?? []) {
        touch(snapshot.account, asset, snapshot.time);
      }
    };
    for (const snapshot of removed) {
      const index = this.sorted.lastIndexOf(snapshot);
      if (index < 0) return null;
      this.sorted.splice(index, 1);
      this.order = null;
      touchSnapshot(snapshot);
    }
    for (const { snapshot, group } of added) {
      const known = this.snapshotAssets.get(snapshot.account);
      if (Object.keys(snapshot.balances).some((asset) => !known?.has(asset))) this.order = null;
      this.insert(snapshot, group);
      this.noteAssets(snapshot);
      touchSnapshot(snapshot);
    }
    const extras: InferredEntry[] = [];
    for (const [key, time] of changedAt) {
      const [account, asset] = key.split('\u0000') as [string, string];
      const found = this.rerun(account, asset, time);
      if (!found) return null;
      extras.push(...found);
    }
    return extras;
  }

  private insert(snapshot: BalanceSnapshot, group: SnapshotGroup): void {
    this.groups.set(snapshot, group);
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const other = this.sorted[middle]!;
      const after =
        other.time > snapshot.time ||
        (other.time === snapshot.time && this.groups.get(other)! > group);
      if (after) high = middle;
      else low = middle + 1;
    }
    this.sorted.splice(low, 0, snapshot);
  }

  /** Re-runs one asset's intervals from its last observation before `changedAt`. */
  private rerun(account: string, asset: string, changedAt: number): InferredEntry[] | null {
    const observations: Observation[] = [];
    let from: number | null = null;
    for (let i = this.sorted.length - 1; i >= 0; i--) {
      const snapshot = this.sorted[i]!;
      if (snapshot.account !== account) continue;
      if (from !== null && snapshot.time < from) break;
      const text = snapshot.balances[asset];
      if (text === undefined && !snapshot.complete) continue;
      if (from === null && snapshot.time < changedAt) from = snapshot.time;
      observations.push({
        time: snapshot.time,
        balance: text === undefined ? 0n : units(text, `${account} ${asset}`, 'balance'),
      });
    }
    if (from === null) {
      from = this.openedAt;
      observations.push({ time: this.openedAt, balance: 0n, opening: true });
    }
    observations.reverse();
    const movements = this.movements.get(keyOf(account, asset)) ?? [];
    const key = keyOf(account, asset);
    // reconcile()'s rule, from the last observation before the change.
    const replay = new AssetReplay(account, asset, observations, this.annotations);
    for (let index = firstAfter(movements, from); index < movements.length; index++) {
      const movement = movements[index]!;
      replay.move(movement.time, movement.delta, false);
    }
    const made = replay.finish();
    const list = this.inferred.get(key) ?? [];
    let start = list.length;
    while (start > 0 && list[start - 1]!.from >= from) start--;
    const kept = list.length - start;
    if (made.length < kept) return null;
    for (let i = 0; i < kept; i++) {
      if (!sameInferred(list[start + i]!, made[i]!)) return null;
    }
    const extras = made.slice(kept);
    if (extras.length > 0) {
      if (!this.inferred.has(key)) this.inferred.set(key, list);
      list.push(...extras);
    }
    return extras;
  }

  /**
   * Ledger order as a fresh build makes it (sortEntries over trades, withdrawals, transfers, then
   * inferred entries by account and asset): negative when `a` comes first; NaN when the entries
   * do not tell (two fills of one trade id).
   */
  compare(a: LedgerEntry, b: LedgerEntry): number {
    if (a.time !== b.time) return a.time - b.time;
    const byRank = sameTimeRank(a) - sameTimeRank(b);
    if (byRank !== 0) return byRank;
    const byGroup = GROUP[a.kind] - GROUP[b.kind];
    if (byGroup !== 0) return byGroup;
    if (a.kind === 'trade' || a.kind === 'transfer') {
      const byId = Number(a.id) - Number(b.id);
      return byId === 0 ? NaN : byId;
    }
    if (a.kind === 'withdrawal') return a.id < b.id ? -1 : a.id > b.id ? 1 : NaN;
    const x = a as InferredEntry;
    const y = b as InferredEntry;
    const keyX = keyOf(x.account, x.asset);
    const keyY = keyOf(y.account, y.asset);
    if (keyX !== keyY) {
      const order = this.keyOrder();
      return (order.get(keyX) ?? NaN) - (order.get(keyY) ?? NaN);
    }
    const list = this.inferred.get(keyX) ?? [];
    return list.indexOf(x) - list.indexOf(y);
  }

  /** The order reconcile's map lists (account, asset) in: known movements first, then snapshots. */
  private keyOrder(): Map<string, number> {
    if (this.order) return this.order;
    const accounts = new Map<string, Set<string>>();
    for (const [account, assets] of this.known) accounts.set(account, new Set(assets));
    for (const snapshot of this.sorted) {
      let assets = accounts.get(snapshot.account);
      if (!assets) accounts.set(snapshot.account, (assets = new Set()));
      for (const asset of Object.keys(snapshot.balances)) assets.add(asset);
    }
    const order = new Map<string, number>();
    for (const [account, assets] of accounts) {
      for (const asset of assets) order.set(keyOf(account, asset), order.size);
    }
    return (this.order = order);
  }
}

function firstAfter(movements: readonly Movement[], time: number): number {
  let low = 0;
  let high = movements.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (movements[middle]!.time <= time) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sameInferred(a: InferredEntry, b: InferredEntry): boolean {
  return (
    a.id === b.id &&
    a.amount === b.amount &&
    a.from === b.from &&
    a.to === b.to &&
    a.time === b.time &&
    a.label === b.label &&
    a.costBasis?.amount === b.costBasis?.amount &&
    a.costBasis?.currency === b.costBasis?.currency
  );
}
