import type { Slices } from '../core/clock';
import type { Accounts } from './accounts';
import { addressFor, seededSource } from './addresses';
import type { MarketConfig, MatchingEngine } from './engine';
import { formatFixed, parseFixed } from './fixed';
import type { Ledger } from './ledger';
import { SeededRandom } from './random';
import type { Wallet } from './wallet';

/** The hidden market-maker account that keeps both sides of every book filled. */
export const MAKER_EMAIL = 'market-maker@sandbox.invalid';
export const DEMO_PARENT_EMAIL = 'demo@spotfolio.test';
export const DEMO_SUB_EMAILS = ['savings@spotfolio.test', 'trading-desk@spotfolio.test'] as const;

export const DEMO_MARKETS: MarketConfig[] = [
  {
    symbol: 'btcusdt',
    baseAsset: 'btc',
    quoteAsset: 'usdt',
    tickSize: '0.01',
    minPrice: '0.01',
    baseAssetPrecision: 6,
    quoteAssetPrecision: 8,
  },
  {
    symbol: 'ethusdt',
    baseAsset: 'eth',
    quoteAsset: 'usdt',
    tickSize: '0.01',
    minPrice: '0.01',
    baseAssetPrecision: 5,
    quoteAssetPrecision: 8,
  },
  {
    symbol: 'solusdt',
    baseAsset: 'sol',
    quoteAsset: 'usdt',
    tickSize: '0.01',
    minPrice: '0.01',
    baseAssetPrecision: 3,
    quoteAssetPrecision: 8,
  },
  {
    symbol: 'xrpusdt',
    baseAsset: 'xrp',
    quoteAsset: 'usdt',
    tickSize: '0.0001',
    minPrice: '0.0001',
    baseAssetPrecision: 1,
    quoteAssetPrecision: 8,
  },
  {
    symbol: 'ethbtc',
    baseAsset: 'eth',
    quoteAsset: 'btc',
    tickSize: '0.00001',
    minPrice: '0.00001',
    baseAssetPrecision: 4,
    quoteAssetPrecision: 8,
  },
  // Quoted in Indian rupees, so a reporting currency other than USDT and BTC has a price path.
  {
    symbol: 'usdtinr',
    baseAsset: 'usdt',
    quoteAsset: 'inr',
    tickSize: '0.01',
    minPrice: '0.01',
    baseAssetPrecision: 2,
    quoteAssetPrecision: 2,
  },
  {
    symbol: 'btcinr',
    baseAsset: 'btc',
    quoteAsset: 'inr',
    tickSize: '1',
    minPrice: '1',
    baseAssetPrecision: 6,
    quoteAssetPrecision: 2,
  },
];

/**
 * Markets added after the first world was published draw from a random stream of their own, so
 * every older market's seeded history, books and own trades stay exactly as they were.
 */
const LATER_MARKETS = new Set(['usdtinr', 'btcinr']);

/** Where each market trades today (in ticks of its tickSize), and a typical trade size. */
const MARKET_PROFILE: Record<
  string,
  { price: string; lot: string; spreadTicks: number; stepTicks: number }
> = {
  btcusdt: { price: '61250.00', lot: '0.01', spreadTicks: 6, stepTicks: 500 },
  ethusdt: { price: '3120.50', lot: '0.2', spreadTicks: 6, stepTicks: 40 },
  solusdt: { price: '148.20', lot: '3', spreadTicks: 4, stepTicks: 3 },
  xrpusdt: { price: '0.5230', lot: '500', spreadTicks: 6, stepTicks: 3 },
  ethbtc: { price: '0.05095', lot: '0.2', spreadTicks: 4, stepTicks: 2 },
  usdtinr: { price: '83.42', lot: '100', spreadTicks: 4, stepTicks: 2 },
  btcinr: { price: '5109475', lot: '0.01', spreadTicks: 6, stepTicks: 400 },
};

export interface WorldKey {
  apiKey: string;
  secretKey: string;
  canTrade: boolean;
}

export interface WorldAccount {
  email: string;
  role: 'parent' | 'sub';
  keys: WorldKey[];
}

export interface BuiltWorld {
  makerAccountId: number;
  accounts: WorldAccount[];
}

interface WorldDeps {
  accounts: Accounts;
  ledger: Ledger;
  engine: MatchingEngine;
  wallet: Wallet;
  now: number;
  seed: number;
}

const DAY = 86_400_000;

function credit(deps: WorldDeps, accountId: number, asset: string, amount: string): void {
  deps.ledger.credit(accountId, asset, parseFixed(amount)!);
}

