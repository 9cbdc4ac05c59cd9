/**
 * Reports: the tax report (one row per lot disposed, and its summary) and the whole ledger in
 * Koinly's universal import format. Amounts are exact decimal text in the reporting asset; times
 * are ISO 8601 UTC. CSV encoding (quoting, formula neutralising) is the CSV export's own.
 */
import { formatDecimal } from '../core/decimal';
import { toCsv, type CsvDelimiter } from '../export/csv';
import { ZERO, type Amount } from './decimal';
import { COST_METHOD_LABELS, MAIN_ACCOUNT } from '../../shared/ledger';
import { type CostMethod, type Disposal, type Ledger } from './cost-basis';
import { movementsNeeding, sortEntries, withdrawalDebits, type LedgerEntry } from './entries';

const DAY_MS = 86_400_000;

export const TAX_REPORT_HEADER = [
  'Description',
  'Asset',
  'Quantity',
  'Date Acquired',
  'Date Sold',
  'Proceeds',
  'Cost Basis',
  'Gain or Loss',
  'Holding Days',
  'Method',
  'Currency',
] as const;

/** The tax report's second file: the summary's split by holding term, and the total. */
export const TAX_TERMS_HEADER = [
  'Term',
  'Rows',
  'Proceeds',
  'Cost Basis',
  'Gain or Loss',
  'Long Term After Days',
  'Method',
  'Currency',
] as const;

export const KOINLY_HEADER = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
] as const;

export const METHOD_NAMES: Record<CostMethod, string> = COST_METHOD_LABELS;

/** A UTC calendar year as [from, to). */
export function taxYear(year: number): { from: number; to: number } {
  return { from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1) };
}

export interface TaxReportOptions {
  /** Disposals with from <= time < to. */
  from: number;
  to: number;
  /** A disposal held more than this many whole days is long term (365 for a one-year rule). */
  longTermAfterDays: number;
}

export interface TaxReportRow {
  description: string;
  asset: string;
  quantity: Amount;
  /** Null when the basis is missing (no record of the acquisition). */
  acquiredAt: number | null;
  soldAt: number;
  proceeds: Amount;
  costBasis: Amount;
  gain: Amount;
  holdingDays: number | null;
  term: 'short' | 'long';
  basis: Disposal['basis'];
}

export interface TermTotals {
  rows: number;
  proceeds: Amount;
  costBasis: Amount;
  gain: Amount;
}

export interface TaxReportSummary {
  currency: string;
  method: string;
  from: number;
  to: number;
  longTermAfterDays: number;
  total: TermTotals;
  shortTerm: TermTotals;
  longTerm: TermTotals;
  /** Fees paid in the period, valued when paid (trade fees are already in cost and proceeds). */
  feesPaid: Amount;
  /** Rows whose basis is estimated (inferred credits without the user's figure). */
  estimatedRows: number;
  /** Rows with no basis at all (counted short term, the cautious side). */
  missingBasisRows: number;
}

export interface TaxReport {
  rows: TaxReportRow[];
  summary: TaxReportSummary;
}

function emptyTotals(): TermTotals {
  return { rows: 0, proceeds: ZERO, costBasis: ZERO, gain: ZERO };
}

function addRow(totals: TermTotals, row: TaxReportRow): void {
  totals.rows++;
  totals.proceeds = totals.proceeds.plus(row.proceeds);
  totals.costBasis = totals.costBasis.plus(row.costBasis);
  totals.gain = totals.gain.plus(row.gain);
}

const BASIS_NOTES: Record<Disposal['basis'], string> = {
  recorded: '',
  user: ' (basis set by the user)',
  estimated: ' (basis estimated: inferred credit at market value)',
  missing: ' (basis unknown: no record of the acquisition)',
};

/** What a report row says the disposal was. */
export function describeDisposal(disposal: Disposal): string {
  const entry = disposal.entry;
  if (entry.kind !== 'trade') return `${entry.kind} ${entry.id}`;
  const what = `${entry.symbol} ${entry.side === 'BUY' ? 'buy' : 'sell'} #${entry.id}`;
  return disposal.reason === 'fee' ? `Fee of trade ${what}` : `Trade ${what}`;
}

