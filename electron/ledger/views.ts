/**
 * What the screens are shown of a built ledger (shared/ledger.ts views, exact decimal text in the
 * reporting currency): the P&L summary, net worth, one asset's page, the value history, inferred
 * entries, and the report files.
 */
import { formatDecimal } from '../core/decimal';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  AnnotationReviewView,
  AccountWorthView,
  AssetLedgerView,
  AssetPnlView,
  CostMethodName,
  InferredEntryView,
  LedgerComputingView,
  LedgerEntryView,
  LedgerHistoryView,
  LedgerScopeView,
  LedgerSummaryView,
  NetWorthView,
  RangePnlView,
  ReportFileView,
  TaxSummaryView,
  TaxTermView,
  TradeImportView,
} from '../../shared/ledger';
import { COST_METHOD_LABELS, MAIN_ACCOUNT } from '../../shared/ledger';
import { formatStated, groupThousands } from '../../shared/format';
import {
  assetKey,
  KLINE_INTERVAL_MS,
  KLINE_INTERVALS,
  type KlineInterval,
} from '../../shared/market';
import type { Store } from '../store';
import { Decimal, divide } from '../../shared/exact-decimal';
import { reviewsByEntry, reviewView } from './annotations';
import { ZERO, type Amount } from './decimal';
import {
  balanceChanges,
  eachBalanceChange,
  movementsNeeding,
  withdrawalDebits,
  type InferredEntry,
  type LedgerEntry,
  type MovementsNeeding,
} from './entries';
import { toCsv } from '../export/csv';
import { storePort } from '../sync/store-port';
import {
  KOINLY_HEADER,
  koinlyCells,
  taxReport,
  taxReportCsv,
  taxTermsCsv,
  taxYear,
  type TermTotals,
} from './reports';
import { keptCloses, LEDGER_INTERVAL, MarketPrices, tickersOf } from './prices';
import type { PriceAt } from './cost-basis';
import type { PriceTicker } from '../pricing/price-book';
import {
  ledgerFigures,
  pnlForRange,
  type AssetFigures,
  type LedgerFigures,
  type RangePnl,
} from './results';
import type { BuiltLedger } from './service';

const HISTORY_POINTS = 240;
const ASSET_ENTRIES_SHOWN = 1000;

const text = formatDecimal;

function figuresAt(built: BuiltLedger, at: number, account?: string): LedgerFigures {
  return ledgerFigures(built.ledger, {
    at,
    priceAt: built.prices.priceAt,
    unpriced: 'leave-out',
    ...(account !== undefined ? { account } : {}),
  });
}

function change24h(built: BuiltLedger, asset: string): string | null {
  const currency = built.ledger.reportingAsset;
  if (asset === currency) return null;
  const last = built.prices.current(asset, currency);
  const open = built.prices.open(asset, currency);
  if (!last || !open || open.isZero()) return null;
  return formatDecimal(divide(last.minus(open).times(100), open, 4));
}

/** Whether an entry moves a balance of `account` (every entry when it names none). */
function inScope(entry: LedgerEntry, account: string | undefined): boolean {
  return (
    account === undefined ||
    (entry.kind === 'transfer'
      ? entry.fromAccount === account || entry.toAccount === account
      : entry.account === account)
  );
}

/** A row of the figures of `account` (every account when it names none). */
function assetView(built: BuiltLedger, row: AssetFigures, account?: string): AssetPnlView {
  return {
    asset: row.asset,
    quantity: text(row.quantity),
    averageCost: row.averageCost ? text(row.averageCost) : null,
    costBasis: text(row.costBasis),
    price: row.price ? text(row.price) : null,
    change24h: change24h(built, row.asset),
    value: text(row.value),
    realizedPnl: text(row.realizedPnl),
    unrealizedPnl: text(row.unrealizedPnl),
    feesPaid: text(row.feesPaid),
    basisEstimated: row.basisEstimated,
    inferredEntries: built.inferred.filter(
      (entry) => entry.asset === row.asset && inScope(entry, account),
    ).length,
  };
}

function accountName(account: string): string {
  return account === MAIN_ACCOUNT ? 'Main account' : account;
}

