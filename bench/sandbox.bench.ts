/**
 * Sandbox exchange figures:
 * - sandbox.engine.orders_per_second: the in-process matching engine on a seeded random flow of
 *   limit orders around a mid price (about half of them cross), no event listeners.
 * - sandbox.http.signed_funds: signed GET /sapi/v1/funds through the sandbox's HTTP server
 *   (rate limits off) vs a bare node:http server answering `{}`, same undici Pool, same
 *   concurrency, same run.
 * - sandbox.amounts: the engine's amount operations per fill (parse a maker's and a taker's price
 *   and quantity, the buy lock, the crossing and remaining compares, quote = price × quantity,
 *   both fees, the buyer's lock share and excess, both settlements, both orders' executed sums,
 *   the done checks, and the answer's executed quantity as text) on the strings of the flow that
 *   sandbox.engine uses, once in the project's Decimal (value) and once in fixed.ts (baseline),
 *   same run; both must end at the same balances to the digit. Issue #18 asks the sandbox to
 *   compute in the one Decimal unless a measured reason says otherwise: this is that measure
 *   (docs/architecture.md, Amounts, has the figures and the decision).
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { ManualClock } from '../electron/core/clock';
import { MatchingEngine } from '../electron/sandbox/engine';
import { SandboxEvents } from '../electron/sandbox/events';
import { DECIMAL_PATTERN } from '../shared/decimal';
import { Decimal } from '../shared/exact-decimal';
import { formatFixed, mulFixed, parseDecimal, parseFixed } from '../electron/sandbox/fixed';
import { startSandbox } from '../electron/sandbox/index';
import { Ledger } from '../electron/sandbox/ledger';
import { SeededRandom } from '../electron/sandbox/random';
import { DEMO_MARKETS } from '../electron/sandbox/world';
import { figure, type Bench } from './figure';

const ORDERS = 100_000;
const ROUNDS = 4;
const CONCURRENCY = 8;
const HTTP_MS = 4000;
const AMOUNT_FILLS = 200_000;
const AMOUNT_ROUNDS = 5;

function engineOrdersPerSecond(): number {
  const clock = new ManualClock();
  const events = new SandboxEvents();
  const ledger = new Ledger(clock, events);
  const engine = new MatchingEngine(clock, events, ledger, DEMO_MARKETS);
  const accounts = 20;
  for (let id = 1; id <= accounts; id++) {
    ledger.credit(id, 'usdt', parseFixed('100000000000')!);
    ledger.credit(id, 'btc', parseFixed('10000000')!);
  }
  const random = new SeededRandom(1);
  // Prepare the flow first so only the engine is timed.
  const flow = Array.from({ length: ORDERS }, () => ({
    account: random.int(1, accounts),
    side: random.next() < 0.5 ? ('buy' as const) : ('sell' as const),
    price: (60000 + random.int(-200, 200) * 0.5).toFixed(2),
    quantity: (random.int(1, 5000) / 1000).toFixed(3),
  }));
  const start = performance.now();
  for (const o of flow) {
    engine.placeOrder(o.account, {
      symbol: 'btcusdt',
      side: o.side,
      type: 'limit',
      quantity: o.quantity,
      price: o.price,
    });
  }
  return (ORDERS * 1000) / (performance.now() - start);
}

interface FillStrings {
  makerPrice: string;
  makerQty: string;
  takerPrice: string;
  takerQty: string;
  takerBuys: boolean;
}

/** Maker/taker pairs drawn like sandbox.engine's flow: the taker crosses the maker's price. */
function fillFlow(): FillStrings[] {
  const random = new SeededRandom(7);
  return Array.from({ length: AMOUNT_FILLS }, () => {
    const makerTicks = random.int(-200, 200);
    const takerBuys = random.next() < 0.5;
    const cross = random.int(0, 20);
    return {
      makerPrice: (60000 + makerTicks * 0.5).toFixed(2),
      makerQty: (random.int(1, 5000) / 1000).toFixed(3),
      takerPrice: (60000 + (makerTicks + (takerBuys ? cross : -cross)) * 0.5).toFixed(2),
      takerQty: (random.int(1, 5000) / 1000).toFixed(3),
      takerBuys,
    };
  });
}

