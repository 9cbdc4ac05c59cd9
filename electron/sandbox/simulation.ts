/**
 * The sandbox's living market: a market maker quotes a few levels around a random-walk price per
 * symbol and a taker crosses the spread, so trades, tickers, klines and depth move by themselves.
 * Now and then it also fills part of the demo user's resting orders (by trading against them),
 * credits the demo user a deposit and requests or settles a withdrawal of theirs, so every private
 * event can be watched without doing anything.
 *
 * Every choice comes from the seeded random source and every step is scheduled on the clock, and
 * the simulation sets its own clientOrderIds: the same seed and the same clock steps give the same
 * trade sequence.
 */
import { Decimal, divide } from '../../shared/exact-decimal';
import type { Clock, TimerHandle } from '../core/clock';
import { addressFor } from './addresses';
import type { MarketConfig, MatchingEngine, Order } from './engine';
import { SandboxError } from './errors';
import { formatFixed, parseFixed } from './fixed';
import type { Ledger } from './ledger';
import type { SeededRandom } from './random';
import { defaultCoins, type NetworkInfo, type Wallet } from './wallet';

export interface SimulationDeps {
  clock: Clock;
  random: SeededRandom;
  engine: MatchingEngine;
  ledger: Ledger;
  wallet: Wallet;
  makerAccountId: number;
  /** The demo user, whose deposits and withdrawals the simulation makes; none in an empty world. */
  demoAccountId: number | undefined;
  ratePerSecond: number;
}

export interface Simulation {
  stop(): void;
}

/** Levels the maker keeps on each side of every market. */
const QUOTE_LEVELS = 10;
/** Distance between the maker's levels (and half its spread), as a fraction of the price. */
const LEVEL_GAP = 0.0002;
/** Largest random-walk move per requote, as a fraction of the price. */
const MAX_STEP = 0.001;
/** Share of the distance to the starting price the walk moves back each requote (no drift away). */
const MEAN_REVERSION = 0.02;
/** The maker is topped up to this per asset when below a thousandth of it. */
const MAKER_FUNDS = '1000000000';
/** At most this many of the demo user's withdrawals are pending at once. */
const MAX_PENDING_WITHDRAWALS = 2;
/** Highest quantity precision the simulation uses, whatever the market allows. */
const MAX_QUANTITY_DECIMALS = 8;

/** What one simulation step does, by cumulative probability. */
const ACTIONS: readonly [number, Action][] = [
  [0.02, 'deposit'],
  [0.04, 'withdrawal'],
  [0.08, 'fillDemo'],
  [0.45, 'requote'],
  [1, 'take'],
];
type Action = 'deposit' | 'withdrawal' | 'fillDemo' | 'requote' | 'take';

interface MarketState {
  config: MarketConfig;
  tick: Decimal;
  /** Lowest price the market accepts, in ticks. */
  minTicks: number;
  /** The price the walk started at and reverts towards, in ticks. */
  anchorTicks: number;
  midTicks: number;
  /** A typical order size in base units (from the starting book). */
  lot: Decimal;
  quantityDecimals: number;
}

export function startMarketSimulation(deps: SimulationDeps): Simulation {
  if (!Number.isFinite(deps.ratePerSecond) || deps.ratePerSecond <= 0) {
    throw new Error(`ratePerSecond must be a positive number, got ${deps.ratePerSecond}`);
  }
  const simulation = new MarketSimulation(deps);
  simulation.start();
  return { stop: () => simulation.stop() };
}

class MarketSimulation {
  private readonly markets: MarketState[];
  private readonly intervalMs: number;
  private timer: TimerHandle | undefined;
  private stopped = false;
  private nextClientOrderId = 1;
  private nextWithdrawOrderId = 1;
  private readonly pendingWithdrawals: string[] = [];
  private readonly withdrawNetworks: NetworkInfo[];

  constructor(private readonly deps: SimulationDeps) {
    this.intervalMs = Math.max(1, Math.round(1000 / deps.ratePerSecond));
    this.markets = deps.engine.symbols().map((config) => this.initialState(config));
    // Networks a withdrawal can use without a memo (requestWithdrawal takes no tag).
    this.withdrawNetworks = defaultCoins()
      .flatMap((coin) => coin.networkList)
      .filter((network) => network.withdrawEnable && !network.memoRequired);
  }

