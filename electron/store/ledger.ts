/**
 * What the ledger reads and keeps: own trades, withdrawals, sub-accounts and their transfers and
 * balances, funds and value snapshots (read from both files), and the record's own two tables of
 * the ledger, balance_observations (balances seen over time) and ledger_annotations (the user's
 * labels and cost bases of inferred entries).
 *
 * The rows come out as the ledger's source needs them: in ledger order, with the counts, newest
 * times and row ids (marks) that let a kept ledger read only what was added after it.
 */
import type Database from 'better-sqlite3';
import { Decimal } from '../../shared/exact-decimal';
import { assetKey } from '../../shared/market';
import { formatDecimal } from '../core/decimal';
import { integerMs, StoreInputError } from './util';
import { MAIN_ACCOUNT, type InferredFacts } from '../../shared/ledger';
import { TradeRange, type TradePageTaker } from './trade-range';

/** An own-trade row as ledger reads iterate it, in this column order (an array per row). */
export type LedgerTradeColumns = [
  id: number,
  symbol: string,
  side: string,
  price: string,
  qty: string,
  quoteQty: string,
  fee: string,
  feeCurrency: string,
  time: number,
  orderId: number,
  /**
   * The linked sub-account's e-mail whose key read it; null for the main account's (no text made
   * per row for the 'main' every other row would bring).
   */
  account: string | null,
];

export interface LedgerTradeRow {
  id: number;
  symbol: string;
  side: string;
  price: string;
  qty: string;
  quoteQty: string;
  fee: string;
  feeCurrency: string;
  time: number;
  orderId: number;
  /** 'main', or the linked sub-account's e-mail whose key read it. */
  account: string;
}

/** The newest own trade read, in the order trades are read (time, id, order). */
export interface TradeCursor {
  time: number;
  id: number;
  orderId: number;
}

export interface LedgerWithdrawalRow {
  id: string;
  coin: string;
  amount: string;
  fee: string;
  status: number;
  time: number;
  txId: string | null;
}

export interface LedgerTransferRow {
  txnId: number;
  asset: string;
  from: string;
  to: string;
  qty: string;
  status: string;
  time: number;
}

/** Balances of one account at one time, by asset (assetKey form): a snapshot the ledger reads. */
export interface BalanceObservation {
  account: string;
  time: number;
  balances: Record<string, string>;
  /** Every asset of the account (a full read), or only those named (a live balance event). */
  complete: boolean;
}

/** The user's label and cost basis of an inferred entry, as kept. */
export interface AnnotationRow {
  entryId: string;
  label: string | null;
  costAmount: string | null;
  costCurrency: string | null;
  /**
   * The inferred entry as it stood when the user wrote (or last confirmed) the annotation; null in
   * a row written before the facts were kept.
   */
  facts: InferredFacts | null;
}

type AnnotationColumns = Omit<AnnotationRow, 'facts'> & {
  account: string | null;
  asset: string | null;
  amount: string | null;
  entryFrom: number | null;
  entryTo: number | null;
  entryTime: number | null;
};

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

type ObservationColumns = { account: string; time: number; balances: string; complete: number };

const WITHDRAWAL_COLUMNS = `id, coin, amount, transaction_fee AS fee, status, created_at AS time,
  tx_id AS txId`;
const TRANSFER_COLUMNS = `txn_id AS txnId, asset, from_email AS "from", to_email AS "to", qty,
  status, time`;

export class LedgerRepository {
  private readonly statements;
  private readonly range: TradeRange;
  private readonly keepTransaction;
  private readonly writeTransaction: <T>(write: () => T) => T;

  constructor(db: Database.Database) {
    this.statements = prepare(db);
    this.range = new TradeRange(db);
    this.writeTransaction = db.transaction(<T>(write: () => T): T => write()) as <T>(
      write: () => T,
    ) => T;
    this.keepTransaction = db.transaction((profileId: string) => {
      let kept = 0;
      for (const current of this.currentBalances(profileId)) {
        if (this.keepObservation(profileId, current)) kept++;
      }
      return kept;
    });
  }