/** Per fill as engine.ts does it, in fixed.ts's bigints (×10^18, parse and format caches). */
function fixedFills(flow: FillStrings[]): { ns: number; result: string } {
  const reject = (): never => {
    throw new Error('flow rejected');
  };
  let buyerQuoteFree = parseFixed('100000000000')!;
  let buyerBaseFree = 0n;
  let sellerQuoteFree = 0n;
  let sellerBaseFree = parseFixed('10000000')!;
  let quoteLocked = 0n;
  let baseLocked = 0n;
  let feesBase = 0n;
  let feesQuote = 0n;
  let textLength = 0;
  const start = performance.now();
  for (const f of flow) {
    const makerPrice = parseDecimal(f.makerPrice) ?? reject();
    const makerQty = parseDecimal(f.makerQty) ?? reject();
    const takerPrice = parseDecimal(f.takerPrice) ?? reject();
    const takerQty = parseDecimal(f.takerQty) ?? reject();
    if (makerPrice.places > 2 || takerQty.places > 5 || makerQty.value <= 0n) reject();
    const buyer = f.takerBuys ? takerPrice : makerPrice;
    const buyQty = f.takerBuys ? takerQty.value : makerQty.value;
    const sellQty = f.takerBuys ? makerQty.value : takerQty.value;
    // Locks at placement: the buyer's price × quantity of quote, the seller's quantity of base.
    const buyLock = mulFixed(buyer.value, buyQty);
    if (buyerQuoteFree < buyLock || sellerBaseFree < sellQty) reject();
    buyerQuoteFree -= buyLock;
    quoteLocked += buyLock;
    sellerBaseFree -= sellQty;
    baseLocked += sellQty;
    // Matching: the taker crosses, the fill is the smaller remainder at the maker's price.
    if (f.takerBuys ? makerPrice.value > takerPrice.value : makerPrice.value < takerPrice.value) {
      reject();
    }
    const quantity = takerQty.value < makerQty.value ? takerQty.value : makerQty.value;
    const price = makerPrice.value;
    const quote = mulFixed(price, quantity);
    const buyerFee = quantity / (f.takerBuys ? 500n : 1000n);
    const sellerFee = quote / (f.takerBuys ? 1000n : 500n);
    const lockShare = buyer.value === price ? quote : mulFixed(buyer.value, quantity);
    const excess = lockShare === quote ? 0n : lockShare - quote;
    quoteLocked -= quote;
    if (excess !== 0n) {
      quoteLocked -= excess;
      buyerQuoteFree += excess;
    }
    buyerBaseFree += quantity - buyerFee;
    feesBase += buyerFee;
    baseLocked -= quantity;
    sellerQuoteFree += quote - sellerFee;
    feesQuote += sellerFee;
    // Both orders' executed sums and done checks; what stays locked goes back to free.
    const takerExecuted = quantity;
    const makerExecuted = quantity;
    if (takerExecuted !== takerQty.value && makerExecuted !== makerQty.value) reject();
    const buyerLeft = buyLock - lockShare;
    quoteLocked -= buyerLeft;
    buyerQuoteFree += buyerLeft;
    const sellerLeft = sellQty - quantity;
    baseLocked -= sellerLeft;
    sellerBaseFree += sellerLeft;
    // The answer's executed quantity (the trade and balance events' text only runs while a
    // stream listens, and sandbox.engine runs without).
    textLength += formatFixed(takerExecuted).length;
  }
  const ns = ((performance.now() - start) * 1e6) / flow.length;
  const result = [
    buyerQuoteFree,
    buyerBaseFree,
    sellerQuoteFree,
    sellerBaseFree,
    quoteLocked,
    baseLocked,
    feesBase,
    feesQuote,
  ]
    .map(formatFixed)
    .join(' ');
  return { ns, result: `${result} ${textLength}` };
}

const MAKER_FEE = new Decimal('0.001');
const TAKER_FEE = new Decimal('0.002');
const FIXED_PLACES = 18;

/** The engine's parse in the Decimal: the wire pattern, the value, the places as written. */
function parseAmount(text: string): { value: Decimal; places: number } | undefined {
  if (text.length === 0 || text.length > 60 || !DECIMAL_PATTERN.test(text)) return undefined;
  const value = new Decimal(text);
  return { value, places: value.scale };
}