function plural(count: number, one: string, many = `${one}s`): string {
  // Not toLocaleString: its first call in a process loads ICU's locale data (~30 ms).
  return `${groupThousands(String(count))} ${count === 1 ? one : many}`;
}

/**
 * The accounts a scope covers, in words: "Every account together (main account and 2
 * sub-accounts)", or "Main account only, not the 2 sub-accounts" for one account of several.
 */
export function coversText(built: BuiltLedger, account: string | null): string {
  const subs = built.inputs.subAccounts.length;
  if (account === null) {
    return subs === 0
      ? 'Main account (no sub-accounts)'
      : `Every account together (main account and ${plural(subs, 'sub-account')})`;
  }
  if (account === MAIN_ACCOUNT) {
    return subs === 0
      ? 'Main account'
      : `Main account only, not the ${plural(subs, 'sub-account')}`;
  }
  const others = built.inputs.subAccounts.filter((sub) => sub !== account).length;
  const also = others > 0 ? ` nor the ${plural(others, 'other sub-account')}` : '';
  return `${account} only, not the main account${also}`;
}

/** What a total includes, in words. */
export function includesText(built: BuiltLedger, account: string | null): string {
  const subs = built.inputs.subAccounts.length;
  const accounts =
    account !== null
      ? accountName(account)
      : subs === 0
        ? 'Main account'
        : `Main account and ${plural(subs, 'sub-account')}`;
  const inAccount = (entry: LedgerEntry) => inScope(entry, account ?? undefined);
  const trades = built.inputs.trades.filter(inAccount).length;
  const withdrawals = built.inputs.others.filter(
    (e) => e.kind === 'withdrawal' && withdrawalDebits(e.status) && inAccount(e),
  ).length;
  const transfers = built.inputs.others.filter((e) => e.kind === 'transfer' && inAccount(e)).length;
  const inferred = built.inferred.filter(inAccount);
  const unlabelled = inferred.filter((entry) => !entry.label).length;
  const parts = [
    plural(trades, 'trade'),
    plural(withdrawals, 'withdrawal'),
    plural(transfers, 'transfer'),
    `${plural(inferred.length, 'inferred entry', 'inferred entries')}${unlabelled > 0 ? ` (${unlabelled} unlabelled)` : ''}`,
  ];
  return `${accounts}: ${parts.join(', ')}; cost by ${built.choice.method === 'average' ? 'average cost' : COST_METHOD_LABELS[built.choice.method]}, in ${built.ledger.reportingAsset.toUpperCase()}`;
}

/** A range's figures as the screens are given them. */
export function rangePnlView(pnl: RangePnl): RangePnlView {
  return {
    from: pnl.from,
    to: pnl.to,
    realizedPnl: text(pnl.realizedPnl),
    feesPaid: text(pnl.feesPaid),
    unrealizedChange: text(pnl.unrealizedChange),
    pnl: text(pnl.pnl),
  };
}

export function summaryView(
  built: BuiltLedger,
  input: {
    at: number;
    account?: string;
    range?: { from: number; to: number };
    importProgress: Omit<TradeImportView, 'storedTrades'> | null;
    /** Markets whose past candles are not kept yet (service.ts candlesLacking). */
    pricesLacking?: string[];
    /** How far the fetch of entries' prices has come, while it runs. */
    pricesProgress?: { done: number; total: number } | null;
  },
): LedgerSummaryView {
  const figures = figuresAt(built, input.at, input.account);
  const account = input.account ?? null;
  const inferred = built.inferred.filter((entry) => account === null || entry.account === account);
  const reviews = built.annotations.filter(
    (item) => item.status !== 'kept' && (account === null || item.account === account),
  );
  let range: LedgerSummaryView['range'] = null;
  if (input.range) {
    const pnl = pnlForRange(built.entries, built.ledger.options, {
      ...input.range,
      ...(input.account !== undefined ? { account: input.account } : {}),
    });
    range = rangePnlView(pnl);
  }
  return {
    currency: built.ledger.reportingAsset,
    method: built.choice.method,
    account,
    subAccounts: [...built.inputs.subAccounts],
    unseenTrades: unseenIn(built, account),
    at: input.at,
    totals: {
      value: text(figures.total.value),
      costBasis: text(figures.total.costBasis),
      realizedPnl: text(figures.total.realizedPnl),
      unrealizedPnl: text(figures.total.unrealizedPnl),
      feesPaid: text(figures.total.feesPaid),
    },
    range,
    assets: figures.assets.map((row) => assetView(built, row, input.account)),
    includes: includesText(built, account),
    inferred: {
      count: inferred.length,
      unlabelled: inferred.filter((entry) => !entry.label).length,
      estimatedBasis: inferred.filter((entry) => !entry.amount.startsWith('-') && !entry.costBasis)
        .length,
      review: reviews.length,
      reviewAssets: [...new Set(reviews.map((item) => item.asset))].sort(),
    },
    unpriced: figures.unpriced,
    import: {
      state: 'idle',
      symbolsDone: 0,
      symbolsTotal: 0,
      pages: 0,
      trades: 0,
      complete: false,
      ...input.importProgress,
      storedTrades: built.inputs.trades.length,
    },
    computing: computingView(
      input.importProgress,
      input.pricesLacking ?? [],
      input.pricesProgress ?? null,
    ),
  };
}

