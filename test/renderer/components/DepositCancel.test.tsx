// @vitest-environment jsdom
/**
 * The Deposit screen's one change, canceling an address request queued for the exchange's
 * one-a-minute slot: it is sent once (its button held while the app answers), the app's failure
 * takes the queued request's place with a way to ask again, and an answer does what it did
 * before (said canceled only when the app took the request out of the queue).
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CoinView, DepositAddressView } from '../../../shared/types';
import { Deposit } from '../../../renderer/src/screens/Deposit';
import { AppError, appContext, gate, installFakeApp, renderInApp } from '../support/component';

const COIN: CoinView = {
  coin: 'btc',
  name: 'Bitcoin',
  networks: [
    {
      network: 'btc',
      name: 'Bitcoin',
      isDefault: true,
      depositEnable: true,
      withdrawEnable: true,
      memoRequired: false,
      confirmations: 2,
      withdrawFee: '0.0001',
      withdrawMin: '0.001',
      withdrawMax: '10',
    },
  ],
};

const ADDRESS: DepositAddressView = {
  coin: 'btc',
  network: 'btc',
  address: 'bc1qdepositaddress0000000000',
  tag: '',
  url: '',
  memoRequired: false,
  fetchedAt: 0,
  fromCache: false,
};

const REQUEST = { coin: 'btc', network: 'btc' };

/** The screen with BTC picked, its address request queued (the first answer is held forever). */
async function renderQueued() {
  const app = installFakeApp();
  app.answer('deposits.coins', () => ({ coins: [COIN], asOf: 0 }));
  app.answer('deposits.address', () => new Promise<DepositAddressView>(() => undefined));
  app.answer('deposits.pending', () => [
    { ...REQUEST, state: 'queued' as const, startsAt: Date.now() + 40_000 },
  ]);
  renderInApp(<Deposit />, appContext().value);
  const user = userEvent.setup();
  await waitFor(() => expect(screen.getAllByRole('option', { name: /Bitcoin/ })).toHaveLength(1));
  await user.selectOptions(screen.getByTestId('deposit-coin'), 'btc');
  await screen.findByTestId('deposit-queued');
  return { app, user };
}

describe('Deposit: canceling a queued address request', () => {
  it('cancels once, holding the button while the app answers, then says it was canceled', async () => {
    const { app, user } = await renderQueued();
    const answered = gate();
    app.answer('deposits.cancel', async () => {
      await answered.passed;
      return { canceled: true };
    });
    const cancel = screen.getByTestId('deposit-cancel');
    await user.dblClick(cancel);
    await waitFor(() => expect(cancel).toHaveProperty('disabled', true));
    expect(cancel.textContent).toBe('Canceling…');
    answered.open();

    expect(await screen.findByTestId('deposit-canceled')).toBeTruthy();
    expect(screen.queryByTestId('error')).toBeNull();
    expect(app.inputsOf('deposits.cancel')).toEqual([REQUEST]);

    // Asking again sends the address request once more.
    app.answer('deposits.address', () => ADDRESS);
    await user.click(screen.getByTestId('deposit-ask-again'));
    expect((await screen.findByTestId('deposit-address')).textContent).toBe(ADDRESS.address);
    expect(app.inputsOf('deposits.address')).toEqual([REQUEST, REQUEST]);
  });

  it('stays queued when the request had already gone out', async () => {
    const { app, user } = await renderQueued();
    app.answer('deposits.cancel', () => ({ canceled: false }));
    const cancel = screen.getByTestId('deposit-cancel');
    await user.click(cancel);

    await waitFor(() => expect(app.inputsOf('deposits.cancel')).toHaveLength(1));
    await waitFor(() => expect(cancel).toHaveProperty('disabled', false));
    expect(cancel.textContent).toBe('Cancel the request');
    expect(screen.getByTestId('deposit-queued')).toBeTruthy();
    expect(screen.queryByTestId('deposit-canceled')).toBeNull();
    expect(screen.queryByTestId('error')).toBeNull();
  });

  it('says the app’s failure in the request’s place, and asks for the address again on a retry', async () => {
    const { app, user } = await renderQueued();
    app.answer('deposits.cancel', () => {
      throw new AppError('internal', 'The request could not be canceled.');
    });
    await user.click(screen.getByTestId('deposit-cancel'));

    const error = await screen.findByTestId('error');
    expect(error.textContent).toContain('The request could not be canceled.');
    expect(screen.getAllByTestId('error')).toHaveLength(1);
    expect(screen.queryByTestId('deposit-queued')).toBeNull();
    expect(screen.queryByTestId('deposit-canceled')).toBeNull();

    app.answer('deposits.address', () => ADDRESS);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('deposit-address')).textContent).toBe(ADDRESS.address);
    expect(screen.queryByTestId('error')).toBeNull();
    expect(app.inputsOf('deposits.address')).toEqual([REQUEST, REQUEST]);
    expect(app.inputsOf('deposits.cancel')).toEqual([REQUEST]);
  });
});