/** How many of the price history's moments are seeded between two turns of the event loop. */
const MOMENTS_PER_SLICE = 4;

/**
 * The market maker exists in every world; the demo world adds the user's family and history.
 * Built in slices (core/clock.ts): demo mode builds it in the app's own process, in turns of the
 * event loop, so the app answers the first screen from its cache meanwhile.
 */
export function* buildWorld(kind: 'demo' | 'empty', deps: WorldDeps): Slices<BuiltWorld> {
  const random = new SeededRandom(deps.seed);
  const keyText = () => random.hex(64);
  const maker = deps.accounts.createAccount({ email: MAKER_EMAIL });
  for (const asset of ['btc', 'eth', 'sol', 'xrp', 'usdt'])
    credit(deps, maker.id, asset, '1000000000');
  credit(deps, maker.id, 'inr', '1000000000000');
  if (kind === 'empty') {
    deps.ledger.flush();
    return { makerAccountId: maker.id, accounts: [] };
  }

  const parent = deps.accounts.createAccount({ email: DEMO_PARENT_EMAIL });
  const subs = DEMO_SUB_EMAILS.map((email) =>
    deps.accounts.createAccount({ email, parentEmail: DEMO_PARENT_EMAIL }),
  );
  const worldKey = (accountId: number, canTrade: boolean): WorldKey => {
    const key = deps.accounts.createApiKey(accountId, { canTrade }, keyText);
    return { apiKey: key.apiKey, secretKey: key.secretKey, canTrade };
  };
  const accounts: WorldAccount[] = [
    {
      email: parent.email,
      role: 'parent',
      keys: [worldKey(parent.id, true), worldKey(parent.id, false)],
    },
    ...subs.map((sub) => ({
      email: sub.email,
      role: 'sub' as const,
      keys: [worldKey(sub.id, true)],
    })),
  ];

  credit(deps, parent.id, 'btc', '1.85');
  credit(deps, parent.id, 'eth', '24.5');
  credit(deps, parent.id, 'sol', '310');
  credit(deps, parent.id, 'xrp', '25000');
  credit(deps, parent.id, 'usdt', '48250.75');
  credit(deps, subs[0]!.id, 'usdt', '12000');
  credit(deps, subs[0]!.id, 'btc', '0.25');
  credit(deps, subs[1]!.id, 'eth', '3.2');
  credit(deps, subs[1]!.id, 'usdt', '2500');
  credit(deps, subs[1]!.id, 'sol', '40');

  yield* seedPriceHistory(deps, random, maker.id, parent.id);
  seedBooks(deps, random, maker.id);
  yield;

  // A resting order and an idle stop for the parent, so open orders are not empty.
  deps.engine.placeOrder(parent.id, {
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    quantity: '0.05',
    price: '55000.00',
    clientOrderId: 'demo-dip-buy',
  });
  deps.engine.placeOrder(parent.id, {
    symbol: 'ethusdt',
    side: 'sell',
    type: 'stop_limit',
    quantity: '1',
    price: '2800.00',
    stopPrice: '2850.00',
    clientOrderId: 'demo-eth-stop',
  });

  // Withdraw history: a few hundred records over about 400 days, plus recent ones of every kind.
  deps.wallet.seedWithdrawHistory(parent.id, {
    count: 280,
    fromMs: deps.now - 400 * DAY,
    toMs: deps.now - 2 * DAY,
    seed: deps.seed,
  });
  deps.wallet.seedWithdrawHistory(parent.id, {
    count: 24,
    fromMs: deps.now - 30 * DAY,
    toMs: deps.now - 3_600_000,
    seed: deps.seed + 1,
  });
  deps.wallet.seedWithdrawHistory(subs[0]!.id, {
    count: 12,
    fromMs: deps.now - 120 * DAY,
    toMs: deps.now - DAY,
    seed: deps.seed + 2,
  });
  deps.wallet.requestWithdrawal(parent.id, {
    coin: 'usdt',
    network: 'TRX',
    amount: '150',
    address: addressFor('TRX', seededSource(`pending-withdrawal:${deps.seed}`)),
    withdrawOrderId: 'demo-pending-1',
  });

  const transfers: [string, string, string, string, number][] = [
    ['usdt', parent.email, subs[0]!.email, '10000', 60],
    ['btc', parent.email, subs[0]!.email, '0.25', 45],
    ['eth', parent.email, subs[1]!.email, '3.2', 30],
    ['usdt', parent.email, subs[1]!.email, '3000', 20],
    ['usdt', subs[1]!.email, parent.email, '500', 7],
    ['sol', parent.email, subs[1]!.email, '40', 3],
  ];
  for (const [asset, from, to, qty, daysAgo] of transfers) {
    deps.accounts.recordPastTransfer(parent.id, asset, from, to, qty, deps.now - daysAgo * DAY);
  }
  deps.ledger.flush();
  return { makerAccountId: maker.id, accounts };
}

