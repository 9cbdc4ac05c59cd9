/**
 * An account's orders read over REST into the cache: the open orders (with the final state of
 * each one the cache still holds open that the list lacks) and the order history. The same steps
 * serve the main account (sync's openOrders and orders jobs, with the profile's key) and each
 * linked sub-account (its feed, live/sub-account-feed.ts, with its own key): what differs is the
 * client and the account the rows are kept under.
 */
import { ExchangeError, type ExchangeClient, type Order } from '../exchange';
import { SyncStoppedError } from './pacing';
import type { SyncStorePort } from './port';

/** The exchange's "Order does not exist." and "Invalid symbol." (docs/exchange-notes.md). */
const ORDER_DOES_NOT_EXIST = 2004;
const INVALID_SYMBOL = -1121;

export interface AccountOrdersContext {
  /** A client holding the account's own key. */
  client: Pick<ExchangeClient, 'trading'>;
  port: SyncStorePort;
  profileId: string;
  /** 'main', or the linked sub-account's e-mail (lower case). */
  account: string;
  now: () => number;
  /** True once the step must end; checked before every further call. */
  stopped: () => boolean;
  log?: (line: string) => void;
}

/**
 * The open orders as the exchange lists them, and the final state of each order the store still
 * holds open that the list lacks (filled or canceled meanwhile, e.g. while offline). An order
 * the exchange's lookup says does not exist (2004) is looked for in its order history; found in
 * neither (the exchange was reset), it is marked gone, kept in the history and never open. One
 * order's failure never keeps the rest out of the store: what was read is written, then the first
 * failure is returned (the caller's to retry); an order settled as gone is not asked about again.
 */
export async function refreshOpenOrders(
  ctx: AccountOrdersContext,
): Promise<{ failure: unknown } | undefined> {
  const { port, client, profileId, account } = ctx;
  const open = await client.trading.openOrders();
  const listed = new Set(open.map((o) => o.id));
  const closed: Order[] = [];
  const gone: number[] = [];
  let failure: { failure: unknown } | undefined;
  for (const order of port.openOrders(profileId, account)) {
    if (listed.has(order.id)) continue;
    if (ctx.stopped()) throw new SyncStoppedError();
    try {
      const final = await finalState(client, order);
      if (final) closed.push(final);
      else gone.push(order.id);
    } catch (error) {
      if (error instanceof SyncStoppedError) throw error;
      failure ??= { failure: error };
    }
  }
  if (ctx.stopped()) throw new SyncStoppedError();
  const at = ctx.now();
  port.transaction(() => {
    port.upsertOrders(profileId, [...open, ...closed], at, account);
    if (gone.length > 0) port.markOrdersGone(profileId, gone, at, account);
  });
  if (gone.length > 0) {
    ctx.log?.(
      `sync openOrders (${account}): the exchange no longer knows order(s) ${gone.join(', ')}`,
    );
  }
  return failure;
}

/**
 * The order history of every symbol the account has had orders or trades on (allOrders needs a
 * symbol), written in one transaction; returns how many orders were read.
 */
export async function readOrderHistory(ctx: AccountOrdersContext): Promise<number> {
  const { port, client, profileId, account } = ctx;
  const orders: Order[] = [];
  for (const symbol of port.orderSymbols(profileId, account)) {
    if (ctx.stopped()) throw new SyncStoppedError();
    orders.push(...(await client.trading.allOrders({ symbol, limit: 1000 })));
  }
  if (ctx.stopped()) throw new SyncStoppedError();
  port.transaction(() => port.upsertOrders(profileId, orders, ctx.now(), account));
  return orders.length;
}

/** An order's state now, or undefined when neither the lookup nor the history knows it. */
async function finalState(
  client: Pick<ExchangeClient, 'trading'>,
  order: { id: number; symbol: string },
): Promise<Order | undefined> {
  try {
    return await client.trading.getOrder({ orderId: order.id });
  } catch (error) {
    // Only the exchange's own "does not exist": a 404 of some other server on the address
    // says nothing about the order.
    if (!(error instanceof ExchangeError && error.code === ORDER_DOES_NOT_EXIST)) throw error;
  }
  try {
    const history = await client.trading.allOrders({
      symbol: order.symbol,
      orderId: order.id,
      limit: 1,
    });
    return history.find((o) => o.id === order.id);
  } catch (error) {
    // The market itself is gone with the rest of what the exchange knew.
    if (error instanceof ExchangeError && error.code === INVALID_SYMBOL) return undefined;
    throw error;
  }
}
