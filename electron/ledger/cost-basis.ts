/**
 * Cost basis: the ledger's entries, in order, into lots and disposals, valued in one reporting
 * asset (e.g. USDT or INR), by FIFO, LIFO, HIFO (highest cost first) or average cost.
 *
 * The rules, all in the reporting asset:
 * - A trade disposes of what it sends and acquires what it receives, both worth the trade's value
 *   (its quote amount, converted at the time's price when the quote is not the reporting asset:
 *   ETH sold for BTC is a disposal of ETH and an acquisition of BTC at BTC's value).
 * - Fees: a buy's fee adds to the cost of what is bought, a sell's fee reduces the proceeds of
 *   what is sold. A fee in the received asset arrives as fewer units, one in the sent asset leaves
 *   as more; a fee in a third asset (a platform token) is also a disposal of that asset at its
 *   value. So a trade's proceeds always equal the cost of what it acquires: value is neither
 *   created nor lost.
 * - The reporting asset is cash: its cost is its quantity, it has no lots and no gains.
 * - A withdrawal disposes of nothing: the lots it takes leave with their basis (an outflow at
 *   cost), and the basis of the units paid as its fee is a cost of its own (withdrawalFeeCost).
 * - A transfer between own accounts moves lots with their basis and acquisition dates.
 * - An inferred credit opens a lot at the user's cost basis or, absent one, at the time's value
 *   (marked estimated); an inferred debit takes lots out like a withdrawal.
 * - What leaves a position (a disposal, a withdrawal, a transfer, an inferred debit) is taken from
 *   its lots in the method's order: FIFO the oldest lot first, LIFO the newest first, HIFO the lot
 *   of the highest cost per unit first (its cost and quantity as it came into the position; equal
 *   ones oldest first, by acquisition date then arrival).
 * - Average cost takes quantities (and so acquisition dates) from the oldest lots, but the cost of
 *   what leaves is the position's average cost.
 *
 * So at any time: value = costBasis + unrealized, and
 * costBasis = netFlowsAtCost + realized − withdrawalFeeCost, exactly.
 */
import { Decimal, DecimalSum, decimalOfParts, differenceOfParts } from '../../shared/exact-decimal';
import {
  addShare,
  amount,
  isBelowZero,
  negated,
  ONE,
  share,
  shareOfPart,
  times,
  ZERO,
  type Amount,
} from './decimal';
import {
  sortEntries,
  tradeAmounts,
  withdrawalDebits,
  type InferredEntry,
  type LedgerEntry,
  type TradeEntry,
  type TransferEntry,
  type WithdrawalEntry,
} from './entries';
import { readTradeParts, tradeParts } from './trade-table';

export type CostMethod = 'fifo' | 'lifo' | 'hifo' | 'average';

/**
 * The price of one unit of `asset` in `quoteAsset` at `time`, as decimal text or a Decimal
 * (never a float); null or undefined when unknown.
 */
export type PriceAt = (
  asset: string,
  quoteAsset: string,
  time: number,
) => string | Decimal | null | undefined;

export class MissingPriceError extends Error {
  constructor(
    readonly asset: string,
    readonly quoteAsset: string,
    readonly time: number,
    readonly reason: string,
  ) {
    super(
      `No price of ${asset} in ${quoteAsset} at ${new Date(time).toISOString()}, needed for ${reason}`,
    );
    this.name = 'MissingPriceError';
  }
}

export interface LedgerOptions {
  method: CostMethod;
  /** The asset every figure is in ("USDT", "INR", ...). */
  reportingAsset: string;
  /** The price at an entry's own time, which the entry is valued at. */
  priceAt: PriceAt;
  /** The price at any other time (a range's start, now) that holdings are valued at; else priceAt. */
  valueAt?: PriceAt;
  /**
   * An inferred credit of an asset with no price: 'throw' (MissingPriceError, the default), or
   * open its lot with basis 'missing' (cost 0).
   */
  unpricedCredits?: 'throw' | 'missing-basis';
}

/**
 * Where a lot's basis comes from: the exchange's records, the user's own figure for an inferred
 * credit, the market value at the time of an inferred credit (an estimate), or nothing at all (more
 * was spent than the records show acquired; basis 0).
 */
export type BasisSource = 'recorded' | 'user' | 'estimated' | 'missing';

export interface Lot {
  account: string;
  asset: string;
  quantity: Amount;
  cost: Amount;
  acquiredAt: number;
  /** The entry that opened it (a transfer keeps the original one). */
  openedBy: LedgerEntry;
  basis: BasisSource;
}

export interface Disposal {
  /** The disposing entry. */
  entry: LedgerEntry;
  account: string;
  asset: string;
  quantity: Amount;
  proceeds: Amount;
  cost: Amount;
  gain: Amount;
  /** Null when the basis is missing. */
  acquiredAt: number | null;
  disposedAt: number;
  basis: BasisSource;
  /** A trade's sent asset, or a fee paid in a third asset. */
  reason: 'trade' | 'fee';
}

export interface FeePaid {
  entry: LedgerEntry;
  account: string;
  /** The asset the fee was paid in. */
  asset: string;
  amount: Amount;
  /** Its value in the reporting asset at the time. */
  value: Amount;
  /** The asset whose figures the fee counts for: a trade's base (its quote when the base is cash), a withdrawal's asset. */
  attributedTo: string;
  time: number;
}

/** What came into or left the ledger's accounts (not a trade, not a transfer between them). */
export interface Flow {
  entry: LedgerEntry;
  account: string;
  asset: string;
  /** Signed: positive in, negative out. */
  quantity: Amount;
  /** Signed basis that came or went. */
  cost: Amount;
  time: number;
  kind: 'inferred' | 'withdrawal' | 'withdrawal-fee';
}

