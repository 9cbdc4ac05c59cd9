// @vitest-environment jsdom
/**
 * The lock screen's two changes, unlocking and the reset for a forgotten password: each is sent
 * once (its button held while the app answers), the app's failure is said where the form is, and
 * an answer does what it did before (a wrong password is said and the field emptied; an unlock
 * or a reset opens the app).
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LockStatus, UnlockResult } from '../../../shared/lock';
import { LockGate } from '../../../renderer/src/screens/Lock';
import { AppError, appContext, gate, installFakeApp, renderInApp } from '../support/component';

const LOCKED: LockStatus = {
  enabled: true,
  locked: true,
  idleMinutes: 5,
  failedAttempts: 0,
  retryAt: null,
};
const UNLOCKED: LockStatus = { ...LOCKED, locked: false };

function renderLocked() {
  const app = installFakeApp();
  app.answer('lock.status', () => LOCKED);
  renderInApp(
    <LockGate>
      <p data-testid="the-app">The app</p>
    </LockGate>,
    appContext().value,
  );
  return app;
}

const password = () => screen.getByTestId('lock-password') as HTMLInputElement;

describe('LockScreen', () => {
  it('unlocks once, holding the button while the password is checked, and opens the app', async () => {
    const app = renderLocked();
    const answered = gate();
    app.answer('lock.unlock', async () => {
      await answered.passed;
      return { unlocked: true, status: UNLOCKED };
    });
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('lock-password'), 'correct horse');
    const submit = screen.getByTestId('lock-submit');
    await user.dblClick(submit);
    await waitFor(() => expect(submit).toHaveProperty('disabled', true));
    expect(submit.textContent).toBe('Checking…');
    await user.type(password(), '{Enter}');
    answered.open();

    expect(await screen.findByTestId('the-app')).toBeTruthy();
    expect(screen.queryByTestId('lock-screen')).toBeNull();
    expect(app.inputsOf('lock.unlock')).toEqual([{ password: 'correct horse' }]);
  });

  it('says a wrong password, empties the field and puts the cursor back in it', async () => {
    const app = renderLocked();
    app.answer('lock.unlock', (): UnlockResult => ({
      unlocked: false,
      reason: 'wrong-password',
      status: { ...LOCKED, failedAttempts: 1 },
    }));
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('lock-password'), 'wrong');
    await user.click(screen.getByTestId('lock-submit'));

    expect((await screen.findByTestId('lock-message')).textContent).toBe(
      'That password is not right.',
    );
    expect(screen.getByTestId('lock-attempts').textContent).toBe('1 wrong password.');
    expect(password().value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(password()));
    expect(screen.queryByTestId('lock-error')).toBeNull();
    expect(screen.queryByTestId('the-app')).toBeNull();
  });

  it('says the app’s failure under the password once, and not in the reset’s view', async () => {
    const app = renderLocked();
    app.answer('lock.unlock', () => {
      throw new AppError('internal', 'The password could not be checked.');
    });
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('lock-password'), 'correct horse');
    await user.click(screen.getByTestId('lock-submit'));

    const errors = await screen.findAllByTestId('lock-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.className).toBe('inline-error');
    expect(errors[0]!.textContent).toContain('The password could not be checked.');
    expect(screen.queryByTestId('lock-message')).toBeNull();
    // The field keeps what was typed, to try again.
    expect(password().value).toBe('correct horse');
    expect(screen.getByTestId('lock-submit')).toHaveProperty('disabled', false);
    await waitFor(() => expect(document.activeElement).toBe(password()));

    await user.click(screen.getByTestId('lock-forgot'));
    expect(screen.getByTestId('lock-reset')).toBeTruthy();
    expect(screen.queryByTestId('lock-error')).toBeNull();
  });

  it('resets once, holding the button while the app removes, and says its failure in the reset’s view', async () => {
    const app = renderLocked();
    let answered = gate();
    let refuse = true;
    app.answer('lock.reset', async () => {
      await answered.passed;
      if (refuse) throw new AppError('internal', 'The backup of the record failed.');
      return { ...UNLOCKED, enabled: false };
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('lock-forgot'));
    const confirm = screen.getByTestId('lock-reset-confirm');
    await user.dblClick(confirm);
    await waitFor(() => expect(confirm).toHaveProperty('disabled', true));
    expect(confirm.textContent).toBe('Removing…');
    expect(screen.getByTestId('lock-reset-back')).toHaveProperty('disabled', true);
    answered.open();

    const errors = await screen.findAllByTestId('lock-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.className).toBe('error-box');
    expect(errors[0]!.textContent).toContain('The backup of the record failed.');
    expect(confirm).toHaveProperty('disabled', false);
    expect(app.inputsOf('lock.reset')).toEqual([{ confirm: true }]);
    // The unlock form does not show the reset's failure.
    await user.click(screen.getByTestId('lock-reset-back'));
    expect(screen.queryByTestId('lock-error')).toBeNull();

    refuse = false;
    answered = gate();
    answered.open();
    await user.click(screen.getByTestId('lock-forgot'));
    await user.click(screen.getByTestId('lock-reset-confirm'));
    expect(await screen.findByTestId('the-app')).toBeTruthy();
    expect(app.inputsOf('lock.reset')).toHaveLength(2);
  });
});
