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
import type { LedgerTradeColumns, TradeCursor } from '../store';
import { TRADE_FIELD, TRADE_RECORD, type TradePageTaker } from '../store/trade-range';
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
    const index = this.room();
    const amounts = index * AMOUNTS;
    this.amount(amounts + QTY, row.qty, pair, row.id);
    this.amount(amounts + QUOTE_QTY, row.quoteQty, pair, row.id);
    this.amount(amounts + COMMISSION, row.commission, pair, row.id);
    this.amount(amounts + PRICE, row.price, pair, row.id);
    this.fill(index, pair, row.id, row.time, row.side === 'BUY', row.account, row.commissionAsset);
    return new TableTrade(this, index);
  }

  /**
   * addOf() of a row read where it stands in a longer text (a page of rows, TradeRows.text()):
   * its amounts the characters of `text` between the offsets in `bounds` (start and end of the
   * qty, quoteQty, commission and price, in that order). False, with no row added, when one is
   * not plain decimal text.
   */
  addFromText(
    pair: TablePair,
    id: number,
    time: number,
    buy: boolean,
    account: string,
    commissionAsset: string,
    text: string,
    bounds: Int32Array,
  ): boolean {
    const index = this.room();
    const amounts = index * AMOUNTS;
    for (let which = 0; which < AMOUNTS; which++) {
      if (!this.readAmount(amounts + which, text, bounds[2 * which]!, bounds[2 * which + 1]!)) {
        this.truncate(index);
        return false;
      }
    }
    this.fill(index, pair, id, time, buy, account, commissionAsset);
    return true;
  }

  /** Leaves the first `count` rows (those added after them were not whole). */
  truncate(count: number): void {
    for (const at of this.wide.keys()) if (at >= count * AMOUNTS) this.wide.delete(at);
    this.count = Math.min(this.count, count);
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
    if (!this.readAmount(at, text, 0, text.length)) {
      const field = FIELD_NAMES[at % AMOUNTS]!;
      const symbol = this.texts[pair.symbol]!;
      throw new Error(
        `trade:${symbol}:${id} ${field} must be a decimal, got ${JSON.stringify(text)}`,
      );
    }
  }

  /** Whether `text` from `start` to `end` is plain decimal text, kept as the amount at `at`. */
  private readAmount(at: number, text: string, start: number, end: number): boolean {
    if (!readPlainParts(text, start, end) || plainParts.scale > 255) return false;
    const coefficient = plainParts.coefficient;
    if (typeof coefficient === 'bigint') {
      this.coefficients[at] = NaN;
      this.wide.set(at, coefficient);
    } else {
      this.coefficients[at] = coefficient;
    }
    this.scales[at] = plainParts.scale;
    return true;
  }

  /** The index of the next row, with room for it. */
  private room(): number {
    if (this.count === this.capacity) this.grow();
    return this.count;
  }

  /** Writes the row's numbers and texts at `index` (the next row: its amounts are in) and adds it. */
  private fill(
    index: number,
    pair: TablePair,
    id: number,
    time: number,
    buy: boolean,
    account: string,
    commissionAsset: string,
  ): void {
    this.ids[index] = id;
    this.times[index] = time;
    this.sides[index] = buy ? 1 : 0;
    const texts = index * TEXTS;
    this.textIndexes[texts + SYMBOL] = pair.symbol;
    this.textIndexes[texts + BASE] = pair.base;
    this.textIndexes[texts + QUOTE] = pair.quote;
    // Rows come by account mostly in runs (and an account's text is a new string each row).
    if (account !== this.lastAccount) {
      this.lastAccount = account;
      this.lastAccountIndex = this.indexOf(account);
    }
    this.textIndexes[texts + ACCOUNT] = this.lastAccountIndex;
    this.textIndexes[texts + FEE_ASSET] = this.indexOf(commissionAsset);
    this.count++;
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
 * out. The one reading of a row, in the main thread and in a reader thread alike, whether the
 * store hands over a page as one text (text()) or as rows (row()).
 */
export class TradeRows implements TradePageTaker {
  readonly table: TradeTable;
  readonly unknown = new Set<string>();
  private readonly tablePairs = new Map<string, TablePair>();
  private readonly feeAssets = new Map<string, string>();
  /** Where a row's amounts stand in a page's text (addFromText's bounds). */
  private readonly bounds = new Int32Array(2 * AMOUNTS);
  /** The last row a page's text gave so far (one cursor, overwritten per row). */
  private readonly lastOfPage: TradeCursor = { time: -Infinity, id: 0, orderId: 0 };

  constructor(
    private readonly pairs: ReadonlyMap<string, { base: string; quote: string }>,
    expected: number,
  ) {
    this.table = new TradeTable(expected);
  }

  /** Takes one row; false (its symbol named in `unknown`) when its symbol's assets are unknown. */
  row(row: LedgerTradeColumns): boolean {
    const [id, symbol, side, price, qty, quoteQty, fee, feeCurrency, time, , account] = row;
    const pair = this.pairOf(symbol);
    if (pair === null) {
      this.unknown.add(symbol);
      return false;
    }
    this.table.addOf(pair, {
      id,
      account: account ?? MAIN_ACCOUNT,
      side: side === 'buy' ? 'BUY' : 'SELL',
      qty,
      price,
      quoteQty,
      commission: fee,
      commissionAsset: this.feeAssetOf(feeCurrency),
      time,
    });
    return true;
  }

  /**
   * Takes a page of `count` rows written as one text (store/trade-range.ts: the fields of
   * LedgerTradeColumns apart by TRADE_FIELD, the main account's account empty, rows apart by
   * TRADE_RECORD), read where they stand. False, with nothing of the page taken, when the text is
   * not `count` such rows in ledger order, or holds an amount that is not plain decimal text: the
   * caller then gives the page's rows to row(), which names a bad amount's trade and field.
   */
  text(text: string, count: number): boolean {
    // A row's end is its account's: the page's last account ending in a record separator would
    // read as that account cut short.
    if (text.endsWith(TRADE_RECORD)) return false;
    const first = this.table.count;
    const bounds = this.bounds;
    let unknown: string[] | null = null;
    let rows = 0;
    const last = this.lastOfPage;
    last.time = -Infinity;
    let at = 0;
    while (at < text.length) {
      // id, symbol, side, price, qty, quote_qty, fee, fee_currency, time, order_id: each ends at
      // a field separator.
      let end = text.indexOf(TRADE_FIELD, at);
      const id = end < 0 ? NaN : integerIn(text, at, end);
      const symbolAt = end + 1;
      end = text.indexOf(TRADE_FIELD, symbolAt);
      const sideAt = end + 1;
      const symbolEnd = end;
      end = text.indexOf(TRADE_FIELD, sideAt);
      const buy = end - sideAt === 3 && text.startsWith('buy', sideAt);
      const sell = end - sideAt === 4 && text.startsWith('sell', sideAt);
      if (Number.isNaN(id) || symbolEnd < 0 || (!buy && !sell)) return this.undo(first);
      for (const which of TEXT_AMOUNT_ORDER) {
        at = end + 1;
        end = text.indexOf(TRADE_FIELD, at);
        if (end < 0) return this.undo(first);
        bounds[2 * which] = at;
        bounds[2 * which + 1] = end;
      }
      const feeAt = end + 1;
      end = text.indexOf(TRADE_FIELD, feeAt);
      const feeEnd = end;
      const timeAt = end + 1;
      end = text.indexOf(TRADE_FIELD, timeAt);
      const time = end < 0 || feeEnd < 0 ? NaN : integerIn(text, timeAt, end);
      const orderAt = end + 1;
      end = text.indexOf(TRADE_FIELD, orderAt);
      const orderId = end < 0 ? NaN : integerIn(text, orderAt, end);
      // The account ends the row: a field separator before the row's end is a field too many.
      const accountAt = end + 1;
      let rowEnd = text.indexOf(TRADE_RECORD, accountAt);
      if (rowEnd < 0) rowEnd = text.length;
      const extra = text.indexOf(TRADE_FIELD, accountAt);
      if (Number.isNaN(time) || Number.isNaN(orderId) || (extra >= 0 && extra < rowEnd)) {
        return this.undo(first);
      }
      // SQLite does not promise an aggregate's order: the rows must come in ledger order.
      if (tradeBefore(time, id, orderId, last)) return this.undo(first);
      last.time = time;
      last.id = id;
      last.orderId = orderId;
      rows++;
      at = rowEnd + 1;
      const symbol = text.slice(symbolAt, symbolEnd);
      const pair = this.pairOf(symbol);
      if (pair === null) {
        (unknown ??= []).push(symbol);
        continue;
      }
      const account = rowEnd === accountAt ? MAIN_ACCOUNT : text.slice(accountAt, rowEnd);
      const feeAsset = this.feeAssetOf(text.slice(feeAt, feeEnd));
      if (!this.table.addFromText(pair, id, time, buy, account, feeAsset, text, bounds)) {
        return this.undo(first);
      }
    }
    if (rows !== count) return this.undo(first);
    if (unknown) for (const symbol of unknown) this.unknown.add(symbol);
    return true;
  }

  private undo(first: number): false {
    this.table.truncate(first);
    return false;
  }

  /** The table's texts of a symbol, or null when its assets are unknown. */
  private pairOf(symbol: string): TablePair | null {
    let pair = this.tablePairs.get(symbol);
    if (pair === undefined) {
      const assets = this.pairs.get(symbol);
      if (!assets) return null;
      pair = this.table.pair(symbol, assets.base, assets.quote);
      this.tablePairs.set(symbol, pair);
    }
    return pair;
  }

  private feeAssetOf(feeCurrency: string): string {
    let asset = this.feeAssets.get(feeCurrency);
    if (asset === undefined) {
      asset = assetKey(feeCurrency);
      this.feeAssets.set(feeCurrency, asset);
    }
    return asset;
  }
}

/** Whether the trade (time, id, orderId) comes no later than `b` in the order trades are read. */
export function tradeBefore(time: number, id: number, orderId: number, b: TradeCursor): boolean {
  if (time !== b.time) return time < b.time;
  if (id !== b.id) return id < b.id;
  return orderId <= b.orderId;
}

/** The amounts in the order a page's text writes them (price, qty, quote_qty, fee). */
const TEXT_AMOUNT_ORDER = [PRICE, QTY, QUOTE_QTY, COMMISSION] as const;

/**
 * The integer written from `start` to `end` of `text` (as SQLite writes one: digits, a sign), the
 * number better-sqlite3 would have made of it; NaN for anything else.
 */
function integerIn(text: string, start: number, end: number): number {
  let index = start < end && text.charCodeAt(start) === 45 ? start + 1 : start;
  if (index === end || end - index > 15) {
    // Sixteen digits or more: the nearest number, as a 64-bit integer read from SQLite becomes.
    return index === end
      ? NaN
      : digitsOnly(text, index, end)
        ? Number(text.slice(start, end))
        : NaN;
  }
  let value = 0;
  for (; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return NaN;
    value = value * 10 + (code - 48);
  }
  return text.charCodeAt(start) === 45 ? -value : value;
}

function digitsOnly(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}
