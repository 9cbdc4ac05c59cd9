/**
 * Cost basis: the ledger's entries, in order, into lots and disposals, valued in one reporting
 * asset (e.g. USDT or INR), by FIFO or average cost.
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
 * - Average cost takes quantities (and so acquisition dates) from the oldest lots, but the cost of
 *   what leaves is the position's average cost.
 *
 * So at any time: value = costBasis + unrealized, and
 * costBasis = netFlowsAtCost + realized − withdrawalFeeCost, exactly.
 */
import type Decimal from 'decimal.js';
import { amount, LedgerDecimal, ONE, share, ZERO, type Amount } from './decimal';
import {
  sortEntries,
  withdrawalDebits,
  type InferredEntry,
  type LedgerEntry,
  type TradeEntry,
  type TransferEntry,
  type WithdrawalEntry,
} from './entries';

export type CostMethod = 'fifo' | 'average';

/**
 * The price of one unit of `asset` in `quoteAsset` at `time`, as decimal text or a decimal.js
 * value (never a float); null or undefined when unknown.
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
  priceAt: PriceAt;
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
  return typeof price === 'string'
    ? amount(price, `the price of ${asset} in ${reportingAsset}`, 'from priceAt')
    : new LedgerDecimal(price);
}

/** A unique key for an entry (a trade's id is unique only within its symbol). */
export function entryKey(entry: LedgerEntry): string {
  return entry.kind === 'trade' ? `trade:${entry.symbol}:${entry.id}` : `${entry.kind}:${entry.id}`;
}

interface Piece {
  quantity: Amount;
  cost: Amount;
  acquiredAt: number | null;
  openedBy: LedgerEntry | null;
  basis: BasisSource;
}

/** One asset in one account. */
export class Position {
  quantity: Amount = ZERO;
  cost: Amount = ZERO;
  /** FIFO queue from `head`; empty for cash. */
  private queue: Lot[] = [];
  private head = 0;

  constructor(
    readonly account: string,
    readonly asset: string,
    readonly cash: boolean,
    readonly method: CostMethod,
  ) {}

  add(
    quantity: Amount,
    cost: Amount,
    acquiredAt: number,
    openedBy: LedgerEntry,
    basis: BasisSource,
  ) {
    if (quantity.isZero()) return;
    this.quantity = this.quantity.plus(quantity);
    if (this.cash) {
      this.cost = this.quantity;
      return;
    }
    this.cost = this.cost.plus(cost);
    this.queue.push({
      account: this.account,
      asset: this.asset,
      quantity,
      cost,
      acquiredAt,
      openedBy,
      basis,
    });
  }

  /** Takes `wanted` units out, oldest first; what is not there comes back as a missing piece. */
  take(wanted: Amount): Piece[] {
    if (wanted.isZero()) return [];
    if (this.cash) return this.takeCash(wanted);
    const pieces: Piece[] = [];
    const available = this.quantity.lt(wanted) ? this.quantity : wanted;
    // Average cost: what leaves carries the position's average (a lot's own cost is not kept up
    // to date then); FIFO: each lot's own cost.
    const averageOut =
      this.method === 'average' && !available.isZero()
        ? share(this.cost, available, this.quantity)
        : null;
    let averageLeft = averageOut;
    let left = available;
    while (!left.isZero() && this.head < this.queue.length) {
      const lot = this.queue[this.head]!;
      const whole = lot.quantity.lte(left);
      const quantity = whole ? lot.quantity : left;
      let cost: Amount;
      if (averageLeft !== null) {
        cost = quantity.eq(left) ? averageLeft : share(averageOut!, quantity, available);
        averageLeft = averageLeft.minus(cost);
      } else {
        cost = whole ? lot.cost : share(lot.cost, quantity, lot.quantity);
      }
      pieces.push({
        quantity,
        cost,
        acquiredAt: lot.acquiredAt,
        openedBy: lot.openedBy,
        basis: lot.basis,
      });
      left = left.minus(quantity);
      if (whole) {
        this.head++;
      } else {
        lot.quantity = lot.quantity.minus(quantity);
        if (averageOut === null) lot.cost = lot.cost.minus(cost);
      }
    }
    this.compact();
    this.quantity = this.quantity.minus(available);
    this.cost = this.cost.minus(averageOut ?? sumCost(pieces));
    const missing = wanted.minus(available);
    if (!missing.isZero()) {
      pieces.push({
        quantity: missing,
        cost: ZERO,
        acquiredAt: null,
        openedBy: null,
        basis: 'missing',
      });
    }
    return pieces;
  }

