/**
 * The ledger's inputs from the store: own trades, withdrawals and sub-account transfers (the
 * cache), balance observations (the record's value snapshots and its own observations, and the
 * balances cached now), and what the user said about inferred entries (the record).
 *
 * Asset names are the exchange's, compared without regard to case: they are written here in
 * assetKey form (lower case) everywhere, the reporting asset included.
 */
import type Database from 'better-sqlite3';
import { assetKey, withdrawStatusOf } from '../../shared/market';
import type { Store } from '../store';
import { storePort } from '../sync/store-port';
import { decimalText, amount } from './decimal';
import { MAIN_ACCOUNT, type LedgerEntry, type TradeEntry } from './entries';
import type { BalanceSnapshot, InferredAnnotation } from './reconcile';

export interface LedgerInputs {
  /** Known movements, in ledger order within each kind (trades by time and id). */
  trades: TradeEntry[];
  others: LedgerEntry[];
  snapshots: BalanceSnapshot[];
  annotations: Map<string, InferredAnnotation>;
  /** Sub-account e-mails as the cache lists them. */
  subAccounts: string[];
  /** Own trades on a symbol whose assets are unknown (left out until exchangeInfo is read). */
  unknownSymbols: string[];
}

interface TradeRow {
  id: number;
  symbol: string;
  side: string;
  price: string;
  qty: string;
  quoteQty: string;
  fee: string;
  feeCurrency: string;
  time: number;
}

/** The newest own trade read, in the order trades are read (time, id, order). */
export interface TradeCursor {
  time: number;
  id: number;
  orderId: number;
}

/**
 * Counts and newest times of what the ledger is built from: the incremental ledger compares them
 * to tell an append (read just the new rows) from any other change (rebuild).
 */
export interface LedgerMarks {
  trades: number;
  withdrawals: number;
  withdrawalsUpdated: number;
  transfers: number;
  transfersTime: number;
  fundSnapshots: number;
  fundSnapshotsTime: number;
  observations: number;
  observationsTime: number;
  /** A live event's observation replaced (same millisecond) gets a new rowid. */
  observationsRow: number;
  annotations: string;
  funds: string;
  subAccounts: string;
  /** Today's prices (the tickers): read again when they change. */
  prices: string;
}

interface WithdrawalRow {
  id: string;
  coin: string;
  amount: string;
  fee: string;
  status: number;
  time: number;
  txId: string | null;
}

interface TransferRow {
  txnId: number;
  asset: string;
  from: string;
  to: string;
  qty: string;
  status: string;
  time: number;
}

/** An own-trade row as readTrades reads it, in the statement's column order. */
type TradeColumns = [
  id: number,
  symbol: string,
  side: string,
  price: string,
  qty: string,
  quoteQty: string,
  fee: string,
  feeCurrency: string,
  time: number,
];

const statements = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

