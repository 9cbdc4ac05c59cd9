/**
 * The ledger's inputs from the store (its ledger repository): own trades, withdrawals and sub-account transfers (the
 * cache), balance observations (the record's value snapshots and its own observations, and the
 * balances cached now), and what the user said about inferred entries (the record).
 *
 * Asset names are the exchange's, compared without regard to case: they are written here in
 * assetKey form (lower case) everywhere, the reporting asset included.
 */
import { MAIN_ACCOUNT, type InferredFacts } from '../../shared/ledger';
import { assetKey, withdrawStatusOf } from '../../shared/market';
import type {
  AnnotationRow,
  LedgerMarks,
  LedgerTradeColumns,
  LedgerTradeRow,
  LedgerTransferRow,
  LedgerWithdrawalRow,
  Store,
  TradeCursor,
} from '../store';
import type { Slices } from '../core/clock';
import { storePort } from '../sync/store-port';
import type { LedgerEntry, TradeEntry } from './entries';
import { annotationOf } from './annotations';
import { TradeRows } from './trade-table';
import type { TradeReaders } from './trade-readers';
import type { BalanceSnapshot, InferredAnnotation } from './reconcile';

export interface LedgerInputs {
  /** Known movements, in ledger order within each kind (trades by time and id). */
  trades: TradeEntry[];
  others: LedgerEntry[];
  snapshots: BalanceSnapshot[];
  /** The labels and costs that apply, by entry id (those moved to another entry included). */
  annotations: Map<string, InferredAnnotation>;
  /** The user's annotations as kept, with the facts of the entry each was written about. */
  annotationRows: AnnotationRow[];
  /** Sub-account e-mails as the cache lists them. */
  subAccounts: string[];
  /**
   * The sub-accounts whose trades the ledger cannot see (no key of their own linked): their
   * balances count, their trades are inferred from them.
   */
  unseenSubAccounts: string[];
  /** Own trades on a symbol whose assets are unknown (left out until exchangeInfo is read). */
  unknownSymbols: string[];
}

export type { LedgerMarks, TradeCursor };

/** The base and quote of each known symbol (exchangeInfo, kept by sync), in assetKey form. */
export function symbolPairs(
  store: Store,
  profileId: string,
): Map<string, { base: string; quote: string }> {
  return new Map(
    storePort(store)
      .symbolAssets(profileId)
      .map((s) => [s.symbol, { base: assetKey(s.baseAsset), quote: assetKey(s.quoteAsset) }]),
  );
}

/**
 * Own trades of the cache up to `last` as ledger entries (the main account's, read with the
 * profile's key, and each linked sub-account's, read with its own), a page per slice, held as
 * one TradeTable; those on a symbol with unknown assets are named in `unknown` and left out.
 */
function* readTrades(
  store: Store,
  profileId: string,
  last: TradeCursor | null,
  unknown: Set<string>,
  expected: number,
): Slices<TradeEntry[]> {
  if (!last) return [];
  const rows = new TradeRows(symbolPairs(store, profileId), expected);
  // Up to `last`: rows written since the marks were read are the next update's.
  let after = store.ledger.tradePage(profileId, null, last, rows);
  while (after) {
    yield;
    after = store.ledger.tradePage(profileId, after, last, rows);
  }
  return done(rows, unknown);
}

/** The trades a reading took, its unknown symbols added to `unknown`. */
function done(rows: TradeRows, unknown: Set<string>): TradeEntry[] {
  for (const symbol of rows.unknown) unknown.add(symbol);
  return rows.table.trades();
}

/**
 * The inputs and the parts they are made of, with the marks and the newest trade they were read
 * at: what the incremental ledger needs to read only what comes after.
 */
export interface LedgerParts {
  inputs: LedgerInputs;
  withdrawals: LedgerEntry[];
  transfers: LedgerEntry[];
  /** Ids of every transfer row read (skipped ones too), to tell a new row from one read. */
  transferIds: Set<number>;
  fundSnapshots: BalanceSnapshot[];
  observations: BalanceSnapshot[];
  current: BalanceSnapshot[];
  marks: LedgerMarks;
  lastTrade: TradeCursor | null;
}

/** What a reading of the parts reads before the trades: all but the inputs, and what makes them. */
interface PartsHead extends Omit<LedgerParts, 'inputs'> {
  unknown: Set<string>;
  subs: { email: string; fetchedAt: number }[];
}

/**
 * The parts, read in slices (a page of own trades each): the marks, the newest trade and every
 * other row first, in one slice, so what is written meanwhile is an addition the next update reads.
 */
export function* readLedgerParts(store: Store, profileId: string): Slices<LedgerParts> {
  const head = readHead(store, profileId);
  const trades = yield* readTrades(
    store,
    profileId,
    head.lastTrade,
    head.unknown,
    head.marks.trades,
  );
  return partsOf(store, profileId, head, trades);
}

