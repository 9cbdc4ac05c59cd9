/**
 * Figures for screens, in the reporting asset: per asset and in total, for all accounts or one,
 * and profit and loss over a range.
 */
import { divide } from '../../shared/exact-decimal';
import { SPLIT_PLACES, ZERO, type Amount } from './decimal';
import { Ledger, reportingPrice, type LedgerOptions, type PriceAt } from './cost-basis';
import { sortEntries, type LedgerEntry } from './entries';

export interface AssetFigures {
  asset: string;
  quantity: Amount;
  /** Cost basis per unit; null with nothing held. */
  averageCost: Amount | null;
  costBasis: Amount;
  /** Price per unit at the time asked; null with nothing held (no price needed). */
  price: Amount | null;
  value: Amount;
  realizedPnl: Amount;
  unrealizedPnl: Amount;
  /** Fees counted for this asset, valued when paid (already inside cost and proceeds for trades). */
  feesPaid: Amount;
  /** True when some of the basis still held is an estimate or missing. */
  basisEstimated: boolean;
}

export interface LedgerTotals {
  value: Amount;
  costBasis: Amount;
  realizedPnl: Amount;
  unrealizedPnl: Amount;
  feesPaid: Amount;
  /** Basis that came in (inferred credits) minus basis that left (withdrawals, inferred debits). */
  netFlowsAtCost: Amount;
  /** Basis of the units paid as withdrawal fees: a cost outside realized P&L. */
  withdrawalFeeCost: Amount;
}

export interface LedgerFigures {
  currency: string;
  at: number;
  account: string | null;
  assets: AssetFigures[];
  total: LedgerTotals;
  /** Assets held with no price (only with unpriced: 'leave-out'): value 0, no unrealized P&L. */
  unpriced: string[];
}

export interface FiguresQuery {
  /** Prices are read at this time (now, for current figures). */
  at: number;
  priceAt: PriceAt;
  /** One account only; all accounts summed when absent. */
  account?: string;
  /** An asset held without a price: MissingPriceError ('throw', the default), or left out. */
  unpriced?: 'throw' | 'leave-out';
  /**
   * Assets left out at any time whatever `unpriced` says: those no market prices in the currency
   * now (the summary's unpriced), so a range leaves them out at its start as at its end, while
   * another asset's missing price of the time still fails.
   */
  leftOut?: ReadonlySet<string>;
}

/** Quantity, cost, value and P&L of every asset the ledger has seen, and their totals. */
export function ledgerFigures(ledger: Ledger, query: FiguresQuery): LedgerFigures {
  const currency = ledger.reportingAsset;
  // The ledger keeps each position's realized gains and each account's fees as it goes, so this
  // reads positions, not every disposal and fee.
  const byAsset = new Map<string, { quantity: Amount; cost: Amount; estimated: boolean }>();
  const realized = new Map<string, Amount>();
  for (const position of ledger.positions.values()) {
    if (query.account !== undefined && position.account !== query.account) continue;
    const holds = !position.quantity.isZero();
    const held = byAsset.get(position.asset);
    if (held) {
      held.quantity = held.quantity.plus(position.quantity);
      held.cost = held.cost.plus(position.cost);
      if (!held.estimated && holds) held.estimated = position.basisEstimated();
    } else {
      const { quantity, cost } = position;
      byAsset.set(position.asset, {
        quantity,
        cost,
        estimated: holds && position.basisEstimated(),
      });
    }
    addTo(realized, position.asset, position.realized);
  }
  const fees = new Map<string, Amount>();
  for (const [account, values] of ledger.feeValues) {
    if (query.account !== undefined && account !== query.account) continue;
    for (const [asset, value] of values) addTo(fees, asset, value);
  }
  const assets = new Set([...byAsset.keys(), ...realized.keys(), ...fees.keys()]);
  const unpriced: string[] = [];
  const priceOf = (asset: string): Amount | null => {
    if (query.leftOut?.has(asset)) {
      unpriced.push(asset);
      return null;
    }
    if (query.unpriced === 'leave-out' && asset !== currency) {
      const known = query.priceAt(asset, currency, query.at);
      if (known === null || known === undefined) {
        unpriced.push(asset);
        return null;
      }
    }
    return reportingPrice(query.priceAt, currency, asset, query.at, 'the value of holdings');
  };
  const rows: AssetFigures[] = [...assets].sort().map((asset) => {
    const held = byAsset.get(asset) ?? { quantity: ZERO, cost: ZERO, estimated: false };
    const { quantity, cost } = held;
    const price = quantity.isZero() ? null : priceOf(asset);
    const value = price ? quantity.times(price) : ZERO;
    return {
      asset,
      quantity,
      averageCost: quantity.isZero() ? null : divide(cost, quantity, SPLIT_PLACES),
      costBasis: cost,
      price,
      value,
      realizedPnl: realized.get(asset) ?? ZERO,
      unrealizedPnl: price || quantity.isZero() ? value.minus(cost) : ZERO,
      feesPaid: fees.get(asset) ?? ZERO,
      basisEstimated: held.estimated,
    };
  });
  let netFlowsAtCost = ZERO;
  let withdrawalFeeCost = ZERO;
  for (const flow of ledger.flows) {
    if (query.account !== undefined && flow.account !== query.account) continue;
    if (flow.kind === 'withdrawal-fee') withdrawalFeeCost = withdrawalFeeCost.minus(flow.cost);
    else netFlowsAtCost = netFlowsAtCost.plus(flow.cost);
  }
  const total: LedgerTotals = {
    value: sum(rows, (row) => row.value),
    costBasis: sum(rows, (row) => row.costBasis),
    realizedPnl: sum(rows, (row) => row.realizedPnl),
    unrealizedPnl: sum(rows, (row) => row.unrealizedPnl),
    feesPaid: sum(rows, (row) => row.feesPaid),
    netFlowsAtCost,
    withdrawalFeeCost,
  };
  return {
    currency,
    at: query.at,
    account: query.account ?? null,
    assets: rows,
    total,
    unpriced,
  };
}