function prepare(db: Database.Database) {
  return {
    // Raw arrays, iterated: no object per row, and each row dies young (all() kept 100,000 of them
    // alive at once, and the young generation's copying of them cost more than the read).
    trades: db
      .prepare<[string], TradeColumns>(
        `SELECT id, symbol, side, price, qty, quote_qty, fee, fee_currency, time FROM own_trades
           WHERE profile_id = ? ORDER BY time, id, order_id`,
      )
      .raw(),
    withdrawals: db.prepare<[string], WithdrawalRow>(
      `SELECT id, coin, amount, transaction_fee AS fee, status, created_at AS time, tx_id AS txId
         FROM withdraws WHERE profile_id = ? ORDER BY created_at, id`,
    ),
    transfers: db.prepare<[string], TransferRow>(
      `SELECT txn_id AS txnId, asset, from_email AS "from", to_email AS "to", qty, status, time
         FROM sub_transfers WHERE profile_id = ? ORDER BY time, txn_id`,
    ),
    subAccounts: db.prepare<[string], { email: string; fetchedAt: number }>(
      'SELECT email, fetched_at AS fetchedAt FROM sub_accounts WHERE profile_id = ? ORDER BY email',
    ),
    subBalances: db.prepare<[string], { email: string; asset: string; balance: string }>(
      'SELECT email, asset, balance FROM sub_account_balances WHERE profile_id = ?',
    ),
    funds: db.prepare<[string], { asset: string; free: string; locked: string; updatedAt: number }>(
      'SELECT asset, free, locked, updated_at AS updatedAt FROM funds WHERE profile_id = ?',
    ),
    fundSnapshots: db.prepare<[string], { takenAt: number; assets: string }>(
      `SELECT taken_at AS takenAt, assets FROM fund_snapshots WHERE profile_id = ?
         GROUP BY taken_at ORDER BY taken_at`,
    ),
    observations: db.prepare<
      [string],
      { account: string; time: number; balances: string; complete: number }
    >(
      `SELECT account, time, balances, complete FROM balance_observations WHERE profile_id = ?
         ORDER BY time, account, complete`,
    ),
    lastObservation: db.prepare<[string, string], { time: number; balances: string }>(
      `SELECT time, balances FROM balance_observations
         WHERE profile_id = ? AND account = ? AND complete = 1 ORDER BY time DESC LIMIT 1`,
    ),
    addObservation: db.prepare<[string, string, number, string, number]>(
      `INSERT OR REPLACE INTO balance_observations (profile_id, account, time, balances, complete)
         VALUES (?, ?, ?, ?, ?)`,
    ),
    marks: db.prepare<{ id: string }, LedgerMarks>(
      `SELECT
         (SELECT count(*) FROM own_trades WHERE profile_id = @id) AS trades,
         (SELECT count(*) FROM withdraws WHERE profile_id = @id) AS withdrawals,
         (SELECT ifnull(max(last_updated), 0) FROM withdraws WHERE profile_id = @id) AS withdrawalsUpdated,
         (SELECT count(*) FROM sub_transfers WHERE profile_id = @id) AS transfers,
         (SELECT ifnull(max(time), 0) FROM sub_transfers WHERE profile_id = @id) AS transfersTime,
         (SELECT count(*) FROM fund_snapshots WHERE profile_id = @id) AS fundSnapshots,
         (SELECT ifnull(max(taken_at), 0) FROM fund_snapshots WHERE profile_id = @id) AS fundSnapshotsTime,
         (SELECT count(*) FROM balance_observations WHERE profile_id = @id) AS observations,
         (SELECT ifnull(max(time), 0) FROM balance_observations WHERE profile_id = @id) AS observationsTime,
         (SELECT ifnull(max(rowid), 0) FROM balance_observations WHERE profile_id = @id) AS observationsRow,
         (SELECT count(*) || ':' || ifnull(max(updated_at), 0) FROM ledger_annotations WHERE profile_id = @id) AS annotations,
         (SELECT count(*) || ':' || ifnull(max(updated_at), 0) FROM funds WHERE profile_id = @id) AS funds,
         (SELECT count(*) || ':' || ifnull(max(fetched_at), 0) FROM sub_accounts WHERE profile_id = @id) AS subAccounts,
         (SELECT count(*) || ':' || ifnull(max(at), 0) FROM prices WHERE profile_id = @id) AS prices`,
    ),
    lastTrade: db.prepare<[string], TradeCursor>(
      `SELECT time, id, order_id AS orderId FROM own_trades WHERE profile_id = ?
         ORDER BY time DESC, id DESC, order_id DESC LIMIT 1`,
    ),
    tradesAfter: db.prepare<
      [string, number, number, number, number, number],
      TradeRow & { orderId: number }
    >(
      `SELECT id, symbol, side, price, qty, quote_qty AS quoteQty, fee, fee_currency AS feeCurrency,
         time, order_id AS orderId FROM own_trades
         WHERE profile_id = ? AND (time > ? OR (time = ? AND (id > ? OR (id = ? AND order_id > ?))))
         ORDER BY time, id, order_id`,
    ),
    withdrawalsUpdatedAfter: db.prepare<[string, number], WithdrawalRow>(
      `SELECT id, coin, amount, transaction_fee AS fee, status, created_at AS time, tx_id AS txId
         FROM withdraws WHERE profile_id = ? AND last_updated > ? ORDER BY created_at, id`,
    ),
    transfersFrom: db.prepare<[string, number], TransferRow>(
      `SELECT txn_id AS txnId, asset, from_email AS "from", to_email AS "to", qty, status, time
         FROM sub_transfers WHERE profile_id = ? AND time >= ? ORDER BY time, txn_id`,
    ),
    fundSnapshotsAfter: db.prepare<[string, number], { takenAt: number; assets: string }>(
      `SELECT taken_at AS takenAt, assets FROM fund_snapshots WHERE profile_id = ? AND taken_at > ?
         GROUP BY taken_at ORDER BY taken_at`,
    ),
    fundSnapshotRowsAfter: db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM fund_snapshots WHERE profile_id = ? AND taken_at > ?',
    ),
    observationsAfter: db.prepare<
      [string, number],
      { account: string; time: number; balances: string; complete: number }
    >(
      `SELECT account, time, balances, complete FROM balance_observations
         WHERE profile_id = ? AND rowid > ? ORDER BY time, account, complete`,
    ),
    annotations: db.prepare<
      [string],
      {
        entryId: string;
        label: string | null;
        costAmount: string | null;
        costCurrency: string | null;
      }
    >(
      `SELECT entry_id AS entryId, label, cost_amount AS costAmount, cost_currency AS costCurrency
         FROM ledger_annotations WHERE profile_id = ?`,
    ),
    annotate: db.prepare<[string, string, string | null, string | null, string | null, number]>(
      `INSERT INTO ledger_annotations (profile_id, entry_id, label, cost_amount, cost_currency, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, entry_id) DO UPDATE SET label = excluded.label,
           cost_amount = excluded.cost_amount, cost_currency = excluded.cost_currency,
           updated_at = excluded.updated_at`,
    ),
    removeAnnotation: db.prepare<[string, string]>(
      'DELETE FROM ledger_annotations WHERE profile_id = ? AND entry_id = ?',
    ),
    fingerprint: db.prepare<
      [string, string, string, string, string, string, string, string],
      { value: string }
    >(
      `SELECT
         (SELECT count(*) || ':' || ifnull(max(time), 0) FROM own_trades WHERE profile_id = ?) || '|' ||
         (SELECT count(*) || ':' || ifnull(max(last_updated), 0) FROM withdraws WHERE profile_id = ?) || '|' ||
         (SELECT count(*) || ':' || ifnull(max(time), 0) FROM sub_transfers WHERE profile_id = ?) || '|' ||
         (SELECT count(*) || ':' || ifnull(max(taken_at), 0) FROM fund_snapshots WHERE profile_id = ?) || '|' ||
         (SELECT count(*) || ':' || ifnull(max(time), 0) FROM balance_observations WHERE profile_id = ?) || '|' ||
         (SELECT count(*) || ':' || ifnull(max(updated_at), 0) FROM ledger_annotations WHERE profile_id = ?) || '|' ||
         (SELECT count(*) || ':' || ifnull(max(updated_at), 0) FROM funds WHERE profile_id = ?) || '|' ||
         (SELECT count(*) || ':' || ifnull(max(fetched_at), 0) FROM sub_accounts WHERE profile_id = ?)
         AS value`,
    ),
  };
}