  /** The open lots, oldest first; under average cost each carries its share of the average. */
  lots(): Lot[] {
    const open = this.queue.slice(this.head).map((lot) => ({ ...lot }));
    if (this.method === 'average') {
      let left = this.cost;
      open.forEach((lot, index) => {
        lot.cost = index === open.length - 1 ? left : share(this.cost, lot.quantity, this.quantity);
        left = left.minus(lot.cost);
      });
    }
    return open;
  }

  private takeCash(wanted: Amount): Piece[] {
    const available = this.quantity.lt(wanted) ? this.quantity : wanted;
    this.quantity = this.quantity.minus(available);
    this.cost = this.quantity;
    const pieces: Piece[] = [];
    if (!available.isZero()) {
      pieces.push({
        quantity: available,
        cost: available,
        acquiredAt: null,
        openedBy: null,
        basis: 'recorded',
      });
    }
    const missing = wanted.minus(available);
    if (!missing.isZero()) {
      pieces.push({
        quantity: missing,
        cost: ZERO,
        acquiredAt: null,
        openedBy: null,
        basis: 'missing',
      });
    }
    return pieces;
  }

  private compact(): void {
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}

function sumCost(pieces: Piece[]): Amount {
  let total = ZERO;
  for (const piece of pieces) total = total.plus(piece.cost);
  return total;
}

/** The ledger in the making: apply entries in ledger order (sortEntries), read figures any time. */
export class Ledger {
  /** Every position, keyed by account and asset. */
  readonly positions = new Map<string, Position>();
  private readonly byAccount = new Map<string, Map<string, Position>>();
  readonly disposals: Disposal[] = [];
  readonly fees: FeePaid[] = [];
  readonly flows: Flow[] = [];
  readonly shortfalls: Shortfall[] = [];
  /** Values that took a price to find (see valueOf); kept so exports repeat the same figure. */
  private readonly pricedValues = new Map<LedgerEntry, Amount>();
  withdrawalFeeCost: Amount = ZERO;
  /** The time of the last entry applied. */
  time = -Infinity;

  constructor(readonly options: LedgerOptions) {}

  get reportingAsset(): string {
    return this.options.reportingAsset;
  }

  position(account: string, asset: string): Position {
    let assets = this.byAccount.get(account);
    if (!assets) this.byAccount.set(account, (assets = new Map()));
    let position = assets.get(asset);
    if (!position) {
      const cash = asset === this.options.reportingAsset;
      position = new Position(account, asset, cash, this.options.method);
      assets.set(asset, position);
      this.positions.set(`${account}\u0000${asset}`, position);
    }
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
    return this.price(asset, time, 'a value');
  }

  apply(entry: LedgerEntry): void {
    if (entry.time < this.time) {
      throw new Error(`Ledger entries out of order: ${entryKey(entry)} comes before ${this.time}`);
    }
    this.time = entry.time;
    switch (entry.kind) {
      case 'trade':
        return this.applyTrade(entry);
      case 'withdrawal':
        return this.applyWithdrawal(entry);
      case 'transfer':
        return this.applyTransfer(entry);
      case 'inferred':
        return this.applyInferred(entry);
    }
  }

