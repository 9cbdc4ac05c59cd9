/**
 * The checks an order passes before the exchange's test endpoint sees it. That endpoint validates
 * the order's form, not the account: a buy far beyond the free balance "would be accepted" there
 * and then fails when placed. So the review checks here, with the numbers, what the exchange
 * would refuse: the price on the tick size, the quantity on its step, the market's minimum and
 * maximum, a stop price on the side of the last price where it waits (not one that would trigger
 * at once), and the free balance of the asset the order pays with. A price far from the last
 * price is not refused (a far limit can be meant) but warned about, with what the order would
 * cost or bring at the last price.
 */
import { Decimal, divide } from '../../shared/exact-decimal';
import { formatAmount } from '../../shared/format';
import type { MethodParsedInput } from '../../shared/contract';
import type { OrderCheck, OrderReview, OrderSide, OrderType } from '../../shared/types';
import { AppError } from '../core/app-error';
import { sameAsset } from '../core/market';
import type { ExchangeClient, NewOrder } from '../exchange/client';
import type { SymbolInfo } from '../exchange/wire';
import type { ExchangeRules } from '../rules/exchange-rules';

/**
 * The exchange's fees, charged in the asset the order receives (see docs/exchange-notes.md): the
 * paying asset needs the order's cost only, and the review names the largest fee (the taker's).
 */
export const TAKER_FEE_RATE = new Decimal('0.002');

export interface MarketRules {
  baseAsset: string;
  quoteAsset: string;
  tickSize: Decimal | null;
  minPrice: Decimal | null;
  maxPrice: Decimal | null;
  stepSize: Decimal;
  minQty: Decimal;
  maxQty: Decimal | null;
  minNotional: Decimal | null;
}

export interface ReviewedOrder {
  side: OrderSide;
  type: OrderType;
  quantity: string;
  price: string;
  stopPrice?: string | undefined;
}

export interface AccountFacts {
  /** Free balance of the asset the order pays with (0 when the account holds none). */
  free: Decimal;
  /** The market's last trade price; null when it could not be read. */
  lastPrice: Decimal | null;
  /** Warn when a price is more than this percentage from the last price (Settings). */
  priceWarningPercent: Decimal;
}

/**
 * A filter value the exchange lists, when it is a positive amount. The interface's filters carry
 * minPrice and tickSize; a deployment may add maxPrice, stepSize, minQty, maxQty or minNotional
 * (a zero there means "no limit").
 */
function listed(market: SymbolInfo, name: string): Decimal | null {
  for (const filter of market.filters as Record<string, unknown>[]) {
    const value = filter[name];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value).trim();
    if (!/^\d+(\.\d+)?$/.test(text)) continue;
    const amount = new Decimal(text);
    if (amount.gt(0)) return amount;
  }
  return null;
}

/** What a market allows, from the exchange's symbol information. */
export function marketRules(market: SymbolInfo): MarketRules {
  // Without a listed step, a quantity's step is its last allowed decimal.
  const stepSize = listed(market, 'stepSize') ?? new Decimal(`1e-${market.baseAssetPrecision}`);
  return {
    baseAsset: market.baseAsset.toUpperCase(),
    quoteAsset: market.quoteAsset.toUpperCase(),
    tickSize: listed(market, 'tickSize'),
    minPrice: listed(market, 'minPrice'),
    maxPrice: listed(market, 'maxPrice'),
    stepSize,
    minQty: listed(market, 'minQty') ?? stepSize,
    maxQty: listed(market, 'maxQty'),
    minNotional: listed(market, 'minNotional'),
  };
}

/** Exact, with thousands separators: "5,000,000", "0.000001". */
function show(value: Decimal): string {
  return formatAmount(value.toFixed(), { precision: Math.max(0, value.decimalPlaces()) });
}

function isMultiple(value: Decimal, step: Decimal): boolean {
  return value.mod(step).isZero();
}

function tickCheck(order: ReviewedOrder, rules: MarketRules): OrderCheck {
  const tick = rules.tickSize;
  const prices: [string, Decimal][] = [['Price', new Decimal(order.price)]];
  if (order.type === 'stop_limit' && order.stopPrice !== undefined)
    prices.push(['Stop price', new Decimal(order.stopPrice)]);
  if (tick === null) {
    return { check: 'tick', status: 'passed', text: 'The market lists no tick size for prices' };
  }
  const off = prices.find(([, value]) => !isMultiple(value, tick));
  if (off) {
    return {
      check: 'tick',
      status: 'failed',
      text: `${off[0]} ${show(off[1])} is not a multiple of the tick size ${show(tick)} ${rules.quoteAsset}`,
    };
  }
  const names = prices.map(([name, value]) => `${name.toLowerCase()} ${show(value)}`).join(', ');
  return {
    check: 'tick',
    status: 'passed',
    text: `On the tick size ${show(tick)} ${rules.quoteAsset}: ${names}`,
  };
}

