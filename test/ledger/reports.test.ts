/**
 * The tax report and the Koinly export of the worked example (fixtures.ts), cell by cell.
 */
import { formatDecimal } from '../../electron/core/decimal';
import { describe, expect, it } from 'vitest';
import {
  buildLedger,
  koinlyCsv,
  taxReport,
  taxReportCsv,
  taxTermsCsv,
  taxYear,
  type LedgerEntry,
} from '../../electron/ledger';
import { ENTRIES, priceAt } from './fixtures';

const ledger = buildLedger(ENTRIES, { method: 'fifo', reportingAsset: 'USDT', priceAt });

describe('tax report', () => {
  // A short threshold so the example (days apart) has both terms: more than 1 day is long.
  const report = taxReport(ledger, { ...taxYear(2024), longTermAfterDays: 1 });

  it('writes one row per lot disposed under exactly the agreed header', () => {
    const lines = taxReportCsv(report).split('\r\n');
    expect(lines[0]).toBe(
      'Description,Asset,Quantity,Date Acquired,Date Sold,Proceeds,Cost Basis,Gain or Loss,Holding Days,Method,Currency',
    );
    expect(lines.slice(1)).toEqual([
      'Fee of trade ETHUSDT buy #3 (basis estimated: inferred credit at market value),BNB,0.5,2024-01-03T00:00:00.000Z,2024-01-05T00:00:00.000Z,160,150,10,2,FIFO,USDT',
      'Trade ETHBTC sell #4,ETH,0.3996,2024-01-04T00:00:00.000Z,2024-01-06T00:00:00.000Z,1998,800,1198,2,FIFO,USDT',
      'Trade ETHBTC sell #4,ETH,0.2997,2024-01-04T00:00:00.000Z,2024-01-06T00:00:00.000Z,1498.5,600,898.5,2,FIFO,USDT',
      'Trade BTCUSDT sell #5,BTC,0.01,2024-01-06T00:00:00.000Z,2024-01-09T00:00:00.000Z,1098.9,1000,98.9,3,FIFO,USDT',
      '',
    ]);
  });

  it('sums the rows by term, and the fees of the year', () => {
    const { summary } = report;
    expect(formatDecimal(summary.total.gain)).toBe('2205.4');
    expect([summary.longTerm.rows, formatDecimal(summary.longTerm.gain)]).toEqual([4, '2205.4']);
    const strict = taxReport(ledger, { ...taxYear(2024), longTermAfterDays: 2 }).summary;
    // Held 2 days is not more than 2: short; only the BTC sold after 3 days is long.
    expect([strict.shortTerm.rows, formatDecimal(strict.shortTerm.gain)]).toEqual([3, '2106.5']);
    expect([strict.longTerm.rows, formatDecimal(strict.longTerm.proceeds)]).toEqual([1, '1098.9']);
    // 0.8 + 1.2 + 160 + 299.7 + 1.1.
    expect(formatDecimal(summary.feesPaid)).toBe('462.8');
    expect(summary.estimatedRows).toBe(1);
    expect(taxReport(ledger, { ...taxYear(2023), longTermAfterDays: 365 }).rows).toEqual([]);
  });

  it('writes the split by term, and the total, as a second file', () => {
    // Held more than 2 days is long: the BTC sold after 3 days (1,098.9 for 1,000); the other
    // three short: proceeds 160 + 1,998 + 1,498.5 = 3,656.5, cost 150 + 800 + 600 = 1,550.
    const strict = taxReport(ledger, { ...taxYear(2024), longTermAfterDays: 2 });
    expect(taxTermsCsv(strict).split('\r\n')).toEqual([
      'Term,Rows,Proceeds,Cost Basis,Gain or Loss,Long Term After Days,Method,Currency',
      'Short term,3,3656.5,1550,2106.5,2,FIFO,USDT',
      'Long term,1,1098.9,1000,98.9,2,FIFO,USDT',
      'Total,4,4755.4,2550,2205.4,2,FIFO,USDT',
      '',
    ]);
  });

  it('leaves no formula a spreadsheet would run in a description', () => {
    const entries: LedgerEntry[] = [
      {
        kind: 'inferred',
        id: 'x',
        account: 'main',
        asset: 'ETH',
        amount: '1',
        from: 0,
        to: 1,
        time: 1,
      },
      {
        kind: 'trade',
        id: '=HYPERLINK("x")',
        account: 'main',
        symbol: 'ETHUSDT',
        base: 'ETH',
        quote: 'USDT',
        side: 'SELL',
        qty: '1',
        price: '10',
        quoteQty: '10',
        commission: '0',
        commissionAsset: 'USDT',
        time: 2,
      },
    ];
    const tiny = buildLedger(entries, {
      method: 'fifo',
      reportingAsset: 'USDT',
      priceAt: () => '5',
    });
    const csv = taxReportCsv(taxReport(tiny, { from: 0, to: 10, longTermAfterDays: 365 }));
    // Quoted (it holds a quote) and not starting a formula; the negative-free numbers stay exact.
    expect(csv.split('\r\n')[1]).toBe(
      '"Trade ETHUSDT sell #=HYPERLINK(""x"") (basis estimated: inferred credit at market value)",ETH,1,1970-01-01T00:00:00.001Z,1970-01-01T00:00:00.002Z,10,5,5,0,FIFO,USDT',
    );
  });
});