function computingView(
  importProgress: Omit<TradeImportView, 'storedTrades'> | null,
  pricesLacking: string[],
  progress: { done: number; total: number } | null,
): LedgerComputingView | null {
  const trades = importProgress !== null && !importProgress.complete;
  if (!trades && pricesLacking.length === 0) return null;
  return {
    trades,
    prices: [...pricesLacking].sort(),
    progress: pricesLacking.length > 0 ? progress : null,
  };
}

/** The value of each account the scope covers (every account when it names none), and their sum. */
export function netWorthView(built: BuiltLedger, at: number, account?: string): NetWorthView {
  const accounts = account === undefined ? [MAIN_ACCOUNT, ...built.inputs.subAccounts] : [account];
  let total = ZERO;
  const views: AccountWorthView[] = accounts.map((account) => {
    const figures = figuresAt(built, at, account);
    total = total.plus(figures.total.value);
    return {
      account,
      name: accountName(account),
      value: text(figures.total.value),
      assets: figures.assets
        .filter((row) => !row.quantity.isZero())
        .map((row) => ({
          asset: row.asset,
          quantity: text(row.quantity),
          value: row.price ? text(row.value) : null,
        })),
      unpriced: figures.unpriced,
    };
  });
  return {
    currency: built.ledger.reportingAsset,
    at,
    ...scopeView(built, account),
    total: text(total),
    accounts: views,
    includes: includesText(built, account ?? null),
  };
}

function scopeView(built: BuiltLedger, account: string | undefined): LedgerScopeView {
  return {
    account: account ?? null,
    subAccounts: [...built.inputs.subAccounts],
    covers: coversText(built, account ?? null),
    unseenTrades: unseenIn(built, account ?? null),
  };
}

/** The sub-accounts of the scope whose trades are not read (no key of their own linked). */
function unseenIn(built: BuiltLedger, account: string | null): string[] {
  return built.inputs.unseenSubAccounts.filter((sub) => account === null || sub === account);
}

/**
 * An entry as the asset's page lists it: its change of the asset's balance within the scope of
 * `account` (every account when it names none), so a transfer between two accounts covered nets
 * to nothing.
 */
function entryView(
  entry: LedgerEntry,
  asset: string,
  account: string | undefined,
  needing: MovementsNeeding,
  reviews: ReadonlyMap<string, AnnotationReviewView>,
): LedgerEntryView[] {
  let delta = ZERO as Amount;
  for (const change of balanceChanges(entry)) {
    if (change.asset === asset && (account === undefined || change.account === account)) {
      delta = delta.plus(change.delta);
    }
  }
  const base = { id: entry.id, time: entry.time, amount: text(delta) };
  switch (entry.kind) {
    case 'trade': {
      const side = entry.side === 'BUY' ? 'Buy' : 'Sell';
      return [
        {
          ...base,
          kind: 'trade',
          account: entry.account,
          description: `${side} ${formatStated(entry.qty)} ${entry.base.toUpperCase()} at ${formatStated(entry.price)} ${entry.quote.toUpperCase()} (fee ${formatStated(entry.commission)} ${entry.commissionAsset.toUpperCase()}), trade #${entry.id}`,
        },
      ];
    }
    case 'withdrawal':
      return [
        {
          ...base,
          kind: 'withdrawal',
          account: entry.account,
          description: `Withdrawal of ${formatStated(entry.amount)} (fee ${formatStated(entry.fee)}), ${entry.status}`,
        },
      ];
    case 'transfer':
      return [
        {
          ...base,
          kind: 'transfer',
          account: entry.fromAccount,
          description: `Transfer of ${formatStated(entry.amount)} ${asset.toUpperCase()} from ${accountName(entry.fromAccount)} to ${accountName(entry.toAccount)}`,
        },
      ];
    case 'inferred':
      return [inferredView(entry, needing, reviews.get(entry.id) ?? null)];
  }
}