  /**
   * A page of own trades after `after` (from the first with null) up to `to` in ledger order,
   * given to `take` as one text (or as rows: see trade-range.ts): the cursor to read the next
   * page after, or null when done. A page at a time, so a reader of 100,000 may let other work
   * run between pages (an open iterator would keep the connection busy meanwhile).
   */
  tradePage(
    profileId: string,
    after: TradeCursor | null,
    to: TradeCursor,
    take: TradePageTaker,
  ): TradeCursor | null {
    return this.range.page(profileId, after, to, take);
  }

  /** Own trades after `after` in ledger order (all of them with null). */
  tradesAfter(profileId: string, after: TradeCursor | null): LedgerTradeRow[] {
    return this.statements.tradesAfter.all(...afterCursor(profileId, after));
  }

  /** The cursor of the trade `offset` trades into the ledger order (0: the first), or null. */
  tradeAt(profileId: string, offset: number): TradeCursor | null {
    // Mostly the main account's alone: its own index walked, not both merged (a third the time).
    if (!this.statements.hasSubTrades.get(profileId)) {
      return this.statements.ownTradeAt.get(profileId, offset) ?? null;
    }
    return this.statements.tradeAt.get(profileId, profileId, offset) ?? null;
  }

  lastTrade(profileId: string): TradeCursor | null {
    return this.statements.lastTrade.get(profileId, profileId) ?? null;
  }

  withdrawals(profileId: string): LedgerWithdrawalRow[] {
    return this.statements.withdrawals.all(profileId);
  }

  /** Withdrawals added or changed after `updatedAfter` (their last_updated), in ledger order. */
  withdrawalsUpdatedAfter(profileId: string, updatedAfter: number): LedgerWithdrawalRow[] {
    return this.statements.withdrawalsUpdatedAfter.all(profileId, updatedAfter);
  }

  transfers(profileId: string): LedgerTransferRow[] {
    return this.statements.transfers.all(profileId);
  }

  /** Transfers at or after `from`, in ledger order. */
  transfersFrom(profileId: string, from: number): LedgerTransferRow[] {
    return this.statements.transfersFrom.all(profileId, from);
  }

  subAccounts(profileId: string): { email: string; fetchedAt: number }[] {
    return this.statements.subAccounts.all(profileId);
  }

  /** The sub-accounts linked to their own key (lower-case e-mails): their trades are read. */
  linkedSubAccounts(profileId: string): string[] {
    return this.statements.linked.all(profileId).map((row) => row.email);
  }

  /** The value snapshots' holdings (main account, complete), oldest first; one per time. */
  fundSnapshots(profileId: string, after = -1): BalanceObservation[] {
    return this.statements.fundSnapshotsAfter.all(profileId, after).map(fundSnapshot);
  }

  /** How many snapshot rows (one per quote asset) were taken after `after`. */
  fundSnapshotRowsAfter(profileId: string, after: number): number {
    return this.statements.fundSnapshotRowsAfter.get(profileId, after)?.n ?? 0;
  }

  /** The record's balance observations, in ledger order (time, account, partial first). */
  observations(profileId: string): BalanceObservation[] {
    return this.statements.observations.all(profileId).map(observation);
  }

  /** Observations kept (or replaced) after row `rowid`, in ledger order. */
  observationsAfter(profileId: string, rowid: number): BalanceObservation[] {
    return this.statements.observationsAfter.all(profileId, rowid).map(observation);
  }

  /**
   * The balances cached now: the main account's funds (free + locked, at the newest update) and
   * each sub-account's balances (at its fetch); zero balances left out.
   */
  currentBalances(profileId: string): BalanceObservation[] {
    const result: BalanceObservation[] = [];
    const funds = this.statements.funds.all(profileId);
    if (funds.length > 0) {
      const balances: Record<string, string> = {};
      let time = 0;
      for (const fund of funds) {
        const total = new Decimal(fund.free).plus(fund.locked);
        if (!total.isZero()) balances[assetKey(fund.asset)] = formatDecimal(total);
        time = Math.max(time, fund.updatedAt);
      }
      result.push({ account: MAIN_ACCOUNT, time, balances, complete: true });
    }
    const subs = this.statements.subAccounts.all(profileId);
    const bySub = new Map<string, Record<string, string>>(
      subs.map((s) => [s.email.toLowerCase(), {}]),
    );
    for (const row of this.statements.subBalances.iterate(profileId)) {
      const balances = bySub.get(row.email.toLowerCase());
      const value = new Decimal(row.balance);
      if (balances && !value.isZero()) balances[assetKey(row.asset)] = formatDecimal(value);
    }
    for (const sub of subs) {
      const account = sub.email.toLowerCase();
      result.push({ account, time: sub.fetchedAt, balances: bySub.get(account)!, complete: true });
    }
    return result;
  }

