/**
 * The ledger of a profile, built from the store: known movements, reconciled against every
 * balance observation into inferred entries, applied in ledger order by the chosen cost method,
 * valued in the chosen currency at the prices of the time.
 *
 * A build runs the reconciliation engine (reconcile.ts) from empty and keeps it with the ledger.
 * Asked again, when all that changed is rows added after everything read (new own trades,
 * withdrawals, transfers, observations; the balances of now), only those are read, given to the
 * kept engine (which re-runs the newest intervals of the assets they touch) and applied to the
 * kept Ledger, which takes entries in ledger order one after another. A trade or observation
 * that comes late (within REPLAY_WINDOW_MS), or an entry already applied that would change, is
 * replayed: the Ledger goes back to a checkpoint before it and applies the entries from there
 * again, as is a price an entry took that a finer candle fetched since answers otherwise. Anything
 * else (a row among those read changed, an annotation, new sub-accounts, 12-hour candles fetched)
 * rebuilds it all. The result is the one a rebuild would give, which
 * test/ledger/incremental.test.ts checks.
 *
 * What the screens are shown of it is in views.ts.
 */
import { assetKey } from '../../shared/market';
import type { ExchangeClient } from '../exchange';
import type { Store } from '../store';
import { atOnce, inTurns, type Slices } from '../core/clock';
import { movedAnnotations, resolveAnnotations, type ResolvedAnnotation } from './annotations';
import { Ledger, type CostMethod, type LedgerCheckpoint, type PriceAt } from './cost-basis';
import {
  compareEntries,
  mergeEntries,
  sortEntries,
  type InferredEntry,
  type LedgerEntry,
} from './entries';
import { storePort } from '../sync/store-port';
import {
  fetchCloses,
  fetchEntryPrices,
  keptCloses,
  keptEntryCandles,
  LEDGER_INTERVAL,
  MarketPrices,
  tickersOf,
  type EntryCandles,
  type EntryPriceProgress,
} from './prices';
import { Reconciliation, type AddedSnapshots, type BalanceSnapshot } from './reconcile';
import { PriceLog, priceText } from './price-log';
import { ledgerFigures, pnlBetween, pnlForRange, rangeQuery, type RangePnl } from './results';
import {
  readAppends,
  readLedgerParts,
  readLedgerPartsInThreads,
  type LedgerInputs,
  type LedgerParts,
} from './source';
import type { TradeReaders } from './trade-readers';
import { TableTrade, type TradeTable } from './trade-table';

/** Prices within this span of now are today's (the tickers), older ones the candles'. */
const PRESENT_MS = 60_000;
/**
 * Today's prices are read again when they changed, when a new asset needs a path, and otherwise
 * this often (the present, PRESENT_MS before now, moves on).
 */
const PRICES_EVERY_MS = 1_000;
/**
 * How late a trade or balance observation may come (older than the newest taken) and still be
 * taken by replaying the kept ledger from a checkpoint before it, not by rebuilding it: a linked
 * sub-account's fill reaches the store by its own stream or its import (at the start, when its
 * stream goes live, after a reconnect and every minute), independently of the main account's
 * fills, and its balance events of its own connection. Five minutes covers a minute's import
 * and a reconnect's catching up with room to spare; what is older is rebuilt.
 */
export const REPLAY_WINDOW_MS = 5 * 60_000;
/**
 * A checkpoint of the kept ledger is taken after this many entries since the last: a late entry
 * then costs at most about this many entries applied again (and the ones after it). Each costs a
 * copy of the open lots, so not at every entry.
 */
const CHECKPOINT_EVERY = 32;
/** The most checkpoints kept: the one older than the window, and the newer ones. */
const MAX_CHECKPOINTS = 8;

export interface LedgerChoice {
  method: CostMethod;
  /** The reporting currency, any asset with a price path ("usdt", "inr", ...). */
  currency: string;
}

export interface BuiltLedger {
  profileId: string;
  choice: LedgerChoice;
  inputs: LedgerInputs;
  inferred: InferredEntry[];
  /**
   * The user's annotations against the inferred entries (kept, changed, moved or gone). An
   * update that could change how one resolves rebuilds, so these stay a fresh build's.
   */
  annotations: ResolvedAnnotation[];
  /** Every entry, inferred ones included, in ledger order. */
  entries: LedgerEntry[];
  ledger: Ledger;
  /** Prices now and of the time, as read at `builtAt`. */
  prices: MarketPrices;
  builtAt: number;
}

