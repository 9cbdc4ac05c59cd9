/**
 * CSV export (RFC 4180): withdrawals, own trades and sub-account transfers, with the same filters
 * as the views on screen, so "export" gives exactly what the user is looking at.
 */
import type { MethodParsedInput } from '../../shared/contract';
import type { CsvExport } from '../../shared/types';

export type CsvDelimiter = ',' | ';' | '\t';
export type CsvCell = string | number | boolean | null;

/**
 * Spreadsheet programs evaluate a cell that starts with = + - @ (and tab / CR, which some of them
 * strip first) as a formula: a withdraw address or a failure message coming from the exchange
 * could then run code on the user's machine when the file is opened ("CSV injection"). Leading
 * spaces are skipped before that test by several programs, and some read the full-width forms
 * (＝ ＋ － ＠) as their ASCII twins, so both count too. Such text cells get a leading single quote,
 * which the spreadsheet shows as plain text.
 * Plain numbers (our decimal amounts, e.g. "-1.5") are not text a formula can hide in, so they are
 * left exact.
 */
// \s covers the no-break and ideographic spaces too.
const FORMULA_START = /^\s*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

function neutraliseFormula(text: string): string {
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `'${text}`;
  return text;
}

function cellText(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) throw new Error(`A CSV cell must be a finite number, got ${cell}`);
    return String(cell);
  }
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  return neutraliseFormula(cell);
}

/**
 * Any of the three separators, a double quote, CR or LF. The file may be re-read with another
 * separator than it was written with (a spreadsheet guessing, or the user choosing), so a field
 * holding any separator is quoted whatever the chosen one: it then stays one field either way.
 */
const NEEDS_QUOTES = /[,;\t"\r\n]/;

/** Quotes a field that needs it (see NEEDS_QUOTES); inner quotes doubled. */
function quoteField(text: string): string {
  if (NEEDS_QUOTES.test(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/** RFC 4180: a header row, then one record per row, every line ended by CRLF. */
export function toCsv(header: string[], rows: CsvCell[][], delimiter: CsvDelimiter): string {
  if (delimiter !== ',' && delimiter !== ';' && delimiter !== '\t') {
    throw new Error(`Unsupported CSV delimiter ${JSON.stringify(delimiter)}: use , ; or tab`);
  }
  const lines: string[] = [];
  const width = header.length;
  lines.push(header.map((name) => quoteField(cellText(name))).join(delimiter));
  rows.forEach((row, index) => {
    if (row.length !== width) {
      throw new Error(`CSV row ${index + 1} has ${row.length} cells, the header has ${width}`);
    }
    lines.push(row.map((cell) => quoteField(cellText(cell))).join(delimiter));
  });
  return lines.map((line) => `${line}\r\n`).join('');
}

/** Human-readable UTC time (ISO 8601) next to the raw ms value. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}

export type ExportInput = MethodParsedInput<'export.csv'>;

/** What exportCsv needs from the store: the same filtered reads the views use, without paging. */
export interface CsvSource {
  withdrawals: ExportRows<ExportWithdrawal>;
  trades: ExportRows<ExportTrade>;
  transfers: ExportRows<ExportTransfer>;
}

type ExportRows<T> = (input: ExportInput) => T[];

export interface ExportWithdrawal {
  id: string;
  coin: string;
  amount: string;
  transactionFee: string;
  status: string;
  partnerTransfer: boolean;
  address: string | null;
  network: string | null;
  txId: string | null;
  withdrawOrderId: string | null;
  failureInfo: string | null;
  createdAt: number;
  lastUpdated: number;
}

export interface ExportTrade {
  id: number;
  symbol: string;
  orderId: number;
  side: string;
  price: string;
  qty: string;
  quoteQty: string;
  fee: string;
  feeCurrency: string;
  isBuyerMaker: boolean;
  time: number;
}

export interface ExportTransfer {
  txnId: number;
  asset: string;
  fromEmail: string;
  toEmail: string;
  qty: string;
  status: string;
  time: number;
}

export function withdrawalsCsv(rows: ExportWithdrawal[], delimiter: CsvDelimiter): string {
  const header = [
    'created_at_utc',
    'created_at_ms',
    'last_updated_utc',
    'last_updated_ms',
    'id',
    'coin',
    'amount',
    'transaction_fee',
    'status',
    'partner_transfer',
    'network',
    'address',
    'tx_id',
    'withdraw_order_id',
    'failure_info',
  ];
  return toCsv(
    header,
    rows.map((w) => [
      isoUtc(w.createdAt),
      w.createdAt,
      isoUtc(w.lastUpdated),
      w.lastUpdated,
      w.id,
      w.coin,
      w.amount,
      w.transactionFee,
      w.status,
      w.partnerTransfer,
      w.network,
      w.address,
      w.txId,
      w.withdrawOrderId,
      w.failureInfo,
    ]),
    delimiter,
  );
}

export function tradesCsv(rows: ExportTrade[], delimiter: CsvDelimiter): string {
  const header = [
    'time_utc',
    'time_ms',
    'trade_id',
    'order_id',
    'symbol',
    'side',
    'price',
    'qty',
    'quote_qty',
    'fee',
    'fee_currency',
    'is_buyer_maker',
  ];
  return toCsv(
    header,
    rows.map((t) => [
      isoUtc(t.time),
      t.time,
      t.id,
      t.orderId,
      t.symbol,
      t.side,
      t.price,
      t.qty,
      t.quoteQty,
      t.fee,
      t.feeCurrency,
      t.isBuyerMaker,
    ]),
    delimiter,
  );
}

export function transfersCsv(rows: ExportTransfer[], delimiter: CsvDelimiter): string {
  const header = ['time_utc', 'time_ms', 'txn_id', 'asset', 'from', 'to', 'qty', 'status'];
  return toCsv(
    header,
    rows.map((t) => [
      isoUtc(t.time),
      t.time,
      t.txnId,
      t.asset,
      t.fromEmail,
      t.toEmail,
      t.qty,
      t.status,
    ]),
    delimiter,
  );
}

function fileStamp(now: number): string {
  return isoUtc(now).slice(0, 19).replaceAll(':', '-');
}

/** Builds the export from already-filtered rows (see exportCsv in ./export for the store-backed one). */
export function buildCsvExport(source: CsvSource, input: ExportInput, now: number): CsvExport {
  const extension = input.delimiter === '\t' ? 'tsv' : 'csv';
  switch (input.kind) {
    case 'withdrawals': {
      const rows = source.withdrawals(input);
      return {
        fileName: `withdrawals-${fileStamp(now)}.${extension}`,
        content: withdrawalsCsv(rows, input.delimiter),
        rows: rows.length,
      };
    }
    case 'trades': {
      const rows = source.trades(input);
      return {
        fileName: `trades-${fileStamp(now)}.${extension}`,
        content: tradesCsv(rows, input.delimiter),
        rows: rows.length,
      };
    }
    case 'transfers': {
      const rows = source.transfers(input);
      return {
        fileName: `transfers-${fileStamp(now)}.${extension}`,
        content: transfersCsv(rows, input.delimiter),
        rows: rows.length,
      };
    }
  }
}
