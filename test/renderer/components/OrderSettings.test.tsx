// @vitest-environment jsdom
/**
 * Settings' order safeguards: the price distance that makes the review warn, and the order value
 * above which placing asks for the lock password again. Each is saved when the field is left, as
 * text, exactly as typed; raising the value is itself held back for the password by the main
 * process, and goes through once the password dialog has confirmed it.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConfirmResult, LockStatus } from '../../../shared/lock';
import type { Settings } from '../../../shared/types';
import { OrderSettings } from '../../../renderer/src/components/OrderSettings';
import { PasswordConfirmDialog } from '../../../renderer/src/components/PasswordConfirm';
import { bridge } from '../../../renderer/src/lib/bridge';
import { AppError, SETTINGS, appContext, installFakeApp, renderInApp } from '../support/component';

const STATUS = { enabled: true, locked: false } as LockStatus;
const HELD = 'Enter your password again to raise the order value that asks for the password.';

describe('OrderSettings', () => {
  it('shows both values in the quote asset and saves what was typed when the field is left', async () => {
    const saved: Partial<Settings>[] = [];
    const user = userEvent.setup();
    renderInApp(
      <OrderSettings settings={SETTINGS} save={async (patch) => void saved.push(patch)} />,
      appContext().value,
    );
    const above = screen.getByTestId('confirm-orders-above');
    expect((above as HTMLInputElement).value).toBe('1000');
    expect(screen.getByText(/worth more than \(USDT\)/)).toBeTruthy();
    await user.clear(above);
    await user.type(above, '250.5');
    expect(saved).toEqual([]);
    await user.tab();
    await user.clear(screen.getByTestId('price-warning-percent'));
    await user.type(screen.getByTestId('price-warning-percent'), '7.5');
    await user.tab();
    expect(saved).toEqual([{ confirmOrdersAbove: '250.5' }, { priceWarningPercent: '7.5' }]);
  });

  it('leaves an unchanged field without saving', async () => {
    const saved: Partial<Settings>[] = [];
    const user = userEvent.setup();
    renderInApp(
      <OrderSettings settings={SETTINGS} save={async (patch) => void saved.push(patch)} />,
      appContext().value,
    );
    await user.click(screen.getByTestId('confirm-orders-above'));
    await user.tab();
    expect(saved).toEqual([]);
  });

  it('raising the value asks for the password and saves once it is confirmed', async () => {
    const app = installFakeApp();
    let confirmed = false;
    app.answer('settings.update', ({ confirmOrdersAbove }) => {
      if (!confirmed) throw new AppError('confirm-password', HELD);
      return { ...SETTINGS, confirmOrdersAbove: confirmOrdersAbove ?? SETTINGS.confirmOrdersAbove };
    });
    app.answer('lock.confirm', ({ password }) => {
      confirmed = password === 'correct horse';
      const result: ConfirmResult = { confirmed: true, status: STATUS };
      return result;
    });
    const user = userEvent.setup();
    const saves: Promise<unknown>[] = [];
    renderInApp(
      <>
        <OrderSettings
          settings={SETTINGS}
          save={async (patch) => {
            const save = bridge().settings.update(patch);
            saves.push(save);
            await save;
          }}
        />
        <PasswordConfirmDialog />
      </>,
      appContext().value,
    );
    const above = screen.getByTestId('confirm-orders-above');
    await user.clear(above);
    await user.type(above, '5000');
    await user.tab();
    expect((await screen.findByTestId('password-confirm-reason')).textContent).toBe(HELD);
    await user.type(screen.getByTestId('password-confirm-input'), 'correct horse');
    await user.click(screen.getByTestId('password-confirm-submit'));
    await waitFor(() => expect(saves).toHaveLength(1));
    await expect(saves[0]).resolves.toMatchObject({ confirmOrdersAbove: '5000' });
    expect(app.inputsOf('settings.update')).toEqual([
      { confirmOrdersAbove: '5000' },
      { confirmOrdersAbove: '5000' },
    ]);
  });
});
