/**
 * The ledger's answers over the bridge: profit and loss, net worth, an asset's page, the value
 * history and the reports. Amounts are decimal text in the reporting currency (`currency`) unless
 * a field says otherwise; times are Unix milliseconds (UTC).
 */

export const COST_METHODS = ['fifo', 'lifo', 'hifo', 'average'] as const;
export type CostMethodName = (typeof COST_METHODS)[number];

/** The method's name as the screens and the tax report write it. */
export const COST_METHOD_LABELS: Record<CostMethodName, string> = {
  fifo: 'FIFO',
  lifo: 'LIFO',
  hifo: 'HIFO',
  average: 'Average cost',
};

/** What each method takes first, said once for the places a method is chosen. */
export const COST_METHOD_HINTS: Record<CostMethodName, string> = {
  fifo: 'first in, first out: the oldest lot first',
  lifo: 'last in, first out: the newest lot first',
  hifo: 'highest in, first out: the lot of the highest cost per unit first',
  average: 'every unit at the average cost of what is held',
};

export function isCostMethod(value: unknown): value is CostMethodName {
  return (COST_METHODS as readonly unknown[]).includes(value);
}

/** How far the import of own trades has come. */
export interface TradeImportView {
  state: 'idle' | 'running' | 'done' | 'error';
  symbolsDone: number;
  symbolsTotal: number;
  pages: number;
  /** Trades stored by the run going on (or the last one). */
  trades: number;
  /** Every listed symbol has been read to its end at least once. */
  complete: boolean;
  /** Own trades in the cache. */
  storedTrades: number;
  error?: string;
}

export interface AssetPnlView {
  asset: string;
  quantity: string;
  /** Cost per unit of what is held; null with nothing held. */
  averageCost: string | null;
  costBasis: string;
  /** Per unit now; null when nothing is held or no market prices it. */
  price: string | null;
  /** The price's change over 24 hours, in percent; null when unknown. */
  change24h: string | null;
  value: string;
  realizedPnl: string;
  unrealizedPnl: string;
  feesPaid: string;
  /** Part of the basis still held comes from an inferred credit (an estimate) or is unknown. */
  basisEstimated: boolean;
  /** Inferred entries of this asset (movements the exchange's records do not explain). */
  inferredEntries: number;
}

export interface LedgerTotalsView {
  value: string;
  costBasis: string;
  realizedPnl: string;
  unrealizedPnl: string;
  feesPaid: string;
}

/**
 * What happened within an interval (from, to]: the gains realized, the fees paid, the change in
 * unrealized P&L (of the positions at each end, at each end's prices) and the total change
 * (realized + change in unrealized). Adjacent intervals add up to their union.
 */
export interface RangePnlView {
  from: number;
  to: number;
  realizedPnl: string;
  feesPaid: string;
  unrealizedChange: string;
  pnl: string;
}

/** The ledger's name of the main account (a sub-account is named by its e-mail). */
export const MAIN_ACCOUNT = 'main';

export interface LedgerSummaryView {
  currency: string;
  method: CostMethodName;
  /** The account the figures are for; null for every account together. */
  account: string | null;
  /** The profile's sub-accounts (e-mails): with any, "main account" and "every account" differ. */
  subAccounts: string[];
  /**
   * The sub-accounts in scope whose trades the ledger cannot see (no key of their own linked):
   * their balances count and their trades are inferred deposits and debits; the screen offers
   * the link.
   */
  unseenTrades: string[];
  at: number;
  totals: LedgerTotalsView;
  /** The chosen range's figures, over (from, to]: each the ledger's for that interval. */
  range: RangePnlView | null;
  assets: AssetPnlView[];
  /** What the totals include, in words ("main account and 2 sub-accounts; 3 inferred entries"). */
  includes: string;
  inferred: {
    count: number;
    unlabelled: number;
    estimatedBasis: number;
    /** Labels and costs that new records changed: each shown on its asset's page. */
    review: number;
    /** The assets whose pages show them. */
    reviewAssets: string[];
  };
  /** Assets held that no market prices in the currency: left out of every value. */
  unpriced: string[];
  import: TradeImportView;
  /**
   * What the figures built on the past still wait for; null when nothing. Until then the realized
   * and unrealized P&L, the fees and the cost basis may still change (the value now may not).
   */
  computing: LedgerComputingView | null;
}

export interface LedgerComputingView {
  /** The import of the account's own trades has not read every market yet. */
  trades: boolean;
  /**
   * Markets whose past prices (candles) are not kept yet: back to the first entry, or at an
   * entry's own time.
   */
  prices: string[];
  /** While the prices at entries' times are fetched: markets' times looked up, of how many. */
  progress?: { done: number; total: number } | null;
}

export interface AccountWorthView {
  /** 'main' or the sub-account's e-mail. */
  account: string;
  name: string;
  value: string;
  assets: { asset: string; quantity: string; value: string | null }[];
  unpriced: string[];
}