/** `map[key] + value`, the first value kept as it is. */
function addTo(map: Map<string, Amount>, key: string, value: Amount): void {
  const before = map.get(key);
  map.set(key, before === undefined ? value : before.plus(value));
}

function sum<T>(items: readonly T[], pick: (item: T) => Amount): Amount {
  let total = ZERO;
  for (const item of items) total = total.plus(pick(item));
  return total;
}

/**
 * The figures of an interval (from, to]: what its entries did, so the figures of two adjacent
 * intervals add up to those of their union, exactly.
 */
export interface RangePnl {
  currency: string;
  from: number;
  to: number;
  /** Gains and losses of disposals within (from, to]. */
  realizedPnl: Amount;
  /** Fees paid within (from, to], valued when paid. */
  feesPaid: Amount;
  unrealizedAtFrom: Amount;
  unrealizedAtTo: Amount;
  /** unrealizedAtTo − unrealizedAtFrom. */
  unrealizedChange: Amount;
  /** realized within + change in unrealized. */
  pnl: Amount;
  assets: {
    asset: string;
    realizedPnl: Amount;
    feesPaid: Amount;
    unrealizedChange: Amount;
    pnl: Amount;
  }[];
}

/**
 * P&L over (from, to]: the gains realized within it plus the change in unrealized P&L between
 * its ends (positions as of each end, priced at each end's time). Entries at `from` belong to the
 * interval before (they made the positions at `from`); entries at `to` count inside.
 */
export function pnlForRange(
  entries: readonly LedgerEntry[],
  options: LedgerOptions,
  range: { from: number; to: number; account?: string; leftOut?: ReadonlySet<string> },
): RangePnl {
  const ordered = sortEntries(entries);
  const ledger = new Ledger(options);
  let next = 0;
  while (next < ordered.length && ordered[next]!.time <= range.from) ledger.apply(ordered[next++]!);
  const query = rangeQuery(options, range);
  const atFrom = ledgerFigures(ledger, query(range.from));
  while (next < ordered.length && ordered[next]!.time <= range.to) ledger.apply(ordered[next++]!);
  return pnlBetween(atFrom, ledgerFigures(ledger, query(range.to)), options.reportingAsset, range);
}

/** The figures query at `at` of a range's account (every account when it names none). */
export function rangeQuery(
  options: LedgerOptions,
  range: { account?: string; leftOut?: ReadonlySet<string> },
): (at: number) => FiguresQuery {
  return (at) => ({
    at,
    priceAt: options.valueAt ?? options.priceAt,
    ...(range.account !== undefined ? { account: range.account } : {}),
    ...(range.leftOut !== undefined ? { leftOut: range.leftOut } : {}),
  });
}

/**
 * P&L between two figures of the same ledger's history: the gains realized by the end less those
 * before the start, plus the change in unrealized P&L.
 */
export function pnlBetween(
  atFrom: LedgerFigures,
  atTo: LedgerFigures,
  currency: string,
  range: { from: number; to: number },
): RangePnl {
  // The ledger only adds assets as it goes, so every asset at `from` is there at `to`.
  const before = new Map(atFrom.assets.map((row) => [row.asset, row]));
  const assets = atTo.assets.map((row) => {
    const start = before.get(row.asset);
    const realizedPnl = row.realizedPnl.minus(start?.realizedPnl ?? ZERO);
    const unrealizedChange = row.unrealizedPnl.minus(start?.unrealizedPnl ?? ZERO);
    return {
      asset: row.asset,
      realizedPnl,
      feesPaid: row.feesPaid.minus(start?.feesPaid ?? ZERO),
      unrealizedChange,
      pnl: realizedPnl.plus(unrealizedChange),
    };
  });
  const realizedPnl = sum(assets, (row) => row.realizedPnl);
  const unrealizedChange = atTo.total.unrealizedPnl.minus(atFrom.total.unrealizedPnl);
  return {
    currency,
    from: range.from,
    to: range.to,
    realizedPnl,
    feesPaid: sum(assets, (row) => row.feesPaid),
    unrealizedAtFrom: atFrom.total.unrealizedPnl,
    unrealizedAtTo: atTo.total.unrealizedPnl,
    unrealizedChange,
    pnl: realizedPnl.plus(unrealizedChange),
    assets,
  };
}