describe('Koinly universal export', () => {
  it('writes the whole ledger in its columns', () => {
    const lines = koinlyCsv(ENTRIES, ledger).split('\r\n');
    expect(lines[0]).toBe(
      'Date,Sent Amount,Sent Currency,Received Amount,Received Currency,Fee Amount,Fee Currency,Net Worth Amount,Net Worth Currency,Label,Description,TxHash',
    );
    expect(lines.slice(1)).toEqual([
      '2024-01-02 00:00:00 UTC,,,10000,USDT,,,10000,USDT,,Inferred deposit or other credit between 2024-01-01T00:00:00.000Z and 2024-01-02T00:00:00.000Z,',
      '2024-01-03 00:00:00 UTC,,,10,BNB,,,3000,USDT,,Inferred deposit or other credit between 2024-01-02T00:00:00.000Z and 2024-01-03T00:00:00.000Z,',
      '2024-01-04 00:00:00 UTC,800,USDT,0.4,ETH,0.0004,ETH,800,USDT,,"ETHUSDT buy at 2000, trade #1",',
      '2024-01-04 00:00:00 UTC,1200,USDT,0.6,ETH,0.0006,ETH,1200,USDT,,"ETHUSDT buy at 2000, trade #2",',
      '2024-01-05 00:00:00 UTC,2500,USDT,1,ETH,0.5,BNB,2500,USDT,,"ETHUSDT buy at 2500, trade #3",',
      '2024-01-06 00:00:00 UTC,0.6993,ETH,0.034965,BTC,,,3496.5,USDT,,"ETHBTC sell at 0.05, trade #4",',
      // The transfer to the sub-account: a move between own wallets, out and in under one hash.
      '2024-01-07 00:00:00 UTC,0.01,BTC,,,,,,,,Transfer between own wallets: main account to sub-account sub1@example.com (sub-account transfer #t1): sent,subaccount-transfer-t1',
      '2024-01-07 00:00:00 UTC,,,0.01,BTC,,,,,,Transfer between own wallets: main account to sub-account sub1@example.com (sub-account transfer #t1): received,subaccount-transfer-t1',
      // The failed withdrawal: no row.
      '2024-01-08 00:00:00 UTC,0.1998,ETH,,,0.0999,ETH,,,,Withdrawal w1,',
      '2024-01-09 00:00:00 UTC,0.01,BTC,1100,USDT,1.1,USDT,1100,USDT,,"BTCUSDT sell at 110000, trade #5 (sub-account sub1@example.com)",',
      '',
    ]);
  });
});