/** Which accounts a view covers, as the asset page and the net worth card state it. */
export interface LedgerScopeView {
  /** The account the figures are for; null for every account together. */
  account: string | null;
  /** The profile's sub-accounts (e-mails): with any, "main account" and "every account" differ. */
  subAccounts: string[];
  /** The accounts covered, in words ("Main account and 1 sub-account", "Main account only"). */
  covers: string;
  /** The sub-accounts in scope whose trades the ledger cannot see (see LedgerSummaryView). */
  unseenTrades: string[];
}

export interface NetWorthView extends LedgerScopeView {
  currency: string;
  at: number;
  /** The sum of `accounts`' values: the accounts the scope covers. */
  total: string;
  accounts: AccountWorthView[];
  includes: string;
}

export interface LotView {
  account: string;
  quantity: string;
  cost: string;
  acquiredAt: number;
  basis: 'recorded' | 'user' | 'estimated' | 'missing';
}

/** A known movement an inferred credit had to come before (it needed the funds). */
export interface InferredBound {
  kind: 'trade' | 'withdrawal' | 'transfer';
  time: number;
}

/**
 * The facts of an inferred entry (a movement the known records do not explain): its account and
 * asset, its signed amount, the interval (from, to] within which it happened and where the ledger
 * places it. The main process's inferred entry is built on it, and an annotation keeps it as the
 * entry stood when the user wrote.
 */
export interface InferredFacts {
  account: string;
  asset: string;
  /** Signed decimal text: positive credit, negative debit. */
  amount: string;
  from: number;
  to: number;
  time: number;
}

/** An inferred entry's facts as a screen shows them beside its account and asset. */
export type InferredFactsView = Omit<InferredFacts, 'account' | 'asset'>;

/**
 * What the user wrote about an inferred entry that new records changed, shown until the user
 * looks again (keeps it with the entry as it is now, or removes it): never dropped unseen.
 * - changed: the same entry, with another amount or time; the label and cost still apply;
 * - moved: the entry is derived under another interval now; the label and cost apply to it;
 * - gone: no inferred entry covers it any more (the records explain it); they apply to nothing.
 */
export interface AnnotationReviewView {
  /** The id the annotation is kept under (the entry's id when the user wrote it). */
  id: string;
  account: string;
  asset: string;
  status: 'changed' | 'moved' | 'gone';
  label: string | null;
  costBasis: { amount: string; currency: string } | null;
  /** The entry as the user saw it; null for a label kept before the app kept these. */
  was: InferredFactsView | null;
  /** The entry it applies to now, with its id; null when gone. */
  now: (InferredFactsView & { id: string }) | null;
}

export interface InferredDetail {
  /** The interval (from, to] within which it happened, between two balance observations. */
  from: number;
  to: number;
  /** When a known movement needed it: it happened after `from` and before this movement. */
  before: InferredBound | null;
  credit: boolean;
  label: string | null;
  costBasis: { amount: string; currency: string } | null;
  /** Set when new records changed the entry since the user wrote its label or cost. */
  review: AnnotationReviewView | null;
}

export interface LedgerEntryView {
  kind: 'trade' | 'withdrawal' | 'transfer' | 'inferred';
  id: string;
  time: number;
  account: string;
  description: string;
  /**
   * Signed change of the asset's balance within the view's scope: a transfer between two accounts
   * it covers changes nothing (0), one out of or into the main account alone moves it.
   */
  amount: string;
  inferred?: InferredDetail;
}

/** One asset's page; every figure, lot, entry and review covers the accounts of its scope. */
export interface AssetLedgerView extends LedgerScopeView {
  currency: string;
  method: CostMethodName;
  asset: string;
  figures: AssetPnlView;
  lots: LotView[];
  entries: LedgerEntryView[];
  /** This asset's labels and costs that need the user's look again. */
  reviews: AnnotationReviewView[];
  /** Quantity held over time, and its value at the prices of the time. */
  history: { time: number; quantity: string; value: string | null }[];
}

export interface InferredEntryView extends LedgerEntryView {
  kind: 'inferred';
  asset: string;
  inferred: InferredDetail;
}