/** What a kept ledger was built from and how to bring it up to date. */
interface Kept {
  built: BuiltLedger;
  /** When the store was read in full. */
  readAt: number;
  parts: LedgerParts;
  /** The prices the ledger's priceAt reads; swapped when today's prices are read again. */
  holder: { prices: MarketPrices; logging: boolean };
  /** Every price the ledger's entries took, to show new prices would give them the same. */
  priceLog: PriceLog;
  closes: Map<string, { openTime: number; close: string }[]>;
  /** The finer candles kept for entries' times, per symbol on the ledger's price paths. */
  entryCandles: EntryCandles;
  /**
   * The markets whose candles do not answer yet for every entry's time, and the newest such time,
   * as of the log's size.
   */
  entryLacking: {
    logged: number;
    markets: number;
    symbols: string[];
    newest: number | null;
  } | null;
  /** Finer candles were kept since the prices were read: read them again at the next ask. */
  pricesStale: boolean;
  assets: Set<string>;
  reconciliation: Reconciliation;
  /** Ledgers of the entries before a range's start, per range span (see rangePnl). */
  ranges: Map<number, { from: number; ledger: Ledger; next: number }>;
  /**
   * The kept ledger as it stood after its first entries, oldest first (each with the size of the
   * price log then), to replay from when an entry turns up among those applied (see replay).
   */
  checkpoints: { ledger: LedgerCheckpoint; logged: number }[];
}

/**
 * Reader threads for long histories' trades (trade-readers.ts): a build of a profile with at
 * least `threadsFrom` trades has them read there. Without readers every read is the main
 * thread's, in slices.
 */
export interface LedgerThreads {
  readers?: TradeReaders;
  threadsFrom?: number;
}

/** Trades from which a build's read goes to the reader threads (below, starting them costs more). */
const THREADS_FROM = 20_000;

/** Entries applied per slice of a build. */
const ENTRIES_PER_SLICE = 5000;

