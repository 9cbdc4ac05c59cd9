// @vitest-environment jsdom
/**
 * The order form: its own checks name the field and send nothing; a good order is reviewed
 * (orders.test) and placed (orders.place) once, each button held while its call is on its way; a
 * refusal or a failure is said once, and a placed order empties the quantity for the next one.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FundsView, OrderReview, OrderView, SymbolView } from '../../../shared/types';
import { PlaceOrderForm } from '../../../renderer/src/components/PlaceOrderForm';
import { AppError, appContext, gate, installFakeApp, renderInApp } from '../support/component';

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

const FUNDS: FundsView = {
  quoteAsset: 'usdt',
  rows: [
    {
      asset: 'usdt',
      free: '1500.25',
      locked: '0',
      reservedFee: null,
      total: '1500.25',
      price: '1',
      value: '1500.25',
    },
  ],
  asOf: 0,
  stale: false,
};

const PASSED: OrderReview = {
  ok: true,
  checks: [{ check: 'balance', status: 'passed', text: 'Spends 30.00 of 1,500.25 USDT free' }],
};

const ORDER = { symbol: 'btcusdt', side: 'buy', type: 'limit', quantity: '0.001', price: '30000' };

function placed(): OrderView {
  return {
    account: 'main',
    id: 7,
    clientOrderId: 'c7',
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    status: 'wait',
    price: '30000',
    stopPrice: null,
    origQty: '0.001',
    executedQty: '0',
    createdTime: 0,
    updatedTime: 0,
  };
}

function renderForm() {
  const app = installFakeApp();
  app.answer('funds.list', () => FUNDS);
  app.answer('market.tickers', () => []);
  renderInApp(<PlaceOrderForm symbol="btcusdt" />, appContext({ symbols: [BTCUSDT] }).value);
  return app;
}

async function typeOrder(values: { price?: string; quantity?: string }) {
  const user = userEvent.setup();
  if (values.price !== undefined) await user.type(screen.getByTestId('order-price'), values.price);
  if (values.quantity !== undefined)
    await user.type(screen.getByTestId('order-quantity'), values.quantity);
  return user;
}

const quantity = () => screen.getByTestId('order-quantity') as HTMLInputElement;

describe('PlaceOrderForm', () => {
  it.each([
    [{ price: '30000' }, 'order-quantity-error', 'Enter quantity'],
    [
      { price: '30000', quantity: '0.0000001' },
      'order-quantity-error',
      'Quantity allows at most 5 digits after the dot',
    ],
    [
      { price: '3,0', quantity: '0.001' },
      'order-price-error',
      'Price: digits and one dot only, like 12.5',
    ],
    [{ quantity: '0.001', price: '0' }, 'order-price-error', 'Price must be greater than zero'],
  ])(
    'refuses %o with a message on the field and sends nothing',
    async (values, testId, message) => {
      const app = renderForm();
      const user = await typeOrder(values);
      await user.click(screen.getByTestId('order-review'));

      expect(screen.getByTestId(testId).textContent).toBe(message);
      expect(document.querySelectorAll('.field-error')).toHaveLength(1);
      expect(app.inputsOf('orders.test')).toEqual([]);
      expect(app.inputsOf('orders.place')).toEqual([]);
    },
  );

  it('reviews, then places the order once, holding each button while its call is on its way', async () => {
    const app = renderForm();
    const checking = gate();
    const placing = gate();
    app.answer('orders.test', async () => {
      await checking.passed;
      return PASSED;
    });
    app.answer('orders.place', async () => {
      await placing.passed;
      return placed();
    });
    const user = await typeOrder({ price: '30000', quantity: '0.001' });
    const review = screen.getByTestId('order-review');
    await user.click(review);
    await waitFor(() => expect(review).toHaveProperty('disabled', true));
    expect(review.textContent).toBe('Checking the order…');
    await user.click(review);
    await user.keyboard('{Enter}');
    checking.open();

    const place = await screen.findByTestId('order-confirm-place');
    expect(screen.getByTestId('order-checks').textContent).toContain('Spends 30.00 of 1,500.25');
    await user.click(place);
    await waitFor(() => expect(place).toHaveProperty('disabled', true));
    expect(place.textContent).toBe('Placing…');
    await user.click(place);
    placing.open();

    await waitFor(() => expect(screen.queryByTestId('order-confirm')).toBeNull());
    expect(quantity().value).toBe('');
    expect((screen.getByTestId('order-price') as HTMLInputElement).value).toBe('30000');
    expect(app.inputsOf('orders.test')).toEqual([ORDER]);
    expect(app.inputsOf('orders.place')).toEqual([ORDER]);
    expect(screen.queryByTestId('order-place-error')).toBeNull();
  });

  it('shows the checks of a refused review and places nothing', async () => {
    const app = renderForm();
    const refused: OrderReview = {
      ok: false,
      checks: [
        { check: 'balance', status: 'failed', text: 'Needs 3,000.00 USDT, 1,500.25 free' },
        { check: 'exchange', status: 'skipped', text: 'Not asked' },
      ],
    };
    app.answer('orders.test', () => refused);
    const user = await typeOrder({ price: '30000', quantity: '0.1' });
    await user.click(screen.getByTestId('order-review'));

    const refusal = await screen.findByTestId('order-test-error');
    expect(refusal.textContent).toContain('This order would be refused. What was checked:');
    expect(refusal.textContent).toContain('Needs 3,000.00 USDT, 1,500.25 free');
    expect(screen.queryByTestId('order-confirm')).toBeNull();
    expect(app.inputsOf('orders.place')).toEqual([]);
    // The verdict belongs to the order it judged: changing the order clears it.
    await user.type(quantity(), '5');
    await waitFor(() => expect(screen.queryByTestId('order-test-error')).toBeNull());
  });

  it('says once why the review failed, in the bridge’s words', async () => {
    const app = renderForm();
    app.answer('orders.test', () => {
      throw new AppError('network', 'The exchange did not answer in time.');
    });
    const user = await typeOrder({ price: '30000', quantity: '0.001' });
    await user.click(screen.getByTestId('order-review'));

    const errors = await screen.findAllByTestId('order-test-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.textContent).toContain(
      'This order would be refused: The exchange did not answer in time.',
    );
    expect(screen.getByTestId('order-review')).toHaveProperty('disabled', false);
    expect(app.inputsOf('orders.place')).toEqual([]);
  });

  it('closes the confirmation and says once why placing failed, keeping the order as typed', async () => {
    const app = renderForm();
    app.answer('orders.test', () => PASSED);
    app.answer('orders.place', () => {
      throw new AppError(
        'insufficient-balance',
        'Not enough free balance: Account has insufficient balance',
      );
    });
    const user = await typeOrder({ price: '30000', quantity: '0.001' });
    await user.click(screen.getByTestId('order-review'));
    await user.click(await screen.findByTestId('order-confirm-place'));

    const errors = await screen.findAllByTestId('order-place-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.textContent).toBe(
      'Not enough free balance: Account has insufficient balance. Lower the amount, or cancel open orders to free funds.',
    );
    expect(screen.queryByTestId('order-confirm')).toBeNull();
    expect(quantity().value).toBe('0.001');
    expect(app.inputsOf('orders.place')).toEqual([ORDER]);
    // A new review starts afresh: the failure is gone.
    await user.click(screen.getByTestId('order-review'));
    await screen.findByTestId('order-confirm');
    expect(screen.queryByTestId('order-place-error')).toBeNull();
  });
});