export function inferredView(
  entry: InferredEntry,
  needing: MovementsNeeding,
  review: AnnotationReviewView | null = null,
): InferredEntryView {
  const credit = !entry.amount.startsWith('-');
  return {
    kind: 'inferred',
    id: entry.id,
    time: entry.time,
    account: entry.account,
    asset: entry.asset,
    description: `Inferred ${credit ? 'deposit or other credit' : 'debit'}${entry.label ? `: ${entry.label}` : ''}`,
    amount: entry.amount,
    inferred: {
      from: entry.from,
      to: entry.to,
      before: needing.get(entry.id) ?? null,
      credit,
      label: entry.label ?? null,
      costBasis: entry.costBasis ?? null,
      review,
    },
  };
}

function touches(entry: LedgerEntry, asset: string): boolean {
  if (entry.kind === 'trade') {
    return entry.base === asset || entry.quote === asset || entry.commissionAsset === asset;
  }
  return entry.asset === asset;
}

/** Sample times from `from` to `to`, `to` last. */
function sampleTimes(from: number, to: number, points: number): number[] {
  if (to <= from) return [to];
  const step = Math.max(1, Math.floor((to - from) / (points - 1)));
  const times: number[] = [];
  for (let time = from; time < to; time += step) times.push(time);
  times.push(to);
  return times;
}

/**
 * One asset's page for the accounts of a scope (every account when `account` names none): its
 * figures, open lots, entries, labels to review and holdings over time all cover those accounts.
 */
export function assetPageView(
  built: BuiltLedger,
  assetName: string,
  at: number,
  account?: string,
): AssetLedgerView {
  const asset = assetKey(assetName);
  const figures = figuresAt(built, at, account);
  const row = figures.assets.find((candidate) => candidate.asset === asset) ?? {
    asset,
    quantity: ZERO,
    averageCost: null,
    costBasis: ZERO,
    price: null,
    value: ZERO,
    realizedPnl: ZERO,
    unrealizedPnl: ZERO,
    feesPaid: ZERO,
    basisEstimated: false,
  };
  const related = built.entries.filter((entry) => touches(entry, asset) && inScope(entry, account));
  const needing = movementsNeeding(related);
  const reviewed = reviewsByEntry(built.annotations);
  const entries = related
    .slice(-ASSET_ENTRIES_SHOWN)
    .reverse()
    .flatMap((entry) => entryView(entry, asset, account, needing, reviewed));
  // Quantity over time, replayed from the entries, valued at the prices of the time.
  const history: AssetLedgerView['history'] = [];
  const first = related[0]?.time;
  if (first !== undefined) {
    let next = 0;
    let quantity = ZERO as Amount;
    for (const time of sampleTimes(first, at, HISTORY_POINTS)) {
      while (next < related.length && related[next]!.time <= time) {
        for (const change of balanceChanges(related[next]!)) {
          if (change.asset === asset && (account === undefined || change.account === account)) {
            quantity = quantity.plus(change.delta);
          }
        }
        next++;
      }
      const price = built.prices.priceAt(asset, built.ledger.reportingAsset, time);
      history.push({
        time,
        quantity: text(quantity),
        value: price ? text(quantity.times(new Decimal(price))) : null,
      });
    }
  }
  return {
    currency: built.ledger.reportingAsset,
    method: built.choice.method,
    asset,
    ...scopeView(built, account),
    figures: assetView(built, row, account),
    lots: built.ledger
      .lots({ asset, ...(account !== undefined ? { account } : {}) })
      .map((lot) => ({
        account: lot.account,
        quantity: text(lot.quantity),
        cost: text(lot.cost),
        acquiredAt: lot.acquiredAt,
        basis: lot.basis,
      })),
    entries,
    reviews: built.annotations
      .filter((item) => item.asset === asset && (account === undefined || item.account === account))
      .flatMap((item) => reviewView(item) ?? []),
    history,
  };
}