/**
 * readLedgerParts() with the own trades read by reader threads, each a range of them on a
 * connection of its own, while this thread answers whatever else is due: for a long history (at
 * least `from` trades; null for a shorter one), whose read is the largest part of a build. The
 * same parts.
 */
export async function readLedgerPartsInThreads(
  store: Store,
  profileId: string,
  readers: TradeReaders,
  from = 0,
): Promise<LedgerParts | null> {
  // The kept count first: a shorter history's parts are read by the caller, not twice.
  if (store.ledger.tradeCount(profileId) < from) return null;
  const head = readHead(store, profileId);
  const trades: TradeEntry[] = [];
  if (head.lastTrade) {
    const read = await readers.read(store, profileId, head.lastTrade, head.marks.trades);
    for (const trade of read.trades) trades.push(trade);
    for (const symbol of read.unknown) head.unknown.add(symbol);
  }
  return partsOf(store, profileId, head, trades);
}

function readHead(store: Store, profileId: string): PartsHead {
  const q = store.ledger;
  const marks = readMarks(store, profileId);
  const lastTrade = q.lastTrade(profileId);
  const subs = q.subAccounts(profileId);
  const accountOf = accountsOf(subs);
  const withdrawals = q.withdrawals(profileId).map(withdrawalEntry);
  const transferIds = new Set<number>();
  const transfers: LedgerEntry[] = [];
  for (const row of q.transfers(profileId)) {
    transferIds.add(row.txnId);
    const entry = transferEntry(row, accountOf);
    if (entry) transfers.push(entry);
  }
  return {
    marks,
    lastTrade,
    unknown: new Set<string>(),
    subs,
    withdrawals,
    transfers,
    transferIds,
    fundSnapshots: q.fundSnapshots(profileId),
    observations: q.observations(profileId),
    current: currentObservations(store, profileId),
  };
}

function partsOf(
  store: Store,
  profileId: string,
  head: PartsHead,
  trades: TradeEntry[],
): LedgerParts {
  const q = store.ledger;
  const { subs, withdrawals, transfers, fundSnapshots, observations, current } = head;
  const annotationRows = q.annotations(profileId);
  const annotations = new Map<string, InferredAnnotation>();
  for (const row of annotationRows) annotations.set(row.entryId, annotationOf(row));
  return {
    inputs: {
      trades,
      others: [...withdrawals, ...transfers],
      snapshots: [...fundSnapshots, ...observations, ...current],
      annotations,
      annotationRows,
      subAccounts: subs.map((s) => s.email.toLowerCase()),
      unseenSubAccounts: unseenOf(
        subs.map((s) => s.email.toLowerCase()),
        q.linkedSubAccounts(profileId),
      ),
      unknownSymbols: [...head.unknown].sort(),
    },
    withdrawals,
    transfers,
    transferIds: head.transferIds,
    fundSnapshots,
    observations,
    current,
    marks: head.marks,
    lastTrade: head.lastTrade,
  };
}

function unseenOf(subs: readonly string[], linked: readonly string[]): string[] {
  const seen = new Set(linked);
  return subs.filter((sub) => !seen.has(sub));
}

export function readMarks(store: Store, profileId: string): LedgerMarks {
  return store.ledger.marks(profileId);
}

function accountsOf(subs: readonly { email: string }[]): (email: string) => string {
  const subEmails = new Set(subs.map((s) => s.email.toLowerCase()));
  return (email) => (subEmails.has(email.toLowerCase()) ? email.toLowerCase() : MAIN_ACCOUNT);
}

function withdrawalEntry(row: LedgerWithdrawalRow): LedgerEntry {
  return {
    kind: 'withdrawal',
    id: row.id,
    account: MAIN_ACCOUNT,
    asset: assetKey(row.coin),
    amount: row.amount,
    fee: row.fee,
    status: withdrawStatusOf(row.status),
    time: row.time,
    ...(row.txId ? { txId: row.txId } : {}),
  };
}

/** A successful transfer between two of the user's accounts; null for anything else. */
function transferEntry(
  row: LedgerTransferRow,
  accountOf: (email: string) => string,
): LedgerEntry | null {
  if (row.status.toLowerCase() !== 'success') return null;
  const fromAccount = accountOf(row.from);
  const toAccount = accountOf(row.to);
  if (fromAccount === toAccount) return null;
  return {
    kind: 'transfer',
    id: String(row.txnId),
    fromAccount,
    toAccount,
    asset: assetKey(row.asset),
    amount: row.qty,
    time: row.time,
  };
}

