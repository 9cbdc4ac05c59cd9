/**
 * A linked sub-account's fills and cancels tell the user as the main account's do (the session's
 * one OrderNotices, live/order-notices.ts), naming the account: against the sandbox over real
 * HTTP and WebSocket, a real SQLite record and the keychain of the run (scripts/with-keyring.sh).
 * What the notifications must say is computed from the sandbox's own records of the orders and
 * trades (the quantity and price it reports), and the main account's fill of the same match is
 * told as it always was, unnamed. While the app is locked neither reaches the page; both are kept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotfolioApp } from '../../electron/app';
import type { ExchangeClient } from '../../electron/exchange/client';
import { Decimal, divide } from '../../shared/exact-decimal';
import { describeOrder, formatAmountWithUnit, formatFee } from '../../shared/format';
import type { NotificationView } from '../../shared/types';
import { eventually } from '../api/helpers';
import { subAccountWorld, type SubAccountWorld } from '../session/sub-account-world';

let world: SubAccountWorld;
let app: SpotfolioApp;
/** Every 'notification' event, as the page turns each into a toast. */
const toasts: NotificationView[] = [];
/** The data kinds every data.changed named, in order. */
const changes: string[][] = [];
let deskClient: ExchangeClient;
let parentClient: ExchangeClient;
let desk: string;

const assets = { baseAsset: 'btc', quoteAsset: 'usdt' } as const;

/**
 * A sell of the sub-account between the best bid and ask (it rests there as the best ask), of
 * which the parent's buy at that price takes `taken`, and nothing else.
 */
async function subSellMet(quantity: string, taken: string) {
  const book = await deskClient.market.depth({ symbol: 'btcusdt', limit: 5 });
  const bid = new Decimal(book.bids[0]![0]);
  const ask = new Decimal(book.asks[0]![0]);
  const price = divide(bid.plus(ask), new Decimal(2), 2).toFixed(2);
  const sell = await deskClient.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'sell',
    type: 'limit',
    quantity,
    price,
  });
  expect(sell.status).toBe('wait');
  const buy = await parentClient.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    quantity: taken,
    price,
  });
  return { sell, buy };
}

/** "40" for 0.004 of 0.01: the fill title's share of the order, as the exchange's record has it. */
function percentFilled(executed: string, original: string): string {
  return divide(new Decimal(executed).times(100), new Decimal(original), 2).toFixed();
}

beforeAll(async () => {
  world = await subAccountWorld(67);
  app = world.app;
  desk = world.desk.email.toLowerCase();
  app.onEvent((event, payload) => {
    if (event === 'notification') toasts.push(payload as NotificationView);
    if (event === 'data.changed') changes.push([...(payload as { kinds: string[] }).kinds]);
  });
  deskClient = world.clientOf(world.desk.keys[0]!);
  parentClient = world.clientOf(world.parent.keys.find((k) => k.canTrade)!);
  // Something to sell, and the markets read so the texts name each amount's asset.
  world.sandbox.admin.credit(world.desk.email, 'btc', '1');
  await app.handlers['market.tickers']({});
  await app.handlers['subAccounts.link']({ email: world.desk.email, ...world.desk.keys[0]! });
  // Its feed's private stream is on a connection of its own beside the main account's.
  await eventually('the sub-account stream to be live', () =>
    world.sandbox.admin.streamsByConnection().filter((streams) => streams.includes('orderUpdate'))
      .length >= 2
      ? true
      : undefined,
  );
});

afterAll(() => world?.close());

describe("a linked sub-account's notifications", () => {
  it('tells its fill and its cancel, naming it, from what the exchange recorded', async () => {
    const { sell, buy } = await subSellMet('0.01', '0.004');

    const filled = await deskClient.trading.getOrder({ orderId: sell.id });
    const [trade, ...more] = (await deskClient.trading.myTrades({ symbol: 'btcusdt' })).filter(
      (t) => t.orderId === sell.id,
    );
    expect(more).toEqual([]);
    const fillTitle = `Sell order ${percentFilled(filled.executedQty, filled.origQty)} % filled in ${desk}`;
    const fill = await eventually('the sub-account fill told', () =>
      toasts.find((n) => n.kind === 'fill' && n.title.endsWith(desk)),
    );
    expect(fill).toMatchObject({
      title: fillTitle,
      body:
        `${describeOrder({ side: 'sell', qty: trade!.qty, price: trade!.price, symbol: 'btcusdt', ...assets })}` +
        ` (${formatFee(trade!.fee, trade!.feeCurrency)})`,
    });
    // The parent's side of the same match is the main account's fill, told as before, unnamed.
    const parentOrder = await parentClient.trading.getOrder({ orderId: buy.id });
    expect(parentOrder.status).toBe('done');
    await eventually('the main account fill told', () =>
      toasts.find((n) => n.kind === 'fill' && n.title === 'Buy order filled'),
    );

    // Canceled through the app with the sub-account's key: told once, with what was filled.
    await app.handlers['orders.cancel']({ symbol: 'btcusdt', orderId: sell.id, account: desk });
    const canceled = await deskClient.trading.getOrder({ orderId: sell.id });
    expect(canceled.status).toBe('cancel');
    const cancel = await eventually('the sub-account cancel told', () =>
      toasts.find((n) => n.kind === 'cancel'),
    );
    expect(cancel).toMatchObject({
      title: `Order canceled in ${desk}`,
      body:
        `${describeOrder({ side: 'sell', qty: canceled.origQty, price: canceled.price, symbol: 'btcusdt', ...assets })} was canceled` +
        ` (${formatAmountWithUnit(canceled.executedQty, 'btc')} filled)`,
    });

    // The notification centre keeps them as told, the account named.
    const kept = await app.handlers['activity.notifications']({ limit: 50 });
    for (const told of [fill, cancel]) {
      expect(kept.find((n) => n.id === told.id)).toMatchObject({
        title: told.title,
        body: told.body,
      });
    }
    expect(toasts.filter((n) => n.kind === 'cancel')).toHaveLength(1);
    expect(toasts.filter((n) => n.title.endsWith(desk)).map((n) => n.kind)).toEqual([
      'fill',
      'cancel',
    ]);
  });

  it('shows nothing of it while the app is locked, and keeps it in the notification centre', async () => {
    const password = 'correct horse 67';
    await app.handlers['lock.setPassword']({ password });
    await app.handlers['lock.lock']({});
    const shownBefore = toasts.length;
    const { sell } = await subSellMet('0.01', '0.01');
    const filled = await deskClient.trading.getOrder({ orderId: sell.id });
    expect(filled.status).toBe('done');
    const title = `Sell order filled in ${desk}`;
    // Both sides of the match kept: the sub-account's, and the main account's second buy filled.
    await eventually('the locked fills kept', async () => {
      const kept = await app.handlers['activity.notifications']({ limit: 50 });
      const mainFills = kept.filter((n) => n.title === 'Buy order filled').length;
      return kept.some((n) => n.title === title) && mainFills === 2 ? true : undefined;
    });
    // Neither account's fill reached the page while locked.
    expect(toasts.length).toBe(shownBefore);
    const changesBefore = changes.length;
    expect((await app.handlers['lock.unlock']({ password })).unlocked).toBe(true);
    // Unlocking tells the page the notifications changed, so the centre reads them again.
    expect(changes.slice(changesBefore).some((kinds) => kinds.includes('notifications'))).toBe(
      true,
    );
    expect(toasts.length).toBe(shownBefore);
    await app.handlers['lock.removePassword']({ current: password });
  });
});
