/**
 * Ledger entries: every known movement of the user's money, as decimal text (as the exchange and
 * the store give it), and the replay of holdings from them.
 *
 * An account is "main" or a sub-account's e-mail. Times are Unix milliseconds (UTC).
 */
import type { InferredBound, InferredFacts } from '../../shared/ledger';
import type { WithdrawStatus } from '../../shared/market';
import { plainDecimal } from '../../shared/exact-decimal';
import { amount, ZERO, type Amount } from './decimal';

export type TradeSide = 'BUY' | 'SELL';

/** One own trade (a fill), as `myTrades` reports it. */
export interface TradeEntry {
  kind: 'trade';
  id: string;
  account: string;
  symbol: string;
  base: string;
  quote: string;
  side: TradeSide;
  /** Base quantity. */
  qty: string;
  price: string;
  /** Quote quantity (qty × price as the exchange rounded it). */
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  time: number;
  /**
   * qty, quoteQty and commission as Decimal, read once: source.ts reads them with the row, so the
   * reconciliation and the cost basis share them. Absent, tradeAmounts() reads the text.
   */
  amounts?: TradeAmounts;
}

/** A trade's amounts as Decimal. */
export interface TradeAmounts {
  qty: Amount;
  quoteQty: Amount;
  commission: Amount;
}

/** A trade's amounts: those read with it, else read from its text now (any not decimal throws). */
export function tradeAmounts(trade: TradeEntry): TradeAmounts {
  return trade.amounts ?? readTradeAmounts(trade);
}

/** The text amounts of a trade as Decimal; any not decimal throws naming the trade and field. */
export function readTradeAmounts(
  trade: Pick<TradeEntry, 'id' | 'symbol' | 'qty' | 'quoteQty' | 'commission'>,
): TradeAmounts {
  return {
    qty: tradeAmount(trade, trade.qty, 'qty'),
    quoteQty: tradeAmount(trade, trade.quoteQty, 'quoteQty'),
    commission: tradeAmount(trade, trade.commission, 'commission'),
  };
}

/** One of a trade's amounts (no closure made per trade for the message, written only if wrong). */
function tradeAmount(
  trade: Pick<TradeEntry, 'id' | 'symbol'>,
  text: string,
  field: string,
): Amount {
  return plainDecimal(text) ?? amount(text, `trade:${trade.symbol}:${trade.id}`, field);
}

/** One withdrawal; the balance loses amount + fee while it is pending or done. */
export interface WithdrawalEntry {
  kind: 'withdrawal';
  id: string;
  account: string;
  asset: string;
  amount: string;
  fee: string;
  status: WithdrawStatus;
  time: number;
  txId?: string;
}

/** A transfer between two of the user's own accounts (main and sub-accounts). */
export interface TransferEntry {
  kind: 'transfer';
  id: string;
  fromAccount: string;
  toAccount: string;
  asset: string;
  amount: string;
  time: number;
}

/** The user's own cost for an inferred credit: a total, in any asset with a price path. */
export interface UserCostBasis {
  amount: string;
  currency: string;
}

/**
 * A movement the known records do not explain, inferred from balance snapshots: a credit
 * ("deposit or other credit", positive amount) or a debit (negative). It happened somewhere in
 * (from, to]; `time` is where the ledger places it (see reconcile.ts for the rule).
 */
export interface InferredEntry extends InferredFacts {
  kind: 'inferred';
  id: string;
  /** The user's label for it ("salary", "gift"), a record the user keeps. */
  label?: string;
  costBasis?: UserCostBasis;
}

export type LedgerEntry = TradeEntry | WithdrawalEntry | TransferEntry | InferredEntry;

/** The part of the balance a withdrawal takes: nothing once it failed or was cancelled. */
export function withdrawalDebits(status: WithdrawStatus): boolean {
  return status === 'success' || status === 'pending';
}

/** Same-time rank: a credit first (it may fund what follows), a known movement, a debit last. */
export function sameTimeRank(entry: LedgerEntry): number {
  if (entry.kind !== 'inferred') return 1;
  return entry.amount.startsWith('-') ? 2 : 0;
}

/** Among known movements of one time and rank: the order the store reads the kinds in. */
const KIND_ORDER = { trade: 0, withdrawal: 1, transfer: 2, inferred: 3 } as const;

