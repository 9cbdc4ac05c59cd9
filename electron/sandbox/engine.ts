import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock';
import { errors } from './errors';
import type { SandboxEvents, SandboxOrderSnapshot } from './events';
import {
  DECIMALS,
  formatFixed,
  mulFixed,
  parseDecimal,
  parseFixed,
  SCALE,
  type ParsedDecimal,
} from './fixed';
import {
  addTrade,
  appendCandle,
  candleBounds,
  candleFrom,
  candleStart,
  klineRow,
  openCandle,
  parseKlineSpan,
  prependCandle,
  type Candle,
  type KlineRow,
  type KlineSpan,
} from './klines';
import type { Holding, Ledger } from './ledger';

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

const DAY_MS = 86_400_000;
const MINUTE_SPAN = parseKlineSpan('1m')!;
/** Fees as divisors (0.1% and 0.2%): floor(amount / 500) is floor(amount × 2 / 1000), one op. */
const MAKER_FEE_DIVISOR = 1000n;
const TAKER_FEE_DIVISOR = 500n;
/** Two lowercase hex digits per byte value: ids built from these beat toString(16) + padStart. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const CLIENT_ORDER_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
const MAX_OPEN_ORDERS_LISTED = 1000;

interface EngineOrder {
  id: number;
  accountId: number;
  account: AccountBook;
  /** Undefined when generated: derived from the id on demand (see clientOrderIdOf). */
  clientOrderId: string | undefined;
  market: Market;
  side: OrderSide;
  type: OrderType;
  status: OrderStatus;
  price: bigint;
  /** The wire forms of price and origQty, kept from parsing so answers need no formatting. */
  priceText: string;
  stopPrice: bigint | undefined;
  origQty: bigint;
  origQtyText: string;
  executedQty: bigint;
  executedQuote: bigint;
  /** What is still locked for this order (quote for a buy, base for a sell), and where. */
  locked: bigint;
  holding: Holding;
  isMaker: boolean;
  createdTime: number;
  updatedTime: number;
  /** Neighbours in the account's open list, which stays in id order. */
  prevOpen: EngineOrder | undefined;
  nextOpen: EngineOrder | undefined;
}

interface Level {
  price: bigint;
  orders: EngineOrder[];
  head: number;
  quantity: bigint;
}

/**
 * One match; the market's trades and both accounts' own trades share it. The quote amount and
 * the fees follow from these fields (see fillQuote and fee), so they are not kept.
 */
interface Fill {
  id: number;
  price: bigint;
  qty: bigint;
  time: number;
  isBuyerMaker: boolean;
  buyer: EngineOrder;
  seller: EngineOrder;
}

/** An account's side of a fill (a self-trade gives the account both sides). */
interface OwnFill {
  fill: Fill;
  side: OrderSide;
}

interface Market {
  config: MarketConfig;
  tick: bigint;
  /** n when tick is 10^-n: a price is then on a tick iff it needs at most n decimals. */
  tickPlaces: number | undefined;
  minPrice: bigint;
  /** Ascending price: the best bid is the last element. */
  bids: Level[];
  /** Descending price: the best ask is the last element. */
  asks: Level[];
  stops: EngineOrder[];
  trades: Fill[];
  candles: Candle[];
  lastPrice: bigint | undefined;
  lastUpdateAt: number;
  /** Already queued in changedBooks for the current operation. */
  bookChanged: boolean;
}

