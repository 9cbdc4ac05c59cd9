/**
 * A build's own trades as columns: each trade's numbers in typed arrays (its amounts as the
 * coefficient and places the exchange wrote them with), its few texts (symbol, account, fee
 * asset) as indexes into the table's lists, and one small object per trade (TableTrade) that reads
 * its row. A build reads 100,000 trades; held as an object each with its strings and Decimals,
 * they were ten objects a trade that every young-generation collection of the build copied until
 * they were old, more time than the SQL read itself. A TableTrade is one.
 *
 * The trade is a TradeEntry like any other: its texts are made from the columns when asked (the
 * exchange's text, every place it wrote: a Decimal's parts keep them), its amounts as Decimals
 * made when asked (the reconciliation and the cost basis each ask once, and keep what they need).
 */
import {
  decimalOfParts,
  partsText,
  plainParts,
  readPlainParts,
  type DecimalCoefficient,
} from '../../shared/exact-decimal';
import { MAIN_ACCOUNT } from '../../shared/ledger';
import { grown } from '../core/columns';
import { assetKey } from '../../shared/market';
import type { LedgerTradeColumns } from '../store';
import { tradeAmounts, type TradeAmounts, type TradeEntry, type TradeSide } from './entries';

/** The amount columns, in this order in `coefficients` and `scales` (four per trade). */
const QTY = 0;
const QUOTE_QTY = 1;
const COMMISSION = 2;
const PRICE = 3;
const AMOUNTS = 4;
const FIELD_NAMES = ['qty', 'quoteQty', 'commission', 'price'] as const;

/** A trade's row as the table takes it: a TradeEntry's facts, its id the store's number. */
export type TradeRowInput = Omit<TradeEntry, 'kind' | 'id' | 'amounts'> & { id: number };

/** A symbol's texts' indexes in one table (TradeTable.pair). */
export interface TablePair {
  readonly symbol: number;
  readonly base: number;
  readonly quote: number;
}

/**
 * A table as its columns, to move it to another thread: the typed arrays' buffers are
 * transferred (listed by transferables()), not copied.
 */
export interface TradeTableColumns {
  count: number;
  ids: Float64Array;
  times: Float64Array;
  sides: Uint8Array;
  textIndexes: Uint32Array;
  coefficients: Float64Array;
  scales: Uint8Array;
  wide: [number, DecimalCoefficient][];
  texts: string[];
}

export class TradeTable {
  private capacity: number;
  count = 0;
  private ids: Float64Array;
  private times: Float64Array;
  private sides: Uint8Array;
  /** Index into `texts` of each trade's symbol, base, quote, account and fee asset. */
  private textIndexes: Uint32Array;
  /** Coefficients of the amounts (NaN where it is beyond 2^53: then in `wide`). */
  private coefficients: Float64Array;
  private scales: Uint8Array;
  private readonly wide = new Map<number, DecimalCoefficient>();
  /** Each text once (a built ledger holds one string per symbol, asset and account). */
  private readonly texts: string[] = [];
  private readonly textIndex = new Map<string, number>();
  private lastAccount: string | null = null;
  private lastAccountIndex = 0;

  constructor(capacity = 1024) {
    this.capacity = Math.max(1, capacity);
    this.ids = new Float64Array(this.capacity);
    this.times = new Float64Array(this.capacity);
    this.sides = new Uint8Array(this.capacity);
    this.textIndexes = new Uint32Array(this.capacity * TEXTS);
    this.coefficients = new Float64Array(this.capacity * AMOUNTS);
    this.scales = new Uint8Array(this.capacity * AMOUNTS);
  }

  /** A table of the columns another table gave (columns()), its arrays taken as they are. */
  static of(columns: TradeTableColumns): TradeTable {
    const table = new TradeTable(1);
    table.capacity = columns.ids.length;
    table.count = columns.count;
    table.ids = columns.ids;
    table.times = columns.times;
    table.sides = columns.sides;
    table.textIndexes = columns.textIndexes;
    table.coefficients = columns.coefficients;
    table.scales = columns.scales;
    for (const [at, coefficient] of columns.wide) table.wide.set(at, coefficient);
    for (const text of columns.texts) table.indexOf(text);
    return table;
  }