/** The span of finished candles kept for a market (the prices of the time); null when none. */
export type CloseCoverage = (symbol: string) => { from: number; to: number } | null;

/** What the store keeps of each market's candles of an interval (the ledger's by default). */
export function closeCoverage(
  store: Store,
  profileId: string,
  interval: KlineInterval = LEDGER_INTERVAL,
): CloseCoverage {
  const port = storePort(store);
  // An empty time range: only the covered span is wanted, not the closes.
  return (symbol) => port.klineCloses(profileId, { symbol, interval }, 1, 0).covered;
}

/**
 * The candles a stretch of the value history is valued at, when finer than the ledger's 12-hour
 * ones: the longest interval no longer than the time between two of its points, so no two points
 * share a candle's close where the market moved between them (a day at 5-minute candles, a week
 * at 30-minute, a month at 2-hour; a year and a long "all" at the ledger's own, a short "all" at
 * whatever its span needs).
 */
export function historyInterval(start: number, at: number): KlineInterval | null {
  const between = (at - start) / (HISTORY_POINTS - 1);
  const ledgerMs = KLINE_INTERVAL_MS[LEDGER_INTERVAL];
  let chosen: KlineInterval = '1m';
  for (const interval of KLINE_INTERVALS) {
    const length = KLINE_INTERVAL_MS[interval];
    if (length <= between && length < ledgerMs) chosen = interval;
  }
  return between >= ledgerMs ? null : chosen;
}

/** The kept candles of one interval, read only for the markets a history needs. */
export interface KeptCandles {
  interval: KlineInterval;
  closes(symbols: readonly string[]): Map<string, { openTime: number; close: string }[]>;
  coverage: CloseCoverage;
  /** Today's tickers: the book the price paths are found in. */
  tickers: readonly PriceTicker[];
}

export function keptCandles(
  store: Store,
  profileId: string,
  interval: KlineInterval,
  currency: string,
): KeptCandles {
  return {
    interval,
    closes: (symbols) => keptCloses(store, profileId, symbols, interval),
    coverage: closeCoverage(store, profileId, interval),
    tickers: tickersOf(store, profileId, [currency]),
  };
}

export interface HistoryInput {
  from: number;
  at: number;
  /** The account drawn; every account together when left out. */
  account?: string;
  /** The own-trade import's progress; null or left out when nothing is known of it. */
  importProgress?: Omit<TradeImportView, 'storedTrades'> | null;
  /** Which markets' ledger candles are kept; left out, every market counts as kept. */
  coverage?: CloseCoverage;
  /** Finer candles for the range: used when kept for every market it needs from its start. */
  finer?: KeptCandles;
  /**
   * The first point's time when several ledgers are drawn at the same times (every profile
   * together): the earliest of their starts. Left out, the later of `from` and the first entry.
   */
  start?: number;
}

/** Prices within this span of now are today's, as the ledger's own (service.ts). */
const PRESENT_MS = 60_000;

/** Where a ledger's value history over [from, at] starts: not before its first entry. */
export function historyStart(built: BuiltLedger, from: number, at: number): number {
  return Math.min(at, Math.max(from, built.entries[0]?.time ?? at));
}

/**
 * The value of the account's holdings over [from, at], replayed from the ledger and valued at the
 * prices of the time (the closes of the finer candles when kept, else the ledger's); the last point
 * is `at` at today's prices, so it equals the summary's total. The range starts no earlier than
 * the first entry: before it the ledger assumes nothing was held, no measurement worth drawing.
 */