function stepCheck(order: ReviewedOrder, rules: MarketRules): OrderCheck {
  const quantity = new Decimal(order.quantity);
  if (!isMultiple(quantity, rules.stepSize)) {
    return {
      check: 'step',
      status: 'failed',
      text: `Quantity ${show(quantity)} ${rules.baseAsset} is not a multiple of the step ${show(rules.stepSize)}`,
    };
  }
  return {
    check: 'step',
    status: 'passed',
    text: `Quantity ${show(quantity)} ${rules.baseAsset} on the step ${show(rules.stepSize)}`,
  };
}

function limitsCheck(order: ReviewedOrder, rules: MarketRules): OrderCheck {
  const price = new Decimal(order.price);
  const quantity = new Decimal(order.quantity);
  const notional = price.times(quantity);
  const problems: string[] = [];
  const range = (min: Decimal | null, max: Decimal | null, unit: string) =>
    `${min ? `at least ${show(min)}` : 'no minimum'}, ${max ? `at most ${show(max)}` : 'no maximum'} ${unit}`;
  const priceStops: [string, Decimal][] = [['price', price]];
  if (order.type === 'stop_limit' && order.stopPrice !== undefined)
    priceStops.push(['stop price', new Decimal(order.stopPrice)]);
  for (const [name, value] of priceStops) {
    if (rules.minPrice && value.lt(rules.minPrice))
      problems.push(`the ${name} ${show(value)} is below the minimum ${show(rules.minPrice)}`);
    if (rules.maxPrice && value.gt(rules.maxPrice))
      problems.push(`the ${name} ${show(value)} is above the maximum ${show(rules.maxPrice)}`);
  }
  if (quantity.lt(rules.minQty))
    problems.push(`the quantity ${show(quantity)} is below the minimum ${show(rules.minQty)}`);
  if (rules.maxQty && quantity.gt(rules.maxQty))
    problems.push(`the quantity ${show(quantity)} is above the maximum ${show(rules.maxQty)}`);
  if (rules.minNotional && notional.lt(rules.minNotional)) {
    problems.push(
      `the total ${show(notional)} ${rules.quoteAsset} is below the minimum ${show(rules.minNotional)}`,
    );
  }
  if (problems.length > 0) {
    const text = problems.join('; ');
    return { check: 'limits', status: 'failed', text: text[0]!.toUpperCase() + text.slice(1) };
  }
  return {
    check: 'limits',
    status: 'passed',
    text:
      `Within the market's limits: price ${range(rules.minPrice, rules.maxPrice, rules.quoteAsset)}; ` +
      `quantity ${range(rules.minQty, rules.maxQty, rules.baseAsset)}`,
  };
}

/**
 * A stop waits on the far side of the last price: a sell stop below it (it sells when the price
 * falls), a buy stop above it. On the other side, or at it, it would trigger at once.
 */
function stopCheck(order: ReviewedOrder, rules: MarketRules, last: Decimal | null): OrderCheck {
  const stop = new Decimal(order.stopPrice ?? '0');
  if (last === null) {
    return {
      check: 'stop',
      status: 'failed',
      text: 'The last price could not be read, so the side of the stop price cannot be checked',
    };
  }
  const unit = rules.quoteAsset;
  const sell = order.side === 'sell';
  const waits = sell ? stop.lt(last) : stop.gt(last);
  if (!waits) {
    const where = stop.eq(last) ? 'at' : sell ? 'above' : 'below';
    return {
      check: 'stop',
      status: 'failed',
      text:
        `A ${order.side} stop must be ${sell ? 'below' : 'above'} the last price ` +
        `${show(last)} ${unit}; ${show(stop)} is ${where} it, so the order would trigger at once`,
    };
  }
  return {
    check: 'stop',
    status: 'passed',
    text:
      `Stop ${show(stop)} ${unit} is ${sell ? 'below' : 'above'} the last price ${show(last)}: ` +
      `the order goes to the book when the price ${sell ? 'falls' : 'rises'} to it`,
  };
}

/** |price − last| as a percentage of last, shown with one decimal (half-even, by divide()). */
function distanceText(price: Decimal, last: Decimal): string {
  const percent = divide(price.minus(last).abs().times(100), last, 1);
  const where = price.gt(last) ? 'above' : price.lt(last) ? 'below' : 'at';
  return `${percent.toFixed(1)} % ${where}`;
}

/**
 * The order's price (and a stop-limit's stop price) against the last price: beyond the set
 * distance it is a warning, never a refusal. The comparison is |price − last| × 100 > percent ×
 * last, exact; only the shown distance goes through a division.
 */