/** Exactly fixed.ts's rounding: a product or fee cut down to 18 places (exact below that). */
function cut(value: Decimal): Decimal {
  return value.toDecimalPlaces(FIXED_PLACES, Decimal.ROUND_DOWN);
}

/** The same per-fill sequence in the project's Decimal, uncached. */
function decimalFills(flow: FillStrings[]): { ns: number; result: string } {
  const reject = (): never => {
    throw new Error('flow rejected');
  };
  let buyerQuoteFree = new Decimal('100000000000');
  let buyerBaseFree = new Decimal(0);
  let sellerQuoteFree = new Decimal(0);
  let sellerBaseFree = new Decimal('10000000');
  let quoteLocked = new Decimal(0);
  let baseLocked = new Decimal(0);
  let feesBase = new Decimal(0);
  let feesQuote = new Decimal(0);
  let textLength = 0;
  const start = performance.now();
  for (const f of flow) {
    const makerPrice = parseAmount(f.makerPrice) ?? reject();
    const makerQty = parseAmount(f.makerQty) ?? reject();
    const takerPrice = parseAmount(f.takerPrice) ?? reject();
    const takerQty = parseAmount(f.takerQty) ?? reject();
    if (makerPrice.places > 2 || takerQty.places > 5 || !makerQty.value.isPositive()) reject();
    const buyer = f.takerBuys ? takerPrice : makerPrice;
    const buyQty = f.takerBuys ? takerQty.value : makerQty.value;
    const sellQty = f.takerBuys ? makerQty.value : takerQty.value;
    const buyLock = cut(buyer.value.times(buyQty));
    if (buyerQuoteFree.lt(buyLock) || sellerBaseFree.lt(sellQty)) reject();
    buyerQuoteFree = buyerQuoteFree.minus(buyLock);
    quoteLocked = quoteLocked.plus(buyLock);
    sellerBaseFree = sellerBaseFree.minus(sellQty);
    baseLocked = baseLocked.plus(sellQty);
    if (
      f.takerBuys ? makerPrice.value.gt(takerPrice.value) : makerPrice.value.lt(takerPrice.value)
    ) {
      reject();
    }
    const quantity = takerQty.value.lt(makerQty.value) ? takerQty.value : makerQty.value;
    const price = makerPrice.value;
    const quote = cut(price.times(quantity));
    const buyerFee = cut(quantity.times(f.takerBuys ? TAKER_FEE : MAKER_FEE));
    const sellerFee = cut(quote.times(f.takerBuys ? MAKER_FEE : TAKER_FEE));
    const lockShare = buyer.value.eq(price) ? quote : cut(buyer.value.times(quantity));
    const excess = lockShare.minus(quote);
    quoteLocked = quoteLocked.minus(quote);
    if (!excess.isZero()) {
      quoteLocked = quoteLocked.minus(excess);
      buyerQuoteFree = buyerQuoteFree.plus(excess);
    }
    buyerBaseFree = buyerBaseFree.plus(quantity.minus(buyerFee));
    feesBase = feesBase.plus(buyerFee);
    baseLocked = baseLocked.minus(quantity);
    sellerQuoteFree = sellerQuoteFree.plus(quote.minus(sellerFee));
    feesQuote = feesQuote.plus(sellerFee);
    const takerExecuted = quantity;
    const makerExecuted = quantity;
    if (!takerExecuted.eq(takerQty.value) && !makerExecuted.eq(makerQty.value)) reject();
    const buyerLeft = buyLock.minus(lockShare);
    quoteLocked = quoteLocked.minus(buyerLeft);
    buyerQuoteFree = buyerQuoteFree.plus(buyerLeft);
    const sellerLeft = sellQty.minus(quantity);
    baseLocked = baseLocked.minus(sellerLeft);
    sellerBaseFree = sellerBaseFree.plus(sellerLeft);
    textLength += takerExecuted.toString().length;
  }
  const ns = ((performance.now() - start) * 1e6) / flow.length;
  const result = [
    buyerQuoteFree,
    buyerBaseFree,
    sellerQuoteFree,
    sellerBaseFree,
    quoteLocked,
    baseLocked,
    feesBase,
    feesQuote,
  ]
    .map((value) => value.toString())
    .join(' ');
  return { ns, result: `${result} ${textLength}` };
}

