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
import { atOnce, type Slices } from '../core/clock';
import { grown } from '../core/columns';
import { withAnnotation } from './annotations';
import { formatDecimal } from '../core/decimal';
import { DecimalSum, type DecimalCoefficient } from '../../shared/exact-decimal';
import { readTradeParts, tradeParts } from './trade-table';
import { amount, isAboveZero, isBelowZero, ZERO, type Amount } from './decimal';
import {
  eachBalanceChange,
  sortEntries,
  type InferredEntry,
  type LedgerEntry,
  type TradeEntry,
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
  balance: Amount;
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
 * The reconciliation rule (this file's header), the one statement of it: one (account, asset)
 * replayed movement by movement (in ledger order) through its intervals between observations; at
 * each interval's end, what the movements do not explain becomes inferred entries; after the
 * last, only a shortfall does. Nothing is kept per movement. The engine (Reconciliation) runs
 * one per asset a change touches, from the asset's last observation before the change.
 */
export class AssetReplay {
  private readonly result: InferredEntry[] = [];
  /** The observation that ends the interval being replayed (past the last: the tail). */
  private next = 1;
  /** The balance replayed so far, changed in place (a run of USDT is a sum beyond 2^53). */
  private readonly running: DecimalSum;
  /** The lowest it went in the interval (a copy of running's parts, made no value). */
  private readonly lowest: DecimalSum;
  private firstShortAt: number | null = null;

  constructor(
    private readonly account: string,
    private readonly asset: string,
    private readonly observations: readonly Observation[],
    private readonly annotations: ReadonlyMap<string, InferredAnnotation> | undefined,
  ) {
    this.running = new DecimalSum(observations[0]!.balance);
    this.lowest = new DecimalSum(observations[0]!.balance);
  }

  /**
   * The movements of `movements` from `start` on (ledger order), each closing the intervals that
   * end before it; those at or before the first observation (the account had not opened) are
   * left out.
   */
  run(movements: MovementColumns, start: number): void {
    const { times, coefficients, scales, subtracts, count } = movements;
    const observations = this.observations;
    let index = Math.max(start, firstAfter(times, count, observations[0]!.time));
    while (index < count) {
      // Every movement up to the interval's end is in it: compared with that end once each.
      const end = this.next < observations.length ? observations[this.next]!.time : Infinity;
      for (let time = times[index]!; time <= end; time = times[index]!) {
        const coefficient = coefficients[index]!;
        this.move(
          time,
          Number.isNaN(coefficient) ? movements.wide!.get(index)! : coefficient,
          scales[index]!,
          subtracts[index] === 1,
        );
        if (++index === count) return;
      }
      this.close();
    }
  }

  /** One movement of an amount's parts (taken away when `subtract`) at `time`, in its interval. */
  private move(
    time: number,
    coefficient: DecimalCoefficient,
    scale: number,
    subtract: boolean,
  ): void {
    const running = this.running;
    running.addParts(coefficient, scale, subtract);
    // The lowest matters only below zero (the credit it proves): compared only then.
    if (running.sign() < 0) {
      if (this.firstShortAt === null) this.firstShortAt = time;
      if (running.cmpSum(this.lowest) < 0) this.lowest.copyFrom(running);
    }
  }

  /** Every interval closed, and the tail's shortfall: this (account, asset)'s inferred entries. */
  finish(): InferredEntry[] {
    while (this.next < this.observations.length) this.close();
    // After the last observation nothing can be compared, but a movement that spends more than
    // the replay holds proves a credit came first: the least that covers it, by that movement.
    if (this.firstShortAt !== null) {
      const last = this.observations[this.observations.length - 1]!;
      this.make(last.time, this.firstShortAt, this.firstShortAt, this.lowest.value().negated());
    }
    return this.result;
  }

  private close(): void {
    const { time: from } = this.observations[this.next - 1]!;
    const { time: to, balance: end } = this.observations[this.next]!;
    const unexplained = end.minus(this.running.value());
    const lowest = this.lowest.value();
    const needed = isBelowZero(lowest) ? lowest.negated() : ZERO;
    const credit = unexplained.gt(needed) ? unexplained : needed;
    if (isAboveZero(credit)) this.make(from, to, this.firstShortAt ?? to, credit);
    const debit = credit.minus(unexplained);
    if (isAboveZero(debit)) this.make(from, to, to, debit.negated());
    this.next++;
    this.running.set(end);
    this.lowest.set(end);
    this.firstShortAt = null;
  }

  private make(from: number, to: number, time: number, value: Amount): void {
    const { account, asset } = this;
    const first = this.observations[0]!;
    const opens = first.opening && from === first.time ? 'open' : from;
    const id = inferredEntryId(account, asset, opens, isBelowZero(value) ? 'debit' : 'credit');
    const annotation = this.annotations?.get(id);
    this.result.push({
      kind: 'inferred',
      id,
      account,
      asset,
      amount: formatDecimal(value),
      from,
      to,
      time,
      ...(annotation?.label !== undefined ? { label: annotation.label } : {}),
      ...(annotation?.costBasis !== undefined ? { costBasis: annotation.costBasis } : {}),
    });
  }
}

/** Where a snapshot comes from; a fresh read lists them in this order before sorting by time. */
export type SnapshotGroup = 0 | 1 | 2;

/** Snapshots added to the reconciliation, with their group. */
export type AddedSnapshots = readonly { snapshot: BalanceSnapshot; group: SnapshotGroup }[];

/**
 * What a revision changed of the inferred entries: those made before that changed or went (as
 * they were) and those new or made again (as they are now), each in no particular order.
 */
export interface Revision {
  made: InferredEntry[];
  gone: InferredEntry[];
}

/** Movements taken per slice of updateInSlices(). */
const SLICE = 5000;

const keyOf = (account: string, asset: string) => `${account}\u0000${asset}`;

/**
 * Known movements in ledger order, as columns (no object per movement): each an amount's parts
 * (its coefficient and scale, as shared/exact-decimal.ts holds them) and whether it is taken away
 * (no negated value made). Typed arrays grown by doubling: their bytes are held outside the
 * collected heap, so a build's 300,000 movements are no object a scavenge copies (held as the
 * entries' Decimals they were, they were a third of the build's collections) and a growth is
 * one copy of raw bytes. Those past `count` are room to grow.
 */
interface MovementColumns {
  count: number;
  /** Ascending. */
  times: Float64Array;
  /** NaN where the coefficient is beyond 2^53: then in `wide`, by index. */
  coefficients: Float64Array;
  wide: Map<number, DecimalCoefficient> | null;
  scales: Uint16Array;
  /** 1 where taken away. */
  subtracts: Uint8Array;
}

/**
 * One (account, asset) the engine knows of (by movements or snapshots): its movements, and when
 * the change being taken first touched it. A build records some 300,000 movements, so nothing is
 * looked up by a made key per movement: the list is found once per asset, and marks itself.
 */
interface Movements extends MovementColumns {
  account: string;
  asset: string;
  /** keyOf(account, asset), made once. */
  key: string;
  /** The earliest time the change being taken touches; Infinity while it touches none. */
  changedAt: number;
}

/** What the movements taken so far in one change show. */
interface Intake {
  /** No movement came before one its list held. */
  inOrder: boolean;
  /** The earliest time of a known (not inferred) entry; Infinity before the first. */
  earliest: number;
}

/** One symbol's base and quote lists of one account: a trade finds both by one lookup. */
interface PairLists {
  base: Movements;
  quote: Movements;
}

/**
 * The reconciliation engine: known movements and balance snapshots go in as they come (update),
 * the inferred entries that come of them come out. Each change re-runs the rule only over the
 * intervals it touches: for each (account, asset) it moves, from its last observation before the
 * change. A full build is this engine run from empty; a kept ledger is the same engine given what
 * was added since, and what it finds must be what the run from empty would: entries made before
 * unchanged, new ones after them. When that cannot be shown update() answers null and is spent
 * (the caller builds anew); revise() takes a change that reaches back and says which entries made
 * before came out otherwise.
 */
export class Reconciliation {
  /** Every list, in the order first named. */
  private readonly movements: Movements[] = [];
  /** The same lists by account, then asset. */
  private readonly movementsByAccount = new Map<string, Map<string, Movements>>();
  /** The lists of each account's symbols, by account, then symbol. */
  private readonly pairs = new Map<string, Map<string, PairLists>>();
  /** The lists the change being taken touches, in the order first touched. */
  private readonly touched: Movements[] = [];
  /** Every asset named per account, by movements or snapshots. */
  private readonly assets = new Map<string, Set<string>>();
  /** Each account's snapshots as a fresh read sorts them: by time, then group, then as read. */
  private readonly snapshots = new Map<string, BalanceSnapshot[]>();
  private readonly groups = new WeakMap<BalanceSnapshot, SnapshotGroup>();
  /** Each (account, asset)'s inferred entries, by interval. */
  private readonly made = new Map<string, InferredEntry[]>();
  private readonly annotations: Map<string, InferredAnnotation>;
  /** When the accounts opened (held nothing before): NaN until the first movement or snapshot. */
  private openedAt: number;
  private readonly openingGiven: boolean;

  constructor(options: ReconcileOptions = {}) {
    this.annotations = new Map(options.annotations);
    this.openingGiven = options.openedAt !== undefined;
    this.openedAt = options.openedAt ?? NaN;
  }

  /**
   * Takes known entries (in ledger order, none before those given earlier) and snapshot changes,
   * and returns the inferred entries that come of them (in no particular order), or null when
   * entries already made would change.
   */
  update(
    entries: readonly LedgerEntry[],
    added: AddedSnapshots,
    removed: readonly BalanceSnapshot[] = [],
  ): InferredEntry[] | null {
    return atOnce(this.updateInSlices(entries, added, removed));
  }

  /** update() in slices: a few thousand movements, or one asset's intervals, each. */
  *updateInSlices(
    entries: readonly LedgerEntry[],
    added: AddedSnapshots,
    removed: readonly BalanceSnapshot[] = [],
  ): Slices<InferredEntry[] | null> {
    const revision = yield* this.take(entries, added, removed, null, false);
    return revision && revision.made;
  }

  /**
   * Takes a change that may reach back before what was taken: a late movement (a trade imported
   * after newer ones were taken) or a late snapshot. With `since`, every movement taken at or
   * after it is dropped and `entries` are every known entry from `since` on (those taken before
   * again, and the new ones) in ledger order, so the movements stand as a run from empty would
   * order them. Each asset touched is run again from its last observation before the change, and
   * the inferred entries made before that come out otherwise are reported (gone), with what
   * replaces them and what is new (made). Null only when it cannot be done (a movement before the
   * accounts' opening); the engine is spent then.
   */
  revise(
    entries: readonly LedgerEntry[],
    added: AddedSnapshots,
    removed: readonly BalanceSnapshot[],
    since: number | null,
  ): Revision | null {
    return atOnce(this.take(entries, added, removed, since, true));
  }

  private *take(
    entries: readonly LedgerEntry[],
    added: AddedSnapshots,
    removed: readonly BalanceSnapshot[],
    since: number | null,
    revising: boolean,
  ): Slices<Revision | null> {
    try {
      return yield* this.takeMarked(entries, added, removed, since, revising);
    } finally {
      // Marks are the change's own: none is left for the next one (nor by one given up).
      for (const list of this.touched) list.changedAt = Infinity;
      this.touched.length = 0;
    }
  }

  /** take() but for the marks' reset: each list touched is marked, then run again. */
  private *takeMarked(
    entries: readonly LedgerEntry[],
    added: AddedSnapshots,
    removed: readonly BalanceSnapshot[],
    since: number | null,
    revising: boolean,
  ): Slices<Revision | null> {
    if (since !== null) {
      // The movements from `since` on come again, in order, among `entries`.
      for (const list of this.movements) {
        const cut = firstAfter(list.times, list.count, since - 1);
        if (cut === list.count) continue;
        list.count = cut;
        if (list.wide)
          for (const index of list.wide.keys()) if (index >= cut) list.wide.delete(index);
        this.touch(list, since);
      }
    }
    const intake: Intake = { inOrder: true, earliest: Infinity };
    for (let from = 0; from < entries.length; from += SLICE) {
      if (from > 0) yield;
      this.takeMovements(entries, from, Math.min(from + SLICE, entries.length), intake);
    }
    // A movement before one already taken: its asset's replay would run out of order.
    if (!intake.inOrder) return null;
    if (!this.openingGiven) {
      // By default the accounts opened just before the first thing known of them.
      let earliest = intake.earliest;
      for (const { snapshot } of added) earliest = Math.min(earliest, snapshot.time);
      if (earliest !== Infinity) {
        if (Number.isNaN(this.openedAt)) this.openedAt = earliest - 1;
        else if (earliest <= this.openedAt) return null;
      }
    }
    const touchSnapshot = (snapshot: BalanceSnapshot) => {
      const account = snapshot.account;
      if (snapshot.complete) {
        // A full snapshot observes every asset of the account, the unlisted ones at 0.
        for (const asset of Object.keys(snapshot.balances)) this.movementsOf(account, asset);
        for (const asset of this.assetsOf(account)) {
          this.touch(this.movementsOf(account, asset), snapshot.time);
        }
      } else {
        for (const asset of Object.keys(snapshot.balances)) {
          this.touch(this.movementsOf(account, asset), snapshot.time);
        }
      }
    };
    for (const snapshot of removed) {
      const list = this.snapshots.get(snapshot.account) ?? [];
      const index = list.lastIndexOf(snapshot);
      if (index < 0) return null;
      list.splice(index, 1);
      touchSnapshot(snapshot);
    }
    for (const { snapshot, group } of added) {
      this.insert(snapshot, group);
      touchSnapshot(snapshot);
    }
    const revision: Revision = { made: [], gone: [] };
    // In the order first touched, as the engine always ran them (a rerun touches nothing).
    const touched = this.touched;
    for (let index = 0; index < touched.length; index++) {
      const list = touched[index]!;
      const rerun = this.rerun(list, list.changedAt, revising);
      if (!rerun) return null;
      for (const entry of rerun.made) revision.made.push(entry);
      for (const entry of rerun.gone) revision.gone.push(entry);
      yield;
    }
    return revision;
  }

  /**
   * Annotations that apply to entries already made (an annotation whose entry moved applies
   * where it went): those entries carry them from now on, as entries made later do.
   */
  annotate(moved: ReadonlyMap<string, InferredAnnotation>): void {
    for (const [id, annotation] of moved) this.annotations.set(id, annotation);
    for (const list of this.made.values()) {
      list.forEach((entry, index) => {
        const annotation = moved.get(entry.id);
        if (annotation) list[index] = withAnnotation(entry, annotation);
      });
    }
  }

  /** Every inferred entry made, in ledger order. */
  inferred(): InferredEntry[] {
    const all: InferredEntry[] = [];
    for (const list of this.made.values()) for (const entry of list) all.push(entry);
    return sortEntries(all) as InferredEntry[];
  }

  /**
   * The movements of `entries[from, to)` onto their lists, what they show noted in `intake`. A
   * plain loop, not the generator's: a build runs it for some 300,000 movements.
   */
  private takeMovements(
    entries: readonly LedgerEntry[],
    from: number,
    to: number,
    intake: Intake,
  ): void {
    let inOrder = true;
    let earliest = intake.earliest;
    let time = 0;
    const move = (account: string, asset: string, delta: Amount, subtract: boolean) => {
      const list = this.movementsOf(account, asset);
      inOrder = this.record(list, time, delta.coefficient, delta.scale, subtract) && inOrder;
    };
    // Trades are nearly every entry: their lists are found per (account, symbol), the last
    // account's kept at hand, and their amounts read once. The rule is eachBalanceChange's,
    // written out here (no call per movement); a property test holds the two together.
    let account: string | null = null;
    let pairs: Map<string, PairLists> | null = null;
    for (let index = from; index < to; index++) {
      const entry = entries[index]!;
      if (entry.kind === 'inferred') continue;
      time = entry.time;
      if (time < earliest) earliest = time;
      if (entry.kind !== 'trade') {
        eachBalanceChange(entry, move);
        continue;
      }
      if (entry.account !== account || pairs === null) {
        account = entry.account;
        pairs = this.pairsOf(account);
      }
      const lists = this.pairOf(pairs, entry);
      const buy = entry.side === 'BUY';
      // Its amounts' parts as the trade holds them (a build's trades, in their table's columns).
      readTradeParts(entry);
      const parts = tradeParts;
      let ordered = this.record(lists.base, time, parts.qty, parts.qtyScale, !buy);
      ordered = this.record(lists.quote, time, parts.quoteQty, parts.quoteQtyScale, buy) && ordered;
      if (parts.commission !== 0) {
        const asset = entry.commissionAsset;
        const fees =
          asset === lists.base.asset
            ? lists.base
            : asset === lists.quote.asset
              ? lists.quote
              : this.movementsOf(account, asset);
        ordered = this.record(fees, time, parts.commission, parts.commissionScale, true) && ordered;
      }
      inOrder = ordered && inOrder;
    }
    intake.inOrder &&= inOrder;
    intake.earliest = earliest;
  }

  /**
   * One movement onto its list, the list marked as touched; false when it comes before one the
   * list holds (out of ledger order).
   */
  private record(
    list: Movements,
    time: number,
    coefficient: DecimalCoefficient,
    scale: number,
    subtract: boolean,
  ): boolean {
    const count = list.count;
    if (count === list.times.length) grow(list);
    const times = list.times;
    times[count] = time;
    list.subtracts[count] = subtract ? 1 : 0;
    if (typeof coefficient === 'number') {
      list.coefficients[count] = coefficient;
    } else {
      list.coefficients[count] = NaN;
      (list.wide ??= new Map()).set(count, coefficient);
    }
    list.scales[count] = scale;
    list.count = count + 1;
    if (time < list.changedAt) this.touch(list, time);
    return count === 0 || times[count - 1]! <= time;
  }

  /** Marks `list` as changed from `time` on (the earliest time marked stands). */
  private touch(list: Movements, time: number): void {
    if (list.changedAt === Infinity) this.touched.push(list);
    if (time < list.changedAt) list.changedAt = time;
  }

  /** The movements of one (account, asset), a new list the first time. */
  private movementsOf(account: string, asset: string): Movements {
    let assets = this.movementsByAccount.get(account);
    if (!assets) this.movementsByAccount.set(account, (assets = new Map()));
    let list = assets.get(asset);
    if (!list) {
      const key = keyOf(account, asset);
      list = {
        account,
        asset,
        key,
        changedAt: Infinity,
        count: 0,
        times: new Float64Array(FIRST_ROOM),
        coefficients: new Float64Array(FIRST_ROOM),
        wide: null,
        scales: new Uint16Array(FIRST_ROOM),
        subtracts: new Uint8Array(FIRST_ROOM),
      };
      assets.set(asset, list);
      this.movements.push(list);
      this.assetsOf(account).add(asset);
    }
    return list;
  }

  private pairsOf(account: string): Map<string, PairLists> {
    let pairs = this.pairs.get(account);
    if (!pairs) this.pairs.set(account, (pairs = new Map()));
    return pairs;
  }

  /** A trade's base and quote lists, found once per symbol (a symbol names its two assets). */
  private pairOf(pairs: Map<string, PairLists>, trade: TradeEntry): PairLists {
    const lists = pairs.get(trade.symbol);
    if (lists && lists.base.asset === trade.base && lists.quote.asset === trade.quote) return lists;
    const made = {
      base: this.movementsOf(trade.account, trade.base),
      quote: this.movementsOf(trade.account, trade.quote),
    };
    pairs.set(trade.symbol, made);
    return made;
  }

  private assetsOf(account: string): Set<string> {
    let assets = this.assets.get(account);
    if (!assets) this.assets.set(account, (assets = new Set()));
    return assets;
  }

  private insert(snapshot: BalanceSnapshot, group: SnapshotGroup): void {
    this.groups.set(snapshot, group);
    let list = this.snapshots.get(snapshot.account);
    if (!list) this.snapshots.set(snapshot.account, (list = []));
    const after = (other: BalanceSnapshot) =>
      other.time > snapshot.time ||
      (other.time === snapshot.time && this.groups.get(other)! > group);
    const last = list[list.length - 1];
    if (!last || !after(last)) {
      list.push(snapshot);
      return;
    }
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (after(list[middle]!)) high = middle;
      else low = middle + 1;
    }
    list.splice(low, 0, snapshot);
  }

  /**
   * Runs the rule over one asset's intervals from its last observation before `changedAt`: the
   * entries it made from there must come out again, and what follows them is new; `revising`,
   * those that come out otherwise are gone and their successors made.
   */
  private rerun(list: Movements, changedAt: number, revising: boolean): Revision | null {
    const { account, asset, key } = list;
    const observations: Observation[] = [];
    const snapshots = this.snapshots.get(account) ?? [];
    let from: number | null = null;
    for (let i = snapshots.length - 1; i >= 0; i--) {
      const snapshot = snapshots[i]!;
      if (from !== null && snapshot.time < from) break;
      const text = snapshot.balances[asset];
      if (text === undefined && !snapshot.complete) continue;
      if (from === null && snapshot.time < changedAt) from = snapshot.time;
      observations.push({
        time: snapshot.time,
        balance: text === undefined ? ZERO : amount(text, `${account} ${asset}`, 'balance'),
      });
    }
    if (from === null) {
      from = this.openedAt;
      observations.push({ time: from, balance: ZERO, opening: true });
    }
    observations.reverse();
    // A snapshot taken at the opening itself opens the same interval the opening does.
    const first = observations[0]!;
    if (first.time === this.openedAt) observations[0] = { ...first, opening: true };
    const replay = new AssetReplay(account, asset, observations, this.annotations);
    replay.run(list, firstAfter(list.times, list.count, from));
    const made = replay.finish();
    let entries = this.made.get(key);
    if (!entries) this.made.set(key, (entries = []));
    let start = entries.length;
    while (start > 0 && entries[start - 1]!.from >= from) start--;
    const kept = entries.length - start;
    let same = 0;
    while (same < kept && same < made.length && sameInferred(entries[start + same]!, made[same]!)) {
      same++;
    }
    if (same < kept && !revising) return null;
    // The entries made before stand as they were up to `same`; the rest of them went.
    const gone = entries.splice(start + same);
    const extras: InferredEntry[] = [];
    for (let i = same; i < made.length; i++) {
      // One that comes out as it was (after one that changed) stays, and is not reported.
      const entry = made[i]!;
      const index = gone.findIndex((old) => sameInferred(old, entry));
      if (index >= 0) {
        entries.push(gone[index]!);
        gone.splice(index, 1);
      } else {
        entries.push(entry);
        extras.push(entry);
      }
    }
    return { made: extras, gone };
  }
}

/** Movements a new list has room for (19 bytes each). */
const FIRST_ROOM = 64;

/** Room for three times as many movements in each column (a build's lists grow from empty). */
function grow(list: MovementColumns): void {
  const size = list.times.length * 4;
  list.times = grown(list.times, size);
  list.coefficients = grown(list.coefficients, size);
  list.scales = grown(list.scales, size);
  list.subtracts = grown(list.subtracts, size);
}

/** The first index below `count` whose time is after `time` (times ascending). */
function firstAfter(times: Float64Array, count: number, time: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! <= time) low = middle + 1;
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

/**
 * The inferred entries that make the known movements agree with every balance observation: the
 * engine run from empty. Any inferred entries among `entries` are ignored: the result replaces
 * them.
 */
export function reconcile(
  entries: readonly LedgerEntry[],
  snapshots: readonly BalanceSnapshot[],
  options: ReconcileOptions = {},
): InferredEntry[] {
  const engine = new Reconciliation(options);
  engine.update(
    sortEntries(entries),
    snapshots.map((snapshot) => ({ snapshot, group: 0 })),
  );
  return engine.inferred();
}
