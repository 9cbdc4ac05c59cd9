/**
 * Orders and own trades. Placing and canceling are writes: when their answer is lost, the order is
 * looked up by its clientOrderId (placing always sends one) before the caller hears anything.
 */
import { randomBytes } from 'node:crypto';
import { Decimal } from '../../../shared/exact-decimal';
import { ExchangeError } from '../errors';
import { validate, type InputOf, type NewOrder, type ValidOf } from '../inputs';
import {
  describe,
  mayHaveHappened,
  notApplied,
  RECONCILE_TIME_SLACK_MS,
  type Requests,
} from '../requests';
import type { Params, SentRequest } from '../rest';
import { emptyObject, orderListSchema, orderSchema, ownTradeListSchema, type Order } from '../wire';

function generateClientOrderId(): string {
  return randomBytes(16).toString('hex');
}

function orderParams(v: ValidOf<'newOrder'>, clientOrderId: string | undefined): Params {
  return {
    symbol: v.symbol,
    side: v.side,
    type: v.type,
    quantity: v.quantity,
    price: v.price,
    stopPrice: v.stopPrice,
    clientOrderId,
  };
}

export function tradingArea(requests: Requests) {
  const getOrder = async (p: InputOf<'getOrder'>): Promise<Order> => {
    const v = validate('getOrder', p, 'trading.getOrder');
    return requests.get('getOrder', v, orderSchema);
  };

  const placeOrder = async (p: NewOrder): Promise<Order> => {
    const v = validate('newOrder', p, 'trading.placeOrder');
    const clientOrderId = v.clientOrderId ?? generateClientOrderId();
    const sent: SentRequest = {};
    try {
      return await requests.post('placeOrder', orderParams(v, clientOrderId), orderSchema, sent);
    } catch (error) {
      if (!mayHaveHappened(error)) throw error;
      const matches = (order: Order) =>
        order.clientOrderId === clientOrderId &&
        order.symbol === v.symbol &&
        order.side === v.side &&
        order.type === v.type &&
        new Decimal(order.origQty).eq(v.quantity) &&
        new Decimal(order.price).eq(v.price) &&
        (sent.timestamp === undefined ||
          order.createdTime >= sent.timestamp - RECONCILE_TIME_SLACK_MS - requests.recvWindow);
      const found = await requests.reconcile(error, sent, `order ${clientOrderId}`, async () => {
        try {
          const order = await getOrder({ clientOrderId });
          return matches(order) ? order : undefined;
        } catch (lookupError) {
          if (lookupError instanceof ExchangeError && lookupError.kind === 'not-found')
            return undefined;
          throw lookupError;
        }
      });
      if (found) return found;
      throw notApplied(error, `The order (clientOrderId ${clientOrderId}) was not placed`);
    }
  };

  const cancelOrder = async (p: InputOf<'cancelOrder'>): Promise<Order> => {
    const v = validate('cancelOrder', p, 'trading.cancelOrder');
    const sent: SentRequest = {};
    try {
      return await requests.delete('cancelOrder', v, orderSchema, sent);
    } catch (error) {
      if (!mayHaveHappened(error)) throw error;
      const ref: InputOf<'getOrder'> =
        v.clientOrderId !== undefined
          ? { clientOrderId: v.clientOrderId }
          : { orderId: v.orderId! };
      const label =
        v.clientOrderId !== undefined ? `clientOrderId ${v.clientOrderId}` : `orderId ${v.orderId}`;
      let finishedOtherwise: Order | undefined;
      const canceled = await requests.reconcile(error, sent, `cancel of ${label}`, async () => {
        const order = await getOrder(ref);
        if (order.status === 'cancel') return order;
        if (order.status === 'done') {
          finishedOtherwise = order;
          return order;
        }
        return undefined;
      });
      if (canceled && canceled.status === 'cancel') return canceled;
      if (finishedOtherwise) {
        throw new ExchangeError(
          'not-found',
          `Order ${label} was filled before it could be canceled`,
          {
            cause: error,
          },
        );
      }
      throw notApplied(error, `The order (${label}) was not canceled; it is still open`);
    }
  };

  return {
    placeOrder,
    testOrder: async (p: NewOrder): Promise<void> => {
      const v = validate('newOrder', p, 'trading.testOrder');
      await requests.post('testOrder', orderParams(v, v.clientOrderId), emptyObject);
    },
    getOrder,
    openOrders: async (p?: InputOf<'openOrders'>) => {
      const v = validate('openOrders', p, 'trading.openOrders') ?? {};
      return requests.get('openOrders', v, orderListSchema);
    },
    allOrders: async (p: InputOf<'allOrders'>) => {
      const v = validate('allOrders', p, 'trading.allOrders');
      return requests.get('allOrders', v, orderListSchema);
    },
    cancelOrder,
    cancelAllOrders: async (p: InputOf<'cancelAllOrders'>) => {
      const v = validate('cancelAllOrders', p, 'trading.cancelAllOrders');
      try {
        return await requests.delete('cancelAllOrders', v, orderListSchema);
      } catch (error) {
        if (!mayHaveHappened(error)) throw error;
        // Which orders were canceled cannot be recovered from the exchange's records exactly.
        throw new ExchangeError(
          'unknown-outcome',
          `Cancel-all on ${v.symbol}: the exchange did not confirm (${describe(error)}); re-read the open orders`,
          { cause: error },
        );
      }
    },
    myTrades: async (p?: InputOf<'myTrades'>) => {
      const v = validate('myTrades', p, 'trading.myTrades') ?? {};
      return requests.get('myTrades', v, ownTradeListSchema);
    },
  };
}