async function throughput(fn: () => Promise<unknown>, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let count = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await fn();
        count++;
      }
    }),
  );
  return (count * 1000) / (performance.now() - start);
}

async function signedFunds(): Promise<{ sandbox: number; bare: number }> {
  const bareServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 });
    res.end('{}');
  });
  await new Promise<void>((resolve) => bareServer.listen(0, '127.0.0.1', resolve));
  const barePort = (bareServer.address() as AddressInfo).port;
  const sandbox = await startSandbox({ rateLimits: false });
  const key = sandbox.world.accounts[0]!.keys[0]!;
  const sandboxPool = new Pool(sandbox.baseUrl, { connections: CONCURRENCY, pipelining: 1 });
  const barePool = new Pool(`http://127.0.0.1:${barePort}`, {
    connections: CONCURRENCY,
    pipelining: 1,
  });
  const callSandbox = async () => {
    const query = `timestamp=${Date.now()}`;
    const signature = createHmac('sha256', key.secretKey).update(query).digest('hex');
    const { statusCode, body } = await sandboxPool.request({
      method: 'GET',
      path: `/sapi/v1/funds?${query}&signature=${signature}`,
      headers: { 'x-api-key': key.apiKey },
    });
    await body.text();
    if (statusCode !== 200) throw new Error(`funds answered ${statusCode}`);
  };
  const callBare = async () => {
    const query = `timestamp=${Date.now()}`;
    const signature = createHmac('sha256', key.secretKey).update(query).digest('hex');
    const { body } = await barePool.request({
      method: 'GET',
      path: `/sapi/v1/funds?${query}&signature=${signature}`,
      headers: { 'x-api-key': key.apiKey },
    });
    await body.text();
  };
  try {
    await throughput(callBare, 500);
    await throughput(callSandbox, 500);
    const bare = await throughput(callBare, HTTP_MS);
    const result = await throughput(callSandbox, HTTP_MS);
    return { sandbox: result, bare };
  } finally {
    await sandboxPool.close();
    await barePool.close();
    await sandbox.close();
    await new Promise<void>((resolve) => bareServer.close(() => resolve()));
  }
}

export const benches: Bench[] = [
  {
    name: 'sandbox.engine.orders_per_second',
    async run() {
      // Fresh engines each round; the first rounds warm up the JIT, the best round is reported.
      let value = 0;
      for (let round = 0; round < ROUNDS; round++) value = Math.max(value, engineOrdersPerSecond());
      return [
        figure({
          name: 'sandbox.engine.orders_per_second',
          value,
          unit: 'orders/s',
          baseline: null,
          target: '>= 200000',
          ok: value >= 200_000,
        }),
      ];
    },
  },
  {
    name: 'sandbox.amounts',
    async run() {
      const flow = fillFlow();
      // Alternating rounds (the first ones warm the JIT); the best round of each is reported.
      let fixed = Infinity;
      let decimal = Infinity;
      for (let round = 0; round < AMOUNT_ROUNDS; round++) {
        const a = fixedFills(flow);
        const b = decimalFills(flow);
        if (a.result !== b.result) {
          throw new Error(`the two disagree: fixed ${a.result}, Decimal ${b.result}`);
        }
        fixed = Math.min(fixed, a.ns);
        decimal = Math.min(decimal, b.ns);
      }
      return [
        figure({
          name: 'sandbox.amounts',
          value: decimal,
          unit: 'ns/fill',
          baseline: fixed,
          target: 'ratio <= 1.2',
          ok: decimal / fixed <= 1.2,
        }),
      ];
    },
  },
  {
    name: 'sandbox.http.signed_funds',
    async run() {
      const { sandbox, bare } = await signedFunds();
      return [
        figure({
          name: 'sandbox.http.signed_funds',
          value: sandbox,
          unit: 'requests/s',
          baseline: bare,
          target: 'ratio >= 0.40',
          ok: sandbox / bare >= 0.4,
        }),
      ];
    },
  },
];