/**
 * Ledger order, the one statement of it: by time; at one time a credit first, known movements,
 * a debit last; known movements of one time by kind (trades, withdrawals, transfers) and id as
 * the store reads them (trades and transfers by their numeric ids); inferred entries by account,
 * asset and the start of their interval. Zero only for two trades of one id on two symbols, which
 * then keep the order they came in (the store's, by order id).
 */
export function compareEntries(a: LedgerEntry, b: LedgerEntry): number {
  if (a.time !== b.time) return a.time - b.time;
  const byRank = sameTimeRank(a) - sameTimeRank(b);
  if (byRank !== 0) return byRank;
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  if (a.kind === 'inferred') {
    const other = b as InferredEntry;
    return (
      compareText(a.account, other.account) ||
      compareText(a.asset, other.asset) ||
      a.from - other.from
    );
  }
  if (a.kind === 'withdrawal') return compareText(a.id, b.id);
  return compareIds(a.id, b.id);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Numeric ids by number (the store's integers), any other by text. */
function compareIds(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  return Number.isNaN(x) || Number.isNaN(y) ? compareText(a, b) : x - y;
}

/** More runs than this are sorted rather than merged. */
const MAX_RUNS = 16;

/** Entries in ledger order (compareEntries), ties as given. */
export function sortEntries(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const count = entries.length;
  // Mostly they come as a few runs already in order: one (each step of a build sorts what the
  // step before sorted) or one per kind (a build's trades, withdrawals, transfers, then its
  // inferred entries). Merged, each tie taken from the earlier run, they come out as the stable
  // sort would put them, in one pass per halving of the runs.
  let bounds = [0];
  for (let index = 1; index < count && bounds.length <= MAX_RUNS; index++) {
    if (compareEntries(entries[index - 1]!, entries[index]!) > 0) bounds.push(index);
  }
  if (bounds.length === 1) return entries.slice();
  if (bounds.length <= MAX_RUNS) {
    bounds.push(count);
    let current = entries;
    while (bounds.length > 2) {
      const merged: LedgerEntry[] = new Array<LedgerEntry>(count);
      const next = [0];
      for (let run = 0; run + 1 < bounds.length; run += 2) {
        const low = bounds[run]!;
        const middle = bounds[run + 1]!;
        const high = run + 2 < bounds.length ? bounds[run + 2]! : middle;
        let left = low;
        let right = middle;
        let out = low;
        while (left < middle && right < high) {
          merged[out++] =
            compareEntries(current[left]!, current[right]!) <= 0
              ? current[left++]!
              : current[right++]!;
        }
        while (left < middle) merged[out++] = current[left++]!;
        while (right < high) merged[out++] = current[right++]!;
        next.push(high);
      }
      current = merged;
      bounds = next;
    }
    return current as LedgerEntry[];
  }
  const order = Array.from(entries.keys());
  order.sort((a, b) => compareEntries(entries[a]!, entries[b]!) || a - b);
  return order.map((index) => entries[index]!);
}

/**
 * Two lists, each in ledger order, as one new list in ledger order, a tie taken from `first`:
 * sortEntries([...first, ...second]) in one pass, without the copy and the look for runs (a
 * build merges its 100,000 trades, read in ledger order, with the rest).
 */
export function mergeEntries(
  first: readonly LedgerEntry[],
  second: readonly LedgerEntry[],
): LedgerEntry[] {
  const merged = new Array<LedgerEntry>(first.length + second.length);
  let left = 0;
  let right = 0;
  let out = 0;
  while (left < first.length && right < second.length) {
    merged[out++] =
      compareEntries(first[left]!, second[right]!) <= 0 ? first[left++]! : second[right++]!;
  }
  while (left < first.length) merged[out++] = first[left++]!;
  while (right < second.length) merged[out++] = second[right++]!;
  return merged;
}

export interface BalanceChange {
  account: string;
  asset: string;
  /** Signed. */
  delta: Amount;
}

/**
 * What an entry does to balances, the one statement of it, handed over one by one (no array per
 * entry: reconcile() runs this over every trade of the history). A trade sends its gross sent
 * amount and receives its gross received amount; the commission is then taken from whichever
 * asset it is charged in (so a fee in the received asset reduces what arrives, a fee in the sent
 * asset adds to what leaves). A change is `delta`, or `−delta` when `subtract` (so no negated
 * value is made; a trade's deltas are its amounts as read, tradeAmounts()). The reconciliation
 * engine's intake writes the trade case out (a call per movement cost a build of 300,000 of them
 * measurably); test/ledger/reconcile.test.ts holds that copy to this statement.
 */
export function eachBalanceChange(
  entry: LedgerEntry,
  change: (account: string, asset: string, delta: Amount, subtract: boolean) => void,
): void {
  switch (entry.kind) {
    case 'trade': {
      const { qty, quoteQty, commission } = tradeAmounts(entry);
      const buy = entry.side === 'BUY';
      change(entry.account, entry.base, qty, !buy);
      change(entry.account, entry.quote, quoteQty, buy);
      if (!commission.isZero()) change(entry.account, entry.commissionAsset, commission, true);
      return;
    }
    case 'withdrawal': {
      if (!withdrawalDebits(entry.status)) return;
      const owner = () => `withdrawal ${entry.id}`;
      const total = amount(entry.amount, owner, 'amount').plus(amount(entry.fee, owner, 'fee'));
      change(entry.account, entry.asset, total, true);
      return;
    }
    case 'transfer': {
      const moved = amount(entry.amount, () => `transfer ${entry.id}`, 'amount');
      change(entry.fromAccount, entry.asset, moved, true);
      change(entry.toAccount, entry.asset, moved, false);
      return;
    }
    case 'inferred':
      change(
        entry.account,
        entry.asset,
        amount(entry.amount, () => `inferred entry ${entry.id}`, 'amount'),
        false,
      );
  }
}

/** eachBalanceChange() as a list of amounts, for a screen that reads one entry's changes. */
export function balanceChanges(entry: LedgerEntry): BalanceChange[] {
  const changes: BalanceChange[] = [];
  eachBalanceChange(entry, (account, asset, delta, subtract) => {
    changes.push({ account, asset, delta: subtract && !delta.isZero() ? delta.negated() : delta });
  });
  return changes;
}

/** Balances per account and asset, and summed over accounts. */
export interface Holdings {
  byAccount: Map<string, Map<string, Amount>>;
  total: Map<string, Amount>;
}

function addTo(map: Map<string, Amount>, asset: string, delta: Amount): void {
  map.set(asset, (map.get(asset) ?? ZERO).plus(delta));
}

/**
 * Holdings of every asset at `time` (entries at or before it count), replayed from the entries
 * alone; without a time, after every entry. Assets that come back to zero stay listed at 0.
 */
export function holdingsAt(entries: readonly LedgerEntry[], time = Infinity): Holdings {
  const byAccount = new Map<string, Map<string, Amount>>();
  const total = new Map<string, Amount>();
  for (const entry of entries) {
    if (entry.time > time) continue;
    for (const change of balanceChanges(entry)) {
      let account = byAccount.get(change.account);
      if (!account) byAccount.set(change.account, (account = new Map()));
      addTo(account, change.asset, change.delta);
      addTo(total, change.asset, change.delta);
    }
  }
  return { byAccount, total };
}

/** A known movement an inferred credit came before, keyed by the credit's id. */
export type MovementsNeeding = ReadonlyMap<string, InferredBound>;

/**
 * The movement each inferred credit was placed before: reconcile.ts places a credit that a known
 * movement needed (the replay would go below zero) at that movement, so the credit happened before
 * it, not up to the observation that closes its interval. A credit so placed shares its time,
 * account and asset with the first movement there that takes the asset away.
 */
export function movementsNeeding(entries: readonly LedgerEntry[]): MovementsNeeding {
  const takers = new Map<string, InferredBound>();
  for (const entry of entries) {
    if (entry.kind === 'inferred') continue;
    eachBalanceChange(entry, (account, asset, _delta, subtract) => {
      const key = `${account}\u0000${asset}\u0000${entry.time}`;
      if (subtract && !takers.has(key)) takers.set(key, { kind: entry.kind, time: entry.time });
    });
  }
  const needing = new Map<string, InferredBound>();
  for (const entry of entries) {
    if (entry.kind !== 'inferred' || entry.amount.startsWith('-')) continue;
    const taker = takers.get(`${entry.account}\u0000${entry.asset}\u0000${entry.time}`);
    if (taker) needing.set(entry.id, taker);
  }
  return needing;
}