/** A disposal of more than the lots held: the difference had no basis (see BasisSource). */
export interface Shortfall {
  entry: LedgerEntry;
  account: string;
  asset: string;
  quantity: Amount;
  time: number;
}

/** The price of `asset` in `reportingAsset` at `time` (1 for itself); MissingPriceError if none. */
export function reportingPrice(
  priceAt: PriceAt,
  reportingAsset: string,
  asset: string,
  time: number,
  reason: string,
): Amount {
  if (asset === reportingAsset) return ONE;
  const price = priceAt(asset, reportingAsset, time);
  if (price === null || price === undefined) {
    throw new MissingPriceError(asset, reportingAsset, time, reason);
  }
  return priceAmount(price, asset, reportingAsset);
}

/**
 * What priceAt answered, as an amount: the project's Decimal as it is (the prices' own value, not
 * a copy), another constructor's value made one of ours (its arithmetic would round).
 */
function priceAmount(price: string | Decimal, asset: string, reportingAsset: string): Amount {
  if (typeof price === 'string') {
    return amount(price, `the price of ${asset} in ${reportingAsset}`, 'from priceAt');
  }
  return price.constructor === Decimal ? price : new Decimal(price);
}

/** A unique key for an entry (a trade's id is unique only within its symbol). */
export function entryKey(entry: LedgerEntry): string {
  return entry.kind === 'trade' ? `trade:${entry.symbol}:${entry.id}` : `${entry.kind}:${entry.id}`;
}

/**
 * A disposal as the ledger keeps it: its gain is made when someone reads it (a report, a screen),
 * not for each of a build's disposals; the figures read each position's realized sum instead.
 */
export class DisposalRecord implements Disposal {
  constructor(
    readonly entry: LedgerEntry,
    readonly account: string,
    readonly asset: string,
    readonly quantity: Amount,
    readonly proceeds: Amount,
    readonly cost: Amount,
    readonly acquiredAt: number | null,
    readonly disposedAt: number,
    readonly basis: BasisSource,
    readonly reason: Disposal['reason'],
  ) {}

  get gain(): Amount {
    return this.proceeds.minus(this.cost);
  }
}

/* Why a price was needed, written out only when there is none. */
const tradeReason = (trade: TradeEntry) => `trade ${trade.symbol} #${trade.id}`;
const tradeFeeReason = (trade: TradeEntry) => `the fee of trade ${trade.symbol} #${trade.id}`;
const withdrawalFeeReason = (withdrawal: WithdrawalEntry) =>
  `the fee of withdrawal ${withdrawal.id}`;
const costBasisReason = (entry: InferredEntry) => `the cost basis of ${entryKey(entry)}`;
const valueReason = (entry: InferredEntry) => `the value of ${entryKey(entry)}`;

interface OpenLot {
  quantity: Amount;
  cost: Amount;
  acquiredAt: number;
  openedBy: LedgerEntry;
  basis: BasisSource;
  /** HIFO's order: the cost and quantity it came in with (a part taken keeps the same order). */
  orderCost: Amount;
  orderQuantity: Amount;
  /** Arrival in this position, the last tie-break. */
  seq: number;
  /** Its copy a checkpoint took (see frozenOf), or null. */
  frozen: OpenLot | null;
}

/**
 * A lot as a checkpoint keeps it: the copy an earlier checkpoint took while the lot is unchanged
 * since (only its quantity and cost change, each to a new value), else a new one. So checkpoints
 * share the lots none of them saw change, and each costs a reference per open lot besides.
 */
function frozenOf(lot: OpenLot): OpenLot {
  const frozen = lot.frozen;
  if (frozen !== null && frozen.quantity === lot.quantity && frozen.cost === lot.cost) {
    return frozen;
  }
  const copy = { ...lot, frozen: null };
  lot.frozen = copy;
  return copy;
}

/** Whether HIFO takes `a` before `b`: higher cost per unit, then older, then arrived first. */
function hifoBefore(a: OpenLot, b: OpenLot): boolean {
  const order = a.orderCost.times(b.orderQuantity).cmp(b.orderCost.times(a.orderQuantity));
  if (order !== 0) return order > 0;
  if (a.acquiredAt !== b.acquiredAt) return a.acquiredAt < b.acquiredAt;
  return a.seq < b.seq;
}

/**
 * The pieces one take() took, oldest first, the last one 'missing' when there was not enough. One
 * buffer per ledger, filled anew by each take and read before the next, so a disposal makes no
 * array or object per piece.
 */
export class Taken {
  count = 0;
  readonly quantity: Amount[] = [];
  readonly cost: Amount[] = [];
  readonly acquiredAt: (number | null)[] = [];
  readonly openedBy: (LedgerEntry | null)[] = [];
  readonly basis: BasisSource[] = [];

  clear(): void {
    this.count = 0;
  }

  /**
   * The cost of every piece (a missing piece costs nothing), made when asked: a disposal's
   * figures take each piece's cost into the position's sums instead (see Position.realize).
   */
  get totalCost(): Amount {
    const count = this.count;
    if (count === 0) return ZERO;
    let total = this.cost[0]!;
    for (let index = 1; index < count; index++) total = total.plus(this.cost[index]!);
    return total;
  }

  push(
    quantity: Amount,
    cost: Amount,
    acquiredAt: number | null,
    openedBy: LedgerEntry | null,
    basis: BasisSource,
  ): void {
    const index = this.count++;
    this.quantity[index] = quantity;
    this.cost[index] = cost;
    this.acquiredAt[index] = acquiredAt;
    this.openedBy[index] = openedBy;
    this.basis[index] = basis;
  }
}

/** A position's figures and open lots at one moment (Position.state). */
export interface PositionState {
  readonly quantity: Amount;
  readonly cost: Amount;
  readonly realized: Amount;
  readonly arrivals: number;
  readonly lots: readonly OpenLot[];
}