function priceCheck(order: ReviewedOrder, rules: MarketRules, facts: AccountFacts): OrderCheck {
  const last = facts.lastPrice;
  const unit = rules.quoteAsset;
  if (last === null || last.isZero()) {
    return {
      check: 'price',
      status: 'warning',
      text: "The last price could not be read, so the price's distance from it is not checked",
    };
  }
  const prices: [string, Decimal][] = [['Price', new Decimal(order.price)]];
  if (order.type === 'stop_limit' && order.stopPrice !== undefined)
    prices.push(['Stop price', new Decimal(order.stopPrice)]);
  const limit = facts.priceWarningPercent;
  const far = prices.filter(([, value]) =>
    value.minus(last).abs().times(100).gt(limit.times(last)),
  );
  const named = (list: [string, Decimal][]) =>
    list
      .map(([name, value]) => `${name} ${show(value)} ${unit} is ${distanceText(value, last)}`)
      .join('; ');
  if (far.length === 0) {
    return {
      check: 'price',
      status: 'passed',
      text: `${named(prices)} the last price ${show(last)} ${unit}, within ${show(limit)} %`,
    };
  }
  const quantity = new Decimal(order.quantity);
  const atLast = quantity.times(last);
  const verb = order.side === 'buy' ? 'cost' : 'bring';
  return {
    check: 'price',
    status: 'warning',
    text:
      `${named(far)} the last price ${show(last)} ${unit}, more than ${show(limit)} %. ` +
      `At the last price this ${order.side} would ${verb} ${show(atLast)} ${unit} ` +
      `(${show(quantity)} × ${show(last)}); at your price ${show(quantity.times(new Decimal(order.price)))} ${unit}`,
  };
}

function balanceCheck(order: ReviewedOrder, rules: MarketRules, free: Decimal): OrderCheck {
  const price = new Decimal(order.price);
  const quantity = new Decimal(order.quantity);
  const buy = order.side === 'buy';
  const paying = buy ? rules.quoteAsset : rules.baseAsset;
  const receiving = buy ? rules.baseAsset : rules.quoteAsset;
  const needs = buy ? price.times(quantity) : quantity;
  const how = buy ? ` (${show(quantity)} × ${show(price)})` : '';
  const received = buy ? quantity : price.times(quantity);
  const fee = received.times(TAKER_FEE_RATE);
  const feeText =
    `The fee, at most ${show(fee)} ${receiving} (${show(TAKER_FEE_RATE.times(100))} %), ` +
    `is taken from the ${receiving} received`;
  if (needs.gt(free)) {
    return {
      check: 'balance',
      status: 'failed',
      text:
        `Not enough ${paying}: this ${order.side} needs ${show(needs)} ${paying}${how} and ` +
        `${show(free)} ${paying} is free, ${show(needs.minus(free))} ${paying} short`,
    };
  }
  return {
    check: 'balance',
    status: 'passed',
    text: `Needs ${show(needs)} ${paying}${how}; ${show(free)} ${paying} is free. ${feeText}`,
  };
}

/**
 * Every local check of the order, in the order a person would read them. The exchange's own test
 * comes after, and only when all of these passed.
 */
export function reviewOrder(
  order: ReviewedOrder,
  rules: MarketRules,
  facts: AccountFacts,
): OrderCheck[] {
  const checks = [
    tickCheck(order, rules),
    stepCheck(order, rules),
    limitsCheck(order, rules),
    priceCheck(order, rules, facts),
  ];
  if (order.type === 'stop_limit') checks.push(stopCheck(order, rules, facts.lastPrice));
  checks.push(balanceCheck(order, rules, facts.free));
  return checks;
}

export type OrderInput = MethodParsedInput<'orders.place'>;

/** The order as the client sends it. */
export function toNewOrder(input: OrderInput): NewOrder {
  const order: NewOrder = {
    symbol: input.symbol,
    side: input.side,
    type: input.type,
    quantity: input.quantity,
    price: input.price,
  };
  // The exchange accepts a stop price only on stop-limit orders.
  if (input.type === 'stop_limit' && input.stopPrice !== undefined)
    order.stopPrice = input.stopPrice;
  return order;
}

/**
 * A test is a review: local checks with their numbers first, the exchange's test endpoint only
 * when they all pass.
 */
export async function testOrder(
  rules: ExchangeRules,
  client: Pick<ExchangeClient, 'general' | 'account' | 'market' | 'trading'>,
  input: OrderInput,
  priceWarningPercent: Decimal,
): Promise<OrderReview> {
  await rules.checkOrderDecimals(client, input);
  const market = (await rules.listedSymbols(client)).find(
    (s) => s.symbol.toLowerCase() === input.symbol,
  );
  if (!market) throw new AppError('invalid-input', 'The market is gone', 'symbol');
  const paying = input.side === 'buy' ? market.quoteAsset : market.baseAsset;
  // Read now, not from the cache: the review is the last look before money moves.
  const [funds, ticker] = await Promise.all([
    client.account.funds(),
    client.market.ticker({ symbol: input.symbol }),
  ]);
  const fund = funds.find((f) => sameAsset(f.asset, paying));
  const checks = reviewOrder(input, marketRules(market), {
    free: new Decimal(fund?.free ?? '0'),
    lastPrice: new Decimal(ticker.lastPrice),
    priceWarningPercent,
  });
  if (checks.some((check) => check.status === 'failed')) {
    checks.push({
      check: 'exchange',
      status: 'skipped',
      text: "Not sent to the exchange's test: the checks above refused the order",
    });
    return { ok: false, checks };
  }
  await client.trading.testOrder(toNewOrder(input));
  checks.push({
    check: 'exchange',
    status: 'passed',
    text: "The exchange's test endpoint accepts the order's form (it does not check funds)",
  });
  return { ok: true, checks };
}
