/**
 * What the Portfolio's value history card says about the ledger's answer (ledger.history): whether
 * it can be drawn yet, and where it rests on inferred entries. Pure, so every state is tested.
 */
import type { LedgerHistoryView } from '../../../shared/ledger';
import type { BackfillProgress } from '../../../shared/types';
import { divide } from '../../../shared/exact-decimal';
import { formatAmount, formatAxisTick, formatDateTime, groupingOf } from '../../../shared/format';

/** Why the line is not drawn yet; null when it is. */
export type HistoryWait =
  | {
      kind: 'import';
      text: string;
      /** Markets read of those the import walks, for a progress bar; null when paused. */
      progress: { done: number; total: number } | null;
    }
  | { kind: 'prices'; text: string };

/**
 * A replay missing own trades, or valued at today's prices where the prices of the time are not
 * kept yet, would draw a line that was never true: the card says what it waits for instead.
 */
export function historyWait(view: LedgerHistoryView): HistoryWait | null {
  const importing = view.pending.import;
  if (importing) {
    const trades = importing.storedTrades.toLocaleString('en-US');
    if (importing.state === 'error') {
      return {
        kind: 'import',
        text: `The trade import paused (${importing.error ?? 'no answer'}) with ${trades} own trades read; it resumes where it stopped. The value history is drawn once every market is read.`,
        progress: null,
      };
    }
    return {
      kind: 'import',
      text: `Importing own trades: ${importing.symbolsDone} of ${importing.symbolsTotal} markets, ${trades} trades so far. The value history is drawn once every market is read.`,
      progress: { done: importing.symbolsDone, total: importing.symbolsTotal },
    };
  }
  if (view.pending.prices.length > 0) {
    const markets = view.pending.prices.map((symbol) => symbol.toUpperCase()).join(', ');
    return {
      kind: 'prices',
      text: `Fetching the prices of the time (12-hour candles) of ${markets}. The value history is drawn once they are kept.`,
    };
  }
  return null;
}

/**
 * The ledger knows the withdrawals the app has read: before the oldest (the exchange answers 90
 * days at a time until the full history is fetched) it knows none, and a range reaching back
 * further says so. Null when the range lies within what is read, or everything is.
 */
export function unreadWithdrawalsNote(
  progress: BackfillProgress | undefined,
  rangeFrom: number,
): string | null {
  if (!progress || progress.state === 'done' || progress.coveredFrom === null) return null;
  if (progress.coveredFrom <= rangeFrom) return null;
  const date = historyDate(progress.coveredFrom).slice(0, 10);
  if (progress.state === 'running') {
    return `Fetching older withdrawals (${progress.doneWindows} of ${progress.totalWindows} windows): the history knows none before ${date} yet.`;
  }
  return `Withdrawals are read back to ${date} only: the history knows none before then.`;
}

/** "2026-11-22 21:05": the minute is enough to place a span on a chart. */
export function historyDate(time: number): string {
  return formatDateTime(time).slice(0, 16);
}

/** The sentence under the chart for the span that rests on inferred entries. */
export function inferredNote(inferred: NonNullable<LedgerHistoryView['inferred']>): string {
  const entries =
    inferred.entries === 1 ? '1 inferred entry' : `${inferred.entries} inferred entries`;
  const unlabelled =
    inferred.unlabelled === 0
      ? 'all labelled'
      : inferred.unlabelled === inferred.entries
        ? 'none labelled yet'
        : `${inferred.unlabelled} not labelled yet`;
  return `Rests on ${entries} (deposits and other movements the exchange does not list; ${unlabelled}) between ${historyDate(inferred.from)} and ${historyDate(inferred.to)}: in that span the value depends on when they really happened.`;
}

const LAKH = 1e5;
const CRORE = 1e7;

/**
 * A value axis tick in the currency's own words: lakh (L) and crore (Cr) for INR, as its amounts
 * are grouped; K, M and B elsewhere (formatAxisTick). Like formatAxisTick, three significant
 * digits, or as many as tell a quarter of the axis's span apart.
 */
export function valueAxisTick(value: number, span: number, currency: string): string {
  const magnitude = Math.abs(value);
  if (groupingOf(currency) !== 'lakh' || magnitude < LAKH) return formatAxisTick(value, span);
  const [unit, suffix] = magnitude >= CRORE ? [CRORE, 'Cr'] : [LAKH, 'L'];
  const whole = Math.trunc(magnitude / unit).toString().length;
  const apart = span > 0 ? Math.ceil(-Math.log10(span / 4 / unit)) : 0;
  const precision = Math.min(8, Math.max(0, 3 - whole, apart));
  const scaled = divide(value, unit).toString();
  return `${formatAmount(scaled, { precision, rounding: 'half-up', grouping: 'lakh' })} ${suffix}`;
}