/** Builds (or brings up to date) ledgers of the profiles of one store. */
export class LedgerService {
  private readonly kept = new Map<string, Kept>();
  /** Builds running in turns of the event loop, per key, so two asks share one. */
  private readonly building = new Map<string, Promise<Kept>>();
  /** Moved on by forget(): a build started before is not kept. */
  private generation = 0;
  /**
   * Full builds and incremental updates made, for tests and benches; `replays`: the updates that
   * went back to a checkpoint for an entry older than the last applied (a late trade);
   * `threadedReads`/`threadFailures`: builds whose trades the reader threads read, or failed to.
   */
  readonly stats = { builds: 0, updates: 0, replays: 0, threadedReads: 0, threadFailures: 0 };

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    private readonly threads: LedgerThreads = {},
  ) {}

  /** The ledger as the store has it now, built at once when it must be built. */
  ledger(profileId: string, choice: LedgerChoice): BuiltLedger {
    const { key, kept, now } = this.keptFor(profileId, choice);
    if (kept) return kept.built;
    const fresh = atOnce(buildKept(this.store, profileId, this.choiceOf(choice), now));
    this.stats.builds++;
    this.kept.set(key, fresh);
    return fresh.built;
  }

  /**
   * The ledger as the store has it now; a build runs a slice (a page of trades, a few thousand
   * entries) per turn of the event loop, so the process answers everything else meanwhile.
   */
  async ledgerInTurns(profileId: string, choice: LedgerChoice): Promise<BuiltLedger> {
    const { key, kept } = this.keptFor(profileId, choice);
    if (kept) return kept.built;
    let building = this.building.get(key);
    if (!building) {
      const generation = this.generation;
      building = this.buildInTurns(profileId, this.choiceOf(choice)).finally(() =>
        this.building.delete(key),
      );
      this.building.set(key, building);
      const fresh = await building;
      this.stats.builds++;
      // What was written during the build comes in now; a forget() meanwhile means it is stale.
      if (generation === this.generation && this.update(fresh, this.now())) {
        this.kept.set(key, fresh);
      }
      return fresh.built;
    }
    await building;
    return this.ledgerInTurns(profileId, choice);
  }

  /**
   * A build in turns of the event loop; a history of at least `threadsFrom` trades has its trades
   * read by the reader threads meanwhile (if the service has them; if they fail, read here).
   */
  private async buildInTurns(profileId: string, choice: LedgerChoice): Promise<Kept> {
    const { readers, threadsFrom = THREADS_FROM } = this.threads;
    let parts: LedgerParts | null = null;
    if (readers) {
      try {
        parts = await readLedgerPartsInThreads(this.store, profileId, readers, threadsFrom);
        if (parts) this.stats.threadedReads++;
      } catch {
        // Read here instead (a reader that cannot start or read is counted, not fatal).
        this.stats.threadFailures++;
      }
    }
    return inTurns(buildKept(this.store, profileId, choice, this.now(), parts ?? undefined));
  }

  private choiceOf(choice: LedgerChoice): LedgerChoice {
    return { method: choice.method, currency: assetKey(choice.currency) };
  }

  /** The kept ledger brought up to date, if it can be; a ledger that cannot is forgotten. */
  private keptFor(
    profileId: string,
    choice: LedgerChoice,
  ): { key: string; kept: Kept | undefined; now: number } {
    const key = `${profileId}\u0000${choice.method}\u0000${assetKey(choice.currency)}`;
    const now = this.now();
    const kept = this.kept.get(key);
    if (kept && this.update(kept, now)) return { key, kept, now };
    this.kept.delete(key);
    return { key, kept: undefined, now };
  }

  /**
   * P&L over a range, as pnlForRange gives it for `built`, without replaying the ledger: the
   * entries up to the range's start are kept applied to a ledger of their own per span (the
   * start only moves on), the rest is the kept ledger's.
   */
  rangePnl(
    built: BuiltLedger,
    range: { from: number; to: number; account?: string; leftOut?: ReadonlySet<string> },
  ): RangePnl {
    const kept = this.keptOf(built);
    const entries = built.entries;
    const options = built.ledger.options;
    const last = entries[entries.length - 1];
    if (!kept || (last && last.time > range.to)) return pnlForRange(entries, options, range);
    const span = range.to - range.from;
    let state = kept.ranges.get(span);
    if (!state || state.from > range.from) {
      state = { from: range.from, ledger: new Ledger(options), next: 0 };
      kept.ranges.set(span, state);
    }
    state.from = range.from;
    while (state.next < entries.length && entries[state.next]!.time <= range.from) {
      state.ledger.apply(entries[state.next++]!);
    }
    // The range ledger holds a prefix of the kept ledger's entries, so the two are one history.
    const query = rangeQuery(options, range);
    return pnlBetween(
      ledgerFigures(state.ledger, query(range.from)),
      ledgerFigures(built.ledger, query(range.to)),
      options.reportingAsset,
      range,
    );
  }

  /**
   * Fetches the candles the ledger's prices of the time need (once; then kept): the 12-hour ones
   * from the first entry on, then the finer ones at each entry's own time.
   */
  async fetchPrices(
    profileId: string,
    client: Pick<ExchangeClient, 'market'>,
    choice: LedgerChoice,
    onProgress?: (progress: EntryPriceProgress) => void,
  ): Promise<void> {
    const built = await this.ledgerInTurns(profileId, choice);
    const first = built.entries[0]?.time;
    if (first === undefined) return;
    const symbols = built.prices.pathSymbols(assetsOf(built.entries), built.ledger.reportingAsset);
    const closes = await fetchCloses(this.store, client, profileId, symbols, first, this.now());
    const wanted = this.entryTimes(built);
    if (wanted.size > 0) {
      await fetchEntryPrices(this.store, client, profileId, wanted, this.now(), onProgress);
    }
    // New 12-hour candles price any moment (a range's start, now's holdings): built again. Finer
    // ones price only entries' own times: a kept ledger takes those that change by replaying.
    if (closes) this.forget(profileId);
    else this.entryCandlesKept(profileId);
  }

  /**
   * The finer candles kept for entries' times were added to: each kept ledger of the profile reads
   * them and, at its next ask, its prices (see update).
   */
  private entryCandlesKept(profileId: string): void {
    // A build running now read the candles before them: it is not kept (as after forget()).
    this.generation++;
    for (const [key, kept] of this.kept) {
      if (!key.startsWith(`${profileId}\u0000`)) continue;
      kept.entryCandles = keptEntryCandles(this.store, profileId, [...kept.entryCandles.keys()]);
      kept.entryLacking = null;
      kept.pricesStale = true;
    }
  }

  /**
   * The newest time an entry took a price at whose candles are not kept yet (a live fill's, until
   * its 1-minute candle is fetched); null when every one is answered.
   */
  newestLacking(built: BuiltLedger): number | null {
    this.entryLacking(built);
    return this.keptOf(built)?.entryLacking?.newest ?? null;
  }

  /**
   * The times each market's price was taken at by the ledger's entries (a fill of a moment ago's
   * too: the 1-minute candle before it is final at once, today's price would change): what the
   * finer candles are fetched for.
   */
  entryTimes(built: BuiltLedger): Map<string, number[]> {
    const kept = this.keptOf(built);
    const wanted = new Map<string, number[]>();
    if (!kept) return wanted;
    for (const taken of kept.priceLog.values()) {
      for (const symbol of built.prices.symbolsOf(taken.asset, taken.quote)) {
        const times = wanted.get(symbol) ?? [];
        times.push(taken.time);
        wanted.set(symbol, times);
      }
    }
    return wanted;
  }

  private keptOf(built: BuiltLedger): Kept | undefined {
    return [...this.kept.values()].find((candidate) => candidate.built === built);
  }

  /**
   * The markets on the ledger's price paths whose kept candles do not reach back to its first
   * entry (none kept yet, or kept from later: the import found older trades, or a new market,
   * since): until they are fetched, a figure valued at a past price may still change.
   */
  candlesLacking(built: BuiltLedger): string[] {
    const first = built.entries[0]?.time;
    if (first === undefined) return [];
    const port = storePort(this.store);
    const symbols = built.prices.pathSymbols(assetsOf(built.entries), built.ledger.reportingAsset);
    const fine = new Set(this.entryLacking(built));
    return symbols.filter((symbol) => {
      if (fine.has(symbol)) return true;
      // An empty time range: only the covered span is wanted.
      const covered = port.klineCloses(
        built.profileId,
        { symbol, interval: LEDGER_INTERVAL },
        1,
        0,
      ).covered;
      return !covered || covered.from > first;
    });
  }

  /** The markets whose kept candles do not price every entry's own time yet (finer candles). */
  private entryLacking(built: BuiltLedger): string[] {
    const kept = this.keptOf(built);
    if (!kept) return [];
    const cached = kept.entryLacking;
    const logged = kept.priceLog.size;
    // The candles kept change only by a fetch, after which this is looked at anew (as after a
    // replay); prices taken since the last look (a live fill's) come last in the log, and only
    // they are looked at.
    const markets = kept.entryCandles.size;
    const from =
      cached && cached.markets === markets && cached.logged <= logged ? cached.logged : 0;
    if (cached && from === logged) return cached.symbols;
    const lacking = new Set(from > 0 ? cached!.symbols : []);
    let newest = from > 0 ? cached!.newest : null;
    let index = 0;
    for (const taken of kept.priceLog.values()) {
      if (index++ < from) continue;
      for (const symbol of built.prices.symbolsOf(taken.asset, taken.quote)) {
        if (built.prices.entryAnswered(symbol, taken.time)) continue;
        lacking.add(symbol);
        if (newest === null || taken.time > newest) newest = taken.time;
      }
    }
    const symbols = [...lacking].sort();
    kept.entryLacking = { logged, markets, symbols, newest };
    return symbols;
  }

  forget(profileId: string): void {
    this.generation++;
    for (const key of [...this.kept.keys()]) {
      if (key.startsWith(`${profileId}\u0000`)) this.kept.delete(key);
    }
  }

  /**
   * Brings a kept ledger up to date when only additions happened; false when it must be rebuilt.
   * What comes after everything applied is applied to the kept ledger; a change older than the
   * last applied (a late trade or observation, an inferred entry made again, a price an entry
   * took that reads otherwise now) within the checkpoints' reach is replayed from the one before
   * it (replay).
   */
  private update(kept: Kept, now: number): boolean {
    const { built, parts } = kept;
    const { profileId } = built;
    // Trades on markets not known yet join when exchangeInfo is read: look again now and then.
    if (built.inputs.unknownSymbols.length > 0 && now - kept.readAt >= PRESENT_MS) return false;
    const appends = readAppends(this.store, profileId, parts, REPLAY_WINDOW_MS);
    if (!appends) return false;
    const known = sortEntries([...appends.trades, ...appends.withdrawals, ...appends.transfers]);
    const currentChanged =
      appends.current !== parts.current && !sameSnapshots(appends.current, parts.current);
    const added: AddedSnapshots = [
      ...appends.fundSnapshots.map((snapshot) => ({ snapshot, group: 0 as const })),
      ...appends.observations.map((snapshot) => ({ snapshot, group: 1 as const })),
      ...(currentChanged
        ? appends.current.map((snapshot) => ({ snapshot, group: 2 as const }))
        : []),
    ];
    const entries = built.entries;
    let items: LedgerEntry[] = [];
    let gone: InferredEntry[] = [];
    if (known.length > 0 || added.length > 0) {
      // A known entry that belongs before one taken: the engine takes every one from its time on
      // again, in order.
      const lastKnown = lastKnownEntry(entries);
      const since =
        known.length > 0 && lastKnown && compareEntries(known[0]!, lastKnown) < 0
          ? known[0]!.time
          : null;
      let given = known;
      if (since !== null) {
        const again: LedgerEntry[] = [];
        for (let index = entries.length - 1; index >= 0; index--) {
          const entry = entries[index]!;
          if (entry.time < since) break;
          if (entry.kind !== 'inferred') again.push(entry);
        }
        given = sortEntries([...again.reverse(), ...known]);
      }
      const revision = kept.reconciliation.revise(
        given,
        added,
        currentChanged ? parts.current : [],
        since,
      );
      if (!revision) return false;
      // A new entry where an annotation moved or went from may be where it belongs now, and one
      // that changes or goes may change how an annotation resolves.
      if (revision.made.some((entry) => annotatedAt(built.annotations, entry, 'unsettled'))) {
        return false;
      }
      if (revision.gone.some((entry) => annotatedAt(built.annotations, entry, 'any'))) {
        return false;
      }
      gone = revision.gone;
      items = sortEntries([...known, ...revision.made]);
    }
    const newAssets = [...assetsOf(items)].filter((asset) => !kept.assets.has(asset));
    for (const asset of newAssets) kept.assets.add(asset);
    const pricesDue =
      kept.pricesStale ||
      newAssets.length > 0 ||
      appends.marks.prices !== parts.marks.prices ||
      now - built.builtAt >= PRICES_EVERY_MS;
    // The earliest time from which the applied entries must be applied again.
    let replayFrom = Infinity;
    if (pricesDue) {
      const changed = this.readPrices(kept, now);
      if (changed === null) return false;
      replayFrom = changed;
    }
    // What comes now must come after everything applied, as a fresh build would order it.
    const first = items[0];
    const last = entries[entries.length - 1];
    if (first && last && !(compareEntries(last, first) < 0)) {
      replayFrom = Math.min(replayFrom, first.time);
    }
    for (const entry of gone) replayFrom = Math.min(replayFrom, entry.time);
    if (replayFrom !== Infinity) {
      if (!this.replay(kept, replayFrom, new Set(gone), items)) return false;
    } else if (items.length > 0) {
      kept.holder.logging = true;
      try {
        for (const item of items) built.ledger.apply(item);
      } catch {
        return false;
      } finally {
        kept.holder.logging = false;
      }
      entries.push(...items);
      for (const item of items) if (item.kind === 'inferred') built.inferred.push(item);
    }
    const inputs = parts.inputs;
    if (appends.tradesFrom) {
      // The trades from then on, those read and the late ones, in the order a read gives them.
      const { time, trades } = appends.tradesFrom;
      let cut = inputs.trades.length;
      while (cut > 0 && inputs.trades[cut - 1]!.time >= time) cut--;
      inputs.trades.length = cut;
      inputs.trades.push(...trades);
    } else {
      inputs.trades.push(...appends.trades);
    }
    parts.withdrawals.push(...appends.withdrawals);
    parts.transfers.push(...appends.transfers);
    for (const id of appends.transferIds) parts.transferIds.add(id);
    if (appends.withdrawals.length > 0 || appends.transfers.length > 0) {
      inputs.others = [...parts.withdrawals, ...parts.transfers];
    }
    parts.fundSnapshots.push(...appends.fundSnapshots);
    insertObservations(parts.observations, appends.observations);
    // The snapshots the reconciliation holds are the ones to take out when today's balances move.
    if (currentChanged) parts.current = appends.current;
    if (added.length > 0) {
      inputs.snapshots = [...parts.fundSnapshots, ...parts.observations, ...parts.current];
    }
    if (appends.unknownSymbols.length > 0) {
      inputs.unknownSymbols = [
        ...new Set([...inputs.unknownSymbols, ...appends.unknownSymbols]),
      ].sort();
    }
    parts.marks = appends.marks;
    parts.lastTrade = appends.lastTrade;
    keepCheckpoints(kept);
    this.stats.updates++;
    return true;
  }

  /**
   * The kept ledger taken back to the newest checkpoint before `from` and its entries from there
   * applied again, without those `gone` and with `items` (new ones) among them: what a build
   * would have applied. Whatever was derived from the entries after the checkpoint goes with
   * them (their prices logged, the range ledgers that took them). False when no checkpoint is
   * old enough (then it is rebuilt).
   */
  private replay(
    kept: Kept,
    from: number,
    gone: ReadonlySet<LedgerEntry>,
    items: readonly LedgerEntry[],
  ): boolean {
    const { built } = kept;
    const checkpoints = kept.checkpoints;
    let at = checkpoints.length - 1;
    // Every entry it holds comes before the change: strictly earlier, as ties may be reordered.
    while (at >= 0 && checkpoints[at]!.ledger.time >= from) at--;
    if (at < 0) return false;
    const checkpoint = checkpoints[at]!;
    checkpoints.length = at + 1;
    const start = checkpoint.ledger.applied;
    const undone = built.entries.slice(start);
    const again = sortEntries([...undone.filter((entry) => !gone.has(entry)), ...items]);
    built.ledger.restore(checkpoint.ledger, undone);
    // The prices taken since the checkpoint were logged after those before it.
    kept.priceLog.truncate(checkpoint.logged);
    kept.entryLacking = null;
    for (const [span, state] of kept.ranges) if (state.next > start) kept.ranges.delete(span);
    kept.holder.logging = true;
    try {
      for (const entry of again) built.ledger.apply(entry);
    } catch {
      return false;
    } finally {
      kept.holder.logging = false;
    }
    built.entries.length = start;
    built.entries.push(...again);
    built.inferred = kept.reconciliation.inferred();
    this.stats.replays++;
    return true;
  }

  /**
   * Today's prices read again (and candles kept for any new path): the earliest time of a price
   * the ledger's entries took that comes out otherwise now (Infinity when none does; the entries
   * from then on are applied again), or null when that is older than the checkpoints reach.
   */
  private readPrices(kept: Kept, now: number): number | null {
    const { built } = kept;
    const currency = built.ledger.reportingAsset;
    const tickers = tickersOf(this.store, built.profileId, kept.assets);
    const symbols = new MarketPrices(tickers, new Map(), now).pathSymbols(kept.assets, currency);
    const missing = symbols.filter((symbol) => !kept.closes.has(symbol));
    for (const [symbol, rows] of keptCloses(this.store, built.profileId, missing)) {
      kept.closes.set(symbol, rows);
    }
    for (const [symbol, levels] of keptEntryCandles(this.store, built.profileId, missing)) {
      kept.entryCandles.set(symbol, levels);
    }
    const prices = new MarketPrices(
      tickers,
      new Map(symbols.map((symbol) => [symbol, kept.closes.get(symbol)!])),
      now - PRESENT_MS,
      undefined,
      kept.entryCandles,
    );
    let changed = Infinity;
    for (const taken of kept.priceLog.values()) {
      if (taken.time >= changed) continue;
      if (priceText(prices.entryPriceAt(taken.asset, taken.quote, taken.time)) !== taken.value) {
        changed = taken.time;
      }
    }
    const oldest = kept.checkpoints[0]?.ledger.time ?? Infinity;
    if (changed !== Infinity && !(oldest < changed)) return null;
    kept.holder.prices = prices;
    kept.pricesStale = false;
    built.prices = prices;
    built.builtAt = now;
    return changed;
  }
}

