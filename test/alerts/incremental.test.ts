/**
 * A change to one alert is applied to the evaluation without reading every alert again
 * (AlertEngine.applyChange). Property: after any sequence of creations, edits, pauses, resumes
 * and removals, each applied as the bridge applies it, with prices arriving in between, the
 * engine watches exactly what an engine that reads the whole record afresh watches.
 */
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import type { AlertTarget, AlertTiming } from '../../shared/alerts';
import { AlertEngine } from '../../electron/alerts/engine';
import { engineWorld, PROFILE_ID, tick, type EngineWorld } from './helpers';

const SYMBOLS = ['btcusdt', 'ethusdt', 'xrpusdt'];
const ASSETS = ['btc', 'usdt'];
/** Every price the property feeds: far from every line, so nothing fires and nothing retires. */
const PRICE = '100';

const target: fc.Arbitrary<AlertTarget> = fc.oneof(
  fc
    .record({
      kind: fc.constant('price' as const),
      symbol: fc.constantFrom(...SYMBOLS),
      direction: fc.constantFrom('above' as const, 'below' as const),
      threshold: fc.integer({ min: 1, max: 9 }),
    })
    .map((t) => ({
      ...t,
      threshold: t.direction === 'above' ? `100${t.threshold}` : `${t.threshold}`,
    })),
  fc.record({
    kind: fc.constant('price-move' as const),
    symbol: fc.constantFrom(...SYMBOLS),
    direction: fc.constantFrom('up' as const, 'down' as const, 'either' as const),
    threshold: fc.integer({ min: 1, max: 50 }).map(String),
    window: fc.constantFrom('1h' as const, '24h' as const),
  }),
  fc.record({
    kind: fc.constantFrom('balance' as const, 'portfolio' as const),
    asset: fc.constantFrom(...ASSETS),
    direction: fc.constantFrom('above' as const, 'below' as const),
    threshold: fc.integer({ min: 1, max: 1000 }).map(String),
  }),
  fc.record({ kind: fc.constant('withdrawal' as const), asset: fc.constantFrom('eth', null) }),
);

type Step =
  | { op: 'create'; target: AlertTarget }
  | { op: 'edit' | 'pause' | 'resume' | 'remove'; pick: number; target: AlertTarget }
  | { op: 'price'; symbol: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), target }),
  fc.record({
    op: fc.constantFrom('edit' as const, 'pause' as const, 'resume' as const, 'remove' as const),
    pick: fc.nat(),
    target,
  }),
  fc.record({ op: fc.constant('price' as const), symbol: fc.constantFrom(...SYMBOLS) }),
);

const timing: AlertTiming = { repeat: true, cooldownMinutes: 60 };
const noneSeen = { lastSide: null, lastValue: null, lastSeenAt: null };

/** What an engine evaluates, as far as anyone outside it can tell. */
function watched(engine: AlertEngine) {
  return {
    active: engine.activeCount,
    symbols: engine.watchedSymbols().sort(),
    minutes: engine.symbolsNeedingMinutes().sort(),
    balances: engine.balanceAssets().sort(),
    portfolio: engine.portfolioQuotes().sort(),
    withdrawals: engine.hasWithdrawalAlerts(),
  };
}

let world: EngineWorld | undefined;
afterEach(() => {
  world?.close();
  world = undefined;
});

it('applies each change alone and watches what a fresh read of the record watches', () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      world?.close();
      world = engineWorld();
      const { repository, engine, clock } = world;
      const ids: number[] = [];
      for (const s of steps) {
        clock.advance(1000);
        if (s.op === 'price') {
          engine.observeTicker(tick(s.symbol, PRICE, clock.now()));
          continue;
        }
        if (s.op === 'create') {
          const record = repository.create(
            PROFILE_ID,
            { ...s.target, ...timing },
            noneSeen,
            clock.now(),
          );
          ids.push(record.id);
          engine.applyChange(record.id);
          continue;
        }
        if (ids.length === 0) continue;
        const id = ids[s.pick % ids.length]!;
        if (s.op === 'edit') {
          repository.update(PROFILE_ID, id, { ...s.target, ...timing }, noneSeen, clock.now());
        } else if (s.op === 'remove') {
          repository.delete(PROFILE_ID, id);
          ids.splice(ids.indexOf(id), 1);
        } else {
          repository.setPaused(PROFILE_ID, id, s.op === 'pause', clock.now());
        }
        engine.applyChange(id);
      }
      const fresh = new AlertEngine({
        repository,
        profileId: PROFILE_ID,
        clock,
        log: world.log,
        onFire: () => undefined,
      });
      fresh.reload();
      expect(watched(engine)).toEqual(watched(fresh));
      expect(world.fired).toEqual([]);
      expect(world.log.errors).toEqual([]);
    }),
    { numRuns: 60 },
  );
});

it('a new price line on a watched market sees its last price at once, so the next can cross', () => {
  world = engineWorld();
  const { repository, engine, clock } = world;
  const create = (threshold: string, direction: 'above' | 'below') => {
    const record = repository.create(
      PROFILE_ID,
      { kind: 'price', symbol: 'btcusdt', direction, threshold, ...timing },
      noneSeen,
      clock.now(),
    );
    engine.applyChange(record.id);
  };
  create('50', 'below');
  engine.observeTicker(tick('btcusdt', '100', clock.now()));
  create('105', 'above');
  clock.advance(1000);
  engine.observeTicker(tick('btcusdt', '106', clock.now()));
  expect(world.fired.map((f) => f.message.body)).toEqual(['BTCUSDT is at 106, above 105']);
});
