/**
 * Ledger figures:
 * - ledger.import: 20,000 own trades imported from the sandbox with its rate limits on (myTrades:
 *   2 a second), through the client's pacer, into a real SQLite file. The floor the published
 *   limits allow is pages ÷ 2 per second; the figure is that floor ÷ the time taken (target
 *   >= 0.9), and the sandbox must have answered 429 to nothing.
 * - ledger.build: 100,000 own trades over 10 symbols (with fees in the received asset and in BNB)
 *   into lots, disposals and the P&L figures, FIFO. The trades are rows already in memory, as
 *   the store will hand them over; the SQLite read is not part of this figure. Baseline: a bare
 *   loop of 100,000 decimal.js additions in the same run (the least any exact pass over 100,000
 *   trades costs). Target: under 1 s.
 * - ledger.build.average: the same under average cost.
 * - ledger.build.heap: heap held by the built ledger (lots, disposals, fees) after a full GC.
 */
import Decimal from 'decimal.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  buildLedger,
  ledgerFigures,
  type CostMethod,
  type LedgerEntry,
  type PriceAt,
} from '../electron/ledger';
import { ExchangeClient } from '../electron/exchange';
import { launchSandbox } from '../electron/sandbox/index';
import { parseFixed } from '../electron/sandbox/fixed';
import { SeededRandom } from '../electron/sandbox/random';
import { openStore } from '../electron/store';
import { storePort } from '../electron/sync/store-port';
import { TradeImporter } from '../electron/sync/trade-import';
import { selfTrades } from '../test/sync/own-trades';
import { figure, type Bench, type Figure } from './figure';

const TRADES = 100_000;
const COINS = ['BTC', 'ETH', 'BNB', 'XRP', 'SOL', 'ADA', 'DOGE', 'TRX', 'LTC', 'DOT'];
const START = Date.UTC(2023, 0, 1);
const SCALE = 100_000_000n;

