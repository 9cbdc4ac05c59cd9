import { randomBytes } from 'node:crypto';
import type { Clock } from './clock';
import { errors } from './errors';
import type { SandboxEvents, SandboxOrderSnapshot } from './events';
import { decimalPlaces, formatFixed, mulFixed, parseFixed, SCALE } from './fixed';
import type { Ledger } from './ledger';

export interface MarketConfig {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  tickSize: string;
  minPrice: string;
  baseAssetPrecision: number;
  quoteAssetPrecision: number;
}

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'limit' | 'stop_limit';
export type OrderStatus = 'idle' | 'wait' | 'done' | 'cancel';

/** An order as the REST interface shows it. */
export interface Order {
  id: number;
  clientOrderId: string;
  symbol: string;
  price: string;
  stopPrice?: string;
  origQty: string;
  executedQty: string;
  status: OrderStatus;
  type: OrderType;
  side: OrderSide;
  createdTime: number;
  updatedTime: number;
}

export interface PublicTrade {
  id: number;
  price: string;
  qty: string;
  quoteQty: string;
  time: number;
  isBuyerMaker: boolean;
}

export interface OwnTrade {
  id: number;
  symbol: string;
  fee: string;
  feeCurrency: string;
  quoteQty: string;
  price: string;
  qty: string;
  orderId: number;
  side: OrderSide;
  isBuyerMaker: boolean;
  time: number;
}

export interface Ticker {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  openPrice: string;
  lowPrice: string;
  highPrice: string;
  lastPrice: string;
  volume: string;
  bidPrice: string;
  askPrice: string;
  at: number;
}

/** [start time, open, high, low, close, base volume] */
export type Kline = [number, string, string, string, string, string];

export interface OrderInput {
  symbol: string;
  side: OrderSide;
  type: OrderType;
  quantity: string;
  price: string;
  stopPrice?: string;
  clientOrderId?: string;
}

export interface OrderListFilter {
  symbol?: string;
  orderId?: number;
  startTime?: number;
  endTime?: number;
  limit?: number;
}

export interface TradeListFilter extends OrderListFilter {
  fromId?: number;
}

export const KLINE_INTERVALS: Record<string, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
};

/** Weeks start on Monday; 1970-01-01 was a Thursday, so Monday is 4 days after the epoch. */
const WEEK_OFFSET_MS = 4 * 86_400_000;
const DAY_MS = 86_400_000;
const MAKER_FEE_PER_MILLE = 1n;
const TAKER_FEE_PER_MILLE = 2n;
const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
const MAX_OPEN_ORDERS_LISTED = 1000;

interface EngineOrder {
  id: number;
  accountId: number;
  clientOrderId: string;
  market: Market;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: bigint;
  stopPrice: bigint | undefined;
  origQty: bigint;
  executedQty: bigint;
  executedQuote: bigint;
  /** What is still locked for this order (quote for a buy, base for a sell). */
  locked: bigint;
  isMaker: boolean;
  createdTime: number;
  updatedTime: number;
}

interface Level {
  price: bigint;
  orders: EngineOrder[];
  head: number;
  quantity: bigint;
}

interface StoredTrade {
  id: number;
  price: bigint;
  qty: bigint;
  quote: bigint;
  time: number;
  isBuyerMaker: boolean;
}

interface StoredOwnTrade {
  id: number;
  symbol: string;
  fee: bigint;
  feeCurrency: string;
  quote: bigint;
  price: bigint;
  qty: bigint;
  orderId: number;
  side: OrderSide;
  isBuyerMaker: boolean;
  time: number;
}

interface Candle {
  start: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
}

interface Market {
  config: MarketConfig;
  tick: bigint;
  minPrice: bigint;
  /** Ascending price: the best bid is the last element. */
  bids: Level[];
  /** Descending price: the best ask is the last element. */
  asks: Level[];
  stops: EngineOrder[];
  trades: StoredTrade[];
  candles: Candle[];
  lastPrice: bigint | undefined;
  lastUpdateAt: number;
}

/** Orders, fills and history of one account. */
interface AccountBook {
  orders: EngineOrder[];
  open: Map<number, EngineOrder>;
  openByClientId: Map<string, EngineOrder>;
  trades: StoredOwnTrade[];
}