  private applyTrade(trade: TradeEntry): void {
    const key = trade;
    const owner = () => entryKey(trade);
    const cash = this.options.reportingAsset;
    const qty = amount(trade.qty, owner, 'qty');
    const quoteQty = amount(trade.quoteQty, owner, 'quoteQty');
    const commission = amount(trade.commission, owner, 'commission');
    const buy = trade.side === 'BUY';
    const sent = buy ? trade.quote : trade.base;
    const received = buy ? trade.base : trade.quote;
    const sentQty = buy ? quoteQty : qty;
    const receivedQty = buy ? qty : quoteQty;

    // The value of either side, and the unit value of each side where it is known without dividing.
    let value: Amount;
    let quoteUnit: Amount | null = null;
    let baseUnit: Amount | null = null;
    if (trade.quote === cash) {
      value = quoteQty;
      quoteUnit = ONE;
    } else if (trade.base === cash) {
      value = qty;
      baseUnit = ONE;
    } else {
      const quotePrice = this.options.priceAt(trade.quote, cash, trade.time);
      if (quotePrice !== null && quotePrice !== undefined) {
        quoteUnit = this.price(trade.quote, trade.time, `trade ${trade.symbol} #${trade.id}`);
        value = quoteQty.times(quoteUnit);
      } else {
        baseUnit = this.price(trade.base, trade.time, `trade ${trade.symbol} #${trade.id}`);
        value = qty.times(baseUnit);
      }
    }
    if (quoteUnit !== ONE && baseUnit !== ONE) this.pricedValues.set(key, value);

    const feeAsset = trade.commissionAsset;
    let feeValue = ZERO;
    if (!commission.isZero()) {
      if (feeAsset === trade.quote) {
        feeValue = quoteUnit ? commission.times(quoteUnit) : share(value, commission, quoteQty);
      } else if (feeAsset === trade.base) {
        feeValue = baseUnit ? commission.times(baseUnit) : share(value, commission, qty);
      } else {
        feeValue = commission.times(
          this.price(feeAsset, trade.time, `the fee of trade ${trade.symbol} #${trade.id}`),
        );
      }
      this.fees.push({
        entry: key,
        account: trade.account,
        asset: feeAsset,
        amount: commission,
        value: feeValue,
        attributedTo: trade.base === cash ? trade.quote : trade.base,
        time: trade.time,
      });
    }
    const feeInSent = !commission.isZero() && feeAsset === sent;
    const feeInReceived = !commission.isZero() && feeAsset === received;
    const feeElsewhere = !commission.isZero() && !feeInSent && !feeInReceived;
    const sentTotal = feeInSent ? sentQty.plus(commission) : sentQty;
    const receivedNet = feeInReceived ? receivedQty.minus(commission) : receivedQty;
    const feeProceeds = feeElsewhere ? feeValue : ZERO;

    // Which side carries the fee: the bought asset's cost on a buy, the sold asset's proceeds on a
    // sell; cash carries none (its cost is its quantity), so then the other side does.
    const onAcquisition = buy ? received !== cash : sent === cash;
    let sentProceeds: Amount;
    let receivedCost: Amount;
    if (onAcquisition) {
      sentProceeds = feeInSent ? value.plus(feeValue) : value;
      receivedCost = sentProceeds.plus(feeProceeds);
    } else {
      receivedCost = feeInReceived ? value.minus(feeValue) : value;
      sentProceeds = receivedCost.minus(feeProceeds);
    }
    this.dispose(key, trade.account, sent, sentTotal, sentProceeds, trade.time, 'trade');
    if (feeElsewhere) {
      this.dispose(key, trade.account, feeAsset, commission, feeProceeds, trade.time, 'fee');
    }
    this.position(trade.account, received).add(
      receivedNet,
      receivedCost,
      trade.time,
      key,
      'recorded',
    );
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
    const pieces = position.take(quantity);
    this.noteShortfall(key, account, asset, pieces, time);
    if (position.cash) return;
    let proceedsLeft = proceeds;
    pieces.forEach((piece, index) => {
      const pieceProceeds =
        index === pieces.length - 1 ? proceedsLeft : share(proceeds, piece.quantity, quantity);
      proceedsLeft = proceedsLeft.minus(pieceProceeds);
      this.disposals.push({
        entry: key,
        account,
        asset,
        quantity: piece.quantity,
        proceeds: pieceProceeds,
        cost: piece.cost,
        gain: pieceProceeds.minus(piece.cost),
        acquiredAt: piece.acquiredAt,
        disposedAt: time,
        basis: piece.basis,
        reason,
      });
    });
  }