/**
 * A ledger as it stood after its first `applied` entries (Ledger.checkpoint): what restore() needs
 * to go back there. What only grows (flows, shortfalls; the disposal and fee records when they
 * were made by then, else null) is kept as its length.
 */
export interface LedgerCheckpoint {
  readonly applied: number;
  /** The time of the last entry applied by then. */
  readonly time: number;
  readonly positions: readonly { account: string; asset: string; state: PositionState }[];
  readonly disposals: number | null;
  readonly fees: number | null;
  readonly flows: number;
  readonly shortfalls: number;
  readonly feeValues: ReadonlyMap<string, ReadonlyMap<string, Amount>>;
  readonly withdrawalFeeCost: Amount;
}

/** One asset in one account. */
export class Position {
  /*
   * Running sums changed in place (a cash position's quantity passes 2^53 at its 10 places, a
   * cost or realized sum at a share's 18), read as Decimals only when asked (see DecimalSum).
   */
  private readonly quantitySum = new DecimalSum();
  private readonly costSum = new DecimalSum();
  private readonly realizedSum = new DecimalSum();
  /**
   * The open lots in arrival order from `head` (FIFO and average take from the head, LIFO from
   * the end); empty for cash. Under HIFO `heap` orders them (hifoBefore) and a lot taken whole
   * stays in `queue` with quantity 0 (a hole) until compacted.
   */
  private queue: OpenLot[] = [];
  private head = 0;
  private readonly heap: OpenLot[] = [];
  private holes = 0;
  private arrivals = 0;

  constructor(
    readonly account: string,
    readonly asset: string,
    readonly cash: boolean,
    readonly method: CostMethod,
  ) {}

  get quantity(): Amount {
    return this.quantitySum.value();
  }

  /** The basis of what is held (cash: its quantity). */
  get cost(): Amount {
    return this.cash ? this.quantitySum.value() : this.costSum.value();
  }

  /** The gains of every disposal from this position (kept as they happen: figures read this). */
  get realized(): Amount {
    return this.realizedSum.value();
  }

  /** A disposal's gain: `proceeds` for the pieces `taken` (each cost taken from the sum, not a total made). */
  realize(proceeds: Amount, taken: Taken): void {
    const sum = this.realizedSum;
    sum.add(proceeds);
    for (let index = 0; index < taken.count; index++) sum.subtract(taken.cost[index]!);
  }

  add(
    quantity: Amount,
    cost: Amount,
    acquiredAt: number,
    openedBy: LedgerEntry,
    basis: BasisSource,
  ): void {
    if (quantity.isZero()) return;
    this.quantitySum.add(quantity);
    if (this.cash) return;
    this.costSum.add(cost);
    const lot: OpenLot = {
      quantity,
      cost,
      acquiredAt,
      openedBy,
      basis,
      orderCost: cost,
      orderQuantity: quantity,
      seq: this.arrivals++,
      frozen: null,
    };
    this.queue.push(lot);
    if (this.method === 'hifo') this.pushHeap(lot);
  }

  /** The lot the method takes from next; undefined when none is open. */
  private nextLot(): OpenLot | undefined {
    switch (this.method) {
      case 'lifo':
        return this.queue.length > this.head ? this.queue[this.queue.length - 1] : undefined;
      case 'hifo':
        return this.heap[0];
      default:
        return this.head < this.queue.length ? this.queue[this.head] : undefined;
    }
  }

  /** Closes the lot nextLot() gave, taken whole. */
  private closeNext(lot: OpenLot): void {
    switch (this.method) {
      case 'lifo':
        this.queue.pop();
        return;
      case 'hifo':
        lot.quantity = ZERO;
        this.holes++;
        this.popHeap();
        return;
      default:
        this.head++;
    }
  }