export function historyView(built: BuiltLedger, input: HistoryInput): LedgerHistoryView {
  const { at, account } = input;
  const currency = built.ledger.reportingAsset;
  const mine = (entryAccount: string) => account === undefined || entryAccount === account;
  const entries = built.entries;
  // The history walks every entry up to now: one sum made per change, no negated copy.
  const held = new Map<string, Amount>();
  const apply = (entryAccount: string, asset: string, delta: Amount, subtract: boolean) => {
    if (!mine(entryAccount)) return;
    const before = held.get(asset) ?? ZERO;
    held.set(asset, subtract ? before.minus(delta) : before.plus(delta));
  };
  // When each asset is first held at a time whose price is a candle's close (not today's).
  const firstHeld = new Map<string, number>();
  const candlesUntil = at - KLINE_INTERVAL_MS[LEDGER_INTERVAL];
  const inRange = new Set<string>();
  const inferred = built.inferred.filter((entry) => mine(entry.account));
  const resting = new Set<InferredEntry>();
  let next = 0;
  const samples: { time: number; held: [string, Amount][]; onInferred: boolean }[] = [];
  const start = input.start ?? historyStart(built, input.from, at);
  for (const time of sampleTimes(start, at, HISTORY_POINTS)) {
    while (next < entries.length && entries[next]!.time <= time) {
      eachBalanceChange(entries[next]!, apply);
      next++;
    }
    const holding: [string, Amount][] = [];
    for (const [asset, quantity] of held) {
      if (!quantity.isZero()) holding.push([asset, quantity]);
    }
    for (const [asset] of holding) {
      if (time < candlesUntil && !firstHeld.has(asset)) firstHeld.set(asset, time);
      if (time < at) inRange.add(asset);
    }
    // Before where an inferred entry is placed, within its interval, the value depends on when
    // in the interval the movement really happened.
    let onInferred = false;
    for (const entry of inferred) {
      if (entry.from < time && time < entry.time) {
        resting.add(entry);
        onInferred = true;
      }
    }
    samples.push({ time, held: holding, onInferred });
  }

  const finer = finerPrices(built, input.finer, inRange, start, at);
  const priceAt = finer?.priceAt ?? built.prices.priceAt;
  const points: LedgerHistoryView['points'] = samples.map((sample) => {
    let value = ZERO as Amount;
    for (const [asset, quantity] of sample.held) {
      const price = priceAt(asset, currency, sample.time);
      if (price) value = value.plus(quantity.times(new Decimal(price)));
    }
    return {
      time: sample.time,
      value: text(value.toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN)),
      onInferred: sample.onInferred,
    };
  });
  // The last point is the total now, exactly as the summary states it.
  const total = figuresAt(built, at, account).total.value;
  if (points.length > 0) points[points.length - 1]!.value = text(total);

  return {
    currency,
    account: account ?? null,
    interval: finer && !finer.partial ? finer.interval : LEDGER_INTERVAL,
    points,
    inferred: restingOn(resting, start, at),
    pending: {
      import:
        input.importProgress && !input.importProgress.complete
          ? { ...input.importProgress, storedTrades: built.inputs.trades.length }
          : null,
      prices: finer && !finer.partial ? [] : missingCandles(built, firstHeld, input.coverage),
      finer: finer?.stale ?? [],
    },
  };
}

/**
 * Prices of the finer candles for the assets held in the range: used when every market they need
 * is kept from the range's start (`partial` otherwise: the ledger's candles serve meanwhile).
 * `stale` names the markets to fetch: not kept far enough back, or not up to the last candle.
 */
function finerPrices(
  built: BuiltLedger,
  kept: KeptCandles | undefined,
  assets: ReadonlySet<string>,
  start: number,
  at: number,
): { interval: KlineInterval; priceAt: PriceAt | null; partial: boolean; stale: string[] } | null {
  if (!kept) return null;
  const intervalMs = KLINE_INTERVAL_MS[kept.interval];
  const symbols = built.prices.pathSymbols(assets, built.ledger.reportingAsset);
  const lastFinished = Math.floor(at / intervalMs) * intervalMs - intervalMs;
  const stale: string[] = [];
  let partial = false;
  for (const symbol of symbols) {
    const covered = kept.coverage(symbol);
    if (!covered || covered.from > start - intervalMs) partial = true;
    if (!covered || covered.from > start - intervalMs || covered.to < lastFinished) {
      stale.push(symbol);
    }
  }
  if (partial) return { interval: kept.interval, priceAt: null, partial, stale };
  const prices = new MarketPrices(kept.tickers, kept.closes(symbols), at - PRESENT_MS, intervalMs);
  return { interval: kept.interval, priceAt: prices.priceAt, partial, stale };
}

