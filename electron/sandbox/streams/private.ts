/**
 * The account streams (outboundAccountPosition, orderUpdate, ownTrade): who is subscribed for
 * which account, and each event's payload. An event goes only to the connections subscribed
 * with an auth_key of the account it concerns.
 */
import { Decimal, divide } from '../../../shared/exact-decimal';
import { PRIVATE_STREAM_NAMES, type PrivateStream } from '../../../shared/market';
import type { Clock } from '../../core/clock';
import type { MarketConfig } from '../engine';
import type { SandboxBalanceEvent, SandboxOrderSnapshot, SandboxTradeEvent } from '../events';
import { dataMessage, textFrame, type StreamConnection } from './connection';

export class PrivateSubscribers {
  private readonly byStream = new Map<PrivateStream, Map<number, Set<StreamConnection>>>(
    PRIVATE_STREAM_NAMES.map((stream) => [stream, new Map()]),
  );

  /** Whether anybody is subscribed to `stream` (the engine's events for it are then needed). */
  wanted(stream: PrivateStream): boolean {
    return this.byStream.get(stream)!.size > 0;
  }

  add(connection: StreamConnection, stream: PrivateStream, accountId: number): void {
    this.remove(connection, stream);
    connection.privateStreams.set(stream, accountId);
    const byAccount = this.byStream.get(stream)!;
    let subscribers = byAccount.get(accountId);
    if (!subscribers) byAccount.set(accountId, (subscribers = new Set()));
    subscribers.add(connection);
  }

  remove(connection: StreamConnection, stream: PrivateStream): void {
    const accountId = connection.privateStreams.get(stream);
    if (accountId === undefined) return;
    connection.privateStreams.delete(stream);
    const byAccount = this.byStream.get(stream)!;
    const subscribers = byAccount.get(accountId);
    subscribers?.delete(connection);
    if (subscribers && subscribers.size === 0) byAccount.delete(accountId);
  }

  /** Sends to the account's subscribers of `stream`; the payload is built only if there are any. */
  send(stream: PrivateStream, accountId: number, payload: () => unknown): void {
    const subscribers = this.byStream.get(stream)!.get(accountId);
    if (!subscribers || subscribers.size === 0) return;
    const frame = textFrame(dataMessage(stream, payload()));
    for (const connection of subscribers) connection.sendFrame(frame);
  }
}

/** a - b in the engine's shortest decimal form ("0.5", "0"; never an exponent). */
function subtractDecimal(a: string, b: string): string {
  return new Decimal(a).minus(b).toFixed();
}

/**
 * orderUpdate. Where the interface is vague: q ("balance volume") is the remaining quantity
 * origQty - executedQty; v is the average fill price executedQuoteQty / executedQty at the
 * market's quote precision ("0" before any fill); z the filled quantity; m whether the order's
 * fills so far were as maker; O the order's updatedTime and E the time the event was sent.
 */
export function orderUpdatePayload(
  order: SandboxOrderSnapshot,
  market: MarketConfig | undefined,
  clock: Clock,
) {
  const executed = new Decimal(order.executedQty);
  const precision = market?.quoteAssetPrecision ?? 8;
  return {
    E: clock.now(),
    O: order.updatedTime,
    S: order.side,
    V: order.origQty,
    X: order.status,
    i: order.id,
    c: order.clientOrderId,
    m: order.isMaker,
    o: order.type,
    p: order.price,
    q: subtractDecimal(order.origQty, order.executedQty),
    s: order.symbol,
    v: executed.isZero()
      ? '0'
      : divide(order.executedQuoteQty, executed)
          .toDecimalPlaces(precision, Decimal.ROUND_HALF_UP)
          .toFixed(),
    z: order.executedQty,
  };
}

/**
 * ownTrade, from the receiving account's point of view: S its side, o/c its order, f/U its fee,
 * m whether it was the maker. a and b are the seller's and buyer's ORDER ids (as in the trades
 * stream; account ids of a counterparty are never disclosed). w ("funds") is the quote amount
 * price x quantity of the trade.
 */
export function ownTradePayload(trade: SandboxTradeEvent, asBuyer: boolean) {
  return {
    E: trade.time,
    S: asBuyer ? 'buy' : 'sell',
    U: asBuyer ? trade.buyerFeeCurrency : trade.sellerFeeCurrency,
    a: trade.sellOrderId,
    b: trade.buyOrderId,
    f: asBuyer ? trade.buyerFee : trade.sellerFee,
    m: asBuyer ? trade.isBuyerMaker : !trade.isBuyerMaker,
    o: asBuyer ? trade.buyOrderId : trade.sellOrderId,
    c: asBuyer ? trade.buyerClientOrderId : trade.sellerClientOrderId,
    p: trade.price,
    q: trade.qty,
    s: trade.symbol,
    t: trade.id,
    w: trade.quoteQty,
  };
}

/** outboundAccountPosition: the account's changed balances. */
export function balancePayload(event: SandboxBalanceEvent) {
  return {
    B: event.balances.map((balance) => ({
      a: balance.asset,
      b: balance.free,
      l: balance.locked,
    })),
    E: event.time,
  };
}