  start(): void {
    this.fundMaker();
    for (const market of this.markets) this.requote(market);
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.step();
      this.schedule();
    }, this.intervalMs);
  }

  private step(): void {
    const { random } = this.deps;
    const roll = random.next();
    const action = ACTIONS.find(([upTo]) => roll < upTo)?.[1] ?? 'take';
    try {
      switch (action) {
        case 'deposit':
          if (this.deps.demoAccountId !== undefined) this.deposit(this.deps.demoAccountId);
          break;
        case 'withdrawal':
          if (this.deps.demoAccountId !== undefined) this.withdrawal(this.deps.demoAccountId);
          break;
        case 'fillDemo':
          this.fillDemoOrder();
          break;
        case 'requote':
          this.requote(random.pick(this.markets));
          break;
        case 'take':
          this.take(random.pick(this.markets));
          break;
      }
    } catch (error) {
      // A refused operation (e.g. a balance the demo user spent meanwhile) skips this step; the
      // market goes on. Anything else is a bug and must surface.
      if (!(error instanceof SandboxError)) throw error;
    }
  }

  // -- markets ----------------------------------------------------------------------------------

  private initialState(config: MarketConfig): MarketState {
    const { engine } = this.deps;
    const tick = new Decimal(config.tickSize);
    const minTicks = Math.max(1, divide(config.minPrice, tick).ceil().toNumber());
    const book = engine.depth(config.symbol, 20);
    const bestBid = book.bids[0]?.[0];
    const bestAsk = book.asks[0]?.[0];
    const last = engine.lastPrice(config.symbol);
    let reference: Decimal;
    if (bestBid && bestAsk) reference = new Decimal(bestBid).plus(bestAsk).times('0.5');
    else if (last) reference = new Decimal(last);
    else reference = Decimal.max(new Decimal(config.minPrice).times(1000), 1);
    const midTicks = Math.max(
      minTicks + 4 * QUOTE_LEVELS,
      divide(reference, tick).toDecimalPlaces(0).toNumber(),
    );
    const quantityDecimals = Math.min(config.baseAssetPrecision, MAX_QUANTITY_DECIMALS);
    const sizes = [...book.bids, ...book.asks]
      .map(([, qty]) => new Decimal(qty))
      .sort((a, b) => a.comparedTo(b));
    const median = sizes[Math.floor(sizes.length / 2)];
    const lot = median ?? new Decimal(1);
    return { config, tick, minTicks, anchorTicks: midTicks, midTicks, lot, quantityDecimals };
  }

  private price(market: MarketState, ticks: number): string {
    return market.tick.times(ticks).toFixed();
  }

  /** lot x tenths / 10, at the market's precision (at least its smallest unit). */
  private quantity(market: MarketState, tenths: number): string {
    const smallest = new Decimal(`1e-${market.quantityDecimals}`);
    const value = market.lot
      .times(tenths)
      .times('0.1')
      .toDecimalPlaces(market.quantityDecimals, Decimal.ROUND_DOWN);
    return Decimal.max(value, smallest).toFixed();
  }

  private clientOrderId(): string {
    return `sim-${this.nextClientOrderId++}`;
  }

  private place(market: MarketState, side: 'buy' | 'sell', ticks: number, quantity: string): Order {
    return this.deps.engine.placeOrder(this.deps.makerAccountId, {
      symbol: market.config.symbol,
      side,
      type: 'limit',
      quantity,
      price: this.price(market, ticks),
      clientOrderId: this.clientOrderId(),
    });
  }

  /** A crossing order that must not stay in the book: whatever did not fill is canceled. */
  private placeAndCancelRest(
    market: MarketState,
    side: 'buy' | 'sell',
    ticks: number,
    quantity: string,
  ): void {
    const order = this.place(market, side, ticks, quantity);
    if (order.status === 'wait') {
      this.deps.engine.cancelOrder(this.deps.makerAccountId, market.config.symbol, {
        orderId: order.id,
      });
    }
  }

  /** Moves the price a random step and replaces the maker's levels around it. */
  private requote(market: MarketState): void {
    const { random, engine } = this.deps;
    const swing = Math.round(market.midTicks * MAX_STEP * (2 * random.next() - 1));
    const reversion = Math.round((market.anchorTicks - market.midTicks) * MEAN_REVERSION);
    const gap = Math.max(1, Math.round(market.midTicks * LEVEL_GAP));
    market.midTicks = Math.max(
      market.minTicks + gap * (QUOTE_LEVELS + 1),
      market.midTicks + swing + reversion,
    );
    engine.cancelAll(this.deps.makerAccountId, market.config.symbol);
    for (let level = 1; level <= QUOTE_LEVELS; level++) {
      this.place(
        market,
        'buy',
        market.midTicks - gap * level,
        this.quantity(market, random.int(2, 20)),
      );
      this.place(
        market,
        'sell',
        market.midTicks + gap * level,
        this.quantity(market, random.int(2, 20)),
      );
    }
  }

  /** A taker crosses the spread at the best opposite price. */
  private take(market: MarketState): void {
    const { random, engine } = this.deps;
    const side = random.next() < 0.5 ? 'buy' : 'sell';
    const book = engine.depth(market.config.symbol, 1);
    const best = side === 'buy' ? book.asks[0]?.[0] : book.bids[0]?.[0];
    if (!best) {
      this.requote(market);
      return;
    }
    const ticks = divide(best, market.tick).toNumber();
    this.placeAndCancelRest(market, side, ticks, this.quantity(market, random.int(1, 10)));
  }

  // -- the maker's and the demo user's accounts -------------------------------------------------

  /** The world funds the maker generously; this only guards against a world that did not. */
  private fundMaker(): void {
    const { makerAccountId } = this.deps;
    const free = this.freeBalances(makerAccountId);
    const floor = new Decimal(MAKER_FUNDS).times('0.001');
    const assets = new Set(this.markets.flatMap((m) => [m.config.baseAsset, m.config.quoteAsset]));
    for (const asset of assets) {
      if ((free.get(asset) ?? new Decimal(0)).lt(floor))
        this.credit(makerAccountId, asset, MAKER_FUNDS);
    }
  }

  private freeBalances(accountId: number): Map<string, Decimal> {
    return new Map(
      this.deps.ledger
        .assetsOf(accountId)
        .map(([asset, balance]) => [asset, new Decimal(formatFixed(balance.free))]),
    );
  }

  private credit(accountId: number, asset: string, amount: string): void {
    this.deps.ledger.credit(accountId, asset, parseFixed(amount)!);
    this.deps.ledger.flush();
  }

  /**
   * Trades against part of the best resting order of someone other than the maker on one side
   * of a market: with the maker's own levels taken away, what is left in the book are the demo
   * user's (and its sub-accounts') orders. Then the maker quotes again.
   */
  private fillDemoOrder(): void {
    const { engine, random } = this.deps;
    const market = random.pick(this.markets);
    const symbol = market.config.symbol;
    engine.cancelAll(this.deps.makerAccountId, symbol);
    const book = engine.depth(symbol, 1);
    const sides = (['bids', 'asks'] as const).filter((side) => book[side].length > 0);
    if (sides.length > 0) {
      const side = random.pick(sides);
      const [price, available] = book[side][0]!;
      const part = new Decimal(available)
        .times(random.int(2, 6))
        .times('0.1')
        .toDecimalPlaces(market.quantityDecimals, Decimal.ROUND_DOWN);
      const quantity = part.isZero() ? new Decimal(available) : part;
      const ticks = divide(price, market.tick).toNumber();
      this.placeAndCancelRest(market, side === 'bids' ? 'sell' : 'buy', ticks, quantity.toFixed());
    }
    this.requote(market);
  }

  /** A deposit to the demo user: a few lots of one asset of a random market. */
  private deposit(demoAccountId: number): void {
    const { random } = this.deps;
    const market = random.pick(this.markets);
    const lots = random.int(1, 5);
    if (random.next() < 0.5) {
      this.credit(demoAccountId, market.config.baseAsset, this.quantity(market, lots * 10));
    } else {
      const value = market.lot.times(lots).times(this.price(market, market.midTicks));
      // Cents for amounts of 1 and more, satoshi-like precision below.
      const decimals = Math.min(market.config.quoteAssetPrecision, value.gte(1) ? 2 : 8);
      const amount = value.toDecimalPlaces(decimals, Decimal.ROUND_DOWN);
      if (amount.gt(0)) this.credit(demoAccountId, market.config.quoteAsset, amount.toFixed());
    }
  }

  /** Settles the oldest pending withdrawal (mostly successfully), or requests a new one. */
  private withdrawal(demoAccountId: number): void {
    const { random, wallet } = this.deps;
    if (
      this.pendingWithdrawals.length >= MAX_PENDING_WITHDRAWALS ||
      (this.pendingWithdrawals.length > 0 && random.next() < 0.5)
    ) {
      const id = this.pendingWithdrawals.shift()!;
      wallet.settleWithdrawal(id, random.next() < 0.8 ? 'success' : 'failed');
      return;
    }
    const free = this.freeBalances(demoAccountId);
    const candidates = this.withdrawNetworks.filter((network) => {
      const balance = free.get(network.coin);
      // A tenth of the balance must reach the network's minimum and cover the fee.
      return (
        balance !== undefined &&
        balance.times('0.1').gte(Decimal.max(network.withdrawMin, network.withdrawFee))
      );
    });
    if (candidates.length === 0) return;
    const network = random.pick(candidates);
    const balance = free.get(network.coin)!;
    const amount = Decimal.max(
      network.withdrawMin,
      balance.times(random.int(1, 5)).times('0.01').toDecimalPlaces(6, Decimal.ROUND_DOWN),
    );
    const { id } = wallet.requestWithdrawal(demoAccountId, {
      coin: network.coin,
      network: network.network,
      amount: amount.toFixed(),
      address: addressFor(network.network, random),
      // Marks the simulation's withdrawals in the demo user's history.
      withdrawOrderId: `sim-withdrawal-${this.nextWithdrawOrderId++}`,
    });
    this.pendingWithdrawals.push(id);
  }
}