  /**
   * Keeps today's balances of every account as complete observations, each only when it differs
   * from the last one kept and is newer: the exchange has no balance history, so this is how the
   * ledger learns one (sub-accounts above all, whose own trades and deposits the main key cannot
   * read). Idempotent: a second call with nothing new writes nothing. Returns how many were kept.
   */
  keepCurrentBalances(profileId: string): number {
    return this.keepTransaction(profileId);
  }

  private keepObservation(profileId: string, current: BalanceObservation): boolean {
    const text = JSON.stringify(sortedBalances(current.balances));
    const last = this.statements.lastObservation.get(profileId, current.account);
    if (last && (last.balances === text || last.time >= current.time)) return false;
    this.statements.addObservation.run(profileId, current.account, current.time, text, 1);
    return true;
  }

  /**
   * Balances of a linked sub-account read with its own key (account: its lower-case e-mail), by
   * asset as totals: its full funds (`complete`, kept only when they differ from the last kept and
   * are newer), or the assets a stream event names (merged with a partial one of the same time).
   * Returns whether anything was kept.
   */
  observeAccount(profileId: string, observation: BalanceObservation): boolean {
    const { account, time, complete } = observation;
    if (account === '' || account === MAIN_ACCOUNT) {
      throw new StoreInputError(
        `observeAccount is for a sub-account, not ${JSON.stringify(account)}`,
      );
    }
    integerMs(time, 'observation time');
    const balances: Record<string, string> = {};
    for (const [asset, amount] of Object.entries(observation.balances)) {
      balances[assetKey(asset)] = checkDecimal(amount, `balance of ${asset}`);
    }
    if (complete) return this.keepObservation(profileId, { account, time, balances, complete });
    return this.writeTransaction(() => {
      const earlier = this.statements.partialAt.get(profileId, account, time);
      const merged = earlier ? { ...(JSON.parse(earlier.balances) as Record<string, string>) } : {};
      Object.assign(merged, balances);
      this.statements.addObservation.run(
        profileId,
        account,
        time,
        JSON.stringify(sortedBalances(merged)),
        0,
      );
      return true;
    });
  }

  /** How many own trades (both tables) the profile has: the count its tables' triggers keep. */
  tradeCount(profileId: string): number {
    return this.statements.tradeCount.get(profileId) ?? 0;
  }

  marks(profileId: string): LedgerMarks {
    return this.statements.marks.get({ id: profileId })!;
  }

  annotations(profileId: string): AnnotationRow[] {
    return this.statements.annotations.all(profileId).map(annotationRow);
  }

  /**
   * Sets the label and cost basis of an inferred entry, with the entry's facts as they stand
   * (`facts`); with neither label nor cost, removes what was kept. `replaces`: rows of the same
   * annotation kept under another id (an entry that moved), removed in the same transaction.
   */
  annotate(
    profileId: string,
    entryId: string,
    annotation: { label?: string; costBasis?: { amount: string; currency: string } },
    at: number,
    facts: InferredFacts | null = null,
    replaces: readonly string[] = [],
  ): void {
    if (!entryId) throw new StoreInputError('annotation entryId must not be empty');
    integerMs(at, 'annotation at');
    if (facts) checkFacts(facts);
    this.writeTransaction(() => {
      for (const old of replaces) {
        if (old !== entryId) this.statements.removeAnnotation.run(profileId, old);
      }
      if (annotation.label === undefined && annotation.costBasis === undefined) {
        this.statements.removeAnnotation.run(profileId, entryId);
        return;
      }
      this.statements.annotate.run(
        profileId,
        entryId,
        annotation.label ?? null,
        annotation.costBasis?.amount ?? null,
        annotation.costBasis ? assetKey(annotation.costBasis.currency) : null,
        at,
        facts?.account ?? null,
        facts ? assetKey(facts.asset) : null,
        facts?.amount ?? null,
        facts?.from ?? null,
        facts?.to ?? null,
        facts?.time ?? null,
      );
    });
  }