/** One row per lot disposed within the period, oldest first, and the period's summary. */
export function taxReport(ledger: Ledger, options: TaxReportOptions): TaxReport {
  const rows: TaxReportRow[] = [];
  const summary: TaxReportSummary = {
    currency: ledger.reportingAsset,
    method: METHOD_NAMES[ledger.options.method],
    from: options.from,
    to: options.to,
    longTermAfterDays: options.longTermAfterDays,
    total: emptyTotals(),
    shortTerm: emptyTotals(),
    longTerm: emptyTotals(),
    feesPaid: ZERO,
    estimatedRows: 0,
    missingBasisRows: 0,
  };
  for (const disposal of ledger.disposals) {
    if (disposal.disposedAt < options.from || disposal.disposedAt >= options.to) continue;
    const holdingDays =
      disposal.acquiredAt === null
        ? null
        : Math.floor((disposal.disposedAt - disposal.acquiredAt) / DAY_MS);
    const row: TaxReportRow = {
      description: describeDisposal(disposal) + BASIS_NOTES[disposal.basis],
      asset: disposal.asset,
      quantity: disposal.quantity,
      acquiredAt: disposal.acquiredAt,
      soldAt: disposal.disposedAt,
      proceeds: disposal.proceeds,
      costBasis: disposal.cost,
      gain: disposal.gain,
      holdingDays,
      term: holdingDays !== null && holdingDays > options.longTermAfterDays ? 'long' : 'short',
      basis: disposal.basis,
    };
    rows.push(row);
    addRow(summary.total, row);
    addRow(row.term === 'long' ? summary.longTerm : summary.shortTerm, row);
    if (row.basis === 'estimated') summary.estimatedRows++;
    if (row.basis === 'missing') summary.missingBasisRows++;
  }
  let feesPaid = ZERO;
  for (const fee of ledger.fees) {
    if (fee.time >= options.from && fee.time < options.to) feesPaid = feesPaid.plus(fee.value);
  }
  summary.feesPaid = feesPaid;
  return { rows, summary };
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** The report's rows as text cells, in TAX_REPORT_HEADER's order. */
export function taxReportCells(report: TaxReport): string[][] {
  const { currency, method } = report.summary;
  return report.rows.map((row) => [
    row.description,
    row.asset,
    formatDecimal(row.quantity),
    row.acquiredAt === null ? '' : isoTime(row.acquiredAt),
    isoTime(row.soldAt),
    formatDecimal(row.proceeds),
    formatDecimal(row.costBasis),
    formatDecimal(row.gain),
    row.holdingDays === null ? '' : String(row.holdingDays),
    method,
    currency,
  ]);
}

export function taxReportCsv(report: TaxReport, delimiter: CsvDelimiter = ','): string {
  return toCsv([...TAX_REPORT_HEADER], taxReportCells(report), delimiter);
}

/** The summary's short-term, long-term and total rows, in TAX_TERMS_HEADER's order. */
export function taxTermsCells(report: TaxReport): string[][] {
  const { currency, method, longTermAfterDays } = report.summary;
  const row = (term: string, totals: TermTotals) => [
    term,
    String(totals.rows),
    formatDecimal(totals.proceeds),
    formatDecimal(totals.costBasis),
    formatDecimal(totals.gain),
    String(longTermAfterDays),
    method,
    currency,
  ];
  return [
    row('Short term', report.summary.shortTerm),
    row('Long term', report.summary.longTerm),
    row('Total', report.summary.total),
  ];
}

export function taxTermsCsv(report: TaxReport, delimiter: CsvDelimiter = ','): string {
  return toCsv([...TAX_TERMS_HEADER], taxTermsCells(report), delimiter);
}

/** Koinly's date form ("2024-03-01 14:25:09 UTC"). */
function koinlyTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * The whole ledger as rows of Koinly's universal format, in ledger order. Sent and received are
 * gross amounts and the fee is its own column, as Koinly reads them (balance change = received −
 * sent − fee). A transfer between the user's own accounts (the main account and a sub-account)
 * is a transfer between own wallets: two rows, what left one account and what reached the other,
 * each saying so, under one TxHash of the transfer's id, by which Koinly pairs them as a move of
 * the user's own (never a disposal or an income). Withdrawals that failed or were cancelled are
 * left out. The net worth is the trade's value (or an inferred credit's basis) as the ledger
 * computed it, in the reporting asset.
 */