/** Orders, fills and history of one account. */
interface AccountBook {
  orders: EngineOrder[];
  /** Open orders as a linked list in id order: O(1) removal, no index to maintain. */
  firstOpen: EngineOrder | undefined;
  lastOpen: EngineOrder | undefined;
  openCount: number;
  /** Open orders with a client-chosen clientOrderId (generated ones resolve through the id). */
  openByClientId: Map<string, EngineOrder>;
  trades: OwnFill[];
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
  /** Markets whose book changed in the current operation (each once: see Market.bookChanged). */
  private readonly changedBooks: Market[] = [];
  /**
   * Generated clientOrderIds: a random 16-hex prefix per engine plus the order id in 16 hex, so
   * they need neither storing nor indexing.
   */
  private readonly generatedIdPrefix = randomBytes(8).toString('hex');
  /** When set, the engine's time (seeding history in the past). */
  private timeOverride: number | undefined;
  /** How far back from now the REST klines of an interval reach (ms); unset: to the first trade. */
  private readonly klineReach = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly events: SandboxEvents,
    private readonly ledger: Ledger,
    markets: MarketConfig[],
  ) {
    for (const config of markets) {
      const tick = parseDecimal(config.tickSize)!;
      this.markets.set(config.symbol, {
        config,
        tick: tick.value,
        tickPlaces: tick.value === 10n ** BigInt(DECIMALS - tick.scale) ? tick.scale : undefined,
        minPrice: parseFixed(config.minPrice)!,
        bids: [],
        asks: [],
        stops: [],
        trades: [],
        candles: [],
        lastPrice: undefined,
        lastUpdateAt: clock.now(),
        bookChanged: false,
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

  /**
   * Serves the REST klines of each named interval only from `ms` before now (an exchange that
   * keeps its finest candles for a while only); the interface states no such limit.
   */
  setKlineReach(reach: Readonly<Record<string, number>>): void {
    this.klineReach.clear();
    for (const [interval, ms] of Object.entries(reach)) this.klineReach.set(interval, ms);
  }

  private market(symbol: string): Market {
    const market = this.markets.get(symbol);
    if (!market) throw errors.invalidSymbol();
    return market;
  }

  private book(accountId: number): AccountBook {
    let book = this.accounts.get(accountId);
    if (!book) {
      book = {
        orders: [],
        firstOpen: undefined,
        lastOpen: undefined,
        openCount: 0,
        openByClientId: new Map(),
        trades: [],
      };
      this.accounts.set(accountId, book);
    }
    return book;
  }

  /** The account's open orders in id order. */
  private openOf(book: AccountBook): EngineOrder[] {
    const open: EngineOrder[] = [];
    for (let order = book.firstOpen; order; order = order.nextOpen) open.push(order);
    return open;
  }

  private clientOrderIdOf(order: EngineOrder): string {
    return (
      order.clientOrderId ??
      this.generatedIdPrefix + hex8(Math.floor(order.id / 2 ** 32)) + hex8(order.id >>> 0)
    );
  }

  /** The order a generated clientOrderId was derived from, if it is one of this engine's. */
  private generatedOrder(clientOrderId: string): EngineOrder | undefined {
    if (clientOrderId.length !== 32 || !clientOrderId.startsWith(this.generatedIdPrefix)) {
      return undefined;
    }
    const order = this.ordersById[Number.parseInt(clientOrderId.slice(16), 16)];
    return order && this.clientOrderIdOf(order) === clientOrderId ? order : undefined;
  }

  /** The account's open order with this clientOrderId. */
  private openWithClientId(book: AccountBook, clientOrderId: string): EngineOrder | undefined {
    const generated = this.generatedOrder(clientOrderId);
    if (generated && generated.account === book && isOpen(generated)) return generated;
    return book.openByClientId.get(clientOrderId);
  }

  // ------------------------------------------------------------------------------------------
  // Validation

  /**
   * Checks an order's parameters as the REST layer receives them (strings, possibly missing) and
   * returns the parsed order; otherwise throws the matching error of the error table
   * (docs/exchange-notes.md).
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

  private parseQuantity(market: Market, text: string): ParsedDecimal {
    const parsed = parseDecimal(text);
    if (parsed === undefined) throw errors.invalid('quantity', 'a positive decimal number');
    if (parsed.value <= 0n) throw errors.invalid('quantity', 'must be greater than 0');
    if (parsed.places > market.config.baseAssetPrecision) {
      throw errors.invalid(
        'quantity',
        `at most ${market.config.baseAssetPrecision} decimals for ${market.config.symbol}`,
      );
    }
    return parsed;
  }

  private parsePrice(market: Market, text: string, name: string): ParsedDecimal {
    const parsed = parseDecimal(text);
    if (parsed === undefined) throw errors.invalid(name, 'a positive decimal number');
    const value = parsed.value;
    if (value <= 0n) throw errors.invalid(name, 'must be greater than 0');
    if (value < market.minPrice) {
      throw errors.invalid(name, `at least ${market.config.minPrice}`);
    }
    const onTick =
      market.tickPlaces === undefined
        ? value % market.tick === 0n
        : parsed.scale <= market.tickPlaces;
    if (!onTick) throw errors.invalid(name, `a multiple of tickSize ${market.config.tickSize}`);
    return parsed;
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
      stopPrice = this.parsePrice(market, input.stopPrice, 'stopPrice').value;
    }
    const book = this.book(accountId);
    const clientOrderId = input.clientOrderId;
    if (clientOrderId !== undefined) {
      if (!CLIENT_ORDER_ID_PATTERN.test(clientOrderId)) {
        throw errors.invalid('clientOrderId', '1 to 64 characters of letters, digits, _ . : -');
      }
      if (this.openWithClientId(book, clientOrderId)) throw errors.duplicateClientOrderId();
    }
    const lockAsset = input.side === 'buy' ? market.config.quoteAsset : market.config.baseAsset;
    const lockAmount =
      input.side === 'buy' ? mulFixed(price.value, quantity.value) : quantity.value;
    // Throws 2002 before anything changed.
    const holding = this.ledger.lock(accountId, lockAsset, lockAmount);

    const now = this.now();
    const order: EngineOrder = {
      id: this.nextOrderId++,
      accountId,
      account: book,
      clientOrderId,
      market,
      side: input.side,
      type: input.type,
      status: input.type === 'stop_limit' ? 'idle' : 'wait',
      price: price.value,
      priceText: price.text,
      stopPrice,
      origQty: quantity.value,
      origQtyText: quantity.text,
      executedQty: 0n,
      executedQuote: 0n,
      locked: lockAmount,
      holding,
      isMaker: false,
      createdTime: now,
      updatedTime: now,
      prevOpen: book.lastOpen,
      nextOpen: undefined,
    };
    book.orders.push(order);
    if (book.lastOpen) book.lastOpen.nextOpen = order;
    else book.firstOpen = order;
    book.lastOpen = order;
    book.openCount++;
    if (clientOrderId !== undefined) book.openByClientId.set(clientOrderId, order);
    this.ordersById[order.id] = order;

    if (order.type === 'stop_limit') {
      market.stops.push(order);
      this.emitOrder(order);
    } else {
      this.emitOrder(order);
      this.execute(order);
    }
    this.finishOperation();
    return this.toWireOrder(order);
  }

  cancelOrder(
    accountId: number,
    symbol: string,
    ref: { orderId?: number; clientOrderId?: string },
  ): Order {
    const market = this.market(symbol);
    const book = this.book(accountId);
    let order: EngineOrder | undefined;
    if (ref.clientOrderId !== undefined) order = this.openWithClientId(book, ref.clientOrderId);
    else if (ref.orderId !== undefined) order = this.ordersById[ref.orderId];
    else throw errors.missing('orderId');
    if (!order || order.account !== book || !isOpen(order) || order.market !== market) {
      throw errors.orderDoesNotExist();
    }
    this.cancel(order);
    this.finishOperation();
    return this.toWireOrder(order);
  }

  cancelAll(accountId: number, symbol: string): Order[] {
    const market = this.market(symbol);
    const book = this.book(accountId);
    const canceled: Order[] = [];
    // Listed first: canceling unlinks orders, and listeners could place new ones meanwhile.
    for (const order of this.openOf(book)) {
      if (order.market !== market) continue;
      this.cancel(order);
      canceled.push(this.toWireOrder(order));
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
    this.ledger.release(order.holding, order.locked);
    order.locked = 0n;
    order.status = 'cancel';
    order.updatedTime = this.now();
    this.closeOrder(order);
    this.emitOrder(order);
  }

  private closeOrder(order: EngineOrder): void {
    const book = order.account;
    if (order.prevOpen) order.prevOpen.nextOpen = order.nextOpen;
    else book.firstOpen = order.nextOpen;
    if (order.nextOpen) order.nextOpen.prevOpen = order.prevOpen;
    else book.lastOpen = order.prevOpen;
    order.prevOpen = undefined;
    order.nextOpen = undefined;
    book.openCount--;
    if (order.clientOrderId !== undefined && book.openByClientId.get(order.clientOrderId) === order)
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
    level.quantity -= remaining(order);
    if (level.head >= level.orders.length) levels.splice(index, 1);
    this.bookChanged(market);
  }

  private bookChanged(market: Market): void {
    if (market.bookChanged) return;
    market.bookChanged = true;
    this.changedBooks.push(market);
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
        const takerLeft = remaining(taker);
        const makerLeft = remaining(maker);
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
      this.bookChanged(market);
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
    const left = remaining(order);
    if (existing && existing.price === order.price) {
      existing.orders.push(order);
      existing.quantity += left;
    } else {
      levels.splice(low, 0, { price: order.price, orders: [order], head: 0, quantity: left });
    }
    this.bookChanged(market);
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
    const takerBuys = taker.side === 'buy';
    const buyer = takerBuys ? taker : maker;
    const seller = takerBuys ? maker : taker;
    const { baseAsset, quoteAsset } = market.config;
    const buyerFee = fee(quantity, !takerBuys);
    const sellerFee = fee(quote, takerBuys);

    // Buyer pays quote from its lock; a buy taker filled below its limit gets the excess back.
    const buyerLockShare = buyer.price === price ? quote : mulFixed(buyer.price, quantity);
    const excess = buyerLockShare === quote ? 0n : buyerLockShare - quote;
    this.ledger.settle(buyer.holding, quote, excess, baseAsset, quantity, buyerFee);
    buyer.locked -= buyerLockShare;
    this.ledger.settle(seller.holding, quantity, 0n, quoteAsset, quote, sellerFee);
    seller.locked -= quantity;

    this.applyFill(taker, quantity, quote, now);
    this.applyFill(maker, quantity, quote, now);

    const fill: Fill = {
      id: this.nextTradeId++,
      price,
      qty: quantity,
      time: now,
      isBuyerMaker: !takerBuys,
      buyer,
      seller,
    };
    market.trades.push(fill);
    buyer.account.trades.push({ fill, side: 'buy' });
    seller.account.trades.push({ fill, side: 'sell' });
    market.lastPrice = price;
    this.addToCandle(market, now, price, quantity);

    this.emitOrder(maker);
    this.emitOrder(taker);
    if (this.events.listenerCount('trade') > 0) {
      this.events.emit('trade', {
        id: fill.id,
        symbol: market.config.symbol,
        price: formatFixed(price),
        qty: formatFixed(quantity),
        quoteQty: formatFixed(quote),
        time: now,
        isBuyerMaker: fill.isBuyerMaker,
        buyOrderId: buyer.id,
        sellOrderId: seller.id,
        buyerAccountId: buyer.accountId,
        sellerAccountId: seller.accountId,
        buyerClientOrderId: this.clientOrderIdOf(buyer),
        sellerClientOrderId: this.clientOrderIdOf(seller),
        buyerFee: formatFixed(buyerFee),
        buyerFeeCurrency: baseAsset,
        sellerFee: formatFixed(sellerFee),
        sellerFeeCurrency: quoteAsset,
      });
    }
  }

  private applyFill(order: EngineOrder, quantity: bigint, quote: bigint, now: number): void {
    // A first fill takes the amounts as they are: no new bigint to allocate and keep.
    order.executedQty = order.executedQty === 0n ? quantity : order.executedQty + quantity;
    order.executedQuote = order.executedQuote === 0n ? quote : order.executedQuote + quote;
    order.updatedTime = now;
    if (order.executedQty !== order.origQty) return;
    order.status = 'done';
    if (order.locked !== 0n) {
      // Rounding leftovers of the lock go back to the owner.
      this.ledger.release(order.holding, order.locked);
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
    const changed = this.changedBooks;
    if (changed.length > 0) {
      // Indexed: a book changed by a triggered stop joins the list and is checked too.
      for (let i = 0; i < changed.length; i++) this.triggerStops(changed[i]!);
      const time = this.now();
      const notify = this.events.listenerCount('book') > 0;
      for (const market of changed) {
        market.bookChanged = false;
        market.lastUpdateAt = time;
        if (notify) this.events.emit('book', { symbol: market.config.symbol, time });
      }
      changed.length = 0;
    }
    this.ledger.flush();
  }

  private emitOrder(order: EngineOrder): void {
    if (this.events.listenerCount('order') === 0) return;
    const snapshot: SandboxOrderSnapshot = {
      accountId: order.accountId,
      id: order.id,
      clientOrderId: this.clientOrderIdOf(order),
      symbol: order.market.config.symbol,
      side: order.side,
      type: order.type,
      status: order.status,
      price: order.priceText,
      origQty: order.origQtyText,
      executedQty: executedQtyText(order),
      executedQuoteQty: formatFixed(order.executedQuote),
      isMaker: order.isMaker,
      createdTime: order.createdTime,
      updatedTime: order.updatedTime,
    };
    if (order.stopPrice !== undefined) snapshot.stopPrice = formatFixed(order.stopPrice);
    this.events.emit('order', snapshot);
  }

  private addToCandle(market: Market, time: number, price: bigint, quantity: bigint): void {
    const start = candleStart(MINUTE_SPAN, time);
    const candles = market.candles;
    const last = candles[candles.length - 1];
    if (last && last.start === start) {
      addTrade(last, price, quantity);
      return;
    }
    if (!last || last.start < start) {
      candles.push(openCandle(start, price, quantity));
      return;
    }
    // A trade dated before the newest candle (only while seeding history).
    const index = lowerBound(candles, start, (c) => c.start);
    const found = candles[index];
    if (found && found.start === start) addTrade(found, price, quantity);
    else candles.splice(index, 0, openCandle(start, price, quantity));
  }

  // ------------------------------------------------------------------------------------------
  // Queries

  getOrder(accountId: number, ref: { orderId?: number; clientOrderId?: string }): Order {
    const book = this.book(accountId);
    let order: EngineOrder | undefined;
    if (ref.clientOrderId !== undefined) {
      order = this.openWithClientId(book, ref.clientOrderId);
      if (!order) {
        // Closed orders may share it (ids are reusable once closed): the newest one answers.
        for (let i = book.orders.length - 1; !order && i >= 0; i--) {
          if (book.orders[i]!.clientOrderId === ref.clientOrderId) order = book.orders[i];
        }
        const generated = this.generatedOrder(ref.clientOrderId);
        if (generated && generated.account === book && (!order || generated.id > order.id)) {
          order = generated;
        }
      }
    } else if (ref.orderId !== undefined) {
      const found = ref.orderId > 0 ? this.ordersById[ref.orderId] : undefined;
      if (found && found.accountId === accountId) order = found;
    } else {
      throw errors.missing('orderId');
    }
    if (!order) throw errors.orderDoesNotExist();
    return this.toWireOrder(order);
  }

  openOrders(accountId: number, filter: OrderListFilter = {}): Order[] {
    return selectById(
      this.openOf(this.book(accountId)),
      filter,
      MAX_OPEN_ORDERS_LISTED,
      (o) => o.id,
      (o) => o.createdTime,
      (o) => (filter.symbol === undefined ? true : o.market.config.symbol === filter.symbol),
    ).map((o) => this.toWireOrder(o));
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
    ).map((o) => this.toWireOrder(o));
  }

  myTrades(accountId: number, filter: TradeListFilter): OwnTrade[] {
    const book = this.book(accountId);
    const orderOf = (t: OwnFill) => (t.side === 'buy' ? t.fill.buyer : t.fill.seller);
    return selectById(
      book.trades,
      { ...filter, orderId: filter.fromId },
      filter.limit ?? 500,
      (t) => t.fill.id,
      (t) => t.fill.time,
      (t) =>
        (filter.symbol === undefined || orderOf(t).market.config.symbol === filter.symbol) &&
        (filter.orderId === undefined || orderOf(t).id === filter.orderId),
    ).map(({ fill, side }) => {
      const order = orderOf({ fill, side });
      const { symbol, baseAsset, quoteAsset } = order.market.config;
      const quote = fillQuote(fill);
      return {
        id: fill.id,
        symbol,
        fee: formatFixed(
          side === 'buy' ? fee(fill.qty, fill.isBuyerMaker) : fee(quote, !fill.isBuyerMaker),
        ),
        feeCurrency: side === 'buy' ? baseAsset : quoteAsset,
        quoteQty: formatFixed(quote),
        price: formatFixed(fill.price),
        qty: formatFixed(fill.qty),
        orderId: order.id,
        side,
        isBuyerMaker: fill.isBuyerMaker,
        time: fill.time,
      };
    });
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

  /** The REST klines, as decimal text (the server writes them as JSON numbers). */
  klines(
    symbol: string,
    query: { interval: string; limit: number; startTime?: number; endTime?: number },
  ): KlineRow[] {
    const span = parseKlineSpan(query.interval);
    if (span === undefined) throw errors.invalid('interval');
    return this.candles(symbol, span, query).map(klineRow);
  }

  /**
   * Candles of `span` merged from the 1-minute candles: those opening in [startTime, endTime],
   * at most `limit`, the oldest ones from startTime or else the newest ones. Candles without
   * trades are left out.
   */
  candles(
    symbol: string,
    span: KlineSpan,
    query: { limit: number; startTime?: number; endTime?: number },
  ): Candle[] {
    const minutes = this.market(symbol).candles;
    // The first minute of the first whole candle opening at or after `time`.
    const firstFrom = (time: number) =>
      lowerBound(
        minutes,
        candleStart(span, time) < time ? candleBounds(span, time)[1] + 1 : time,
        (c) => c.start,
      );
    const reach = this.klineReach.get(span.name);
    const lo = Math.max(
      query.startTime === undefined ? 0 : firstFrom(query.startTime),
      reach === undefined ? 0 : firstFrom(this.now() - reach),
    );
    const hi =
      query.endTime === undefined
        ? minutes.length
        : lowerBound(minutes, candleBounds(span, query.endTime)[1] + 1, (c) => c.start);
    const result: Candle[] = [];
    let current: Candle | undefined;
    if (query.startTime !== undefined) {
      for (let i = lo; i < hi; i++) {
        const minute = minutes[i]!;
        const start = candleStart(span, minute.start);
        if (current && current.start === start) {
          appendCandle(current, minute);
          continue;
        }
        if (current) {
          result.push(current);
          if (result.length >= query.limit) return result;
        }
        current = candleFrom(start, minute);
      }
      if (current && result.length < query.limit) result.push(current);
      return result;
    }
    for (let i = hi - 1; i >= lo; i--) {
      const minute = minutes[i]!;
      const start = candleStart(span, minute.start);
      if (current && current.start === start) {
        prependCandle(current, minute);
        continue;
      }
      if (current) {
        result.push(current);
        if (result.length >= query.limit) break;
      }
      current = candleFrom(start, minute);
    }
    if (current && result.length < query.limit) result.push(current);
    return result.reverse();
  }

  private toWireOrder(order: EngineOrder): Order {
    const wire: Order = {
      id: order.id,
      clientOrderId: this.clientOrderIdOf(order),
      symbol: order.market.config.symbol,
      price: order.priceText,
      origQty: order.origQtyText,
      executedQty: executedQtyText(order),
      status: order.status,
      type: order.type,
      side: order.side,
      createdTime: order.createdTime,
      updatedTime: order.updatedTime,
    };
    if (order.stopPrice !== undefined) wire.stopPrice = formatFixed(order.stopPrice);
    return wire;
  }

  /** The assets an account has locked in open orders (for tests and admin). */
  openOrderCount(accountId: number): number {
    return this.book(accountId).openCount;
  }
}

/** A uint32 as 8 lowercase hex digits. */
function hex8(value: number): string {
  return (
    HEX_BYTES[value >>> 24]! +
    HEX_BYTES[(value >>> 16) & 255]! +
    HEX_BYTES[(value >>> 8) & 255]! +
    HEX_BYTES[value & 255]!
  );
}

/** The fee on an amount received, for the maker or the taker of the fill. */
function fee(amount: bigint, maker: boolean): bigint {
  return amount / (maker ? MAKER_FEE_DIVISOR : TAKER_FEE_DIVISOR);
}

function fillQuote(fill: Fill): bigint {
  return mulFixed(fill.price, fill.qty);
}

/** What is left to fill (the order's own quantity while untouched: nothing to allocate). */
function remaining(order: EngineOrder): bigint {
  return order.executedQty === 0n ? order.origQty : order.origQty - order.executedQty;
}

function isOpen(order: EngineOrder): boolean {
  return order.status === 'wait' || order.status === 'idle';
}

function executedQtyText(order: EngineOrder): string {
  if (order.executedQty === 0n) return '0';
  return order.executedQty === order.origQty ? order.origQtyText : formatFixed(order.executedQty);
}

function toPublicTrade(trade: Fill): PublicTrade {
  return {
    id: trade.id,
    price: formatFixed(trade.price),
    qty: formatFixed(trade.qty),
    quoteQty: formatFixed(fillQuote(trade)),
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
 * The paging rule for lists in ascending id order (docs/exchange-notes.md): with `orderId` (or
 * fromId) the first `limit` items whose id is >= it; otherwise the most recent `limit` items.
 * startTime and endTime are inclusive.
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
