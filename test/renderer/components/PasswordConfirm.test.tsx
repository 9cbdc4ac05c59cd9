// @vitest-environment jsdom
/**
 * The password asked for again before a sensitive action: the main process holds the action back
 * (`confirm-password`), the page's dialog asks, lock.confirm checks, and the action is sent once
 * more only after a confirmed password; backing out gives the caller the original refusal and
 * sends nothing more.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConfirmResult, LockStatus } from '../../../shared/lock';
import { PasswordConfirmDialog } from '../../../renderer/src/components/PasswordConfirm';
import { bridge } from '../../../renderer/src/lib/bridge';
import { AppError, appContext, installFakeApp, renderInApp } from '../support/component';

const HELD = 'Enter your password again to remove the profile "Main".';
const STATUS = { enabled: true, locked: false } as LockStatus;

/** profiles.remove held back until lock.confirm accepted `right`. */
function appHoldingRemoval(right: string) {
  const app = installFakeApp();
  let confirmed = false;
  app.answer('profiles.remove', () => {
    if (!confirmed) throw new AppError('confirm-password', HELD);
    return { removed: true as const };
  });
  app.answer('lock.confirm', ({ password }) => {
    confirmed = password === right;
    const result: ConfirmResult = confirmed
      ? { confirmed: true, status: STATUS }
      : { confirmed: false, reason: 'wrong-password', status: STATUS };
    return result;
  });
  renderInApp(<PasswordConfirmDialog />, appContext().value);
  return app;
}

describe('PasswordConfirmDialog', () => {
  it('asks for the password, says when it is wrong, and sends the action again once confirmed', async () => {
    const app = appHoldingRemoval('correct horse');
    const user = userEvent.setup();
    const removal = bridge().profiles.remove({ id: 'p1' });

    expect(await screen.findByTestId('password-confirm-reason')).toHaveProperty(
      'textContent',
      HELD,
    );
    expect(document.activeElement).toBe(screen.getByTestId('password-confirm-input'));
    await user.type(screen.getByTestId('password-confirm-input'), 'wrong one');
    await user.click(screen.getByTestId('password-confirm-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('password-confirm-reason').textContent).toBe(
        'That password is not right. Try again.',
      ),
    );
    expect(app.inputsOf('profiles.remove')).toHaveLength(1);

    await user.type(screen.getByTestId('password-confirm-input'), 'correct horse');
    await user.click(screen.getByTestId('password-confirm-submit'));
    await expect(removal).resolves.toEqual({ removed: true });
    expect(app.inputsOf('lock.confirm')).toEqual([
      { password: 'wrong one' },
      { password: 'correct horse' },
    ]);
    expect(app.inputsOf('profiles.remove')).toEqual([{ id: 'p1' }, { id: 'p1' }]);
    expect(screen.queryByTestId('password-confirm')).toBeNull();
  });

  it('backing out gives the original refusal and sends nothing more', async () => {
    const app = appHoldingRemoval('correct horse');
    const user = userEvent.setup();
    const refusal = bridge()
      .profiles.remove({ id: 'p1' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    await screen.findByTestId('password-confirm');
    await user.click(screen.getByTestId('password-confirm-cancel'));
    expect(await refusal).toMatchObject({ kind: 'confirm-password', message: HELD });
    expect(app.inputsOf('lock.confirm')).toEqual([]);
    expect(app.inputsOf('profiles.remove')).toHaveLength(1);
    expect(screen.queryByTestId('password-confirm')).toBeNull();
  });
});