  private pushHeap(lot: OpenLot): void {
    const heap = this.heap;
    let index = heap.push(lot) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!hifoBefore(lot, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = lot;
  }

  private popHeap(): void {
    const heap = this.heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && hifoBefore(heap[right]!, heap[left]!) ? right : left;
      if (!hifoBefore(heap[child]!, last)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = last;
  }

  /** What the position holds now, as a copy a later restore() puts back (see frozenOf). */
  state(): PositionState {
    return {
      quantity: this.quantity,
      cost: this.cost,
      realized: this.realized,
      arrivals: this.arrivals,
      lots: this.openLots().map(frozenOf),
    };
  }

  /**
   * Takes back a state() (its lots copied again, so the state can be put back once more; each
   * copy knows its checkpoint's, which the next checkpoint shares while it is unchanged). Under
   * HIFO the heap is made anew: which lot it gives first is hifoBefore's order, however it is laid.
   */
  restore(state: PositionState): void {
    this.quantitySum.set(state.quantity);
    this.costSum.set(this.cash ? ZERO : state.cost);
    this.realizedSum.set(state.realized);
    this.arrivals = state.arrivals;
    this.queue = state.lots.map((frozen) => ({ ...frozen, frozen }));
    this.head = 0;
    this.holes = 0;
    this.heap.length = 0;
    if (this.method === 'hifo') for (const lot of this.queue) this.pushHeap(lot);
  }

  /** The open lots in arrival order. */
  private openLots(): OpenLot[] {
    const open = this.queue.slice(this.head);
    return this.holes === 0 ? open : open.filter((lot) => !lot.quantity.isZero());
  }

  /**
   * Takes `wanted` units out, in the method's order, into `out`; what is not there is a missing
   * piece.
   */
  take(wanted: Amount, out: Taken): void {
    out.clear();
    if (wanted.isZero()) return;
    if (this.cash) return this.takeCash(wanted, out);
    const average = this.method === 'average';
    // Taken from the quantity at once where it is there (nothing below reads it but the average).
    const short = average
      ? this.quantitySum.cmp(wanted) < 0
      : !this.quantitySum.subtractCovered(wanted);
    const available = short ? this.quantity : wanted;
    // Average cost: what leaves carries the position's average (a lot's own cost is not kept up
    // to date then); the others: each lot's own cost.
    const averageOut =
      average && !available.isZero() ? share(this.cost, available, this.quantity) : null;
    let averageLeft = averageOut;
    let left = available;
    // What is left to take as units at `left`'s scale, while it and the lots' quantities are safe
    // numbers at that scale (compared and taken away with no value made per lot taken whole),
    // else NaN; `left` is its value only while `leftMade`.
    const scale = available.scale;
    let units = typeof available.coefficient === 'number' ? available.coefficient : NaN;
    let leftMade = true;
    let lot: OpenLot | undefined;
    while (!available.isZero() && (lot = this.nextLot()) !== undefined) {
      const lotQuantity = lot.quantity;
      const lotUnits = lotQuantity.coefficient;
      // One comparison: whether the lot goes whole, and whether it is the last piece wanted.
      let order: number;
      if (units === units && typeof lotUnits === 'number' && lotQuantity.scale === scale) {
        order = lotUnits < units ? -1 : lotUnits > units ? 1 : 0;
      } else {
        if (!leftMade) left = decimalOfParts(units, scale);
        leftMade = true;
        units = NaN;
        order = lotQuantity.cmp(left);
      }
      const whole = order <= 0;
      const last = order >= 0;
      if (!whole && !leftMade) {
        left = decimalOfParts(units, scale);
        leftMade = true;
      }
      const quantity = whole ? lotQuantity : left;
      let cost: Amount;
      if (averageLeft !== null) {
        cost = last ? averageLeft : share(averageOut!, quantity, available);
        if (!last) averageLeft = averageLeft.minus(cost);
      } else {
        cost = whole ? lot.cost : shareOfPart(lot.cost, quantity, lotQuantity);
        this.costSum.subtract(cost);
      }
      out.push(quantity, cost, lot.acquiredAt, lot.openedBy, lot.basis);
      if (whole) {
        this.closeNext(lot);
      } else {
        lot.quantity = lotQuantity.minus(quantity);
        if (averageOut === null) lot.cost = lot.cost.minus(cost);
      }
      if (last) break;
      // A lot taken whole and more wanted: what is left stays above zero.
      if (units === units) {
        units -= lotUnits as number;
        leftMade = false;
      } else {
        left = left.minus(quantity);
      }
    }
    this.compact();
    if (short) this.quantitySum.set(ZERO);
    else if (average) this.quantitySum.subtract(available);
    if (averageOut !== null) this.costSum.subtract(averageOut);
    if (short) out.push(wanted.minus(available), ZERO, null, null, 'missing');
  }

  /** The open lots, oldest first; under average cost each carries its share of the average. */
  lots(): Lot[] {
    const open = this.openLots();
    const average = this.method === 'average';
    let left = this.cost;
    return open.map((lot, index) => {
      let cost = lot.cost;
      if (average) {
        cost = index === open.length - 1 ? left : share(this.cost, lot.quantity, this.quantity);
        left = left.minus(cost);
      }
      return {
        account: this.account,
        asset: this.asset,
        quantity: lot.quantity,
        cost,
        acquiredAt: lot.acquiredAt,
        openedBy: lot.openedBy,
        basis: lot.basis,
      };
    });
  }

  /** Whether some open lot's basis is an estimate or missing. */
  basisEstimated(): boolean {
    for (let index = this.head; index < this.queue.length; index++) {
      const lot = this.queue[index]!;
      if (lot.quantity.isZero()) continue;
      if (lot.basis === 'estimated' || lot.basis === 'missing') return true;
    }
    return false;
  }

  private takeCash(wanted: Amount, out: Taken): void {
    if (this.quantitySum.subtractCovered(wanted)) {
      out.push(wanted, wanted, null, null, 'recorded');
      return;
    }
    const available = this.quantity;
    this.quantitySum.set(ZERO);
    if (!available.isZero()) out.push(available, available, null, null, 'recorded');
    out.push(wanted.minus(available), ZERO, null, null, 'missing');
  }

  private compact(): void {
    if (this.holes > 64 && this.holes * 2 > this.queue.length) {
      this.queue = this.queue.filter((lot) => !lot.quantity.isZero());
      this.holes = 0;
    }
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}

/** Entries a chunk of Ledger's applied entries holds. */
const APPLIED_CHUNK = 4096;

/** The ledger in the making: apply entries in ledger order (sortEntries), read figures any time. */
export class Ledger {
  /** Every position, keyed by account and asset. */
  readonly positions = new Map<string, Position>();
  private readonly byAccount = new Map<string, Map<string, Position>>();
  /** The account position() was last asked for, and its positions (byAccount's). */
  private lastAccount: string | null = null;
  private lastAssets: Map<string, Position> | undefined = undefined;
  /** The reporting asset's position position() last gave. */
  private cashPosition: Position | null = null;
  /**
   * A record of each disposal piece and each fee paid, made once someone asks for them (a tax
   * report): the figures read each position's realized sum and each account's fee values, kept as
   * entries are applied, so a build for the screens makes none of these 200,000 records nor the
   * split of proceeds among pieces. Asked for, they come of the entries applied so far, replayed
   * by a ledger that records, and are recorded from then on as further entries come.
   */
  private records: { disposals: DisposalRecord[]; fees: FeePaid[] } | null = null;
  /**
   * Every entry applied, in order: what the records are replayed from. In chunks of
   * APPLIED_CHUNK: one array of a build's 100,000 grew by copies into ever larger objects, each
   * entry stored into an old one (the push was ~2% of the apply in a CPU profile).
   */
  private readonly appliedEntries: LedgerEntry[][] = [];
  readonly flows: Flow[] = [];
  readonly shortfalls: Shortfall[] = [];
  /** Values that took a price to find (see valueOf); kept so exports repeat the same figure. */
  private readonly pricedValues = new Map<LedgerEntry, Amount>();
  /** The value of the fees paid, per account and the asset they count for (kept as they happen). */
  private readonly feeSums = new Map<string, Map<string, DecimalSum>>();
  /** The account feeSum() was last asked for, and its sums (feeSums'). */
  private lastFeeAccount: string | null = null;
  private lastFeeSums: Map<string, DecimalSum> | undefined = undefined;
  private readonly withdrawalFeeSum = new DecimalSum();
  /** The time of the last entry applied. */
  time = -Infinity;
  /** How many entries were applied. */
  applied = 0;
  private readonly taken = new Taken();

  constructor(readonly options: LedgerOptions) {}

  get reportingAsset(): string {
    return this.options.reportingAsset;
  }

  /** The value of the fees paid so far, per account and the asset they count for. */
  get feeValues(): ReadonlyMap<string, ReadonlyMap<string, Amount>> {
    const values = new Map<string, Map<string, Amount>>();
    for (const [account, sums] of this.feeSums) {
      values.set(account, new Map([...sums].map(([asset, sum]) => [asset, sum.value()])));
    }
    return values;
  }

  /** The basis of the units paid as withdrawal fees so far. */
  get withdrawalFeeCost(): Amount {
    return this.withdrawalFeeSum.value();
  }

  /** Every disposal piece, in the order made. */
  get disposals(): readonly DisposalRecord[] {
    return this.recorded().disposals;
  }

  /** Every fee paid, in the order paid. */
  get fees(): readonly FeePaid[] {
    return this.recorded().fees;
  }

  private recorded(): { disposals: DisposalRecord[]; fees: FeePaid[] } {
    if (this.records === null) {
      // Same options, same entries in the same order: the records recording all along made.
      const replay = new Ledger(this.options);
      replay.records = { disposals: [], fees: [] };
      for (const chunk of this.appliedEntries) for (const entry of chunk) replay.apply(entry);
      this.records = replay.records;
    }
    return this.records;
  }

  position(account: string, asset: string): Position {
    // The reporting asset's position of the account before: half of what trades ask for.
    const cash = this.cashPosition;
    if (cash !== null && asset === cash.asset && account === cash.account) return cash;
    // Mostly the account of the entry before (one, or a few trading in turns): its map kept.
    let assets = account === this.lastAccount ? this.lastAssets : this.byAccount.get(account);
    if (!assets) this.byAccount.set(account, (assets = new Map()));
    this.lastAccount = account;
    this.lastAssets = assets;
    let position = assets.get(asset);
    if (!position) {
      const cash = asset === this.options.reportingAsset;
      position = new Position(account, asset, cash, this.options.method);
      assets.set(asset, position);
      this.positions.set(`${account}\u0000${asset}`, position);
    }
    if (position.cash) this.cashPosition = position;
    return position;
  }

  price(asset: string, time: number, reason: string): Amount {
    return reportingPrice(this.options.priceAt, this.options.reportingAsset, asset, time, reason);
  }

  /** The price of `asset` at `time`, or null where there is none. */
  priceIfKnown(asset: string, time: number): Amount | null {
    if (asset === this.options.reportingAsset) return ONE;
    const price = this.options.priceAt(asset, this.options.reportingAsset, time);
    if (price === null || price === undefined) return null;
    return priceAmount(price, asset, this.options.reportingAsset);
  }

  /** price(), the reason only written out (of `subject`) when there is no price. */
  private priceFor<T>(
    asset: string,
    time: number,
    reason: (subject: T) => string,
    subject: T,
  ): Amount {
    const cash = this.options.reportingAsset;
    if (asset === cash) return ONE;
    const price = this.options.priceAt(asset, cash, time);
    if (price === null || price === undefined) {
      throw new MissingPriceError(asset, cash, time, reason(subject));
    }
    return priceAmount(price, asset, cash);
  }

  apply(entry: LedgerEntry): void {
    const time = entry.time;
    if (time < this.time) {
      throw new Error(`Ledger entries out of order: ${entryKey(entry)} comes before ${this.time}`);
    }
    this.time = time;
    const at = this.applied++ % APPLIED_CHUNK;
    if (at === 0) this.appliedEntries.push([entry]);
    else this.appliedEntries[this.appliedEntries.length - 1]!.push(entry);
    switch (entry.kind) {
      case 'trade':
        return this.applyTrade(entry, time);
      case 'withdrawal':
        return this.applyWithdrawal(entry);
      case 'transfer':
        return this.applyTransfer(entry);
      case 'inferred':
        return this.applyInferred(entry);
    }
  }

  /**
   * `time`: the trade's, as apply() read it (a table-backed trade boxes it anew per read). Most
   * trades are against the reporting asset with the fee, if any, in what they receive: those are
   * applied from their amounts' parts (applyCashBuy, and the sale here), making only the values
   * kept (two a trade, where making the three amounts and the net was four and an object); the
   * rest by applyAnyTrade, whose rules they follow.
   */
  private applyTrade(trade: TradeEntry, time: number): void {
    const cash = this.options.reportingAsset;
    // Each field read once: a trade read from a table (TableTrade) looks each up anew.
    const account = trade.account;
    const base = trade.base;
    const quote = trade.quote;
    const buy = trade.side === 'BUY';
    readTradeParts(trade);
    const { qty, qtyScale, quoteQty, quoteQtyScale, commission, commissionScale } = tradeParts;
    const hasFee = commission !== 0;
    if (quote === cash && base !== cash) {
      if (buy && (!hasFee || trade.commissionAsset === base)) {
        this.applyCashBuy(trade, time, account, base, quote);
        return;
      }
      if (!buy && (!hasFee || trade.commissionAsset === quote)) {
        // Sold for the reporting asset, any fee in it: the proceeds are the net received, which
        // is the fee's value too.
        const proceeds = hasFee
          ? differenceOfParts(quoteQty, quoteQtyScale, commission, commissionScale)
          : decimalOfParts(quoteQty, quoteQtyScale);
        if (hasFee) {
          if (this.records === null) {
            this.feeSum(account, base).addParts(commission, commissionScale, false);
          } else {
            const fee = decimalOfParts(commission, commissionScale);
            this.addFee(trade, account, quote, fee, fee, base, time);
          }
        }
        this.dispose(trade, account, base, decimalOfParts(qty, qtyScale), proceeds, time, 'trade');
        this.receive(trade, account, quote, proceeds, proceeds, time);
        return;
      }
    }
    this.applyAnyTrade(trade, time, account, base, quote, buy);
  }

  /**
   * A buy paid in the reporting asset, any fee in what it buys (its amounts' parts in tradeParts):
   * its value is what it paid and the cost of what comes, the fee comes out of the quantity.
   */
  private applyCashBuy(
    trade: TradeEntry,
    time: number,
    account: string,
    base: string,
    quote: string,
  ): void {
    const { qty, qtyScale, quoteQty, quoteQtyScale, commission, commissionScale } = tradeParts;
    const value = decimalOfParts(quoteQty, quoteQtyScale);
    let received: Amount;
    if (commission === 0) {
      received = decimalOfParts(qty, qtyScale);
    } else {
      received = differenceOfParts(qty, qtyScale, commission, commissionScale);
      if (this.records === null) {
        // Its value only counts in the fee sums: its share goes there without being made (mostly
        // exact, a product beyond 2^53 at 18 places).
        addShare(this.feeSum(account, base), value, commission, commissionScale, qty, qtyScale);
      } else {
        const fee = decimalOfParts(commission, commissionScale);
        const feeValue = share(value, fee, decimalOfParts(qty, qtyScale));
        this.addFee(trade, account, base, fee, feeValue, base, time);
      }
    }
    this.dispose(trade, account, quote, value, value, time, 'trade');
    this.receive(trade, account, base, received, value, time);
  }

  private applyAnyTrade(
    trade: TradeEntry,
    time: number,
    account: string,
    base: string,
    quote: string,
    buy: boolean,
  ): void {
    const key = trade;
    const cash = this.options.reportingAsset;
    const { qty, quoteQty, commission } = tradeAmounts(trade);
    const sent = buy ? quote : base;
    const received = buy ? base : quote;
    const sentQty = buy ? quoteQty : qty;
    const receivedQty = buy ? qty : quoteQty;

    // The value of either side, and the unit value of each side where it is known without dividing.
    let value: Amount;
    let quoteUnit: Amount | null = null;
    let baseUnit: Amount | null = null;
    if (quote === cash) {
      value = quoteQty;
      quoteUnit = ONE;
    } else if (base === cash) {
      value = qty;
      baseUnit = ONE;
    } else {
      const quotePrice = this.options.priceAt(quote, cash, time);
      if (quotePrice !== null && quotePrice !== undefined) {
        quoteUnit = priceAmount(quotePrice, quote, cash);
        value = times(quoteQty, quoteUnit);
      } else {
        baseUnit = this.priceFor(base, time, tradeReason, trade);
        value = times(qty, baseUnit);
      }
      this.pricedValues.set(key, value);
    }

    const hasFee = !commission.isZero();
    const feeAsset = hasFee ? trade.commissionAsset : '';
    let feeValue = ZERO;
    if (hasFee) {
      if (feeAsset === quote) {
        feeValue =
          quoteUnit !== null ? times(commission, quoteUnit) : share(value, commission, quoteQty);
      } else if (feeAsset === base) {
        feeValue = baseUnit !== null ? times(commission, baseUnit) : share(value, commission, qty);
      } else {
        feeValue = times(commission, this.priceFor(feeAsset, time, tradeFeeReason, trade));
      }
      this.addFee(key, account, feeAsset, commission, feeValue, base === cash ? quote : base, time);
    }
    const feeInSent = hasFee && feeAsset === sent;
    const feeInReceived = hasFee && feeAsset === received;
    const feeElsewhere = hasFee && !feeInSent && !feeInReceived;
    const sentTotal = feeInSent ? sentQty.plus(commission) : sentQty;
    const receivedNet = feeInReceived ? receivedQty.minus(commission) : receivedQty;

    // Which side carries the fee: the bought asset's cost on a buy, the sold asset's proceeds on a
    // sell; cash carries none (its cost is its quantity), so then the other side does. A fee in a
    // third asset is proceeds of its own (feeValue), so the two sides differ by it.
    const onAcquisition = buy ? received !== cash : sent === cash;
    let sentProceeds: Amount;
    let receivedCost: Amount;
    if (onAcquisition) {
      sentProceeds = feeInSent ? value.plus(feeValue) : value;
      receivedCost = feeElsewhere ? sentProceeds.plus(feeValue) : sentProceeds;
    } else {
      // A sale for cash with the fee in it: its cost is the net received, already made.
      receivedCost = !feeInReceived
        ? value
        : value === receivedQty && feeValue === commission
          ? receivedNet
          : value.minus(feeValue);
      sentProceeds = feeElsewhere ? receivedCost.minus(feeValue) : receivedCost;
    }
    this.dispose(key, account, sent, sentTotal, sentProceeds, time, 'trade');
    if (feeElsewhere) {
      this.dispose(key, account, feeAsset, commission, feeValue, time, 'fee');
    }
    this.receive(key, account, received, receivedNet, receivedCost, time);
  }

  /** What a trade brings, net of a fee in it, at `receivedCost`. */
  private receive(
    key: LedgerEntry,
    account: string,
    received: string,
    receivedNet: Amount,
    receivedCost: Amount,
    time: number,
  ): void {
    const receiving = this.position(account, received);
    if (isBelowZero(receivedNet) && !receiving.cash) {
      // The fee took more of the asset than the trade brought (BNB bought with the fee paid in
      // BNB): all of what came, whose cost is then spent, and the rest out of what was held. A lot
      // of negative quantity would be taken from later, as if it were held, by some methods only.
      this.dispose(
        key,
        account,
        received,
        negated(receivedNet),
        negated(receivedCost),
        time,
        'fee',
      );
      return;
    }
    receiving.add(receivedNet, receivedCost, time, key, 'recorded');
  }

  private dispose(
    key: LedgerEntry,
    account: string,
    asset: string,
    quantity: Amount,
    proceeds: Amount,
    time: number,
    reason: Disposal['reason'],
  ): void {
    const position = this.position(account, asset);
    const taken = this.taken;
    position.take(quantity, taken);
    this.noteShortfall(key, account, asset, taken, time);
    if (position.cash) return;
    // The pieces' proceeds add up to `proceeds`, their costs to the total taken.
    position.realize(proceeds, taken);
    const records = this.records;
    if (records === null) return;
    let proceedsLeft = proceeds;
    const last = taken.count - 1;
    for (let index = 0; index <= last; index++) {
      const pieceQuantity = taken.quantity[index]!;
      let pieceProceeds = proceedsLeft;
      if (index < last) {
        pieceProceeds = share(proceeds, pieceQuantity, quantity);
        proceedsLeft = proceedsLeft.minus(pieceProceeds);
      }
      records.disposals.push(
        new DisposalRecord(
          key,
          account,
          asset,
          pieceQuantity,
          pieceProceeds,
          taken.cost[index]!,
          taken.acquiredAt[index]!,
          time,
          taken.basis[index]!,
          reason,
        ),
      );
    }
  }

  private applyWithdrawal(withdrawal: WithdrawalEntry): void {
    if (!withdrawalDebits(withdrawal.status)) return;
    const key = withdrawal;
    const owner = () => entryKey(key);
    const sent = amount(withdrawal.amount, owner, 'amount');
    const fee = amount(withdrawal.fee, owner, 'fee');
    const position = this.position(withdrawal.account, withdrawal.asset);
    const taken = this.taken;
    position.take(sent, taken);
    this.noteShortfall(key, withdrawal.account, withdrawal.asset, taken, withdrawal.time);
    this.flows.push({
      entry: key,
      account: withdrawal.account,
      asset: withdrawal.asset,
      quantity: negated(sent),
      cost: negated(taken.totalCost),
      time: withdrawal.time,
      kind: 'withdrawal',
    });
    if (fee.isZero()) return;
    position.take(fee, taken);
    this.noteShortfall(key, withdrawal.account, withdrawal.asset, taken, withdrawal.time);
    const feeCost = taken.totalCost;
    this.withdrawalFeeSum.add(feeCost);
    this.flows.push({
      entry: key,
      account: withdrawal.account,
      asset: withdrawal.asset,
      quantity: negated(fee),
      cost: negated(feeCost),
      time: withdrawal.time,
      kind: 'withdrawal-fee',
    });
    const price = this.priceFor(withdrawal.asset, withdrawal.time, withdrawalFeeReason, withdrawal);
    this.addFee(
      key,
      withdrawal.account,
      withdrawal.asset,
      fee,
      times(fee, price),
      withdrawal.asset,
      withdrawal.time,
    );
  }

  private applyTransfer(transfer: TransferEntry): void {
    const key = transfer;
    const moved = amount(transfer.amount, () => entryKey(key), 'amount');
    const taken = this.taken;
    this.position(transfer.fromAccount, transfer.asset).take(moved, taken);
    this.noteShortfall(key, transfer.fromAccount, transfer.asset, taken, transfer.time);
    const target = this.position(transfer.toAccount, transfer.asset);
    for (let index = 0; index < taken.count; index++) {
      target.add(
        taken.quantity[index]!,
        taken.cost[index]!,
        taken.acquiredAt[index] ?? transfer.time,
        taken.openedBy[index] ?? key,
        taken.basis[index]!,
      );
    }
  }

  private applyInferred(entry: InferredEntry): void {
    const key = entry;
    const owner = () => entryKey(key);
    const signed = amount(entry.amount, owner, 'amount');
    const position = this.position(entry.account, entry.asset);
    // By the sign of its text: "-0" is a debit (of nothing).
    if (entry.amount.startsWith('-')) {
      const taken = this.taken;
      position.take(negated(signed), taken);
      this.noteShortfall(key, entry.account, entry.asset, taken, entry.time);
      this.flows.push({
        entry: key,
        account: entry.account,
        asset: entry.asset,
        quantity: signed,
        cost: negated(taken.totalCost),
        time: entry.time,
        kind: 'inferred',
      });
      return;
    }
    let cost: Amount;
    let basis: BasisSource;
    if (entry.costBasis) {
      const userCost = amount(entry.costBasis.amount, owner, 'cost basis');
      cost = times(
        userCost,
        this.priceFor(entry.costBasis.currency, entry.time, costBasisReason, entry),
      );
      basis = 'user';
    } else {
      // An asset with no price path at all has no value to estimate: its basis is missing then,
      // when the caller says so (a real account can hold a coin no market prices).
      const unit =
        position.cash || this.options.unpricedCredits !== 'missing-basis'
          ? this.priceFor(entry.asset, entry.time, valueReason, entry)
          : this.priceIfKnown(entry.asset, entry.time);
      cost = unit !== null ? times(signed, unit) : ZERO;
      basis = unit !== null ? 'estimated' : 'missing';
    }
    if (position.cash) cost = signed;
    this.pricedValues.set(key, cost);
    position.add(signed, cost, entry.time, key, basis);
    this.flows.push({
      entry: key,
      account: entry.account,
      asset: entry.asset,
      quantity: signed,
      cost,
      time: entry.time,
      kind: 'inferred',
    });
  }

  /** A fee paid: its value counted for `attributedTo`, and its record when records are kept. */
  private addFee(
    entry: LedgerEntry,
    account: string,
    asset: string,
    amount: Amount,
    value: Amount,
    attributedTo: string,
    time: number,
  ): void {
    this.records?.fees.push({ entry, account, asset, amount, value, attributedTo, time });
    this.feeSum(account, attributedTo).add(value);
  }

  /** The sum of the fees' values of `account` counted for `asset` (a new one from zero). */
  private feeSum(account: string, asset: string): DecimalSum {
    // Mostly the account of the fee before: its map kept (restore() forgets it).
    let sums = account === this.lastFeeAccount ? this.lastFeeSums : this.feeSums.get(account);
    if (!sums) this.feeSums.set(account, (sums = new Map()));
    this.lastFeeAccount = account;
    this.lastFeeSums = sums;
    let sum = sums.get(asset);
    if (sum === undefined) sums.set(asset, (sum = new DecimalSum()));
    return sum;
  }

  private noteShortfall(
    key: LedgerEntry,
    account: string,
    asset: string,
    taken: Taken,
    time: number,
  ): void {
    const last = taken.count - 1;
    if (last >= 0 && taken.basis[last] === 'missing') {
      this.shortfalls.push({ entry: key, account, asset, quantity: taken.quantity[last]!, time });
    }
  }

  /**
   * The value in the reporting asset of a trade or inferred credit this ledger applied (a trade
   * in the reporting asset is worth its amount in it); undefined for anything else.
   */
  valueOf(entry: LedgerEntry): Amount | undefined {
    if (entry.kind === 'trade') {
      if (entry.quote === this.reportingAsset) return tradeAmounts(entry).quoteQty;
      if (entry.base === this.reportingAsset) return tradeAmounts(entry).qty;
    }
    return this.pricedValues.get(entry);
  }

  /**
   * The ledger as it stands, to come back to (restore) when an entry turns up that belongs before
   * some applied since: its cost is a copy of every open lot, not of what only grows.
   */
  checkpoint(): LedgerCheckpoint {
    return {
      applied: this.applied,
      time: this.time,
      positions: [...this.positions.values()].map((position) => ({
        account: position.account,
        asset: position.asset,
        state: position.state(),
      })),
      disposals: this.records?.disposals.length ?? null,
      fees: this.records?.fees.length ?? null,
      flows: this.flows.length,
      shortfalls: this.shortfalls.length,
      feeValues: this.feeValues,
      withdrawalFeeCost: this.withdrawalFeeCost,
    };
  }

  /**
   * Back to a checkpoint of this ledger, as if only its first `applied` entries had been applied;
   * `undone`: the entries applied since (their priced values go). The checkpoint stays usable.
   */
  restore(checkpoint: LedgerCheckpoint, undone: Iterable<LedgerEntry>): void {
    this.positions.clear();
    this.byAccount.clear();
    this.lastAccount = null;
    this.cashPosition = null;
    // Made again in the checkpoint's order, which is the order they were first made in.
    for (const { account, asset, state } of checkpoint.positions) {
      this.position(account, asset).restore(state);
    }
    const chunks = Math.ceil(checkpoint.applied / APPLIED_CHUNK);
    this.appliedEntries.length = chunks;
    if (chunks > 0)
      this.appliedEntries[chunks - 1]!.length = checkpoint.applied - (chunks - 1) * APPLIED_CHUNK;
    if (this.records !== null && checkpoint.disposals !== null && checkpoint.fees !== null) {
      this.records.disposals.length = checkpoint.disposals;
      this.records.fees.length = checkpoint.fees;
    } else {
      // Records made since the checkpoint: made again from the entries when next asked for.
      this.records = null;
    }
    this.flows.length = checkpoint.flows;
    this.shortfalls.length = checkpoint.shortfalls;
    this.feeSums.clear();
    this.lastFeeAccount = null;
    this.lastFeeSums = undefined;
    for (const [account, values] of checkpoint.feeValues) {
      this.feeSums.set(
        account,
        new Map([...values].map(([asset, value]) => [asset, new DecimalSum(value)])),
      );
    }
    this.withdrawalFeeSum.set(checkpoint.withdrawalFeeCost);
    for (const entry of undone) this.pricedValues.delete(entry);
    this.time = checkpoint.time;
    this.applied = checkpoint.applied;
  }

  /** Open lots (non-cash), per account, oldest first. */
  lots(filter: { account?: string; asset?: string } = {}): Lot[] {
    const lots: Lot[] = [];
    for (const position of this.positions.values()) {
      if (filter.account !== undefined && position.account !== filter.account) continue;
      if (filter.asset !== undefined && position.asset !== filter.asset) continue;
      lots.push(...position.lots());
    }
    return lots;
  }
}

/** Every entry, sorted into ledger order, applied to a new ledger. */
export function buildLedger(entries: readonly LedgerEntry[], options: LedgerOptions): Ledger {
  const ledger = new Ledger(options);
  for (const entry of sortEntries(entries)) ledger.apply(entry);
  return ledger;
}