  /** Its columns as they are (the table is spent once they are transferred). */
  columns(): TradeTableColumns {
    return {
      count: this.count,
      ids: this.ids,
      times: this.times,
      sides: this.sides,
      textIndexes: this.textIndexes,
      coefficients: this.coefficients,
      scales: this.scales,
      wide: [...this.wide],
      texts: this.texts,
    };
  }

  /** The buffers of columns(), for postMessage's transfer list. */
  static transferables(columns: TradeTableColumns): ArrayBuffer[] {
    const { ids, times, sides, textIndexes, coefficients, scales } = columns;
    return [ids, times, sides, textIndexes, coefficients, scales].map(
      (array) => array.buffer as ArrayBuffer,
    );
  }

  /** The TableTrade of one row. */
  trade(row: number): TableTrade {
    return new TableTrade(this, row);
  }

  /** A TableTrade for each of its rows, in order. */
  trades(): TableTrade[] {
    const trades = new Array<TableTrade>(this.count);
    for (let row = 0; row < this.count; row++) trades[row] = new TableTrade(this, row);
    return trades;
  }

  /**
   * Adds a trade and answers its entry; an amount that is not plain decimal text throws naming
   * the trade and the field, as reading it as a Decimal would.
   */
  add(row: TradeRowInput): TableTrade {
    return this.addOf(this.pair(row.symbol, row.base, row.quote), row);
  }

  /**
   * A symbol's texts as this table keeps them: a reader that resolves each symbol once (a build
   * reads 100,000 rows of a few symbols) adds its rows with addOf().
   */
  pair(symbol: string, base: string, quote: string): TablePair {
    return { symbol: this.indexOf(symbol), base: this.indexOf(base), quote: this.indexOf(quote) };
  }

  /** add() of a row whose symbol's texts are `pair` (this table's, from pair()). */
  addOf(pair: TablePair, row: Omit<TradeRowInput, 'symbol' | 'base' | 'quote'>): TableTrade {
    if (this.count === this.capacity) this.grow();
    const index = this.count;
    const amounts = index * AMOUNTS;
    this.amount(amounts + QTY, row.qty, pair, row.id);
    this.amount(amounts + QUOTE_QTY, row.quoteQty, pair, row.id);
    this.amount(amounts + COMMISSION, row.commission, pair, row.id);
    this.amount(amounts + PRICE, row.price, pair, row.id);
    this.ids[index] = row.id;
    this.times[index] = row.time;
    this.sides[index] = row.side === 'BUY' ? 1 : 0;
    const texts = index * TEXTS;
    this.textIndexes[texts + SYMBOL] = pair.symbol;
    this.textIndexes[texts + BASE] = pair.base;
    this.textIndexes[texts + QUOTE] = pair.quote;
    // Rows come by account mostly in runs (and an account's text is a new string each row).
    if (row.account !== this.lastAccount) {
      this.lastAccount = row.account;
      this.lastAccountIndex = this.indexOf(row.account);
    }
    this.textIndexes[texts + ACCOUNT] = this.lastAccountIndex;
    this.textIndexes[texts + FEE_ASSET] = this.indexOf(row.commissionAsset);
    this.count++;
    return new TableTrade(this, index);
  }

  id(index: number): number {
    return this.ids[index]!;
  }

  time(index: number): number {
    return this.times[index]!;
  }

  side(index: number): TradeSide {
    return this.sides[index] === 1 ? 'BUY' : 'SELL';
  }

  text(index: number, which: TextColumn): string {
    return this.texts[this.textIndexes[index * TEXTS + which]!]!;
  }

  /** One of a trade's amounts as a Decimal (a new value; equal to the text's). */
  amountOf(index: number, which: number): TradeAmounts['qty'] {
    const at = index * AMOUNTS + which;
    const coefficient = this.coefficients[at]!;
    return decimalOfParts(
      Number.isNaN(coefficient) ? this.wide.get(at)! : coefficient,
      this.scales[at]!,
    );
  }