function sql(store: Store) {
  let prepared = statements.get(store.db);
  if (!prepared) statements.set(store.db, (prepared = prepare(store.db)));
  return prepared;
}

/** Changes whenever anything the ledger is built from changes (a cheap query on indexes). */
export function ledgerFingerprint(store: Store, profileId: string): string {
  const id = profileId;
  return sql(store).fingerprint.get(id, id, id, id, id, id, id, id)?.value ?? '';
}

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

/** Own trades of the cache as ledger entries (main account: the key's own). */
export function readTrades(
  store: Store,
  profileId: string,
  pairs: Map<string, { base: string; quote: string }>,
  unknown: Set<string> = new Set(),
): TradeEntry[] {
  const trades: TradeEntry[] = [];
  const feeAssets = new Map<string, string>();
  for (const [id, symbol, side, price, qty, quoteQty, fee, feeCurrency, time] of sql(
    store,
  ).trades.iterate(profileId)) {
    const pair = pairs.get(symbol);
    if (!pair) {
      unknown.add(symbol);
      continue;
    }
    let commissionAsset = feeAssets.get(feeCurrency);
    if (commissionAsset === undefined) {
      feeAssets.set(feeCurrency, (commissionAsset = assetKey(feeCurrency)));
    }
    trades.push({
      kind: 'trade',
      id: String(id),
      account: MAIN_ACCOUNT,
      symbol,
      base: pair.base,
      quote: pair.quote,
      side: side === 'buy' ? 'BUY' : 'SELL',
      qty,
      price,
      quoteQty,
      commission: fee,
      commissionAsset,
      time,
    });
  }
  return trades;
}