/**
 * Whether an annotation was about `entry`'s account and asset (one whose id does not say, about
 * any): `unsettled`, one that moved or is gone only.
 */
function annotatedAt(
  annotations: readonly ResolvedAnnotation[],
  entry: InferredEntry,
  which: 'unsettled' | 'any',
): boolean {
  return annotations.some(
    (item) =>
      (which === 'any' || item.status === 'moved' || item.status === 'gone') &&
      (item.account === '' || (item.account === entry.account && item.asset === entry.asset)),
  );
}

/** The last entry that is not inferred. */
function lastKnownEntry(entries: readonly LedgerEntry[]): LedgerEntry | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    if (entries[index]!.kind !== 'inferred') return entries[index];
  }
  return undefined;
}

/** Observations added into those read, in the order the store reads them (time, account, kind). */
function insertObservations(into: BalanceSnapshot[], added: readonly BalanceSnapshot[]): void {
  for (const observation of added) {
    let index = into.length;
    while (index > 0 && compareObservations(into[index - 1]!, observation) > 0) index--;
    into.splice(index, 0, observation);
  }
}

function compareObservations(a: BalanceSnapshot, b: BalanceSnapshot): number {
  if (a.time !== b.time) return a.time - b.time;
  if (a.account !== b.account) return a.account < b.account ? -1 : 1;
  return Number(a.complete) - Number(b.complete);
}

