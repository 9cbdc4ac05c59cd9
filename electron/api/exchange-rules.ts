/**
 * Checks against what the exchange lists, made before a request is sent: an order's quantity and
 * prices have no more decimals than its market allows, a transfer's amount no more than its asset
 * has, and a quote asset is one the exchange trades. The bridge's schemas have already normalised
 * the amounts ("007.50" is "7.5"), so the digits counted are the ones that matter.
 *
 * The exchange's symbol list is read at most once a minute per client: placing an order right
 * after testing it must not wait for the list's own rate limit.
 */
import { fractionDigits, normalizeDecimalText } from '../../shared/decimal';
import { assetKey } from '../../shared/market';
import type { ExchangeClient } from '../exchange/client';
import type { SymbolInfo } from '../exchange/wire';
import { AppError } from './errors';

const SYMBOLS_FRESH_MS = 60_000;

type SymbolSource = Pick<ExchangeClient, 'general'>;

const listed = new WeakMap<SymbolSource, { at: number; symbols: Promise<SymbolInfo[]> }>();

/** The exchange's symbols, from a read no older than a minute. */
export function listedSymbols(client: SymbolSource, now: number): Promise<SymbolInfo[]> {
  const cached = listed.get(client);
  if (cached && now - cached.at < SYMBOLS_FRESH_MS) return cached.symbols;
  const symbols = client.general.exchangeInfo().then((info) => info.symbols);
  listed.set(client, { at: now, symbols });
  // A failed read is not kept: the next check asks again.
  symbols.catch(() => {
    if (listed.get(client)?.symbols === symbols) listed.delete(client);
  });
  return symbols;
}

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

/** Refuses an order whose amounts have more decimals than its market allows. */
export async function checkOrderDecimals(
  client: SymbolSource,
  now: number,
  order: OrderAmounts,
): Promise<void> {
  const symbols = await listedSymbols(client, now);
  const market = symbols.find((s) => s.symbol.toLowerCase() === order.symbol);
  if (!market) {
    throw new AppError(
      'invalid-input',
      `${order.symbol.toUpperCase()} is not a market of this exchange`,
      'symbol',
    );
  }
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
export async function checkTransferDecimals(
  client: SymbolSource,
  now: number,
  transfer: { asset: string; amount: string },
): Promise<void> {
  const places = assetDecimals(await listedSymbols(client, now), transfer.asset);
  // An asset no market trades has no precision the exchange states: it judges the amount itself.
  if (places !== undefined) tooManyDecimals('amount', transfer.amount, places, transfer.asset);
}

/** Refuses a quote asset that no market of the exchange trades. */
export async function checkQuoteAsset(
  client: SymbolSource,
  now: number,
  quoteAsset: string,
): Promise<void> {
  const symbols = await listedSymbols(client, now);
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