/** The part of [start, at] whose drawn points depend on where inferred entries are placed. */
function restingOn(
  resting: ReadonlySet<InferredEntry>,
  start: number,
  at: number,
): LedgerHistoryView['inferred'] {
  if (resting.size === 0) return null;
  const entries = [...resting];
  return {
    from: Math.max(start, Math.min(...entries.map((entry) => entry.from))),
    to: Math.min(at, Math.max(...entries.map((entry) => entry.time))),
    entries: entries.length,
    unlabelled: entries.filter((entry) => !entry.label).length,
    assets: [...new Set(entries.map((entry) => entry.asset))].sort(),
  };
}

/** Markets on the price path of an asset held in the past whose candles do not reach back. */
function missingCandles(
  built: BuiltLedger,
  firstHeld: ReadonlyMap<string, number>,
  coverage: CloseCoverage | undefined,
): string[] {
  if (!coverage) return [];
  const missing = new Set<string>();
  for (const [asset, time] of firstHeld) {
    for (const symbol of built.prices.pathSymbols([asset], built.ledger.reportingAsset)) {
      const covered = coverage(symbol);
      if (!covered || covered.from > time) missing.add(symbol);
    }
  }
  return [...missing].sort();
}

// ---- Reports --------------------------------------------------------------------------------

function termView(totals: TermTotals): TaxTermView {
  return {
    rows: totals.rows,
    proceeds: text(totals.proceeds),
    costBasis: text(totals.costBasis),
    gain: text(totals.gain),
  };
}

/** The folder reports are written to: `exports` in the app's data folder. */
export function exportsFolder(store: Store): string {
  return join(store.paths.dataDir, 'exports');
}

function writeReport(store: Store, fileName: string, content: string): string {
  const folder = exportsFolder(store);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, fileName);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

export function writeTaxReport(
  store: Store,
  built: BuiltLedger,
  input: { year: number; longTermAfterDays: number },
): ReportFileView {
  const report = taxReport(built.ledger, {
    ...taxYear(input.year),
    longTermAfterDays: input.longTermAfterDays,
  });
  const currency = built.ledger.reportingAsset;
  const fileName = `spotfolio-tax-${input.year}-${built.choice.method}-${currency}.csv`;
  const path = writeReport(store, fileName, taxReportCsv(report));
  // The split by term goes beside it, so the report's own header stays as tools read it.
  const termsFileName = fileName.replace(/\.csv$/, '-terms.csv');
  const termsPath = writeReport(store, termsFileName, taxTermsCsv(report));
  const summary: TaxSummaryView = {
    year: input.year,
    method: built.choice.method as CostMethodName,
    currency,
    longTermAfterDays: input.longTermAfterDays,
    total: termView(report.summary.total),
    shortTerm: termView(report.summary.shortTerm),
    longTerm: termView(report.summary.longTerm),
    feesPaid: text(report.summary.feesPaid),
    estimatedRows: report.summary.estimatedRows,
    missingBasisRows: report.summary.missingBasisRows,
  };
  return {
    path,
    folder: exportsFolder(store),
    fileName,
    rows: report.rows.length,
    summary,
    terms: { path: termsPath, fileName: termsFileName },
  };
}

export function writeKoinlyExport(store: Store, built: BuiltLedger, at: number): ReportFileView {
  const day = new Date(at).toISOString().slice(0, 10);
  const fileName = `spotfolio-koinly-${day}.csv`;
  const cells = koinlyCells(built.entries, built.ledger);
  const path = writeReport(store, fileName, toCsv([...KOINLY_HEADER], cells, ','));
  return {
    path,
    folder: exportsFolder(store),
    fileName,
    rows: cells.length,
    summary: null,
    terms: null,
  };
}