  /** Every asset its trades name (bases, quotes and fee assets) into `assets`. */
  addAssetsTo(assets: Set<string>): void {
    const seen = new Set<number>();
    const indexes = this.textIndexes;
    for (let row = 0; row < this.count; row++) {
      const at = row * TEXTS;
      seen.add(indexes[at + BASE]!);
      seen.add(indexes[at + QUOTE]!);
      seen.add(indexes[at + FEE_ASSET]!);
    }
    for (const index of seen) assets.add(this.texts[index]!);
  }

  /** A trade's qty, quoteQty and commission's parts, left in tradeParts (no value made). */
  readTradeParts(index: number): void {
    const at = index * AMOUNTS;
    const coefficients = this.coefficients;
    const scales = this.scales;
    const qty = coefficients[at + QTY]!;
    const quoteQty = coefficients[at + QUOTE_QTY]!;
    const commission = coefficients[at + COMMISSION]!;
    tradeParts.qty = Number.isNaN(qty) ? this.wide.get(at + QTY)! : qty;
    tradeParts.qtyScale = scales[at + QTY]!;
    tradeParts.quoteQty = Number.isNaN(quoteQty) ? this.wide.get(at + QUOTE_QTY)! : quoteQty;
    tradeParts.quoteQtyScale = scales[at + QUOTE_QTY]!;
    tradeParts.commission = Number.isNaN(commission) ? this.wide.get(at + COMMISSION)! : commission;
    tradeParts.commissionScale = scales[at + COMMISSION]!;
  }

  /** One of a trade's amounts as the exchange wrote it. */
  amountText(index: number, which: number): string {
    const at = index * AMOUNTS + which;
    const coefficient = this.coefficients[at]!;
    return partsText(
      Number.isNaN(coefficient) ? this.wide.get(at)! : coefficient,
      this.scales[at]!,
    );
  }

  private amount(at: number, text: string, pair: TablePair, id: number): void {
    if (!readPlainParts(text) || plainParts.scale > 255) {
      const field = FIELD_NAMES[at % AMOUNTS]!;
      const symbol = this.texts[pair.symbol]!;
      throw new Error(
        `trade:${symbol}:${id} ${field} must be a decimal, got ${JSON.stringify(text)}`,
      );
    }
    const coefficient = plainParts.coefficient;
    if (typeof coefficient === 'bigint') {
      this.coefficients[at] = NaN;
      this.wide.set(at, coefficient);
    } else {
      this.coefficients[at] = coefficient;
    }
    this.scales[at] = plainParts.scale;
  }

  private indexOf(text: string): number {
    let index = this.textIndex.get(text);
    if (index === undefined) {
      index = this.texts.length;
      this.texts.push(text);
      this.textIndex.set(text, index);
    }
    return index;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.ids = grown(this.ids, capacity);
    this.times = grown(this.times, capacity);
    this.sides = grown(this.sides, capacity);
    this.textIndexes = grown(this.textIndexes, capacity * TEXTS);
    this.coefficients = grown(this.coefficients, capacity * AMOUNTS);
    this.scales = grown(this.scales, capacity * AMOUNTS);
    this.capacity = capacity;
  }
}

/** The text columns, in this order per trade. */
const SYMBOL = 0;
const BASE = 1;
const QUOTE = 2;
const ACCOUNT = 3;
const FEE_ASSET = 4;
const TEXTS = 5;
type TextColumn = typeof SYMBOL | typeof BASE | typeof QUOTE | typeof ACCOUNT | typeof FEE_ASSET;

/** One trade of a TradeTable: a TradeEntry whose fields are read from its row. */
export class TableTrade implements TradeEntry {
  readonly kind = 'trade';

  constructor(
    readonly table: TradeTable,
    private readonly row: number,
  ) {}

  get id(): string {
    return String(this.table.id(this.row));
  }

  get account(): string {
    return this.table.text(this.row, ACCOUNT);
  }

  get symbol(): string {
    return this.table.text(this.row, SYMBOL);
  }

  get base(): string {
    return this.table.text(this.row, BASE);
  }