/** What was added after `parts` was read, when it is only that; null when anything else changed. */
export interface LedgerAppends {
  marks: LedgerMarks;
  /** The trades added (in the order trades are read), late ones among them. */
  trades: TradeEntry[];
  /**
   * When some trades added are older than the newest read: every trade from this time on, those
   * read before (the same objects) and the new ones, in the order trades are read; they take the
   * place of the inputs' trades from then on.
   */
  tradesFrom: { time: number; trades: TradeEntry[] } | null;
  lastTrade: TradeCursor | null;
  /** Own trades on symbols with unknown assets among the new rows. */
  unknownSymbols: string[];
  withdrawals: LedgerEntry[];
  transfers: LedgerEntry[];
  transferIds: number[];
  fundSnapshots: BalanceSnapshot[];
  observations: BalanceSnapshot[];
  current: BalanceSnapshot[];
}

/**
 * The rows added since `parts` (and the balances cached now), when every change since is an
 * addition; trades and balance observations may be late by up to `lateMs` (older than the newest
 * read: a sub-account's trade imported after the main account's next fill, its balance event
 * after the main account's). Null when anything else changed (a row updated, a withdrawal or
 * transfer inserted among those read, one trade or observation older than that, an annotation,
 * the sub-accounts): then only a full read is right.
 */
export function readAppends(
  store: Store,
  profileId: string,
  parts: LedgerParts,
  lateMs = 0,
): LedgerAppends | null {
  const q = store.ledger;
  const before = parts.marks;
  const marks = readMarks(store, profileId);
  if (marks.annotations !== before.annotations || marks.subAccounts !== before.subAccounts) {
    return null;
  }
  // Trades: only rows after the newest read; a backfilled older trade changes the count alone.
  const trades: TradeEntry[] = [];
  const unknown = new Set<string>();
  let lastTrade = parts.lastTrade;
  let tradesFrom: LedgerAppends['tradesFrom'] = null;
  if (marks.trades !== before.trades) {
    let rows = q.tradesAfter(profileId, parts.lastTrade);
    let held: Map<string, TradeEntry> | null = null;
    if (before.trades + rows.length !== marks.trades) {
      const late = lateTrades(store, profileId, parts, marks.trades - before.trades, lateMs);
      if (!late) return null;
      ({ rows, held } = late);
      tradesFrom = { time: late.from, trades: [] };
    }
    const read = new TradeRows(
      rows.length > 0 ? symbolPairs(store, profileId) : new Map(),
      rows.length,
    );
    for (const row of rows) {
      const known = held?.get(tradeKey(row.account, row.symbol, String(row.id)));
      if (known) {
        tradesFrom!.trades.push(known);
        continue;
      }
      const { id, symbol, side, price, qty, quoteQty, fee, feeCurrency, time, orderId } = row;
      const columns: LedgerTradeColumns = [
        id,
        symbol,
        side,
        price,
        qty,
        quoteQty,
        fee,
        feeCurrency,
        time,
        orderId,
        row.account,
      ];
      // Read as a build reads its rows (TradeRows), into a table of the update's own.
      if (!read.row(columns)) continue;
      const entry = read.table.trade(read.table.count - 1);
      trades.push(entry);
      tradesFrom?.trades.push(entry);
    }
    for (const symbol of read.unknown) unknown.add(symbol);
    const newest = rows[rows.length - 1];
    if (newest) lastTrade = { time: newest.time, id: newest.id, orderId: newest.orderId };
  }
  // Withdrawals change status after they are read: a known id updated means a rebuild.
  const withdrawals: LedgerEntry[] = [];
  if (
    marks.withdrawals !== before.withdrawals ||
    marks.withdrawalsUpdated !== before.withdrawalsUpdated
  ) {
    const known = new Set(parts.withdrawals.map((w) => w.id));
    const rows = q.withdrawalsUpdatedAfter(profileId, before.withdrawalsUpdated);
    if (before.withdrawals + rows.length !== marks.withdrawals) return null;
    const last = parts.withdrawals[parts.withdrawals.length - 1];
    for (const row of rows) {
      if (known.has(row.id)) return null;
      if (last && (row.time < last.time || (row.time === last.time && row.id <= last.id))) {
        return null;
      }
      withdrawals.push(withdrawalEntry(row));
    }
  }
  const transfers: LedgerEntry[] = [];
  const transferIds: number[] = [];
  if (marks.transfers !== before.transfers || marks.transfersTime !== before.transfersTime) {
    const accountOf = accountsOf(q.subAccounts(profileId));
    const rows = q
      .transfersFrom(profileId, before.transfersTime)
      .filter((row) => !parts.transferIds.has(row.txnId));
    if (before.transfers + rows.length !== marks.transfers) return null;
    const lastId = Math.max(-1, ...[...parts.transferIds]);
    for (const row of rows) {
      if (row.time === before.transfersTime && row.txnId < lastId) return null;
      transferIds.push(row.txnId);
      const entry = transferEntry(row, accountOf);
      if (entry) transfers.push(entry);
    }
  }
  let fundSnapshots: BalanceSnapshot[] = [];
  if (marks.fundSnapshots !== before.fundSnapshots) {
    const added = q.fundSnapshotRowsAfter(profileId, before.fundSnapshotsTime);
    if (before.fundSnapshots + added !== marks.fundSnapshots) return null;
    fundSnapshots = q.fundSnapshots(profileId, before.fundSnapshotsTime);
  }
  let observations: BalanceSnapshot[] = [];
  if (marks.observationsRow !== before.observationsRow) {
    const rows = q.observationsAfter(profileId, before.observationsRow);
    // One among those read replaced (the count stays), or one dated too far before them.
    if (before.observations + rows.length !== marks.observations) return null;
    if (rows.some((row) => row.time <= before.observationsTime - lateMs)) return null;
    // A late one at the time of one read of its account would be ordered among them by kind.
    const late = rows.filter((row) => row.time <= before.observationsTime);
    if (late.some((row) => sameTimeAs(parts.observations, row))) return null;
    observations = rows;
  } else if (marks.observations !== before.observations) {
    return null;
  }
  return {
    marks,
    trades,
    tradesFrom,
    lastTrade,
    unknownSymbols: [...unknown],
    withdrawals,
    transfers,
    transferIds,
    fundSnapshots,
    observations,
    current: marks.funds === before.funds ? parts.current : currentObservations(store, profileId),
  };
}

