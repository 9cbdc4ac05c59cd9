import { describe, expect, it } from 'vitest';
import type { LedgerHistoryView } from '../../shared/ledger';
import { formatAxisTick, formatDateTime } from '../../shared/format';
import {
  historyWait,
  inferredNote,
  unreadWithdrawalsNote,
  valueAxisTick,
} from '../../renderer/src/lib/value-history';
import { computingWords } from '../../renderer/src/components/LedgerCards';

const view = (pending: Partial<LedgerHistoryView['pending']> = {}): LedgerHistoryView => ({
  currency: 'usdt',
  account: 'main',
  interval: '12h',
  points: [
    { time: 1, value: '0', onInferred: false },
    { time: 2, value: '10', onInferred: false },
  ],
  inferred: null,
  pending: { import: null, prices: [], finer: [], ...pending },
});

const importing = {
  state: 'running' as const,
  symbolsDone: 3,
  symbolsTotal: 7,
  pages: 12,
  trades: 1200,
  complete: false,
  storedTrades: 2500,
};

describe('historyWait', () => {
  it('draws once nothing is pending', () => {
    expect(historyWait(view())).toBeNull();
  });

  it('waits for the first trade import with its progress', () => {
    expect(historyWait(view({ import: importing }))).toEqual({
      kind: 'import',
      text: 'Importing own trades: 3 of 7 markets, 2,500 trades so far. The value history is drawn once every market is read.',
      progress: { done: 3, total: 7 },
    });
  });

  it('says a paused import resumes, without a progress bar', () => {
    const wait = historyWait(
      view({ import: { ...importing, state: 'error', error: 'Too many requests' } }),
    );
    expect(wait).toEqual({
      kind: 'import',
      text: 'The trade import paused (Too many requests) with 2,500 own trades read; it resumes where it stopped. The value history is drawn once every market is read.',
      progress: null,
    });
  });

  it('waits for the prices of the time, naming the markets (after the import)', () => {
    expect(historyWait(view({ prices: ['btcusdt', 'ethbtc'] }))).toEqual({
      kind: 'prices',
      text: 'Fetching the prices of the time (12-hour candles) of BTCUSDT, ETHBTC. The value history is drawn once they are kept.',
    });
    expect(historyWait(view({ prices: ['btcusdt'], import: importing }))?.kind).toBe('import');
  });
});

describe('inferredNote', () => {
  const from = Date.UTC(2026, 0, 5, 10, 30);
  const to = Date.UTC(2026, 2, 1, 8, 0);
  const span = `between ${formatDateTime(from).slice(0, 16)} and ${formatDateTime(to).slice(0, 16)}`;

  it('counts the entries and says how many are labelled', () => {
    expect(inferredNote({ from, to, entries: 1, unlabelled: 1, assets: ['eth'] })).toBe(
      `Rests on 1 inferred entry (deposits and other movements the exchange does not list; none labelled yet) ${span}: in that span the value depends on when they really happened.`,
    );
    expect(inferredNote({ from, to, entries: 5, unlabelled: 2, assets: ['eth'] })).toContain(
      'Rests on 5 inferred entries (deposits and other movements the exchange does not list; 2 not labelled yet)',
    );
    expect(inferredNote({ from, to, entries: 3, unlabelled: 0, assets: ['eth'] })).toContain(
      '; all labelled)',
    );
  });
});

describe('valueAxisTick', () => {
  it('names INR ticks in lakh and crore, with the digits that tell them apart', () => {
    expect(valueAxisTick(25_000_000, 5_000_000, 'inr')).toBe('2.5 Cr');
    expect(valueAxisTick(125_000_000, 2_000_000, 'INR')).toBe('12.5 Cr');
    expect(valueAxisTick(1_234_567, 100_000, 'inr')).toBe('12.3 L');
    // A narrow axis (a span of 4,000 around 12 lakh) keeps the digits of its steps.
    expect(valueAxisTick(1_201_000, 4_000, 'inr')).toBe('12.01 L');
    expect(valueAxisTick(1_202_000, 4_000, 'inr')).toBe('12.02 L');
  });

  it('leaves amounts under a lakh, and other currencies, to the K/M ticks', () => {
    expect(valueAxisTick(99_000, 10_000, 'inr')).toBe(formatAxisTick(99_000, 10_000));
    expect(valueAxisTick(25_000_000, 5_000_000, 'usdt')).toBe(
      formatAxisTick(25_000_000, 5_000_000),
    );
  });
});

describe('unreadWithdrawalsNote', () => {
  const coveredFrom = Date.UTC(2026, 7, 30, 12);
  const date = formatDateTime(coveredFrom).slice(0, 10);
  const idle = {
    state: 'idle' as const,
    doneWindows: 0,
    totalWindows: 0,
    records: 24,
    coveredFrom,
  };

  it('says where the read withdrawals begin when the range reaches further back', () => {
    expect(unreadWithdrawalsNote(idle, coveredFrom - 1)).toBe(
      `Withdrawals are read back to ${date} only: the history knows none before then.`,
    );
    expect(
      unreadWithdrawalsNote({ ...idle, state: 'running', doneWindows: 2, totalWindows: 5 }, 0),
    ).toBe(
      `Fetching older withdrawals (2 of 5 windows): the history knows none before ${date} yet.`,
    );
  });

  it('says nothing within what is read, once everything is, or before anything is known', () => {
    expect(unreadWithdrawalsNote(idle, coveredFrom)).toBeNull();
    expect(unreadWithdrawalsNote({ ...idle, state: 'done' }, 0)).toBeNull();
    expect(unreadWithdrawalsNote({ ...idle, coveredFrom: null }, 0)).toBeNull();
    expect(unreadWithdrawalsNote(undefined, 0)).toBeNull();
  });
});

describe('computingWords: what the P&L card waits for', () => {
  it('names the markets, and while their past prices are fetched how far it has come', () => {
    expect(computingWords({ trades: true, prices: ['btcusdt', 'xrpusdt'], progress: null })).toBe(
      'the import of your trades and past prices of BTCUSDT, XRPUSDT',
    );
    expect(
      computingWords({ trades: false, prices: ['xrpusdt'], progress: { done: 1200, total: 4031 } }),
    ).toBe('past prices of XRPUSDT (1,200 of 4,031 looked up)');
  });
});
