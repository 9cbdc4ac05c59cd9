import { describe, expect, it } from 'vitest';
import { decodeDataMessage } from '../../electron/exchange/stream';
import {
  klineSchema,
  orderSchema,
  orderUpdateEventSchema,
  ownTradeEventSchema,
  parseWire,
  tradesPayloadSchema,
  withdrawRecordSchema,
  WireError,
  withdrawTimeMs,
} from '../../electron/exchange/wire';
import { fastCheckFor, parseWireFast, UNSURE } from '../../electron/exchange/wire-fast';

/** Runs the precompiled check of `schema` on `value` (in place); true when it vouched for it. */
function vouches(schema: Parameters<typeof fastCheckFor>[0], value: unknown): boolean {
  const check = fastCheckFor(schema);
  return check !== undefined && check(value) !== UNSURE;
}

const order = {
  id: 28,
  clientOrderId: '6gCrw2kRUAF9CvJDGP16IP',
  symbol: 'btcusdt',
  price: '42000.5',
  origQty: '0.01',
  executedQty: '0',
  status: 'wait',
  type: 'limit',
  side: 'buy',
  createdTime: 1700000000000,
  updatedTime: 1700000000000,
};

const withdraw = {
  id: 'w-1',
  amount: '1.5',
  createdAt: '2026-01-02 03:04:05',
  lastUpdated: '2026-01-02 03:05:00',
  coin: 'BTC',
  status: 0,
  transactionFee: '0.0005',
  failureInfo: '',
};

const orderUpdate = {
  E: 1700000000000,
  O: 1700000000000,
  S: 'bid',
  V: '1',
  X: 'wait',
  i: 7,
  c: 'abc',
  m: false,
  o: 'limit',
  p: '10',
  q: '1',
  s: 'btcusdt',
  v: '0',
  z: '0',
};

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WireError);
    return (error as WireError).field;
  }
  throw new Error('expected a WireError');
}