export function koinlyCells(entries: readonly LedgerEntry[], ledger: Ledger): string[][] {
  const currency = ledger.reportingAsset;
  const rows: string[][] = [];
  const needing = movementsNeeding(entries);
  for (const entry of sortEntries(entries)) {
    const worth = ledger.valueOf(entry);
    const worthCells = worth === undefined ? ['', ''] : [formatDecimal(worth), currency];
    switch (entry.kind) {
      case 'trade': {
        const buy = entry.side === 'BUY';
        const hasFee = !/^0*(\.0*)?$/.test(entry.commission);
        rows.push([
          koinlyTime(entry.time),
          buy ? entry.quoteQty : entry.qty,
          buy ? entry.quote : entry.base,
          buy ? entry.qty : entry.quoteQty,
          buy ? entry.base : entry.quote,
          hasFee ? entry.commission : '',
          hasFee ? entry.commissionAsset : '',
          ...worthCells,
          '',
          `${entry.symbol} ${buy ? 'buy' : 'sell'} at ${entry.price}, trade #${entry.id}${accountNote(entry.account)}`,
          '',
        ]);
        break;
      }
      case 'withdrawal':
        if (!withdrawalDebits(entry.status)) break;
        rows.push([
          koinlyTime(entry.time),
          entry.amount,
          entry.asset,
          '',
          '',
          entry.fee,
          entry.asset,
          ...worthCells,
          '',
          `Withdrawal ${entry.id}${accountNote(entry.account)}`,
          entry.txId ?? '',
        ]);
        break;
      case 'transfer': {
        const move = `Transfer between own wallets: ${walletName(entry.fromAccount)} to ${walletName(entry.toAccount)} (sub-account transfer #${entry.id})`;
        const hash = `subaccount-transfer-${entry.id}`;
        const time = koinlyTime(entry.time);
        rows.push(
          [time, entry.amount, entry.asset, '', '', '', '', '', '', '', `${move}: sent`, hash],
          [time, '', '', entry.amount, entry.asset, '', '', '', '', '', `${move}: received`, hash],
        );
        break;
      }
      case 'inferred': {
        const credit = !entry.amount.startsWith('-');
        const quantity = credit ? entry.amount : entry.amount.slice(1);
        const before = needing.get(entry.id);
        const window = before
          ? `between ${isoTime(entry.from)} and before the ${before.kind} of ${isoTime(before.time)}`
          : `between ${isoTime(entry.from)} and ${isoTime(entry.to)}`;
        const label = entry.label ? `: ${entry.label}` : '';
        rows.push([
          koinlyTime(entry.time),
          credit ? '' : quantity,
          credit ? '' : entry.asset,
          credit ? quantity : '',
          credit ? entry.asset : '',
          '',
          '',
          ...worthCells,
          '',
          `Inferred ${credit ? 'deposit or other credit' : 'debit'} ${window}${label}${accountNote(entry.account)}`,
          '',
        ]);
        break;
      }
    }
  }
  return rows;
}

function walletName(account: string): string {
  return account === MAIN_ACCOUNT ? 'main account' : `sub-account ${account}`;
}

function accountNote(account: string): string {
  return account === MAIN_ACCOUNT ? '' : ` (sub-account ${account})`;
}

export function koinlyCsv(
  entries: readonly LedgerEntry[],
  ledger: Ledger,
  delimiter: CsvDelimiter = ',',
): string {
  return toCsv([...KOINLY_HEADER], koinlyCells(entries, ledger), delimiter);
}