/** Fixed-point text of a bigint count of 1e-`places` units. */
function text(units: bigint, places: number): string {
  const scale = 10n ** BigInt(places);
  const whole = units / scale;
  const fraction = (units % scale).toString().padStart(places, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** A seeded history that never spends more than it holds (amounts in 1e-8 units). */
function history(): { entries: LedgerEntry[]; lastPrice: Map<string, string> } {
  const random = new SeededRandom(14);
  const held = new Map<string, bigint>(COINS.map((coin) => [coin, 0n]));
  let usdt = 1_000_000_000n * SCALE;
  const prices = COINS.map(() => BigInt(random.int(100, 5_000_000))); // cents
  const lastPrice = new Map<string, string>();
  const entries: LedgerEntry[] = [
    {
      kind: 'inferred',
      id: 'opening',
      account: 'main',
      asset: 'USDT',
      amount: text(usdt, 8),
      from: START - 1,
      to: START,
      time: START,
    },
  ];
  for (let i = 0; i < TRADES; i++) {
    const index = random.int(0, COINS.length - 1);
    const coin = COINS[index]!;
    prices[index] = (prices[index]! * BigInt(random.int(990, 1010))) / 1000n || 1n;
    const price = prices[index]!;
    const have = held.get(coin)!;
    const buy = have === 0n || random.next() < 0.55;
    // qty in 1e-8 units; quoteQty = qty × price (cents) in 1e-10 units.
    const qty = buy
      ? BigInt(random.int(1, 1_000_000)) * 1000n
      : (have * BigInt(random.int(1, 100))) / 100n || have;
    const quote10 = qty * price;
    const bnbFee = coin !== 'BNB' && random.next() < 0.2 && held.get('BNB')! > 10_000n;
    let commission: bigint;
    let commissionAsset: string;
    if (bnbFee) {
      commission = 1000n;
      commissionAsset = 'BNB';
      held.set('BNB', held.get('BNB')! - commission);
    } else if (buy) {
      commission = qty / 1000n;
      commissionAsset = coin;
    } else {
      commission = quote10 / 1000n / 100n;
      commissionAsset = 'USDT';
    }
    if (buy) {
      usdt -= quote10 / 100n;
      held.set(coin, held.get(coin)! + qty - (commissionAsset === coin ? commission : 0n));
    } else {
      usdt += quote10 / 100n - (commissionAsset === 'USDT' ? commission : 0n);
      held.set(coin, held.get(coin)! - qty);
    }
    const priceText = text(price, 2);
    lastPrice.set(coin, priceText);
    entries.push({
      kind: 'trade',
      id: String(i),
      account: 'main',
      symbol: `${coin}USDT`,
      base: coin,
      quote: 'USDT',
      side: buy ? 'BUY' : 'SELL',
      qty: text(qty, 8),
      price: priceText,
      quoteQty: text(quote10, 10),
      commission: text(commission, 8),
      commissionAsset,
      time: START + i * 1000,
    });
  }
  return { entries, lastPrice };
}

function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A bare loop of 100,000 exact decimal additions of trade-sized amounts. */
function bareAdditionsMs(amounts: string[]): number {
  const values = amounts.map((value) => new Decimal(value));
  const start = performance.now();
  let total = new Decimal(0);
  for (const value of values) total = total.plus(value);
  const elapsed = performance.now() - start;
  if (total.isNegative()) throw new Error('impossible total');
  return elapsed;
}

const IMPORT_TRADES = 20_000;
const IMPORT_PROFILE = 'bench-import';

/** 20,000 own-trade rows (10,000 self-fills on btcusdt) imported with the rate limits on. */
async function importFigure(): Promise<Figure[]> {
  const { sandbox, parts } = await launchSandbox({ world: 'empty', simulation: false });
  let tooMany = 0;
  const hit = parts.limiter.hit.bind(parts.limiter);
  parts.limiter.hit = (...args) => {
    try {
      hit(...args);
    } catch (error) {
      if ((error as { status?: number }).status === 429) tooMany++;
      throw error;
    }
  };
  const account = parts.accounts.createAccount({ email: 'importer@bench.test' });
  const key = parts.accounts.createApiKey(account.id, { canTrade: true });
  parts.ledger.credit(account.id, 'btc', parseFixed('100')!);
  parts.ledger.credit(account.id, 'usdt', parseFixed('100000000')!);
  parts.ledger.flush();
  const dir = mkdtempSync(join(tmpdir(), 'spotfolio-bench-import-'));
  const { store } = openStore({ dataDir: dir });
  const seeder = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...key, rateLimits: false });
  const client = new ExchangeClient({ baseUrl: sandbox.baseUrl, ...key });
  try {
    // Seeding is not measured, and not limited: the limits are the import's, not the seed's.
    parts.limiter.enabled = false;
    await selfTrades(seeder, {
      symbol: 'btcusdt',
      qty: '0.001',
      price: '60000',
      count: IMPORT_TRADES / 2,
      totalQty: String(IMPORT_TRADES / 2 / 1000),
    });
    parts.limiter.enabled = true;
    store.profiles.create({
      id: IMPORT_PROFILE,
      name: 'Bench',
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
      apiKeyMasked: 'bench',
      canTrade: true,
      canWithdraw: false,
      isDemo: false,
      createdAt: Date.now(),
    });
    const symbols = (await client.general.exchangeInfo()).symbols.map((s) => s.symbol);
    // A second apart from exchangeInfo's call, so no earlier call shares the measured windows.
    await new Promise((done) => setTimeout(done, 1100));
    const importer = new TradeImporter({
      client,
      port: storePort(store),
      profileId: IMPORT_PROFILE,
      now: () => Date.now(),
    });
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const result = await importer.run(symbols);
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuStart);
    const stored = store.orders.tradesPage(IMPORT_PROFILE, { limit: 1 }).total;
    if (stored !== IMPORT_TRADES || result.trades !== IMPORT_TRADES) {
      throw new Error(`imported ${result.trades}, stored ${stored} of ${IMPORT_TRADES} trades`);
    }
    const floorMs = (result.pages / 2) * 1000;
    const ratio = floorMs / elapsedMs;
    return [
      figure({
        name: 'ledger.import',
        value: ratio,
        unit: `floor ÷ time (${result.pages} pages, floor ${floorMs} ms, took ${Math.round(elapsedMs)} ms, CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms)`,
        target: '>= 0.9 of the floor (pages ÷ 2/s)',
        ok: ratio >= 0.9 && tooMany === 0,
      }),
      figure({
        name: 'ledger.import.429',
        value: tooMany,
        unit: 'answers 429 during the seed and import',
        target: '0',
        ok: tooMany === 0,
      }),
    ];
  } finally {
    await Promise.allSettled([seeder.close(), client.close()]);
    store.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const benches: Bench[] = [
  { name: 'ledger.import', run: importFigure },
  {
    name: 'ledger.build',
    async run() {
      const gc = gcFunction();
      const { entries, lastPrice } = history();
      const end = entries[entries.length - 1]!.time;
      const priceAt: PriceAt = (asset) => lastPrice.get(asset) ?? null;
      const build = (method: CostMethod) => {
        const ledger = buildLedger(entries, { method, reportingAsset: 'USDT', priceAt });
        const figures = ledgerFigures(ledger, { at: end, priceAt });
        if (ledger.shortfalls.length > 0) throw new Error('the bench history oversold');
        return { ledger, figures };
      };
      const timed = (method: CostMethod): number => {
        const start = performance.now();
        build(method);
        return performance.now() - start;
      };
      const quoteAmounts = entries.flatMap((entry) =>
        entry.kind === 'trade' ? [entry.quoteQty] : [],
      );
      // Interleaved, best of three each: a busy machine slows whichever run it lands on.
      let fifoMs = Infinity;
      let averageMs = Infinity;
      let baselineMs = Infinity;
      for (let round = 0; round < 3; round++) {
        fifoMs = Math.min(fifoMs, timed('fifo'));
        averageMs = Math.min(averageMs, timed('average'));
        baselineMs = Math.min(baselineMs, bareAdditionsMs(quoteAmounts));
      }
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      const kept = build('fifo');
      gc();
      gc();
      const heapMb = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
      if (kept.ledger.disposals.length === 0) throw new Error('nothing was disposed');
      return [
        figure({
          name: 'ledger.build',
          value: fifoMs,
          unit: 'ms / 100k trades (FIFO, in-memory rows)',
          baseline: baselineMs,
          target: '< 1000 ms (baseline: 100k bare decimal.js additions)',
          ok: fifoMs < 1000,
        }),
        figure({
          name: 'ledger.build.average',
          value: averageMs,
          unit: 'ms / 100k trades (average cost, in-memory rows)',
          baseline: baselineMs,
          target: '< 1000 ms (baseline: 100k bare decimal.js additions)',
          ok: averageMs < 1000,
        }),
        figure({
          name: 'ledger.build.heap',
          value: heapMb,
          unit: `MB heap held by the built ledger (${kept.ledger.disposals.length} disposals, ${kept.ledger.lots().length} open lots)`,
          target: 'reported',
          ok: true,
        }),
      ];
    },
  },
];