describe('wire schemas', () => {
  it('parses an order and lets unknown extra fields pass', () => {
    const parsed = parseWire(orderSchema, { ...order, extra: 'kept' }, 'order');
    expect(parsed.id).toBe(28);
    expect(parsed.price).toBe('42000.5');
    expect((parsed as Record<string, unknown>).extra).toBe('kept');
  });

  it('rejects an order without id, naming the field', () => {
    const { id: _id, ...noId } = order;
    expect(fieldOf(() => parseWire(orderSchema, noId, 'order'))).toBe('id');
    expect(() => parseWire(orderSchema, noId, 'order')).toThrow(/field "id" is missing/);
  });

  it('rejects a non-numeric amount, naming the field', () => {
    expect(fieldOf(() => parseWire(orderSchema, { ...order, origQty: 'abc' }, 'order'))).toBe(
      'origQty',
    );
    expect(fieldOf(() => parseWire(orderSchema, { ...order, price: '' }, 'order'))).toBe('price');
    expect(fieldOf(() => parseWire(orderSchema, { ...order, price: '1e5' }, 'order'))).toBe(
      'price',
    );
  });

  it('normalises partnerTransfer "true"/"false" and booleans', () => {
    for (const [input, expected] of [
      ['true', true],
      ['false', false],
      [true, true],
      [false, false],
    ] as const) {
      const parsed = parseWire(withdrawRecordSchema, { ...withdraw, partnerTransfer: input }, 'w');
      expect(parsed.partnerTransfer).toBe(expected);
    }
    expect(
      fieldOf(() => parseWire(withdrawRecordSchema, { ...withdraw, partnerTransfer: 'yes' }, 'w')),
    ).toBe('partnerTransfer');
  });

  it('reads withdraw record times as UTC', () => {
    expect(withdrawTimeMs('2026-01-02 03:04:05')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
  });

  it('normalises side bid/ask to buy/sell on orderUpdate and ownTrade', () => {
    expect(parseWire(orderUpdateEventSchema, orderUpdate, 'o').S).toBe('buy');
    expect(parseWire(orderUpdateEventSchema, { ...orderUpdate, S: 'ask' }, 'o').S).toBe('sell');
    const ownTrade = {
      E: 1,
      S: 'ask',
      U: 'USDT',
      a: 1,
      b: 2,
      f: '0.1',
      m: true,
      o: 3,
      c: 'x',
      p: '10',
      q: '1',
      s: 'btcusdt',
      t: 9,
      w: '10',
    };
    expect(parseWire(ownTradeEventSchema, ownTrade, 't').S).toBe('sell');
    expect(fieldOf(() => parseWire(ownTradeEventSchema, { ...ownTrade, S: 'up' }, 't'))).toBe('S');
  });

  it('accepts klines with numbers or strings and normalises prices to decimal strings', () => {
    expect(parseWire(klineSchema, [1700000000000, 1, '2.5', 0.5, '1', '10'], 'k')).toEqual([
      1700000000000,
      '1',
      '2.5',
      '0.5',
      '1',
      '10',
    ]);
    expect(fieldOf(() => parseWire(klineSchema, [1, 'x', '1', '1', '1', '1'], 'k'))).toBe('1');
  });

  it('turns kline numbers into their exact decimal text, never exponent forms', () => {
    const row = [1700000000000, 42000.5, 1e-7, 1e21, 0.1, 123456789.12345679];
    const expected = [
      1700000000000,
      '42000.5',
      '0.0000001',
      '1000000000000000000000',
      '0.1',
      '123456789.12345679',
    ];
    expect(parseWire(klineSchema, row, 'k')).toEqual(expected);
    expect(parseWireFast(klineSchema, structuredClone(row), 'k')).toEqual(expected);
    expect(parseWire(klineSchema, [1, '42000.50', '1', '1', '1', '0'], 'k')[1]).toBe('42000.50');
  });

  it('rejects a kline amount that is not a finite number, naming the field', () => {
    for (const bad of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
      const row = [1, '1', bad, '1', '1', '1'];
      expect(fieldOf(() => parseWire(klineSchema, row, 'k'))).toBe('2');
      expect(fieldOf(() => parseWireFast(klineSchema, row, 'k'))).toBe('2');
    }
  });

  it('the stream fast path agrees with the schemas and falls back on variants', () => {
    const trades = {
      trades: [{ E: 1, S: 'ask', a: 1, b: 2, m: 'true', p: '1.5', q: '2', s: 'btcusdt', t: 5 }],
    };
    const viaSchema = parseWire(tradesPayloadSchema, structuredClone(trades), 't');
    const fast = structuredClone(trades);
    expect(vouches(tradesPayloadSchema, fast)).toBe(true);
    expect(fast).toEqual(viaSchema);
    const update = structuredClone(orderUpdate);
    expect(vouches(orderUpdateEventSchema, update)).toBe(true);
    expect(update).toEqual(parseWire(orderUpdateEventSchema, orderUpdate, 'o'));
    // A numeric string id is a variant only the schema handles.
    expect(vouches(orderUpdateEventSchema, { ...orderUpdate, i: '7' })).toBe(false);
  });

  it('decodes data messages through the same path the socket uses, rejecting corrupt payloads', () => {
    const seen: unknown[] = [];
    const emit = (kind: string, payload: unknown, stream: string) =>
      seen.push([kind, payload, stream]);
    decodeDataMessage(
      JSON.stringify({ stream: 'orderUpdate', data: { ...orderUpdate, i: '7' } }),
      emit,
    );
    expect(seen).toHaveLength(1);
    expect((seen[0] as [string, { i: number; S: string }])[1]).toMatchObject({ i: 7, S: 'buy' });
    expect(() =>
      decodeDataMessage(
        JSON.stringify({ stream: 'orderUpdate', data: { ...orderUpdate, z: 'NaN' } }),
        emit,
      ),
    ).toThrow(/field "z"/);
    expect(() =>
      decodeDataMessage(
        JSON.stringify({ stream: 'btcusdt@trades', data: { trades: [{ E: 1 }] } }),
        emit,
      ),
    ).toThrow(WireError);
    expect(decodeDataMessage(JSON.stringify({ event: 'pong', id: 0 }), emit)).toBe(false);
  });
});