  /**
   * The user looked again at an annotation whose entry changed and keeps it with the entry as it
   * stands now (`facts`), under the entry's id now (`entryId`, another when the entry moved).
   * False when no annotation is kept under `keptId`, or `entryId` has one of its own.
   */
  confirmAnnotation(
    profileId: string,
    keptId: string,
    entryId: string,
    facts: InferredFacts,
    at: number,
  ): boolean {
    integerMs(at, 'annotation at');
    checkFacts(facts);
    return this.writeTransaction(() => {
      if (keptId !== entryId && this.statements.annotation.get(profileId, entryId)) return false;
      const changed = this.statements.confirm.run(
        entryId,
        facts.account,
        assetKey(facts.asset),
        facts.amount,
        facts.from,
        facts.to,
        facts.time,
        at,
        profileId,
        keptId,
      ).changes;
      return changed === 1;
    });
  }

  /** Removes the annotation kept under `entryId` (the user chose to); false when there was none. */
  removeAnnotation(profileId: string, entryId: string): boolean {
    return this.statements.removeAnnotation.run(profileId, entryId).changes === 1;
  }
}

function prepare(db: Database.Database) {
  return {
    tradesAfter: db.prepare<
      [string, number, number, number, string, number, number, number],
      LedgerTradeRow
    >(
      `SELECT id, symbol, side, price, qty, quote_qty AS quoteQty, fee, fee_currency AS feeCurrency,
         time, order_id AS orderId, 'main' AS account FROM own_trades
         WHERE profile_id = ? AND (time, id, order_id) > (?, ?, ?)
       UNION ALL
       SELECT id, symbol, side, price, qty, quote_qty AS quoteQty, fee,
         fee_currency AS feeCurrency, time, order_id AS orderId, account FROM sub_account_trades
         WHERE profile_id = ? AND (time, id, order_id) > (?, ?, ?)
       ORDER BY time, id, order_id`,
    ),
    tradeCount: db
      .prepare<[string], number>('SELECT trades FROM trade_counts WHERE profile_id = ?')
      .pluck(),
    hasSubTrades: db
      .prepare<[string], number>('SELECT 1 FROM sub_account_trades WHERE profile_id = ? LIMIT 1')
      .pluck(),
    ownTradeAt: db.prepare<[string, number], TradeCursor>(
      `SELECT time, id, order_id AS orderId FROM own_trades WHERE profile_id = ?
       ORDER BY time, id, order_id LIMIT 1 OFFSET ?`,
    ),
    tradeAt: db.prepare<[string, string, number], TradeCursor>(
      `SELECT time, id, order_id AS orderId FROM (
         SELECT * FROM (SELECT time, id, order_id FROM own_trades WHERE profile_id = ?
           ORDER BY time, id, order_id)
         UNION ALL
         SELECT * FROM (SELECT time, id, order_id FROM sub_account_trades WHERE profile_id = ?
           ORDER BY time, id, order_id))
       ORDER BY time, id, order_id LIMIT 1 OFFSET ?`,
    ),
    lastTrade: db.prepare<[string, string], TradeCursor>(
      `SELECT time, id, orderId FROM (
         SELECT * FROM (SELECT time, id, order_id AS orderId FROM own_trades WHERE profile_id = ?
           ORDER BY time DESC, id DESC, order_id DESC LIMIT 1)
         UNION ALL
         SELECT * FROM (SELECT time, id, order_id AS orderId FROM sub_account_trades
           WHERE profile_id = ? ORDER BY time DESC, id DESC, order_id DESC LIMIT 1))
       ORDER BY time DESC, id DESC, orderId DESC LIMIT 1`,
    ),
    withdrawals: db.prepare<[string], LedgerWithdrawalRow>(
      `SELECT ${WITHDRAWAL_COLUMNS} FROM withdraws WHERE profile_id = ? ORDER BY created_at, id`,
    ),
    withdrawalsUpdatedAfter: db.prepare<[string, number], LedgerWithdrawalRow>(
      `SELECT ${WITHDRAWAL_COLUMNS} FROM withdraws WHERE profile_id = ? AND last_updated > ?
         ORDER BY created_at, id`,
    ),
    transfers: db.prepare<[string], LedgerTransferRow>(
      `SELECT ${TRANSFER_COLUMNS} FROM sub_transfers WHERE profile_id = ? ORDER BY time, txn_id`,
    ),
    transfersFrom: db.prepare<[string, number], LedgerTransferRow>(
      `SELECT ${TRANSFER_COLUMNS} FROM sub_transfers WHERE profile_id = ? AND time >= ?
         ORDER BY time, txn_id`,
    ),
    subAccounts: db.prepare<[string], { email: string; fetchedAt: number }>(
      'SELECT email, fetched_at AS fetchedAt FROM sub_accounts WHERE profile_id = ? ORDER BY email',
    ),
    linked: db.prepare<[string], { email: string }>(
      'SELECT email FROM sub_account_links WHERE profile_id = ? ORDER BY email',
    ),
    subBalances: db.prepare<[string], { email: string; asset: string; balance: string }>(
      'SELECT email, asset, balance FROM sub_account_balances WHERE profile_id = ?',
    ),
    funds: db.prepare<[string], { asset: string; free: string; locked: string; updatedAt: number }>(
      'SELECT asset, free, locked, updated_at AS updatedAt FROM funds WHERE profile_id = ?',
    ),
    fundSnapshotsAfter: db.prepare<[string, number], { takenAt: number; assets: string }>(
      `SELECT taken_at AS takenAt, assets FROM fund_snapshots WHERE profile_id = ? AND taken_at > ?
         GROUP BY taken_at ORDER BY taken_at`,
    ),
    fundSnapshotRowsAfter: db.prepare<[string, number], { n: number }>(
      'SELECT count(*) AS n FROM fund_snapshots WHERE profile_id = ? AND taken_at > ?',
    ),
    observations: db.prepare<[string], ObservationColumns>(
      `SELECT account, time, balances, complete FROM balance_observations WHERE profile_id = ?
         ORDER BY time, account, complete`,
    ),
    observationsAfter: db.prepare<[string, number], ObservationColumns>(
      `SELECT account, time, balances, complete FROM balance_observations
         WHERE profile_id = ? AND rowid > ? ORDER BY time, account, complete`,
    ),
    lastObservation: db.prepare<[string, string], { time: number; balances: string }>(
      `SELECT time, balances FROM balance_observations
         WHERE profile_id = ? AND account = ? AND complete = 1 ORDER BY time DESC LIMIT 1`,
    ),
    partialAt: db.prepare<[string, string, number], { balances: string }>(
      `SELECT balances FROM balance_observations
         WHERE profile_id = ? AND account = ? AND time = ? AND complete = 0`,
    ),
    addObservation: db.prepare<[string, string, number, string, number]>(
      `INSERT OR REPLACE INTO balance_observations (profile_id, account, time, balances, complete)
         VALUES (?, ?, ?, ?, ?)`,
    ),
    marks: db.prepare<{ id: string }, LedgerMarks>(
      `SELECT
         ifnull((SELECT trades FROM trade_counts WHERE profile_id = @id), 0) AS trades,
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
         (SELECT count(*) || ':' || ifnull(max(fetched_at), 0) FROM sub_accounts WHERE profile_id = @id)
           || ':' || (SELECT count(*) || ':' || ifnull(max(linked_at), 0) FROM sub_account_links WHERE profile_id = @id) AS subAccounts,
         (SELECT count(*) || ':' || ifnull(max(at), 0) FROM prices WHERE profile_id = @id) AS prices`,
    ),
    annotations: db.prepare<[string], AnnotationColumns>(
      `SELECT entry_id AS entryId, label, cost_amount AS costAmount, cost_currency AS costCurrency,
         entry_account AS account, entry_asset AS asset, entry_amount AS amount,
         entry_from AS entryFrom, entry_to AS entryTo, entry_time AS entryTime
         FROM ledger_annotations WHERE profile_id = ? ORDER BY entry_id`,
    ),
    annotation: db.prepare<[string, string], { entryId: string }>(
      'SELECT entry_id AS entryId FROM ledger_annotations WHERE profile_id = ? AND entry_id = ?',
    ),
    annotate: db.prepare<
      [
        string,
        string,
        string | null,
        string | null,
        string | null,
        number,
        string | null,
        string | null,
        string | null,
        number | null,
        number | null,
        number | null,
      ]
    >(
      `INSERT INTO ledger_annotations (profile_id, entry_id, label, cost_amount, cost_currency,
           updated_at, entry_account, entry_asset, entry_amount, entry_from, entry_to, entry_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, entry_id) DO UPDATE SET label = excluded.label,
           cost_amount = excluded.cost_amount, cost_currency = excluded.cost_currency,
           updated_at = excluded.updated_at, entry_account = excluded.entry_account,
           entry_asset = excluded.entry_asset, entry_amount = excluded.entry_amount,
           entry_from = excluded.entry_from, entry_to = excluded.entry_to,
           entry_time = excluded.entry_time`,
    ),
    confirm: db.prepare<
      [string, string, string, string, number, number, number, number, string, string]
    >(
      `UPDATE ledger_annotations SET entry_id = ?, entry_account = ?, entry_asset = ?,
           entry_amount = ?, entry_from = ?, entry_to = ?, entry_time = ?, updated_at = ?
         WHERE profile_id = ? AND entry_id = ?`,
    ),
    removeAnnotation: db.prepare<[string, string]>(
      'DELETE FROM ledger_annotations WHERE profile_id = ? AND entry_id = ?',
    ),
  };
}