/** Everything the ledger is built from, for one profile. */
export function readLedgerInputs(store: Store, profileId: string): LedgerInputs {
  return readLedgerParts(store, profileId).inputs;
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

export function readLedgerParts(store: Store, profileId: string): LedgerParts {
  const q = sql(store);
  const marks = readMarks(store, profileId);
  const lastTrade = q.lastTrade.get(profileId) ?? null;
  const unknown = new Set<string>();
  const trades = readTrades(store, profileId, symbolPairs(store, profileId), unknown);
  const subs = q.subAccounts.all(profileId);
  const accountOf = accountsOf(subs);
  const withdrawals = [...q.withdrawals.iterate(profileId)].map(withdrawalEntry);
  const transferIds = new Set<number>();
  const transfers: LedgerEntry[] = [];
  for (const row of q.transfers.iterate(profileId)) {
    transferIds.add(row.txnId);
    const entry = transferEntry(row, accountOf);
    if (entry) transfers.push(entry);
  }
  const fundSnapshots = [...q.fundSnapshots.iterate(profileId)].map(fundSnapshot);
  const observations = [...q.observations.iterate(profileId)].map(observation);
  const current = currentObservations(store, profileId);

  const annotations = new Map<string, InferredAnnotation>();
  for (const row of q.annotations.iterate(profileId)) {
    const annotation: InferredAnnotation = {};
    if (row.label !== null) annotation.label = row.label;
    if (row.costAmount !== null && row.costCurrency !== null) {
      annotation.costBasis = { amount: row.costAmount, currency: assetKey(row.costCurrency) };
    }
    annotations.set(row.entryId, annotation);
  }
  return {
    inputs: {
      trades,
      others: [...withdrawals, ...transfers],
      snapshots: [...fundSnapshots, ...observations, ...current],
      annotations,
      subAccounts: subs.map((s) => s.email.toLowerCase()),
      unknownSymbols: [...unknown].sort(),
    },
    withdrawals,
    transfers,
    transferIds,
    fundSnapshots,
    observations,
    current,
    marks,
    lastTrade,
  };
}

export function readMarks(store: Store, profileId: string): LedgerMarks {
  return sql(store).marks.get({ id: profileId })!;
}

function accountsOf(subs: readonly { email: string }[]): (email: string) => string {
  const subEmails = new Set(subs.map((s) => s.email.toLowerCase()));
  return (email) => (subEmails.has(email.toLowerCase()) ? email.toLowerCase() : MAIN_ACCOUNT);
}

function withdrawalEntry(row: WithdrawalRow): LedgerEntry {
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
function transferEntry(row: TransferRow, accountOf: (email: string) => string): LedgerEntry | null {
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

function fundSnapshot(row: { takenAt: number; assets: string }): BalanceSnapshot {
  const assets = JSON.parse(row.assets) as { asset: string; total: string }[];
  return {
    account: MAIN_ACCOUNT,
    time: row.takenAt,
    balances: Object.fromEntries(assets.map((a) => [assetKey(a.asset), a.total])),
    complete: true,
  };
}

function observation(row: {
  account: string;
  time: number;
  balances: string;
  complete: number;
}): BalanceSnapshot {
  return {
    account: row.account,
    time: row.time,
    balances: JSON.parse(row.balances) as Record<string, string>,
    complete: row.complete === 1,
  };
}

/** What was added after `parts` was read, when it is only that; null when anything else changed. */
export interface LedgerAppends {
  marks: LedgerMarks;
  trades: TradeEntry[];
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
 * addition after what was read; null when anything else changed (a row updated or inserted among
 * those read, an annotation, the sub-accounts): then only a full read is right.
 */
export function readAppends(
  store: Store,
  profileId: string,
  parts: LedgerParts,
): LedgerAppends | null {
  const q = sql(store);
  const before = parts.marks;
  const marks = readMarks(store, profileId);
  if (marks.annotations !== before.annotations || marks.subAccounts !== before.subAccounts) {
    return null;
  }
  // Trades: only rows after the newest read; a backfilled older trade changes the count alone.
  const trades: TradeEntry[] = [];
  const unknown = new Set<string>();
  let lastTrade = parts.lastTrade;
  if (marks.trades !== before.trades) {
    const last = parts.lastTrade ?? { time: -1, id: -1, orderId: -1 };
    const rows = q.tradesAfter.all(profileId, last.time, last.time, last.id, last.id, last.orderId);
    if (before.trades + rows.length !== marks.trades) return null;
    const pairs = rows.length > 0 ? symbolPairs(store, profileId) : new Map();
    for (const row of rows) {
      const pair = pairs.get(row.symbol);
      if (!pair) {
        unknown.add(row.symbol);
        continue;
      }
      trades.push({
        kind: 'trade',
        id: String(row.id),
        account: MAIN_ACCOUNT,
        symbol: row.symbol,
        base: pair.base,
        quote: pair.quote,
        side: row.side === 'buy' ? 'BUY' : 'SELL',
        qty: row.qty,
        price: row.price,
        quoteQty: row.quoteQty,
        commission: row.fee,
        commissionAsset: assetKey(row.feeCurrency),
        time: row.time,
      });
    }
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
    const rows = q.withdrawalsUpdatedAfter.all(profileId, before.withdrawalsUpdated);
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
    const accountOf = accountsOf(q.subAccounts.all(profileId));
    const rows = q.transfersFrom
      .all(profileId, before.transfersTime)
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
    const added = q.fundSnapshotRowsAfter.get(profileId, before.fundSnapshotsTime)?.n ?? 0;
    if (before.fundSnapshots + added !== marks.fundSnapshots) return null;
    fundSnapshots = q.fundSnapshotsAfter.all(profileId, before.fundSnapshotsTime).map(fundSnapshot);
  }
  let observations: BalanceSnapshot[] = [];
  if (marks.observationsRow !== before.observationsRow) {
    const rows = q.observationsAfter.all(profileId, before.observationsRow);
    if (before.observations + rows.length !== marks.observations) return null;
    // One among those read replaced, or one dated before them: not an addition after.
    if (rows.some((row) => row.time <= before.observationsTime)) return null;
    observations = rows.map(observation);
  } else if (marks.observations !== before.observations) {
    return null;
  }
  return {
    marks,
    trades,
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

/** The balances cached now: the main account's funds and each sub-account's balances. */
export function currentObservations(store: Store, profileId: string): BalanceSnapshot[] {
  const q = sql(store);
  const result: BalanceSnapshot[] = [];
  const funds = q.funds.all(profileId);
  if (funds.length > 0) {
    const balances: Record<string, string> = {};
    for (const fund of funds) {
      const total = amount(fund.free, fund.asset, 'free').plus(
        amount(fund.locked, fund.asset, 'locked'),
      );
      if (!total.isZero()) balances[assetKey(fund.asset)] = decimalText(total);
    }
    result.push({
      account: MAIN_ACCOUNT,
      time: Math.max(...funds.map((f) => f.updatedAt)),
      balances,
      complete: true,
    });
  }
  const subs = q.subAccounts.all(profileId);
  const bySub = new Map<string, Record<string, string>>(
    subs.map((s) => [s.email.toLowerCase(), {}]),
  );
  for (const row of q.subBalances.iterate(profileId)) {
    const balances = bySub.get(row.email.toLowerCase());
    const value = amount(row.balance, row.asset, 'balance');
    if (balances && !value.isZero()) balances[assetKey(row.asset)] = decimalText(value);
  }
  for (const sub of subs) {
    result.push({
      account: sub.email.toLowerCase(),
      time: sub.fetchedAt,
      balances: bySub.get(sub.email.toLowerCase())!,
      complete: true,
    });
  }
  return result;
}

/**
 * Keeps today's balances of every account as an observation of the record when they differ from
 * the last one kept: the exchange has no balance history, so this is how the ledger learns one
 * (sub-accounts above all, whose own trades and deposits the main key cannot read).
 */
export function keepObservations(store: Store, profileId: string): number {
  const q = sql(store);
  let kept = 0;
  store.transaction(() => {
    for (const current of currentObservations(store, profileId)) {
      const text = JSON.stringify(sortedBalances(current.balances));
      const last = q.lastObservation.get(profileId, current.account);
      if (last && (last.balances === text || last.time >= current.time)) continue;
      q.addObservation.run(profileId, current.account, current.time, text, 1);
      kept++;
    }
  });
  return kept;
}

function sortedBalances(balances: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(balances).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Sets (or, with neither field, removes) the user's label and cost basis of an inferred entry. */
export function annotate(
  store: Store,
  profileId: string,
  entryId: string,
  annotation: InferredAnnotation,
  at: number,
): void {
  const q = sql(store);
  if (annotation.label === undefined && annotation.costBasis === undefined) {
    q.removeAnnotation.run(profileId, entryId);
    return;
  }
  q.annotate.run(
    profileId,
    entryId,
    annotation.label ?? null,
    annotation.costBasis?.amount ?? null,
    annotation.costBasis ? assetKey(annotation.costBasis.currency) : null,
    at,
  );
}