function tradeKey(account: string, symbol: string, id: string): string {
  return `${account}\u0000${symbol}\u0000${id}`;
}

/** The first time at or after which a late trade is looked for; widened up to the window. */
const LATE_FIRST_LOOK_MS = 2_000;

/**
 * The trades from a time on, when the `added` trades since `parts` are all among them (some
 * older than the newest read) and every trade read from then on still is: `held`, those read
 * before, by key. Looked for from a little before the newest trade read, then further back (so a
 * trade a moment late costs the reading of a moment's rows), up to `lateMs`. Null when they are
 * not all found within it, or a trade read is gone.
 */
function lateTrades(
  store: Store,
  profileId: string,
  parts: LedgerParts,
  added: number,
  lateMs: number,
): { from: number; rows: LedgerTradeRow[]; held: Map<string, TradeEntry> } | null {
  const last = parts.lastTrade;
  // Trades on symbols not known are not among those read: the count could not be told apart.
  if (!last || lateMs <= 0 || parts.inputs.unknownSymbols.length > 0) return null;
  const read = parts.inputs.trades;
  for (let back = Math.min(LATE_FIRST_LOOK_MS, lateMs); ; back = Math.min(back * 4, lateMs)) {
    const from = last.time - back;
    // Every trade at or after `from` (times are whole milliseconds).
    const rows = store.ledger.tradesAfter(profileId, {
      time: from - 1,
      id: Number.MAX_SAFE_INTEGER,
      orderId: Number.MAX_SAFE_INTEGER,
    });
    const held = new Map<string, TradeEntry>();
    for (let index = read.length - 1; index >= 0 && read[index]!.time >= from; index--) {
      const trade = read[index]!;
      held.set(tradeKey(trade.account, trade.symbol, trade.id), trade);
    }
    if (rows.length === held.size + added) {
      let found = 0;
      for (const row of rows)
        if (held.has(tradeKey(row.account, row.symbol, String(row.id)))) found++;
      return found === held.size ? { from, rows, held } : null;
    }
    if (back >= lateMs) return null;
  }
}

/** Whether `observations` (in ledger order) hold one of `row`'s account at its time. */
function sameTimeAs(observations: readonly BalanceSnapshot[], row: BalanceSnapshot): boolean {
  for (let index = observations.length - 1; index >= 0; index--) {
    const observation = observations[index]!;
    if (observation.time < row.time) return false;
    if (observation.time === row.time && observation.account === row.account) return true;
  }
  return false;
}

/** The balances cached now: the main account's funds and each sub-account's balances. */
export function currentObservations(store: Store, profileId: string): BalanceSnapshot[] {
  return store.ledger.currentBalances(profileId);
}

/**
 * Sets (or, with neither field, removes) the user's label and cost basis of an inferred entry,
 * with the entry's facts as the user saw them; `replaces`: the ids it was kept under before (an
 * annotation that moved to this entry), removed.
 */
export function annotate(
  store: Store,
  profileId: string,
  entryId: string,
  annotation: InferredAnnotation,
  at: number,
  facts: InferredFacts | null = null,
  replaces: readonly string[] = [],
): void {
  store.ledger.annotate(profileId, entryId, annotation, at, facts, replaces);
}