/**
 * Trades over the last ~400 days (daily) and the last 3 days (every 10 minutes), on a seeded
 * random walk that ends at today's price; a few of them are the parent's own trades.
 */
function* seedPriceHistory(
  deps: WorldDeps,
  random: SeededRandom,
  makerId: number,
  parentId: number,
): Slices<void> {
  const times: number[] = [];
  for (let d = 400; d > 3; d--) times.push(deps.now - d * DAY + random.int(0, DAY / 2));
  for (let t = deps.now - 3 * DAY; t < deps.now - 60_000; t += 10 * 60_000)
    times.push(t + random.int(0, 60_000));
  const laterRandom = new SeededRandom(deps.seed + 1009);
  const randomOf = (symbol: string) => (LATER_MARKETS.has(symbol) ? laterRandom : random);
  const walks = new Map<string, bigint[]>();
  for (const market of DEMO_MARKETS) {
    const profile = MARKET_PROFILE[market.symbol]!;
    const tick = parseFixed(market.tickSize)!;
    const random = randomOf(market.symbol);
    const endTicks = Number(parseFixed(profile.price)! / tick);
    // Walk backwards from today's price in small relative steps (in whole ticks).
    const ticks: number[] = new Array(times.length);
    let current = endTicks;
    for (let i = times.length - 1; i >= 0; i--) {
      ticks[i] = current;
      const daily = i < times.length - 432 ? 0.03 : 0.003;
      const step = Math.round(current * daily * (random.next() * 2 - 1));
      current = Math.max(
        Math.round(endTicks * 0.35),
        Math.min(Math.round(endTicks * 1.8), current - step),
      );
    }
    walks.set(
      market.symbol,
      ticks.map((t) => BigInt(t) * tick),
    );
  }
  for (const [i, time] of times.entries()) {
    if (i > 0 && i % MOMENTS_PER_SLICE === 0) yield;
    for (const market of DEMO_MARKETS) {
      const price = formatFixed(walks.get(market.symbol)![i]!);
      const lot = parseFixed(MARKET_PROFILE[market.symbol]!.lot)!;
      const quantity = formatFixed((lot * BigInt(randomOf(market.symbol).int(1, 20))) / 10n);
      const buyer = i % 97 === 5 && i > times.length - 300 ? parentId : makerId;
      deps.engine.atTime(time, () => {
        deps.engine.placeOrder(makerId, {
          symbol: market.symbol,
          side: 'sell',
          type: 'limit',
          quantity,
          price,
        });
        if (buyer === parentId) {
          const cost = (parseFixed(price)! * parseFixed(quantity)!) / 10n ** 18n;
          deps.ledger.credit(parentId, market.quoteAsset, cost);
        }
        deps.engine.placeOrder(buyer, {
          symbol: market.symbol,
          side: 'buy',
          type: 'limit',
          quantity,
          price,
        });
      });
    }
  }
}

/** Resting maker orders on both sides, a few ticks apart, around the last price. */
function seedBooks(deps: WorldDeps, worldRandom: SeededRandom, makerId: number): void {
  const laterRandom = new SeededRandom(deps.seed + 1013);
  for (const market of DEMO_MARKETS) {
    const random = LATER_MARKETS.has(market.symbol) ? laterRandom : worldRandom;
    const profile = MARKET_PROFILE[market.symbol]!;
    const tick = parseFixed(market.tickSize)!;
    const last = parseFixed(deps.engine.lastPrice(market.symbol) ?? profile.price)!;
    const lot = parseFixed(profile.lot)!;
    const half = BigInt(Math.ceil(profile.spreadTicks / 2));
    for (let level = 0; level < 25; level++) {
      const offset = (half + BigInt(level * profile.stepTicks)) * tick;
      for (const side of ['buy', 'sell'] as const) {
        const price = side === 'buy' ? last - offset : last + offset;
        if (price <= 0n) continue;
        const quantity = formatFixed((lot * BigInt(random.int(2, 40))) / 10n);
        deps.engine.placeOrder(makerId, {
          symbol: market.symbol,
          side,
          type: 'limit',
          quantity,
          price: formatFixed(price),
        });
      }
    }
  }
}