function annotationRow(row: AnnotationColumns): AnnotationRow {
  const { account, asset, amount, entryFrom, entryTo, entryTime, ...kept } = row;
  const facts =
    account !== null &&
    asset !== null &&
    amount !== null &&
    entryFrom !== null &&
    entryTo !== null &&
    entryTime !== null
      ? { account, asset, amount, from: entryFrom, to: entryTo, time: entryTime }
      : null;
  return { ...kept, facts };
}

function checkDecimal(amount: string, what: string): string {
  if (!/^\d+(\.\d+)?$/.test(amount))
    throw new StoreInputError(`${what} is not a decimal: ${amount}`);
  return formatDecimal(new Decimal(amount));
}

function checkFacts(facts: InferredFacts): void {
  if (!facts.account) throw new StoreInputError('annotation facts account must not be empty');
  if (!facts.asset) throw new StoreInputError('annotation facts asset must not be empty');
  if (!/^-?\d+(\.\d+)?$/.test(facts.amount)) {
    throw new StoreInputError(`annotation facts amount is not a decimal: ${facts.amount}`);
  }
  for (const field of ['from', 'to', 'time'] as const)
    integerMs(facts[field], `annotation ${field}`);
}

function fundSnapshot(row: { takenAt: number; assets: string }): BalanceObservation {
  const assets = JSON.parse(row.assets) as { asset: string; total: string }[];
  return {
    account: MAIN_ACCOUNT,
    time: row.takenAt,
    balances: Object.fromEntries(assets.map((a) => [assetKey(a.asset), a.total])),
    complete: true,
  };
}

function observation(row: ObservationColumns): BalanceObservation {
  return {
    account: row.account,
    time: row.time,
    balances: JSON.parse(row.balances) as Record<string, string>,
    complete: row.complete === 1,
  };
}

function sortedBalances(balances: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(balances).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The parameters of a read after `after` (from the first with null) in ledger order: the profile
 * and the cursor, twice, for the query's two parts.
 */
function afterCursor(
  profileId: string,
  after: TradeCursor | null,
): [string, number, number, number, string, number, number, number] {
  const { time, id, orderId } = after ?? { time: -1, id: -1, orderId: -1 };
  return [profileId, time, id, orderId, profileId, time, id, orderId];
}
