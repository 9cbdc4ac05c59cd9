/**
 * The kept ledger's log of prices taken: one record per asset, quote and time, in the order first
 * taken, a price taken again holding its place with the newer answer, and a cut (a replay's) that
 * lets what it removed be taken anew at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../shared/exact-decimal';
import { PriceLog } from '../../electron/ledger/price-log';

const rows = (log: PriceLog) =>
  [...log.values()].map((taken) => [taken.asset, taken.quote, taken.time, taken.value]);

describe('PriceLog', () => {
  it('keeps each asset, quote and time once, in the order first taken, as decimal text', () => {
    const log = new PriceLog();
    log.note('bnb', 'usdt', 1000, new Decimal('312.50'));
    log.note('btc', 'usdt', 1000, '43000.1');
    log.note('bnb', 'usdt', 2000, null);
    log.note('bnb', 'btc', 1000, new Decimal('0.0072'));
    // The same price taken again (a replayed entry at the same time): its place, the newer answer.
    log.note('bnb', 'usdt', 1000, new Decimal('313'));
    expect(log.size).toBe(4);
    expect(rows(log)).toEqual([
      ['bnb', 'usdt', 1000, '313'],
      ['btc', 'usdt', 1000, '43000.1'],
      ['bnb', 'usdt', 2000, null],
      ['bnb', 'btc', 1000, '0.0072'],
    ]);
  });

  it('cut back to a size, takes what it cut again at the end', () => {
    const log = new PriceLog();
    log.note('bnb', 'usdt', 1000, '300');
    log.note('bnb', 'usdt', 2000, '301');
    log.note('eth', 'usdt', 2000, '2000');
    log.truncate(1);
    expect(rows(log)).toEqual([['bnb', 'usdt', 1000, '300']]);
    log.note('eth', 'usdt', 2000, '2001');
    log.note('bnb', 'usdt', 1000, '299');
    log.note('bnb', 'usdt', 2000, '302');
    expect(rows(log)).toEqual([
      ['bnb', 'usdt', 1000, '299'],
      ['eth', 'usdt', 2000, '2001'],
      ['bnb', 'usdt', 2000, '302'],
    ]);
    log.truncate(5);
    expect(log.size).toBe(3);
  });

  it('is a list of each asset, quote and time once, whatever order they come in and however cut', () => {
    type Step =
      | { op: 'note'; asset: string; quote: string; time: number; price: string }
      | { op: 'cut'; size: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      {
        arbitrary: fc.record({
          op: fc.constant('note' as const),
          asset: fc.constantFrom('bnb', 'btc', 'eth'),
          quote: fc.constantFrom('usdt', 'btc'),
          time: fc.integer({ min: 0, max: 12 }).map((t) => 1_700_000_000_000 + t * 1000),
          price: fc.integer({ min: 1, max: 999 }).map(String),
        }),
        weight: 6,
      },
      { arbitrary: fc.record({ op: fc.constant('cut' as const), size: fc.nat(20) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const log = new PriceLog();
        // The plain statement: a list searched by asset, quote and time.
        const model: [string, string, number, string][] = [];
        for (const each of steps) {
          if (each.op === 'cut') {
            log.truncate(each.size);
            model.length = Math.min(model.length, each.size);
            continue;
          }
          log.note(each.asset, each.quote, each.time, each.price);
          const found = model.find(
            ([asset, quote, time]) =>
              asset === each.asset && quote === each.quote && time === each.time,
          );
          if (found) found[3] = each.price;
          else model.push([each.asset, each.quote, each.time, each.price]);
        }
        expect(rows(log)).toEqual(model);
        expect(log.size).toBe(model.length);
      }),
      { numRuns: 400 },
    );
  });
});
