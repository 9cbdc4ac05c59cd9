// @vitest-environment jsdom
/**
 * The Orders screen's accounts: the switch between every account, the main account and each
 * sub-account asks the app for that scope's orders; every row says its account; the sub-accounts
 * whose orders cannot be read (no key of their own linked) are named with a link to the
 * Sub-accounts screen; and a sub-account's cancel goes out with its account, its refusal said on
 * its own row.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FundsView, OrderView, OrdersPage, SymbolView } from '../../../shared/types';
import { Orders } from '../../../renderer/src/screens/Orders';
import { AppError, appContext, installFakeApp, renderInApp } from '../support/component';

const BTCUSDT: SymbolView = {
  symbol: 'btcusdt',
  baseAsset: 'btc',
  quoteAsset: 'usdt',
  baseAssetPrecision: 5,
  quoteAssetPrecision: 2,
  tickSize: '0.01',
  minPrice: '0.01',
  orderTypes: ['limit', 'stop_limit'],
};

const FUNDS: FundsView = { quoteAsset: 'usdt', rows: [], asOf: 0, stale: false };

const SAVINGS = 'savings@example.test';
const DESK = 'desk@example.test';

function order(id: number, account: string): OrderView {
  return {
    account,
    id,
    clientOrderId: `c${id}`,
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    status: 'wait',
    price: '30000.5',
    stopPrice: null,
    origQty: '0.00123',
    executedQty: '0',
    createdTime: 1_700_000_000_000 + id,
    updatedTime: 1_700_000_000_000 + id,
  };
}

const ORDERS = [order(1, 'main'), order(2, SAVINGS)];

/** What the app answers for a scope: desk has no key linked, savings has. */
function page(account: string | undefined): OrdersPage {
  const accounts = account === undefined ? ['main', SAVINGS] : account === DESK ? [] : [account];
  const rows = ORDERS.filter((o) => accounts.includes(o.account));
  return {
    rows,
    total: rows.length,
    asOf: 0,
    accounts,
    unlinked: account === undefined || account === DESK ? [DESK] : [],
    subAccounts: [SAVINGS, DESK],
    linked: [SAVINGS],
  };
}

function renderOrders() {
  const app = installFakeApp();
  app.answer('funds.list', () => FUNDS);
  app.answer('market.tickers', () => []);
  app.answer('orders.open', (input) => page(input.account));
  renderInApp(<Orders />, appContext({ symbols: [BTCUSDT] }).value);
  return { app, user: userEvent.setup() };
}

const rowAccounts = () =>
  screen
    .queryAllByTestId(/^open-order-/)
    .map((row) => within(row).getByTestId('order-account').textContent);

describe('Orders: the accounts shown', () => {
  it('switches between every account, the main account and each sub-account', async () => {
    const { app, user } = renderOrders();
    await waitFor(() => expect(rowAccounts()).toEqual(['Main account', SAVINGS]));
    expect(app.inputsOf('orders.open')).toEqual([{}]);

    await user.click(screen.getByTestId(`orders-scope-${SAVINGS}`));
    await waitFor(() => expect(rowAccounts()).toEqual([SAVINGS]));
    expect(screen.getByTestId(`orders-scope-${SAVINGS}`).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByTestId('orders-unlinked')).toBeNull();

    await user.click(screen.getByTestId('orders-scope-main'));
    await waitFor(() => expect(rowAccounts()).toEqual(['Main account']));

    await user.click(screen.getByTestId('orders-scope-every'));
    await waitFor(() => expect(rowAccounts()).toEqual(['Main account', SAVINGS]));
    // Each scope asked for once; every account again is the answer already kept.
    expect(app.inputsOf('orders.open').map((input) => input.account)).toEqual([
      undefined,
      SAVINGS,
      'main',
    ]);
  });

  it('names the sub-accounts without a key of their own and links to the Sub-accounts screen', async () => {
    const { user } = renderOrders();
    const notice = await screen.findByTestId('orders-unlinked');
    expect(notice.textContent).toContain(DESK);
    expect(notice.textContent).not.toContain(SAVINGS);
    expect(within(notice).getByRole('link').getAttribute('href')).toBe('#/sub-accounts');

    // Its own scope: no orders, and why.
    await user.click(screen.getByTestId(`orders-scope-${DESK}`));
    await screen.findByTestId('open-orders-empty');
    expect(screen.getByTestId('orders-unlinked').textContent).toContain(DESK);
  });

  it("cancels a sub-account's order with its account, and says the refusal on that row", async () => {
    const { app, user } = renderOrders();
    app.answer('orders.cancel', () => {
      throw new AppError(
        'permission',
        `The key linked to ${SAVINGS} may not trade, so the exchange refused to cancel order 2.`,
      );
    });
    await waitFor(() => expect(rowAccounts()).toHaveLength(2));
    await user.click(within(screen.getByTestId('open-order-2')).getByTestId('cancel-order'));
    const refusal = await screen.findByTestId('cancel-error-2');
    expect(refusal.textContent).toContain('may not trade');
    expect(screen.queryByTestId('cancel-error-1')).toBeNull();
    expect(app.inputsOf('orders.cancel')).toEqual([
      { symbol: 'btcusdt', orderId: 2, account: SAVINGS },
    ]);
  });
});
