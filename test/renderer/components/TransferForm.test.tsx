// @vitest-environment jsdom
/**
 * The transfer form of the Sub-accounts screen: its checks name the field and send nothing; a
 * confirmed transfer is sent once (the button held while it is on its way), a completed one
 * empties the amount and shows its legs, and a failure closes the confirmation and is said once.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FundsView, SubAccountsView, TransferOutcome } from '../../../shared/types';
import { SubAccounts } from '../../../renderer/src/screens/SubAccounts';
import { AppError, appContext, gate, installFakeApp, renderInApp } from '../support/component';

const SUB = 'trading@example.test';
const MAIN = 'owner@example.test';

const VIEW: SubAccountsView = {
  quoteAsset: 'usdt',
  parentEmail: MAIN,
  accounts: [
    {
      email: SUB,
      status: 'enabled',
      value: '0',
      unpriced: [],
      link: null,
      createdAt: 0,
      balances: [],
    },
  ],
  asOf: 0,
};

const FUNDS: FundsView = {
  quoteAsset: 'usdt',
  rows: [
    {
      asset: 'usdt',
      free: '250.125',
      locked: '0',
      reservedFee: null,
      total: '250.125',
      price: '1',
      value: '250.125',
    },
  ],
  asOf: 0,
  stale: false,
};

const TRANSFER = { asset: 'usdt', amount: '100.5', fromEmail: MAIN, toEmail: SUB };

function renderScreen() {
  const app = installFakeApp();
  app.answer('subAccounts.list', () => VIEW);
  app.answer('funds.list', () => FUNDS);
  app.answer('subAccounts.history', () => ({ rows: [], total: 0, asOf: 0 }));
  renderInApp(<SubAccounts />, appContext({ precisionOf: () => 2 }).value);
  return app;
}

const amount = () => screen.getByTestId('transfer-amount') as HTMLInputElement;

async function review(value: string) {
  const user = userEvent.setup();
  // The main account's assets come from its funds: USDT is picked once they are in.
  await waitFor(() => expect(screen.getByTestId('transfer-asset').textContent).toContain('USDT'));
  await user.clear(amount());
  if (value) await user.type(amount(), value);
  await user.click(screen.getByTestId('transfer-review'));
  return user;
}

describe('TransferForm', () => {
  it.each([
    ['', 'Enter amount'],
    ['1e3', 'Amount: digits and one dot only, like 12.5'],
    ['0', 'Amount must be greater than zero'],
    ['250.126', 'Amount is more than the free balance (250.125 USDT)'],
  ])(
    'refuses the amount "%s" with a message on the field and sends nothing',
    async (typed, message) => {
      const app = renderScreen();
      await screen.findByTestId('transfer-form');
      await review(typed);

      expect(screen.getByTestId('transfer-amount-error').textContent).toBe(message);
      expect(amount().getAttribute('aria-invalid')).toBe('true');
      expect(screen.queryByTestId('transfer-confirm')).toBeNull();
      expect(app.inputsOf('subAccounts.transfer')).toEqual([]);
    },
  );

  it('sends a confirmed transfer once, then empties the amount and shows its legs', async () => {
    const app = renderScreen();
    const sent = gate();
    const outcome: TransferOutcome = {
      state: 'completed',
      legs: [{ fromEmail: MAIN, toEmail: SUB, status: 'success', txnId: 41 }],
      asset: 'usdt',
      amount: '100.5',
      fundsAt: SUB,
    };
    app.answer('subAccounts.transfer', async () => {
      await sent.passed;
      return outcome;
    });
    await screen.findByTestId('transfer-form');
    const user = await review('100.5');

    expect(screen.getByTestId('transfer-confirm').textContent).toContain('100.5 USDT');
    const send = screen.getByTestId('transfer-confirm-send');
    await user.click(send);
    await waitFor(() => expect(send).toHaveProperty('disabled', true));
    expect(send.textContent).toBe('Sending…');
    expect(screen.getByTestId('transfer-review')).toHaveProperty('disabled', true);
    await user.click(send);
    sent.open();

    await waitFor(() => expect(screen.queryByTestId('transfer-confirm')).toBeNull());
    const shown = screen.getByTestId('transfer-outcome');
    expect(shown.dataset.state).toBe('completed');
    expect(shown.textContent).toContain('Transfer completed');
    expect(shown.textContent).toContain(`Main → ${SUB}: success #41`);
    expect(amount().value).toBe('');
    expect(screen.queryByTestId('transfer-amount-error')).toBeNull();
    expect(app.inputsOf('subAccounts.transfer')).toEqual([TRANSFER]);
    expect(screen.queryByTestId('transfer-error')).toBeNull();
  });

  it('closes the confirmation on a failure and says it once, keeping the amount', async () => {
    const app = renderScreen();
    app.answer('subAccounts.transfer', () => {
      throw new AppError('permission', 'The API key does not have the permission for this.');
    });
    await screen.findByTestId('transfer-form');
    const user = await review('100.5');
    await user.click(screen.getByTestId('transfer-confirm-send'));

    const errors = await screen.findAllByTestId('transfer-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.textContent).toBe(
      'The API key does not have the permission for this. Enable the permission for this key on the exchange, or use another key.',
    );
    expect(screen.queryByTestId('transfer-confirm')).toBeNull();
    expect(amount().value).toBe('100.5');
    expect(screen.getByTestId('transfer-review')).toHaveProperty('disabled', false);
    expect(app.inputsOf('subAccounts.transfer')).toEqual([TRANSFER]);
  });
});
