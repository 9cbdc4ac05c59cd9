/**
 * Checks against what the exchange lists, made before a request is sent: an order's quantity and
 * prices have no more decimals than its market allows, a transfer's amount no more than its asset
 * has, and a quote asset is one the exchange trades. The bridge's schemas have already normalised
 * the amounts ("007.50" is "7.5"), so the digits counted are the ones that matter.
 *
 * The exchange's symbol list is read at most once a minute per client: placing an order right
 * after testing it must not wait for the list's own rate limit. One ExchangeRules, built in
 * app.ts, keeps those reads.
 */
import { fractionDigits, normalizeDecimalText } from '../../shared/decimal';
import { assetKey } from '../../shared/market';
import type { ExchangeClient } from '../exchange/client';
import type { SymbolInfo } from '../exchange/wire';
import { AppError } from '../core/app-error';
import type { Clock } from '../core/clock';

const SYMBOLS_FRESH_MS = 60_000;

type SymbolSource = Pick<ExchangeClient, 'general'>;

function tooManyDecimals(
  field: string,
  value: string,
  allowed: number,
  where: string,
  why = '',
): void {
  const digits = fractionDigits(value);
  if (digits > allowed) {
    throw new AppError(
      'invalid-input',
      `${field} has ${digits} decimals; ${where.toUpperCase()} allows ${allowed}${why}`,
      field,
    );
  }
}

/** Decimals of a price on this market: those of its tick size, else of its quote asset. */
function priceDecimals(market: SymbolInfo): { places: number; why: string } {
  const tickSize = market.filters.find((filter) => filter.tickSize !== undefined)?.tickSize;
  if (tickSize === undefined) return { places: market.quoteAssetPrecision, why: '' };
  const tick = normalizeDecimalText(tickSize);
  return { places: fractionDigits(tick), why: ` (tick size ${tick})` };
}

export interface OrderAmounts {
  symbol: string;
  quantity: string;
  price: string;
  stopPrice?: string | undefined;
}

/** The market of a symbol, or a refusal naming the field: nothing is sent for an unknown one. */
function requireMarket(symbols: SymbolInfo[], symbol: string): SymbolInfo {
  const market = symbols.find((s) => s.symbol.toLowerCase() === symbol.toLowerCase());
  if (!market) {
    throw new AppError(
      'invalid-input',
      `${symbol.toUpperCase()} is not a market of this exchange`,
      'symbol',
    );
  }
  return market;
}

/** Refuses an order whose amounts have more decimals than its market allows. */
function checkOrderDecimals(symbols: SymbolInfo[], order: OrderAmounts): void {
  const market = requireMarket(symbols, order.symbol);
  tooManyDecimals('quantity', order.quantity, market.baseAssetPrecision, order.symbol);
  const { places, why } = priceDecimals(market);
  tooManyDecimals('price', order.price, places, order.symbol, why);
  if (order.stopPrice !== undefined)
    tooManyDecimals('stopPrice', order.stopPrice, places, order.symbol, why);
}

/**
 * Decimals the exchange keeps for an asset: the precision its markets give it (the largest, if
 * they differ), or undefined for an asset no market trades.
 */
export function assetDecimals(symbols: SymbolInfo[], asset: string): number | undefined {
  const key = assetKey(asset);
  let places: number | undefined;
  for (const market of symbols) {
    const own =
      assetKey(market.baseAsset) === key
        ? market.baseAssetPrecision
        : assetKey(market.quoteAsset) === key
          ? market.quoteAssetPrecision
          : undefined;
    if (own !== undefined && (places === undefined || own > places)) places = own;
  }
  return places;
}

/** Refuses a transfer amount with more decimals than the asset has. */
function checkTransferDecimals(
  symbols: SymbolInfo[],
  transfer: { asset: string; amount: string },
): void {
  const places = assetDecimals(symbols, transfer.asset);
  // An asset no market trades has no precision the exchange states: it judges the amount itself.
  if (places !== undefined) tooManyDecimals('amount', transfer.amount, places, transfer.asset);
}

/** Refuses a quote asset that no market of the exchange trades. */
function checkQuoteAsset(symbols: SymbolInfo[], quoteAsset: string): void {
  const key = assetKey(quoteAsset);
  const traded = symbols.some(
    (market) => assetKey(market.baseAsset) === key || assetKey(market.quoteAsset) === key,
  );
  if (traded) return;
  const quotes = [...new Set(symbols.map((market) => market.quoteAsset.toUpperCase()))].sort();
  const examples =
    quotes.length > 0 ? `; it quotes prices in ${quotes.slice(0, 5).join(', ')}` : '';
  throw new AppError(
    'invalid-input',
    `The exchange lists no asset ${quoteAsset.toUpperCase()}${examples}`,
    'quoteAsset',
  );
}

export class ExchangeRules {
  private readonly listed = new WeakMap<
    SymbolSource,
    { at: number; symbols: Promise<SymbolInfo[]> }
  >();

  constructor(private readonly clock: Clock) {}

  /** The exchange's symbols, from a read no older than a minute. */
  listedSymbols(client: SymbolSource): Promise<SymbolInfo[]> {
    const now = this.clock.now();
    const cached = this.listed.get(client);
    if (cached && now - cached.at < SYMBOLS_FRESH_MS) return cached.symbols;
    const symbols = client.general.exchangeInfo().then((info) => info.symbols);
    this.listed.set(client, { at: now, symbols });
    // A failed read is not kept: the next check asks again.
    symbols.catch(() => {
      if (this.listed.get(client)?.symbols === symbols) this.listed.delete(client);
    });
    return symbols;
  }

  /** Refuses an order whose amounts have more decimals than its market allows. */
  async checkOrderDecimals(client: SymbolSource, order: OrderAmounts): Promise<void> {
    checkOrderDecimals(await this.listedSymbols(client), order);
  }

  /** Refuses a symbol no market of the exchange has (a cancel names one, as a placement does). */
  async checkListedSymbol(client: SymbolSource, symbol: string): Promise<void> {
    requireMarket(await this.listedSymbols(client), symbol);
  }

  /** Whether any market of the exchange trades the asset. */
  async tradesAsset(client: SymbolSource, asset: string): Promise<boolean> {
    return assetDecimals(await this.listedSymbols(client), asset) !== undefined;
  }

  /** Refuses a transfer amount with more decimals than the asset has. */
  async checkTransferDecimals(
    client: SymbolSource,
    transfer: { asset: string; amount: string },
  ): Promise<void> {
    checkTransferDecimals(await this.listedSymbols(client), transfer);
  }

  /** Refuses a quote asset that no market of the exchange trades. */
  async checkQuoteAsset(client: SymbolSource, quoteAsset: string): Promise<void> {
    checkQuoteAsset(await this.listedSymbols(client), quoteAsset);
  }
}