/**
 * A checkpoint of the kept ledger as it stands now, when the last is CHECKPOINT_EVERY entries
 * back; those before the newest one older than the window (or than the last entry, with nothing
 * older) go, and the second oldest when there are too many.
 */
function keepCheckpoints(kept: Kept): void {
  const { ledger, entries } = kept.built;
  const checkpoints = kept.checkpoints;
  const newest = checkpoints[checkpoints.length - 1];
  if (!newest || ledger.applied - newest.ledger.applied >= CHECKPOINT_EVERY) {
    checkpoints.push({ ledger: ledger.checkpoint(), logged: kept.priceLog.size });
  }
  const windowStart = (entries[entries.length - 1]?.time ?? -Infinity) - REPLAY_WINDOW_MS;
  let anchor = 0;
  while (anchor + 1 < checkpoints.length && checkpoints[anchor + 1]!.ledger.time < windowStart) {
    anchor++;
  }
  if (anchor > 0) checkpoints.splice(0, anchor);
  if (checkpoints.length > MAX_CHECKPOINTS) checkpoints.splice(1, 1);
}

function sameSnapshots(a: readonly BalanceSnapshot[], b: readonly BalanceSnapshot[]): boolean {
  return (
    a.length === b.length &&
    a.every((snapshot, i) => {
      const other = b[i]!;
      return (
        snapshot.account === other.account &&
        snapshot.time === other.time &&
        snapshot.complete === other.complete &&
        JSON.stringify(snapshot.balances) === JSON.stringify(other.balances)
      );
    })
  );
}

