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

const statements = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

function prepare(db: Database.Database) {
  return {
    trades: db.prepare<[string], TradeRow>(
      `SELECT id, symbol, side, price, qty, quote_qty AS quoteQty, fee, fee_currency AS feeCurrency,
         time FROM own_trades WHERE profile_id = ? ORDER BY time, id, order_id`,
    ),
    withdrawals: db.prepare<
      [string],
      {
        id: string;
        coin: string;
        amount: string;
        fee: string;
        status: number;
        time: number;
        txId: string | null;
      }
    >(
      `SELECT id, coin, amount, transaction_fee AS fee, status, created_at AS time, tx_id AS txId
         FROM withdraws WHERE profile_id = ? ORDER BY created_at, id`,
    ),
    transfers: db.prepare<
      [string],
      {
        txnId: number;
        asset: string;
        from: string;
        to: string;
        qty: string;
        status: string;
        time: number;
      }
    >(
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
         ORDER BY time`,
    ),
    lastObservation: db.prepare<[string, string], { time: number; balances: string }>(
      `SELECT time, balances FROM balance_observations
         WHERE profile_id = ? AND account = ? AND complete = 1 ORDER BY time DESC LIMIT 1`,
    ),
    addObservation: db.prepare<[string, string, number, string, number]>(
      `INSERT OR REPLACE INTO balance_observations (profile_id, account, time, balances, complete)
         VALUES (?, ?, ?, ?, ?)`,
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
  for (const row of sql(store).trades.iterate(profileId)) {
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
  return trades;
}

/** Everything the ledger is built from, for one profile. */
export function readLedgerInputs(store: Store, profileId: string): LedgerInputs {
  const q = sql(store);
  const unknown = new Set<string>();
  const trades = readTrades(store, profileId, symbolPairs(store, profileId), unknown);
  const subs = q.subAccounts.all(profileId);
  const subEmails = new Set(subs.map((s) => s.email.toLowerCase()));
  const accountOf = (email: string) =>
    subEmails.has(email.toLowerCase()) ? email.toLowerCase() : MAIN_ACCOUNT;
  const others: LedgerEntry[] = [];
  for (const row of q.withdrawals.iterate(profileId)) {
    others.push({
      kind: 'withdrawal',
      id: row.id,
      account: MAIN_ACCOUNT,
      asset: assetKey(row.coin),
      amount: row.amount,
      fee: row.fee,
      status: withdrawStatusOf(row.status),
      time: row.time,
      ...(row.txId ? { txId: row.txId } : {}),
    });
  }
  for (const row of q.transfers.iterate(profileId)) {
    if (row.status.toLowerCase() !== 'success') continue;
    const fromAccount = accountOf(row.from);
    const toAccount = accountOf(row.to);
    if (fromAccount === toAccount) continue;
    others.push({
      kind: 'transfer',
      id: String(row.txnId),
      fromAccount,
      toAccount,
      asset: assetKey(row.asset),
      amount: row.qty,
      time: row.time,
    });
  }

  const snapshots: BalanceSnapshot[] = [];
  for (const row of q.fundSnapshots.iterate(profileId)) {
    const assets = JSON.parse(row.assets) as { asset: string; total: string }[];
    snapshots.push({
      account: MAIN_ACCOUNT,
      time: row.takenAt,
      balances: Object.fromEntries(assets.map((a) => [assetKey(a.asset), a.total])),
      complete: true,
    });
  }
  for (const row of q.observations.iterate(profileId)) {
    snapshots.push({
      account: row.account,
      time: row.time,
      balances: JSON.parse(row.balances) as Record<string, string>,
      complete: row.complete === 1,
    });
  }
  for (const current of currentObservations(store, profileId)) snapshots.push(current);

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
    trades,
    others,
    snapshots,
    annotations,
    subAccounts: subs.map((s) => s.email.toLowerCase()),
    unknownSymbols: [...unknown].sort(),
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
