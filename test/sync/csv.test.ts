import { describe, expect, it } from 'vitest';
import { buildCsvExport, toCsv, type CsvDelimiter } from '../../electron/sync/csv';

describe('toCsv (RFC 4180)', () => {
  it('writes a header row and CRLF after every record', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['1', '2'],
          ['3', null],
        ],
        ',',
      ),
    ).toBe('a,b\r\n1,2\r\n3,\r\n');
  });

  it('quotes fields holding the delimiter, quotes, CR or LF and doubles inner quotes', () => {
    const csv = toCsv(
      ['text'],
      [['plain'], ['a,b'], ['say "hi"'], ['line1\nline2'], ['cr\rhere'], ['semi;colon']],
      ',',
    );
    expect(csv).toBe(
      'text\r\nplain\r\n"a,b"\r\n"say ""hi"""\r\n"line1\nline2"\r\n"cr\rhere"\r\nsemi;colon\r\n',
    );
  });

  it.each<[CsvDelimiter, string]>([
    [',', 'x,"a,b",a;b,a\tb'],
    [';', 'x;a,b;"a;b";a\tb'],
    ['\t', 'x\ta,b\ta;b\t"a\tb"'],
  ])('quotes only what clashes with the delimiter %j', (delimiter, expected) => {
    const csv = toCsv(['h1', 'h2', 'h3', 'h4'], [['x', 'a,b', 'a;b', 'a\tb']], delimiter);
    expect(csv.split('\r\n')[1]).toBe(expected);
  });

  it('neutralises formula injection in text cells but keeps signed amounts exact', () => {
    const csv = toCsv(
      ['v'],
      [
        ['=HYPERLINK("http://x")'],
        ['+1+1'],
        ['@SUM(A1)'],
        ['-cmd|calc'],
        ['-12.5'],
        ['0.00000001'],
      ],
      ',',
    );
    expect(csv.split('\r\n').slice(1, 7)).toEqual([
      `"'=HYPERLINK(""http://x"")"`,
      "'+1+1",
      "'@SUM(A1)",
      "'-cmd|calc",
      '-12.5',
      '0.00000001',
    ]);
  });

  it('renders numbers, booleans and null; rejects ragged rows and unknown delimiters', () => {
    expect(toCsv(['n', 'b', 'z'], [[42, true, null]], ';')).toBe('n;b;z\r\n42;true;\r\n');
    expect(() => toCsv(['a', 'b'], [['1']], ',')).toThrow(/row 1 has 1 cells, the header has 2/);
    expect(() => toCsv(['a'], [], '|' as CsvDelimiter)).toThrow(/Unsupported CSV delimiter/);
  });

  it('builds a withdrawals export with ISO UTC times, raw ms and exact amounts', () => {
    const createdAt = Date.UTC(2025, 0, 2, 3, 4, 5);
    const result = buildCsvExport(
      {
        withdrawals: () => [
          {
            id: 'w1',
            coin: 'btc',
            amount: '0.123456789012345678',
            transactionFee: '0.0005',
            status: 'success',
            partnerTransfer: false,
            address: '=evil,addr',
            network: 'BTC',
            txId: 'tx"1',
            withdrawOrderId: null,
            failureInfo: null,
            createdAt,
            lastUpdated: createdAt + 1000,
          },
        ],
        trades: () => [],
        transfers: () => [],
      },
      { kind: 'withdrawals', filter: {}, delimiter: ',' },
      Date.UTC(2026, 10, 22, 21, 0, 0),
    );
    expect(result.rows).toBe(1);
    expect(result.fileName).toBe('withdrawals-2026-11-22T21-00-00.csv');
    const [header, row] = result.content.split('\r\n');
    expect(header!.split(',').slice(0, 7)).toEqual([
      'created_at_utc',
      'created_at_ms',
      'last_updated_utc',
      'last_updated_ms',
      'id',
      'coin',
      'amount',
    ]);
    expect(row).toBe(
      `2025-01-02T03:04:05.000Z,${createdAt},2025-01-02T03:04:06.000Z,${createdAt + 1000},w1,btc,` +
        `0.123456789012345678,0.0005,success,false,BTC,"'=evil,addr","tx""1",,`,
    );
  });
});
