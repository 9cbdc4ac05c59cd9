/**
 * What a fired alert says, in words. Amounts are decimal text grouped for reading; the notifier
 * hides every number of the body in privacy mode, so the title carries no amount at all.
 */
import { formatAmount, formatAmountWithUnit, formatValue } from '../../shared/format';
import { withdrawStatusOf } from '../../shared/market';
import type { AlertTarget } from '../../shared/alerts';

export interface AlertMessage {
  title: string;
  body: string;
}

/** The base and quote asset of a market, when known. */
export type MarketAssets = (
  symbol: string,
) => { baseAsset: string; quoteAsset: string } | undefined;

function priceText(price: string, symbol: string, assets: MarketAssets): string {
  const quote = assets(symbol)?.quoteAsset;
  return quote ? formatAmountWithUnit(price, quote) : formatAmount(price);
}

/** The alert in a few words, as the list and the notification name it. */
export function describeTarget(target: AlertTarget, assets: MarketAssets): string {
  switch (target.kind) {
    case 'price':
      return `${target.symbol.toUpperCase()} ${target.direction} ${priceText(target.threshold, target.symbol, assets)}`;
    case 'price-move': {
      const way =
        target.direction === 'either' ? 'moves' : target.direction === 'up' ? 'rises' : 'falls';
      return `${target.symbol.toUpperCase()} ${way} ${target.threshold} % within ${target.window}`;
    }
    case 'balance':
      return `Free ${target.asset.toUpperCase()} ${target.direction} ${formatAmountWithUnit(target.threshold, target.asset)}`;
    case 'portfolio':
      return `Portfolio value ${target.direction} ${formatAmountWithUnit(target.threshold, target.asset)}`;
    case 'withdrawal':
      return target.asset
        ? `A ${target.asset.toUpperCase()} withdrawal changes status`
        : 'A withdrawal changes status';
  }
}

/** A line alert crossed: "BTCUSDT is at 62,010 USDT, above 62,000 USDT". */
export function lineMessage(
  target: Extract<AlertTarget, { kind: 'price' | 'balance' | 'portfolio' }>,
  value: string,
  assets: MarketAssets,
  missedWhileAway: boolean,
): AlertMessage {
  const away = missedWhileAway ? ' (crossed while the stream was away)' : '';
  switch (target.kind) {
    case 'price':
      return {
        title: `Price alert: ${target.symbol.toUpperCase()} ${target.direction} the line`,
        body: `${target.symbol.toUpperCase()} is at ${priceText(value, target.symbol, assets)}, ${target.direction} ${priceText(target.threshold, target.symbol, assets)}${away}`,
      };
    case 'balance':
      return {
        title: `Balance alert: ${target.asset.toUpperCase()} ${target.direction} the line`,
        body: `Free ${target.asset.toUpperCase()} is ${formatAmountWithUnit(value, target.asset)}, ${target.direction} ${formatAmountWithUnit(target.threshold, target.asset)}`,
      };
    case 'portfolio':
      return {
        title: `Portfolio alert: value ${target.direction} the line`,
        body: `The portfolio is worth ${formatValue(value, target.asset)}, ${target.direction} ${formatAmountWithUnit(target.threshold, target.asset)}`,
      };
  }
}

/** A price moved by the alert's percentage: "BTCUSDT moved +5.2 % within 1h (now 64,000 USDT)". */
export function moveMessage(
  target: Extract<AlertTarget, { kind: 'price-move' }>,
  change: string,
  price: string,
  assets: MarketAssets,
): AlertMessage {
  const signed = change.startsWith('-') ? change : `+${change}`;
  return {
    title: `Price alert: ${target.symbol.toUpperCase()} moved ${target.threshold} % or more`,
    body: `${target.symbol.toUpperCase()} moved ${signed} % within ${target.window} (now ${priceText(price, target.symbol, assets)})`,
  };
}

/** A withdrawal's status changed: "Withdrawal of 0.5 BTC: pending -> success". */
export function withdrawalMessage(
  withdrawal: { coin: string; amount: string; status: number },
  previous: number | undefined,
): AlertMessage {
  const now = withdrawStatusOf(withdrawal.status);
  const before = previous === undefined ? 'not seen' : withdrawStatusOf(previous);
  return {
    title: `Withdrawal ${now}`,
    body: `Withdrawal of ${formatAmountWithUnit(withdrawal.amount, withdrawal.coin)}: ${before} → ${now}`,
  };
}