function assetsOf(entries: readonly LedgerEntry[]): Set<string> {
  const assets = new Set<string>();
  // A build's trades name their assets in their table: read there once, not per trade.
  const tables = new Set<TradeTable>();
  for (const entry of entries) {
    if (entry instanceof TableTrade) {
      if (!tables.has(entry.table)) {
        tables.add(entry.table);
        entry.table.addAssetsTo(assets);
      }
    } else if (entry.kind === 'trade') {
      assets.add(entry.base);
      assets.add(entry.quote);
      assets.add(entry.commissionAsset);
    } else {
      assets.add(entry.asset);
    }
  }
  return assets;
}

export function buildFromStore(
  store: Store,
  profileId: string,
  choice: LedgerChoice,
  now: number,
): BuiltLedger {
  return atOnce(buildKept(store, profileId, choice, now)).built;
}

/**
 * A build, in slices: the store read a page of trades at a time, the reconciliation engine run
 * from empty and the entries applied a few thousand at a time.
 */
function* buildKept(
  store: Store,
  profileId: string,
  choice: LedgerChoice,
  now: number,
  read?: LedgerParts,
): Slices<Kept> {
  const currency = assetKey(choice.currency);
  const parts = read ?? (yield* readLedgerParts(store, profileId));
  const inputs = parts.inputs;
  // The store reads trades in ledger order: merged with the rest, not sorted again.
  const known = mergeEntries(inputs.trades, sortEntries(inputs.others));
  // The engine run from empty: every known movement and observation as added at once.
  const reconciliation = new Reconciliation({ annotations: inputs.annotations });
  yield* reconciliation.updateInSlices(known, [
    ...parts.fundSnapshots.map((snapshot) => ({ snapshot, group: 0 as const })),
    ...parts.observations.map((snapshot) => ({ snapshot, group: 1 as const })),
    ...parts.current.map((snapshot) => ({ snapshot, group: 2 as const })),
  ]);
  let inferred = reconciliation.inferred();
  let annotations = resolveAnnotations(inferred, inputs.annotationRows);
  // An annotation whose entry moved applies where it went; the kept engine is given the same, so
  // what it makes later is labelled as a fresh build would.
  const moved = movedAnnotations(annotations);
  if (moved.size > 0) {
    reconciliation.annotate(moved);
    inferred = reconciliation.inferred();
    inputs.annotations = new Map([...inputs.annotations, ...moved]);
    annotations = resolveAnnotations(inferred, inputs.annotationRows);
  }
  const entries = mergeEntries(known, inferred);
  const assets = assetsOf(entries);
  assets.add(currency);
  const tickers = tickersOf(store, profileId, assets);
  const symbols = new MarketPrices(tickers, new Map(), now).pathSymbols(assets, currency);
  const closes = keptCloses(store, profileId, symbols);
  const entryCandles = keptEntryCandles(store, profileId, symbols);
  const prices = new MarketPrices(tickers, closes, now - PRESENT_MS, undefined, entryCandles);
  const holder = { prices, logging: true };
  const priceLog = new PriceLog();
  // An entry is valued at its own time's finer prices; holdings at a range's start or now, at
  // the prices any moment has (so a range's figures never depend on where entries lie).
  const priceAt: PriceAt = (asset, quote, time) => {
    const value = holder.prices.entryPriceAt(asset, quote, time);
    if (holder.logging) {
      priceLog.note(asset, quote, time, value);
    }
    return value;
  };
  const ledger = new Ledger({
    method: choice.method,
    reportingAsset: currency,
    priceAt,
    valueAt: (asset, quote, time) => holder.prices.priceAt(asset, quote, time),
    unpricedCredits: 'missing-basis',
  });
  // A checkpoint before the window's entries, so a late one among them is replayed, not rebuilt.
  const checkpoints: Kept['checkpoints'] = [];
  const windowStart = (entries[entries.length - 1]?.time ?? -Infinity) - REPLAY_WINDOW_MS;
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (checkpoints.length === 0 && entry.time >= windowStart) {
      checkpoints.push({ ledger: ledger.checkpoint(), logged: priceLog.size });
    }
    ledger.apply(entry);
    if (index % ENTRIES_PER_SLICE === ENTRIES_PER_SLICE - 1) yield;
  }
  holder.logging = false;
  const kept: Kept = {
    built: {
      profileId,
      choice: { method: choice.method, currency },
      inputs,
      inferred,
      annotations,
      entries,
      ledger,
      prices,
      builtAt: now,
    },
    readAt: now,
    parts,
    holder,
    priceLog,
    closes,
    entryCandles,
    entryLacking: null,
    pricesStale: false,
    assets,
    reconciliation,
    ranges: new Map(),
    checkpoints,
  };
  keepCheckpoints(kept);
  return kept;
}