export interface LedgerHistoryView {
  currency: string;
  /** The account whose holdings are drawn ('main' for the Portfolio's total); null for all. */
  account: string | null;
  /** The candles whose closes value the past points ('15m' for a day ... '12h', the ledger's). */
  interval: string;
  /**
   * Holdings replayed from the ledger at each time, valued at the prices of the time (the closes
   * of finished candles). The last point is now, and equals the summary's total of the account.
   */
  points: { time: number; value: string; onInferred: boolean }[];
  /**
   * Where the history rests on inferred entries: between an inferred entry's interval start and
   * where the ledger places it, a value depends on when within it the movement really happened.
   * `entries` counts those whose span meets the range (`unlabelled` of them with no label yet),
   * `assets` names their assets (each labelled on its asset page). Null when no point does.
   */
  inferred: {
    from: number;
    to: number;
    entries: number;
    unlabelled: number;
    assets: string[];
  } | null;
  /** What the ledger cannot answer yet; while either is set the points leave something out. */
  pending: {
    /** The first import of own trades is not complete: trades are missing from the replay. */
    import: TradeImportView | null;
    /** Markets whose candles (the prices of the time) are not kept yet, for assets held then. */
    prices: string[];
    /**
     * Markets whose finer candles for this range are not kept (far enough back, or up to the last
     * one): fetched in the background; until every one reaches back, the ledger's candles serve.
     */
    finer: string[];
  };
}

export interface TaxTermView {
  rows: number;
  proceeds: string;
  costBasis: string;
  gain: string;
}

export interface TaxSummaryView {
  year: number;
  method: CostMethodName;
  currency: string;
  longTermAfterDays: number;
  total: TaxTermView;
  shortTerm: TaxTermView;
  longTerm: TaxTermView;
  feesPaid: string;
  estimatedRows: number;
  missingBasisRows: number;
}

/** A report written to disk: where it went. */
export interface ReportFileView {
  path: string;
  folder: string;
  fileName: string;
  rows: number;
  summary: TaxSummaryView | null;
  /** The tax report's second file: short term, long term and total (null for other reports). */
  terms: { path: string; fileName: string } | null;
}

export interface LedgerSettingsView {
  method: CostMethodName;
  currency: string;
}

// ---- Every profile together -------------------------------------------------------------------

/** One profile's part of the whole: its every account, valued in the whole's currency. */
export interface ProfileShareView {
  profileId: string;
  name: string;
  /** The exchange the profile's key is on (its REST address). */
  exchange: string;
  active: boolean;
  isDemo: boolean;
  /** The profile's own cost method: its P&L figures are by it. */
  method: CostMethodName;
  /** The accounts covered, in words ("Every account together (main account and 1 sub-account)"). */
  covers: string;
  /** 'main' and the sub-accounts' e-mails. */
  accounts: string[];
  /** Its every account's value now. */
  value: string;
  /**
   * Its part of the whole's total, a ratio: value / total, rounded half-even to 6 places ('0'
   * when the total is zero).
   */
  share: string;
  /** When its balances were last read from its exchange (an inactive profile's stay as read then). */
  balancesAt: number;
  /** When its prices were last read from its exchange; null when none are kept. */
  pricesAt: number | null;
  totals: LedgerTotalsView;
  /** The range's figures over (from, to], when a range was asked for. */
  range: RangePnlView | null;
  /** Assets it holds that no market of its exchange prices in the currency: left out of values. */
  unpriced: string[];
  /** What its figures built on the past still wait for; null when nothing. */
  computing: LedgerComputingView | null;
}

/** A profile the whole leaves out, and why (never silently). */
export interface ProfileLeftOutView {
  profileId: string;
  name: string;
  reason: string;
}

/**
 * Every profile together: net worth, allocation and the P&L card's figures in one currency (the
 * Settings' quote asset), each profile valued at its own exchange's prices, with each one's share.
 * Every figure covers the same profiles: `profiles`; `leftOut` names the others and why.
 */
export interface AllProfilesView {
  currency: string;
  at: number;
  /** The sum of the profiles' values. */
  total: string;
  profiles: ProfileShareView[];
  leftOut: ProfileLeftOutView[];
  /**
   * Each asset over every profile: its quantity, its value (each profile's quantity at its own
   * exchange's price, summed) and its part of the total (rounded half-even to 6 places).
   */
  allocation: { asset: string; quantity: string; value: string; share: string }[];
  /** The sums of the profiles' P&L figures. */
  totals: LedgerTotalsView;
  /** The sums of the profiles' range figures, when a range was asked for. */
  range: RangePnlView | null;
  /** Assets some profile holds that its exchange does not price in the currency. */
  unpriced: string[];
  /** The profiles whose figures built on the past still wait; null when none does. */
  computing: { profileId: string; name: string; trades: boolean; prices: string[] }[] | null;
  /** What the whole includes, in words. */
  includes: string;
}

/** The value of every profile together over a range; the last point equals the total now. */
export interface AllProfilesHistoryView {
  currency: string;
  /** The candles whose closes value the past points: the coarsest of the profiles'. */
  interval: string;
  points: { time: number; value: string; onInferred: boolean }[];
  /** The profiles drawn (every account of each). */
  profiles: { profileId: string; name: string }[];
  leftOut: ProfileLeftOutView[];
  /** The profiles whose drawn points still leave something out (as LedgerHistoryView.pending). */
  pending: { profileId: string; name: string; import: boolean; prices: string[] }[];
}
