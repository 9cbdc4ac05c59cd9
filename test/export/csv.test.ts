import { describe, expect, it } from 'vitest';
import { buildCsvExport, toCsv, type CsvDelimiter } from '../../electron/export/csv';

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
      'text\r\nplain\r\n"a,b"\r\n"say ""hi"""\r\n"line1\nline2"\r\n"cr\rhere"\r\n"semi;colon"\r\n',
    );
  });

  it.each<[CsvDelimiter, string]>([
    [',', 'x,"a,b","a;b","a\tb","q""q","l\nf","c\rr"'],
    [';', 'x;"a,b";"a;b";"a\tb";"q""q";"l\nf";"c\rr"'],
    ['\t', 'x\t"a,b"\t"a;b"\t"a\tb"\t"q""q"\t"l\nf"\t"c\rr"'],
  ])(
    'quotes any separator, quote or line break whatever the delimiter (%j)',
    (delimiter, expected) => {
      const csv = toCsv(
        ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7'],
        [['x', 'a,b', 'a;b', 'a\tb', 'q"q', 'l\nf', 'c\rr']],
        delimiter,
      );
      expect(csv.slice(csv.indexOf('\r\n') + 2, -2)).toBe(expected);
    },
  );

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

  it.each<[string, string, string]>([
    ['leading spaces before =', '  =1+1', "'  =1+1"],
    ['leading spaces before +', ' +1', "' +1"],
    ['leading spaces before -', '   -cmd', "'   -cmd"],
    ['leading spaces before @', ' @SUM(A1)', "' @SUM(A1)"],
    ['a no-break space before =', '\u00a0=1', "'\u00a0=1"],
    ['an ideographic space before =', '\u3000=1', "'\u3000=1"],
    ['a leading tab', '\t=1', `"'\t=1"`],
    ['a leading CR', '\r=1', `"'\r=1"`],
    ['a tab before plain text', '\tabc', `"'\tabc"`],
    ['full-width =', '\uff1dHYPERLINK(1)', "'\uff1dHYPERLINK(1)"],
    ['full-width +', '\uff0b1', "'\uff0b1"],
    ['full-width -', '\uff0d1', "'\uff0d1"],
    ['full-width @', '\uff20SUM(A1)', "'\uff20SUM(A1)"],
    ['spaces before full-width =', '  \uff1d1', "'  \uff1d1"],
  ])('neutralises %s', (_what, cell, expected) => {
    const csv = toCsv(['v'], [[cell]], ';');
    expect(csv).toBe(`v\r\n${expected}\r\n`);
  });

  it.each<[string, string]>([
    ['a negative amount', '-1.5'],
    ['a negative whole number', '-42'],
    ['a positive amount', '1.5'],
    ['text with an inner =', 'a=b'],
    ['text with spaces and no formula character', '  plain'],
  ])('leaves %s as it is', (_what, cell) => {
    expect(toCsv(['v'], [[cell]], ',')).toBe(`v\r\n${cell}\r\n`);
  });

  it('keeps a number cell a number and neutralises a header that looks like a formula', () => {
    expect(toCsv(['=h'], [[-1.5]], ',')).toBe("'=h\r\n-1.5\r\n");
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