  get quote(): string {
    return this.table.text(this.row, QUOTE);
  }

  get side(): TradeSide {
    return this.table.side(this.row);
  }

  get qty(): string {
    return this.table.amountText(this.row, QTY);
  }

  get price(): string {
    return this.table.amountText(this.row, PRICE);
  }

  get quoteQty(): string {
    return this.table.amountText(this.row, QUOTE_QTY);
  }

  get commission(): string {
    return this.table.amountText(this.row, COMMISSION);
  }

  get commissionAsset(): string {
    return this.table.text(this.row, FEE_ASSET);
  }

  get time(): number {
    return this.table.time(this.row);
  }

  /** Its amounts' parts, left in tradeParts (readTradeParts). */
  readTradeParts(): void {
    this.table.readTradeParts(this.row);
  }

  /** Made anew at each ask: whoever needs them keeps them (no copy held by the trade). */
  get amounts(): TradeAmounts {
    const { table, row } = this;
    return {
      qty: table.amountOf(row, QTY),
      quoteQty: table.amountOf(row, QUOTE_QTY),
      commission: table.amountOf(row, COMMISSION),
    };
  }
}

/** A trade's three amounts' parts as readTradeParts leaves them: one object, overwritten. */
export const tradeParts = {
  qty: 0 as DecimalCoefficient,
  qtyScale: 0,
  quoteQty: 0 as DecimalCoefficient,
  quoteQtyScale: 0,
  commission: 0 as DecimalCoefficient,
  commissionScale: 0,
};

/**
 * A trade's amounts' parts (coefficient and scale each), left in tradeParts: read from its
 * table's columns for a build's trade, else from its Decimals. For a loop over every trade that
 * keeps parts, not values (the reconciliation's movements): no value made, one call a trade.
 */
export function readTradeParts(trade: TradeEntry): void {
  if (trade instanceof TableTrade) {
    trade.readTradeParts();
    return;
  }
  const { qty, quoteQty, commission } = tradeAmounts(trade);
  tradeParts.qty = qty.coefficient;
  tradeParts.qtyScale = qty.scale;
  tradeParts.quoteQty = quoteQty.coefficient;
  tradeParts.quoteQtyScale = quoteQty.scale;
  tradeParts.commission = commission.coefficient;
  tradeParts.commissionScale = commission.scale;
}

/**
 * Own-trade rows as the store reads them (its ledger order) into a TradeTable: each symbol's
 * assets and each fee currency resolved once, the main account's null account made 'main'; a row
 * on a symbol whose assets are unknown (exchangeInfo not read yet) is named in `unknown` and left
 * out. The one reading of a row, in the main thread and in a reader thread alike.
 */
export class TradeRows {
  readonly table: TradeTable;
  readonly unknown = new Set<string>();
  private readonly tablePairs = new Map<string, TablePair>();
  private readonly feeAssets = new Map<string, string>();

  constructor(
    private readonly pairs: ReadonlyMap<string, { base: string; quote: string }>,
    expected: number,
  ) {
    this.table = new TradeTable(expected);
  }

  /** Takes one row; false when its symbol's assets are unknown. */
  take(row: LedgerTradeColumns): boolean {
    const [id, symbol, side, price, qty, quoteQty, fee, feeCurrency, time, , account] = row;
    let pair = this.tablePairs.get(symbol);
    if (pair === undefined) {
      const assets = this.pairs.get(symbol);
      if (!assets) {
        this.unknown.add(symbol);
        return false;
      }
      pair = this.table.pair(symbol, assets.base, assets.quote);
      this.tablePairs.set(symbol, pair);
    }
    let commissionAsset = this.feeAssets.get(feeCurrency);
    if (commissionAsset === undefined) {
      commissionAsset = assetKey(feeCurrency);
      this.feeAssets.set(feeCurrency, commissionAsset);
    }
    this.table.addOf(pair, {
      id,
      account: account ?? MAIN_ACCOUNT,
      side: side === 'buy' ? 'BUY' : 'SELL',
      qty,
      price,
      quoteQty,
      commission: fee,
      commissionAsset,
      time,
    });
    return true;
  }
}