/**
 * The sandbox's matching engine: price-time priority over sorted price levels with FIFO queues,
 * limit and stop_limit orders, balances locked in the Ledger, maker/taker fees on the received
 * asset, public and own trades, 1-minute candles (every kline interval and the rolling 24h
 * ticker are aggregated from them). Amounts are bigint fixed-point inside, strings at the edges.
 */
export class MatchingEngine {
  private readonly markets = new Map<string, Market>();
  private readonly accounts = new Map<number, AccountBook>();
  /** Every order by id (ids are dense from 1, so an array is the cheapest index). */
  private readonly ordersById: EngineOrder[] = [];
  private nextOrderId = 1;
  private nextTradeId = 1;
  private readonly changedBooks = new Set<Market>();
  /** Generated clientOrderIds: a random 16-hex prefix per engine plus a 16-hex counter. */
  private readonly generatedIdPrefix = randomBytes(8).toString('hex');
  private generatedIdCounter = 1;
  /** When set, the engine's time (seeding history in the past). */
  private timeOverride: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly events: SandboxEvents,
    private readonly ledger: Ledger,
    markets: MarketConfig[],
  ) {
    for (const config of markets) {
      this.markets.set(config.symbol, {
        config,
        tick: parseFixed(config.tickSize)!,
        minPrice: parseFixed(config.minPrice)!,
        bids: [],
        asks: [],
        stops: [],
        trades: [],
        candles: [],
        lastPrice: undefined,
        lastUpdateAt: clock.now(),
      });
    }
  }

  symbols(): MarketConfig[] {
    return [...this.markets.values()].map((market) => market.config);
  }

  hasSymbol(symbol: string): boolean {
    return this.markets.has(symbol);
  }

  /** Runs fn with the engine's time fixed at `time` (to seed trade history in the past). */
  atTime<T>(time: number, fn: () => T): T {
    this.timeOverride = time;
    try {
      return fn();
    } finally {
      this.timeOverride = undefined;
    }
  }

  private now(): number {
    return this.timeOverride ?? this.clock.now();
  }

  private market(symbol: string): Market {
    const market = this.markets.get(symbol);
    if (!market) throw errors.invalidSymbol();
    return market;
  }

  private book(accountId: number): AccountBook {
    let book = this.accounts.get(accountId);
    if (!book) {
      book = { orders: [], open: new Map(), openByClientId: new Map(), trades: [] };
      this.accounts.set(accountId, book);
    }
    return book;
  }

  // ------------------------------------------------------------------------------------------
  // Validation

  /**
   * Checks an order's parameters as the REST layer receives them (strings, possibly missing) and
   * returns the parsed order; throws the error of decisions.md's table otherwise.
   */
  validateOrder(params: Record<string, string | undefined>): OrderInput {
    const symbol = params.symbol;
    if (symbol === undefined || symbol === '') throw errors.missing('symbol');
    const market = this.market(symbol);
    const side = params.side;
    if (side === undefined) throw errors.missing('side');
    if (side !== 'buy' && side !== 'sell') throw errors.invalid('side', 'buy or sell');
    const type = params.type;
    if (type === undefined) throw errors.missing('type');
    if (type !== 'limit' && type !== 'stop_limit')
      throw errors.invalid('type', 'limit or stop_limit');
    const quantity = params.quantity;
    if (quantity === undefined || quantity === '') throw errors.missing('quantity');
    const price = params.price;
    if (price === undefined || price === '') throw errors.missing('price');
    const stopPrice = params.stopPrice;
    if (type === 'stop_limit' && (stopPrice === undefined || stopPrice === '')) {
      throw errors.stopPriceNotFound();
    }
    this.parseQuantity(market, quantity);
    this.parsePrice(market, price, 'price');
    if (type === 'stop_limit') this.parsePrice(market, stopPrice!, 'stopPrice');
    const clientOrderId = params.clientOrderId;
    if (clientOrderId !== undefined && !CLIENT_ORDER_ID_PATTERN.test(clientOrderId)) {
      throw errors.invalid('clientOrderId', '1 to 64 characters of letters, digits, _ . : -');
    }
    const input: OrderInput = { symbol, side, type, quantity, price };
    if (type === 'stop_limit') input.stopPrice = stopPrice;
    if (clientOrderId !== undefined) input.clientOrderId = clientOrderId;
    return input;
  }

  private parseQuantity(market: Market, text: string): bigint {
    const value = parseFixed(text);
    if (value === undefined) throw errors.invalid('quantity', 'a positive decimal number');
    if (value <= 0n) throw errors.invalid('quantity', 'must be greater than 0');
    if (decimalPlaces(text) > market.config.baseAssetPrecision) {
      throw errors.invalid(
        'quantity',
        `at most ${market.config.baseAssetPrecision} decimals for ${market.config.symbol}`,
      );
    }
    return value;
  }

  private parsePrice(market: Market, text: string, name: string): bigint {
    const value = parseFixed(text);
    if (value === undefined) throw errors.invalid(name, 'a positive decimal number');
    if (value <= 0n) throw errors.invalid(name, 'must be greater than 0');
    if (value < market.minPrice) {
      throw errors.invalid(name, `at least ${market.config.minPrice}`);
    }
    if (value % market.tick !== 0n) {
      throw errors.invalid(name, `a multiple of tickSize ${market.config.tickSize}`);
    }
    return value;
  }

  // ------------------------------------------------------------------------------------------
  // Orders

  placeOrder(accountId: number, input: OrderInput): Order {
    const market = this.market(input.symbol);
    if (input.side !== 'buy' && input.side !== 'sell') throw errors.invalid('side', 'buy or sell');
    if (input.type !== 'limit' && input.type !== 'stop_limit') {
      throw errors.invalid('type', 'limit or stop_limit');
    }
    const quantity = this.parseQuantity(market, input.quantity);
    const price = this.parsePrice(market, input.price, 'price');
    let stopPrice: bigint | undefined;
    if (input.type === 'stop_limit') {
      if (input.stopPrice === undefined || input.stopPrice === '') throw errors.stopPriceNotFound();
      stopPrice = this.parsePrice(market, input.stopPrice, 'stopPrice');
    }
    const book = this.book(accountId);
    let clientOrderId = input.clientOrderId;
    if (clientOrderId !== undefined) {
      if (!CLIENT_ORDER_ID_PATTERN.test(clientOrderId)) {
        throw errors.invalid('clientOrderId', '1 to 64 characters of letters, digits, _ . : -');
      }
      if (book.openByClientId.has(clientOrderId)) throw errors.duplicateClientOrderId();
    } else {
      clientOrderId =
        this.generatedIdPrefix + (this.generatedIdCounter++).toString(16).padStart(16, '0');
    }
    const lockAsset = input.side === 'buy' ? market.config.quoteAsset : market.config.baseAsset;
    const lockAmount = input.side === 'buy' ? mulFixed(price, quantity) : quantity;
    // Throws 2002 before anything changed.
    this.ledger.lock(accountId, lockAsset, lockAmount);

    const now = this.now();
    const order: EngineOrder = {
      id: this.nextOrderId++,
      accountId,
      clientOrderId,
      market,
      side: input.side,
      type: input.type,
      status: input.type === 'stop_limit' ? 'idle' : 'wait',
      price,
      stopPrice,
      origQty: quantity,
      executedQty: 0n,
      executedQuote: 0n,
      locked: lockAmount,
      isMaker: false,
      createdTime: now,
      updatedTime: now,
    };
    book.orders.push(order);
    book.open.set(order.id, order);
    book.openByClientId.set(clientOrderId, order);
    this.ordersById[order.id] = order;

    if (order.type === 'stop_limit') {
      market.stops.push(order);
      this.emitOrder(order);
    } else {
      this.emitOrder(order);
      this.execute(order);
    }
    this.finishOperation();
    return toWireOrder(order);
  }

  cancelOrder(
    accountId: number,
    symbol: string,
    ref: { orderId?: number; clientOrderId?: string },
  ): Order {
    const market = this.market(symbol);
    const book = this.book(accountId);
    let order: EngineOrder | undefined;
    if (ref.clientOrderId !== undefined) order = book.openByClientId.get(ref.clientOrderId);
    else if (ref.orderId !== undefined) order = book.open.get(ref.orderId);
    else throw errors.missing('orderId');
    if (!order || order.market !== market) throw errors.orderDoesNotExist();
    this.cancel(order);
    this.finishOperation();
    return toWireOrder(order);
  }

  cancelAll(accountId: number, symbol: string): Order[] {
    const market = this.market(symbol);
    const book = this.book(accountId);
    const canceled: Order[] = [];
    for (const order of [...book.open.values()].sort((a, b) => a.id - b.id)) {
      if (order.market !== market) continue;
      this.cancel(order);
      canceled.push(toWireOrder(order));
    }
    this.finishOperation();
    return canceled;
  }

  private cancel(order: EngineOrder): void {
    const market = order.market;
    if (order.status === 'idle') {
      const index = market.stops.indexOf(order);
      if (index >= 0) market.stops.splice(index, 1);
    } else {
      this.removeFromBook(order);
    }
    this.ledger.unlock(
      order.accountId,
      order.side === 'buy' ? market.config.quoteAsset : market.config.baseAsset,
      order.locked,
    );
    order.locked = 0n;
    order.status = 'cancel';
    order.updatedTime = this.now();
    this.closeOrder(order);
    this.emitOrder(order);
  }

  private closeOrder(order: EngineOrder): void {
    const book = this.book(order.accountId);
    book.open.delete(order.id);
    if (book.openByClientId.get(order.clientOrderId) === order)
      book.openByClientId.delete(order.clientOrderId);
  }

  private removeFromBook(order: EngineOrder): void {
    const market = order.market;
    const levels = order.side === 'buy' ? market.bids : market.asks;
    const index = findLevel(levels, order.price, order.side === 'buy');
    if (index < 0) return;
    const level = levels[index]!;
    const position = level.orders.indexOf(order, level.head);
    if (position < 0) return;
    level.orders.splice(position, 1);
    level.quantity -= order.origQty - order.executedQty;
    if (level.head >= level.orders.length) levels.splice(index, 1);
    this.changedBooks.add(market);
  }

  /** Matches a taker order (new limit or triggered stop) against the book, then rests the rest. */
  private execute(taker: EngineOrder): void {
    const market = taker.market;
    const isBuy = taker.side === 'buy';
    const opposite = isBuy ? market.asks : market.bids;
    while (taker.executedQty < taker.origQty && opposite.length > 0) {
      const level = opposite[opposite.length - 1]!;
      if (isBuy ? level.price > taker.price : level.price < taker.price) break;
      while (level.head < level.orders.length && taker.executedQty < taker.origQty) {
        const maker = level.orders[level.head]!;
        const takerLeft = taker.origQty - taker.executedQty;
        const makerLeft = maker.origQty - maker.executedQty;
        const quantity = takerLeft < makerLeft ? takerLeft : makerLeft;
        this.fill(market, taker, maker, level.price, quantity);
        level.quantity -= quantity;
        if (maker.executedQty === maker.origQty) level.head++;
      }
      if (level.head >= level.orders.length) opposite.pop();
      else if (level.head > 64) {
        level.orders.splice(0, level.head);
        level.head = 0;
      }
      this.changedBooks.add(market);
    }
    if (taker.executedQty < taker.origQty) {
      taker.isMaker = true;
      this.rest(taker);
    }
  }

  private rest(order: EngineOrder): void {
    const market = order.market;
    const isBuy = order.side === 'buy';
    const levels = isBuy ? market.bids : market.asks;
    // Bids ascend and asks descend so the best level is always last.
    let low = 0;
    let high = levels.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const price = levels[mid]!.price;
      if (isBuy ? price < order.price : price > order.price) low = mid + 1;
      else high = mid;
    }
    const existing = levels[low];
    const remaining = order.origQty - order.executedQty;
    if (existing && existing.price === order.price) {
      existing.orders.push(order);
      existing.quantity += remaining;
    } else {
      levels.splice(low, 0, { price: order.price, orders: [order], head: 0, quantity: remaining });
    }
    this.changedBooks.add(market);
  }

  private fill(
    market: Market,
    taker: EngineOrder,
    maker: EngineOrder,
    price: bigint,
    quantity: bigint,
  ): void {
    const now = this.now();
    const quote = mulFixed(price, quantity);
    const buyer = taker.side === 'buy' ? taker : maker;
    const seller = taker.side === 'buy' ? maker : taker;
    const { baseAsset, quoteAsset } = market.config;
    const buyerFee =
      (quantity * (buyer === taker ? TAKER_FEE_PER_MILLE : MAKER_FEE_PER_MILLE)) / 1000n;
    const sellerFee =
      (quote * (seller === taker ? TAKER_FEE_PER_MILLE : MAKER_FEE_PER_MILLE)) / 1000n;

    // Buyer pays quote from its lock; a buy taker filled below its limit gets the excess back.
    const buyerLockShare = mulFixed(buyer.price, quantity);
    this.ledger.spendLocked(buyer.accountId, quoteAsset, quote);
    if (buyerLockShare > quote)
      this.ledger.unlock(buyer.accountId, quoteAsset, buyerLockShare - quote);
    buyer.locked -= buyerLockShare;
    this.ledger.receive(buyer.accountId, baseAsset, quantity, buyerFee);

    this.ledger.spendLocked(seller.accountId, baseAsset, quantity);
    seller.locked -= quantity;
    this.ledger.receive(seller.accountId, quoteAsset, quote, sellerFee);

    this.applyFill(taker, quantity, quote, now);
    this.applyFill(maker, quantity, quote, now);

    const tradeId = this.nextTradeId++;
    const isBuyerMaker = buyer === maker;
    market.trades.push({ id: tradeId, price, qty: quantity, quote, time: now, isBuyerMaker });
    this.book(buyer.accountId).trades.push({
      id: tradeId,
      symbol: market.config.symbol,
      fee: buyerFee,
      feeCurrency: baseAsset,
      quote,
      price,
      qty: quantity,
      orderId: buyer.id,
      side: 'buy',
      isBuyerMaker,
      time: now,
    });
    this.book(seller.accountId).trades.push({
      id: tradeId,
      symbol: market.config.symbol,
      fee: sellerFee,
      feeCurrency: quoteAsset,
      quote,
      price,
      qty: quantity,
      orderId: seller.id,
      side: 'sell',
      isBuyerMaker,
      time: now,
    });
    market.lastPrice = price;
    this.addToCandle(market, now, price, quantity);

    this.emitOrder(maker);
    this.emitOrder(taker);
    if (this.events.listenerCount('trade') > 0) {
      this.events.emit('trade', {
        id: tradeId,
        symbol: market.config.symbol,
        price: formatFixed(price),
        qty: formatFixed(quantity),
        quoteQty: formatFixed(quote),
        time: now,
        isBuyerMaker,
        buyOrderId: buyer.id,
        sellOrderId: seller.id,
        buyerAccountId: buyer.accountId,
        sellerAccountId: seller.accountId,
        buyerClientOrderId: buyer.clientOrderId,
        sellerClientOrderId: seller.clientOrderId,
        buyerFee: formatFixed(buyerFee),
        buyerFeeCurrency: baseAsset,
        sellerFee: formatFixed(sellerFee),
        sellerFeeCurrency: quoteAsset,
      });
    }
  }

  private applyFill(order: EngineOrder, quantity: bigint, quote: bigint, now: number): void {
    order.executedQty += quantity;
    order.executedQuote += quote;
    order.updatedTime = now;
    if (order.executedQty !== order.origQty) return;
    order.status = 'done';
    if (order.locked !== 0n) {
      // Rounding leftovers of the lock go back to the owner.
      const { baseAsset, quoteAsset } = order.market.config;
      this.ledger.unlock(
        order.accountId,
        order.side === 'buy' ? quoteAsset : baseAsset,
        order.locked,
      );
      order.locked = 0n;
    }
    this.closeOrder(order);
  }

  /** Triggers idle stop orders the last price has reached; each then acts as a new limit order. */
  private triggerStops(market: Market): void {
    for (;;) {
      const last = market.lastPrice;
      if (last === undefined || market.stops.length === 0) return;
      const index = market.stops.findIndex((order) =>
        order.side === 'buy' ? last >= order.stopPrice! : last <= order.stopPrice!,
      );
      if (index < 0) return;
      const order = market.stops[index]!;
      market.stops.splice(index, 1);
      order.status = 'wait';
      order.updatedTime = this.now();
      this.emitOrder(order);
      this.execute(order);
    }
  }

  private finishOperation(): void {
    for (const market of this.changedBooks) this.triggerStops(market);
    if (this.changedBooks.size > 0) {
      const time = this.now();
      const notify = this.events.listenerCount('book') > 0;
      for (const market of this.changedBooks) {
        market.lastUpdateAt = time;
        if (notify) this.events.emit('book', { symbol: market.config.symbol, time });
      }
      this.changedBooks.clear();
    }
    this.ledger.flush();
  }

  private emitOrder(order: EngineOrder): void {
    if (this.events.listenerCount('order') === 0) return;
    const snapshot: SandboxOrderSnapshot = {
      accountId: order.accountId,
      id: order.id,
      clientOrderId: order.clientOrderId,
      symbol: order.market.config.symbol,
      side: order.side,
      type: order.type,
      status: order.status,
      price: formatFixed(order.price),
      origQty: formatFixed(order.origQty),
      executedQty: formatFixed(order.executedQty),
      executedQuoteQty: formatFixed(order.executedQuote),
      isMaker: order.isMaker,
      createdTime: order.createdTime,
      updatedTime: order.updatedTime,
    };
    if (order.stopPrice !== undefined) snapshot.stopPrice = formatFixed(order.stopPrice);
    this.events.emit('order', snapshot);
  }

  private addToCandle(market: Market, time: number, price: bigint, quantity: bigint): void {
    const start = time - (time % 60_000);
    const candles = market.candles;
    const last = candles[candles.length - 1];
    if (last && last.start === start) {
      if (price > last.high) last.high = price;
      if (price < last.low) last.low = price;
      last.close = price;
      last.volume += quantity;
      return;
    }
    const candle = { start, open: price, high: price, low: price, close: price, volume: quantity };
    if (!last || last.start < start) {
      candles.push(candle);
      return;
    }
    // A trade dated before the newest candle (only while seeding history).
    const index = lowerBound(candles, start, (c) => c.start);
    const found = candles[index];
    if (found && found.start === start) {
      if (price > found.high) found.high = price;
      if (price < found.low) found.low = price;
      found.close = price;
      found.volume += quantity;
    } else {
      candles.splice(index, 0, candle);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Queries

  getOrder(accountId: number, ref: { orderId?: number; clientOrderId?: string }): Order {
    const book = this.book(accountId);
    let order: EngineOrder | undefined;
    if (ref.clientOrderId !== undefined) {
      order = book.openByClientId.get(ref.clientOrderId);
      if (!order) {
        for (let i = book.orders.length - 1; i >= 0; i--) {
          if (book.orders[i]!.clientOrderId === ref.clientOrderId) {
            order = book.orders[i];
            break;
          }
        }
      }
    } else if (ref.orderId !== undefined) {
      const found = ref.orderId > 0 ? this.ordersById[ref.orderId] : undefined;
      if (found && found.accountId === accountId) order = found;
    } else {
      throw errors.missing('orderId');
    }
    if (!order) throw errors.orderDoesNotExist();
    return toWireOrder(order);
  }

  openOrders(accountId: number, filter: OrderListFilter = {}): Order[] {
    const book = this.book(accountId);
    const open = [...book.open.values()].sort((a, b) => a.id - b.id);
    return selectById(
      open,
      filter,
      MAX_OPEN_ORDERS_LISTED,
      (o) => o.id,
      (o) => o.createdTime,
      (o) => (filter.symbol === undefined ? true : o.market.config.symbol === filter.symbol),
    ).map(toWireOrder);
  }

  allOrders(accountId: number, filter: OrderListFilter): Order[] {
    const book = this.book(accountId);
    return selectById(
      book.orders,
      filter,
      filter.limit ?? 500,
      (o) => o.id,
      (o) => o.createdTime,
      (o) => (filter.symbol === undefined ? true : o.market.config.symbol === filter.symbol),
    ).map(toWireOrder);
  }

  myTrades(accountId: number, filter: TradeListFilter): OwnTrade[] {
    const book = this.book(accountId);
    return selectById(
      book.trades,
      { ...filter, orderId: filter.fromId },
      filter.limit ?? 500,
      (t) => t.id,
      (t) => t.time,
      (t) =>
        (filter.symbol === undefined || t.symbol === filter.symbol) &&
        (filter.orderId === undefined || t.orderId === filter.orderId),
    ).map((t) => ({
      id: t.id,
      symbol: t.symbol,
      fee: formatFixed(t.fee),
      feeCurrency: t.feeCurrency,
      quoteQty: formatFixed(t.quote),
      price: formatFixed(t.price),
      qty: formatFixed(t.qty),
      orderId: t.orderId,
      side: t.side,
      isBuyerMaker: t.isBuyerMaker,
      time: t.time,
    }));
  }

  recentTrades(symbol: string, limit: number): PublicTrade[] {
    const trades = this.market(symbol).trades;
    return trades.slice(Math.max(0, trades.length - limit)).map(toPublicTrade);
  }

  historicalTrades(symbol: string, limit: number, fromId?: number): PublicTrade[] {
    if (fromId === undefined) return this.recentTrades(symbol, limit);
    const trades = this.market(symbol).trades;
    const start = lowerBound(trades, fromId, (t) => t.id);
    return trades.slice(start, start + limit).map(toPublicTrade);
  }

  lastPrice(symbol: string): string | undefined {
    const last = this.market(symbol).lastPrice;
    return last === undefined ? undefined : formatFixed(last);
  }

  depth(
    symbol: string,
    limit: number,
  ): { lastUpdateAt: number; asks: [string, string][]; bids: [string, string][] } {
    const market = this.market(symbol);
    const side = (levels: Level[]): [string, string][] => {
      const out: [string, string][] = [];
      for (let i = levels.length - 1; i >= 0 && out.length < limit; i--) {
        const level = levels[i]!;
        out.push([formatFixed(level.price), formatFixed(level.quantity)]);
      }
      return out;
    };
    return { lastUpdateAt: market.lastUpdateAt, asks: side(market.asks), bids: side(market.bids) };
  }

  ticker(symbol: string): Ticker {
    const market = this.market(symbol);
    const now = this.now();
    const from = now - DAY_MS;
    const candles = market.candles;
    let open: bigint | undefined;
    let high = 0n;
    let low = 0n;
    let volume = 0n;
    // Exact rolling window (from, now]: single trades up to the next whole minute, then candles.
    const boundary = from - (from % 60_000) + 60_000;
    const trades = market.trades;
    const take = (first: bigint, hi: bigint, lo: bigint, amount: bigint) => {
      if (open === undefined) {
        open = first;
        high = hi;
        low = lo;
      } else {
        if (hi > high) high = hi;
        if (lo < low) low = lo;
      }
      volume += amount;
    };
    for (let i = lowerBound(trades, from + 1, (t) => t.time); i < trades.length; i++) {
      const trade = trades[i]!;
      if (trade.time >= boundary || trade.time > now) break;
      take(trade.price, trade.price, trade.price, trade.qty);
    }
    for (let i = lowerBound(candles, boundary, (c) => c.start); i < candles.length; i++) {
      const candle = candles[i]!;
      if (candle.start > now) break;
      take(candle.open, candle.high, candle.low, candle.volume);
    }
    const last = market.lastPrice ?? 0n;
    const bestBid = market.bids[market.bids.length - 1]?.price ?? 0n;
    const bestAsk = market.asks[market.asks.length - 1]?.price ?? 0n;
    return {
      symbol,
      baseAsset: market.config.baseAsset,
      quoteAsset: market.config.quoteAsset,
      openPrice: formatFixed(open ?? last),
      lowPrice: formatFixed(open === undefined ? last : low),
      highPrice: formatFixed(open === undefined ? last : high),
      lastPrice: formatFixed(last),
      volume: formatFixed(volume),
      bidPrice: formatFixed(bestBid),
      askPrice: formatFixed(bestAsk),
      at: now,
    };
  }

  tickers(): Ticker[] {
    return [...this.markets.keys()].map((symbol) => this.ticker(symbol));
  }

  klines(
    symbol: string,
    query: { interval: string; limit: number; startTime?: number; endTime?: number },
  ): Kline[] {
    const market = this.market(symbol);
    const size = KLINE_INTERVALS[query.interval];
    if (size === undefined) throw errors.invalid('interval');
    const offset = query.interval === '1w' ? WEEK_OFFSET_MS : 0;
    const align = (t: number) => Math.floor((t - offset) / size) * size + offset;
    const candles = market.candles;
    const lo =
      query.startTime === undefined
        ? 0
        : lowerBound(
            candles,
            align(query.startTime) < query.startTime
              ? align(query.startTime) + size
              : align(query.startTime),
            (c) => c.start,
          );
    const hi =
      query.endTime === undefined
        ? candles.length
        : lowerBound(candles, align(query.endTime) + size, (c) => c.start);
    const result: Kline[] = [];
    const merge = (kline: Kline | undefined, candle: Candle, forward: boolean): Kline => {
      if (!kline) {
        return [
          align(candle.start),
          formatFixed(candle.open),
          formatFixed(candle.high),
          formatFixed(candle.low),
          formatFixed(candle.close),
          formatFixed(candle.volume),
        ];
      }
      const high = parseFixed(kline[2])!;
      const low = parseFixed(kline[3])!;
      if (forward) kline[4] = formatFixed(candle.close);
      else kline[1] = formatFixed(candle.open);
      if (candle.high > high) kline[2] = formatFixed(candle.high);
      if (candle.low < low) kline[3] = formatFixed(candle.low);
      kline[5] = formatFixed(parseFixed(kline[5])! + candle.volume);
      return kline;
    };
    if (query.startTime !== undefined) {
      let current: Kline | undefined;
      for (let i = lo; i < hi; i++) {
        const candle = candles[i]!;
        if (current && current[0] !== align(candle.start)) {
          result.push(current);
          current = undefined;
          if (result.length >= query.limit) return result;
        }
        current = merge(current, candle, true);
      }
      if (current && result.length < query.limit) result.push(current);
      return result;
    }
    let current: Kline | undefined;
    for (let i = hi - 1; i >= lo; i--) {
      const candle = candles[i]!;
      if (current && current[0] !== align(candle.start)) {
        result.push(current);
        current = undefined;
        if (result.length >= query.limit) break;
      }
      current = merge(current, candle, false);
    }
    if (current && result.length < query.limit) result.push(current);
    return result.reverse();
  }

  /** The assets an account has locked in open orders (for tests and admin). */
  openOrderCount(accountId: number): number {
    return this.book(accountId).open.size;
  }
}

function toWireOrder(order: EngineOrder): Order {
  const wire: Order = {
    id: order.id,
    clientOrderId: order.clientOrderId,
    symbol: order.market.config.symbol,
    price: formatFixed(order.price),
    origQty: formatFixed(order.origQty),
    executedQty: formatFixed(order.executedQty),
    status: order.status,
    type: order.type,
    side: order.side,
    createdTime: order.createdTime,
    updatedTime: order.updatedTime,
  };
  if (order.stopPrice !== undefined) wire.stopPrice = formatFixed(order.stopPrice);
  return wire;
}

function toPublicTrade(trade: StoredTrade): PublicTrade {
  return {
    id: trade.id,
    price: formatFixed(trade.price),
    qty: formatFixed(trade.qty),
    quoteQty: formatFixed(trade.quote),
    time: trade.time,
    isBuyerMaker: trade.isBuyerMaker,
  };
}

/** Index of the level with this price, or -1 (bids ascending, asks descending). */
function findLevel(levels: Level[], price: bigint, ascending: boolean): number {
  let low = 0;
  let high = levels.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = levels[mid]!.price;
    if (value === price) return mid;
    if (ascending ? value < price : value > price) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/** First index whose key is >= value, in an array sorted by key. */
export function lowerBound<T>(
  items: readonly T[],
  value: number,
  key: (item: T) => number,
): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (key(items[mid]!) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The paging rule of decisions.md for lists in ascending id order: with `orderId` (or fromId) the
 * first `limit` items whose id is >= it; otherwise the most recent `limit` items. startTime and
 * endTime are inclusive.
 */
function selectById<T>(
  items: readonly T[],
  filter: OrderListFilter,
  limit: number,
  id: (item: T) => number,
  time: (item: T) => number,
  keep: (item: T) => boolean,
): T[] {
  const matches = (item: T) =>
    keep(item) &&
    (filter.startTime === undefined || time(item) >= filter.startTime) &&
    (filter.endTime === undefined || time(item) <= filter.endTime);
  const out: T[] = [];
  if (filter.orderId !== undefined) {
    for (
      let i = lowerBound(items, filter.orderId, id);
      i < items.length && out.length < limit;
      i++
    ) {
      const item = items[i]!;
      if (matches(item)) out.push(item);
    }
    return out;
  }
  for (let i = items.length - 1; i >= 0 && out.length < limit; i--) {
    const item = items[i]!;
    if (matches(item)) out.push(item);
  }
  return out.reverse();
}

export { SCALE };