  private applyWithdrawal(withdrawal: WithdrawalEntry): void {
    if (!withdrawalDebits(withdrawal.status)) return;
    const key = withdrawal;
    const sent = amount(withdrawal.amount, entryKey(key), 'amount');
    const fee = amount(withdrawal.fee, entryKey(key), 'fee');
    const position = this.position(withdrawal.account, withdrawal.asset);
    const pieces = position.take(sent);
    this.noteShortfall(key, withdrawal.account, withdrawal.asset, pieces, withdrawal.time);
    this.flows.push({
      entry: key,
      account: withdrawal.account,
      asset: withdrawal.asset,
      quantity: sent.negated(),
      cost: sumCost(pieces).negated(),
      time: withdrawal.time,
      kind: 'withdrawal',
    });
    if (fee.isZero()) return;
    const feePieces = position.take(fee);
    this.noteShortfall(key, withdrawal.account, withdrawal.asset, feePieces, withdrawal.time);
    const feeCost = sumCost(feePieces);
    this.withdrawalFeeCost = this.withdrawalFeeCost.plus(feeCost);
    this.flows.push({
      entry: key,
      account: withdrawal.account,
      asset: withdrawal.asset,
      quantity: fee.negated(),
      cost: feeCost.negated(),
      time: withdrawal.time,
      kind: 'withdrawal-fee',
    });
    this.fees.push({
      entry: key,
      account: withdrawal.account,
      asset: withdrawal.asset,
      amount: fee,
      value: fee.times(
        this.price(withdrawal.asset, withdrawal.time, `the fee of withdrawal ${withdrawal.id}`),
      ),
      attributedTo: withdrawal.asset,
      time: withdrawal.time,
    });
  }

  private applyTransfer(transfer: TransferEntry): void {
    const key = transfer;
    const moved = amount(transfer.amount, entryKey(key), 'amount');
    const pieces = this.position(transfer.fromAccount, transfer.asset).take(moved);
    this.noteShortfall(key, transfer.fromAccount, transfer.asset, pieces, transfer.time);
    const target = this.position(transfer.toAccount, transfer.asset);
    for (const piece of pieces) {
      target.add(
        piece.quantity,
        piece.cost,
        piece.acquiredAt ?? transfer.time,
        piece.openedBy ?? key,
        piece.basis,
      );
    }
  }

  private applyInferred(entry: InferredEntry): void {
    const key = entry;
    const signed = amount(entry.amount, entryKey(key), 'amount');
    const position = this.position(entry.account, entry.asset);
    if (signed.isNegative()) {
      const pieces = position.take(signed.negated());
      this.noteShortfall(key, entry.account, entry.asset, pieces, entry.time);
      this.flows.push({
        entry: key,
        account: entry.account,
        asset: entry.asset,
        quantity: signed,
        cost: sumCost(pieces).negated(),
        time: entry.time,
        kind: 'inferred',
      });
      return;
    }
    let cost: Amount;
    let basis: BasisSource;
    if (entry.costBasis) {
      const userCost = amount(entry.costBasis.amount, entryKey(key), 'cost basis');
      cost = userCost.times(
        this.price(entry.costBasis.currency, entry.time, `the cost basis of ${entryKey(key)}`),
      );
      basis = 'user';
    } else {
      // An asset with no price path at all has no value to estimate: its basis is missing then,
      // when the caller says so (a real account can hold a coin no market prices).
      const unit =
        position.cash || this.options.unpricedCredits !== 'missing-basis'
          ? this.price(entry.asset, entry.time, `the value of ${entryKey(key)}`)
          : this.priceIfKnown(entry.asset, entry.time);
      cost = unit ? signed.times(unit) : ZERO;
      basis = unit ? 'estimated' : 'missing';
    }
    if (position.cash) cost = signed;
    this.pricedValues.set(key, cost);
    position.add(signed, cost, entry.time, key, basis);
    this.flows.push({
      entry: key,
      account: entry.account,
      asset: entry.asset,
      quantity: signed,
      cost: position.cash ? signed : cost,
      time: entry.time,
      kind: 'inferred',
    });
  }

  private noteShortfall(
    key: LedgerEntry,
    account: string,
    asset: string,
    pieces: Piece[],
    time: number,
  ) {
    const last = pieces[pieces.length - 1];
    if (last?.basis === 'missing') {
      this.shortfalls.push({ entry: key, account, asset, quantity: last.quantity, time });
    }
  }

  /**
   * The value in the reporting asset of a trade or inferred credit this ledger applied (a trade
   * in the reporting asset is worth its amount in it); undefined for anything else.
   */
  valueOf(entry: LedgerEntry): Amount | undefined {
    if (entry.kind === 'trade') {
      if (entry.quote === this.reportingAsset) return amount(entry.quoteQty, entry.id, 'quoteQty');
      if (entry.base === this.reportingAsset) return amount(entry.qty, entry.id, 'qty');
    }
    return this.pricedValues.get(entry);
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
