// @vitest-environment jsdom
/**
 * The alert form: its own check and the bridge's input check each put their message on the field
 * they name, and nothing reaches the app; a good alert is created (or an edit saved) once, the
 * button held while the app answers, and handed on; the app's refusal is said once.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AlertView } from '../../../shared/alerts';
import { AlertForm } from '../../../renderer/src/components/AlertForm';
import {
  AppError,
  appContext,
  gate,
  installFakeApp,
  renderInApp,
  renderInAppTree,
} from '../support/component';

function saved(overrides: Partial<AlertView> = {}): AlertView {
  return {
    id: 3,
    kind: 'price',
    symbol: 'btcusdt',
    direction: 'above',
    threshold: '70000',
    repeat: false,
    cooldownMinutes: 60,
    status: 'active',
    createdAt: 0,
    updatedAt: 0,
    lastFiredAt: null,
    firedCount: 0,
    lastValue: null,
    lastSeenAt: null,
    ...overrides,
  } as AlertView;
}

function renderForm(editing?: AlertView) {
  const done: AlertView[] = [];
  let cancelled = 0;
  renderInApp(
    <AlertForm
      editing={editing}
      onDone={(alert) => done.push(alert)}
      onCancel={() => (cancelled += 1)}
    />,
    appContext().value,
  );
  return { done, cancelled: () => cancelled };
}

async function fill(values: { symbol?: string; threshold?: string }) {
  const user = userEvent.setup();
  for (const [name, value] of Object.entries(values)) {
    await user.clear(screen.getByTestId(`alert-${name}`));
    await user.type(screen.getByTestId(`alert-${name}`), value);
  }
  return user;
}

const PRICE_ALERT = {
  kind: 'price',
  symbol: 'btcusdt',
  direction: 'above',
  threshold: '70000',
  repeat: false,
  cooldownMinutes: 60,
};

function FormWithKnown(props: { threshold: string }) {
  return (
    <AlertForm
      initial={{ kind: 'balance', asset: 'usdt', threshold: props.threshold }}
      onDone={() => undefined}
      onCancel={() => undefined}
    />
  );
}

describe('AlertForm', () => {
  it('fills in what the page learns after it opened, unless something was typed', async () => {
    installFakeApp();
    const context = appContext().value;
    const view = renderInApp(<FormWithKnown threshold="" />, context);
    const field = screen.getByTestId('alert-threshold') as HTMLInputElement;
    expect(field.value).toBe('');
    view.rerender(renderInAppTree(<FormWithKnown threshold="1000.5" />, context));
    expect(field.value).toBe('1000.5');
    const user = userEvent.setup();
    await user.clear(field);
    await user.type(field, '42');
    view.rerender(renderInAppTree(<FormWithKnown threshold="999" />, context));
    expect(field.value).toBe('42');
  });

  it.each([
    [
      'threshold',
      { symbol: 'btcusdt', threshold: '70k' },
      'The price must be a positive decimal like 12.5.',
    ],
    ['symbol', { symbol: 'btc/usdt', threshold: '70000' }, 'Unknown symbol format (e.g. btcusdt)'],
  ])('puts the message on the %s field and sends nothing', async (field, values, message) => {
    const app = installFakeApp();
    app.answer('alerts.create', () => saved());
    const { done } = renderForm();
    const user = await fill(values);
    await user.click(screen.getByTestId('alert-submit'));

    await waitFor(() =>
      expect(screen.getByTestId(`alert-error-${field}`).textContent).toBe(message),
    );
    expect(screen.getByTestId(`alert-${field}`).getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelectorAll('.field-error')).toHaveLength(1);
    expect(screen.queryByTestId('alert-form-error')).toBeNull();
    expect(app.inputsOf('alerts.create')).toEqual([]);
    expect(done).toEqual([]);
  });

  it('creates the alert once, holding the button while the app answers, and hands it on', async () => {
    const app = installFakeApp();
    const answered = gate();
    app.answer('alerts.create', async () => {
      await answered.passed;
      return saved();
    });
    const { done } = renderForm();
    const user = await fill({ symbol: 'btcusdt', threshold: '70000.0' });
    const submit = screen.getByTestId('alert-submit');
    await user.click(submit);
    await waitFor(() => expect(submit).toHaveProperty('disabled', true));
    await user.click(submit);
    answered.open();

    await waitFor(() => expect(done.map((alert) => alert.id)).toEqual([3]));
    expect(app.inputsOf('alerts.create')).toEqual([PRICE_ALERT]);
    expect(submit).toHaveProperty('disabled', false);
    expect(screen.queryByTestId('alert-form-error')).toBeNull();
  });

  it('says the app’s refusal once, then clears it when the form is sent again', async () => {
    const app = installFakeApp();
    let refuse = true;
    app.answer('alerts.create', () => {
      if (refuse) throw new AppError('internal', 'The alerts could not be saved.');
      return saved();
    });
    const { done } = renderForm();
    const user = await fill({ symbol: 'btcusdt', threshold: '70000' });
    await user.click(screen.getByTestId('alert-submit'));

    const errors = await screen.findAllByTestId('alert-form-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.textContent).toBe(
      'The alerts could not be saved.Try again; if it keeps happening, restart Spotfolio.',
    );
    expect(done).toEqual([]);
    expect(screen.getByTestId('alert-submit')).toHaveProperty('disabled', false);

    refuse = false;
    await user.click(screen.getByTestId('alert-submit'));
    await waitFor(() => expect(done).toHaveLength(1));
    expect(screen.queryByTestId('alert-form-error')).toBeNull();
    expect(app.inputsOf('alerts.create')).toHaveLength(2);
  });

  it('saves an edit through alerts.update with the alert’s id; the app’s field error lands on it', async () => {
    const app = installFakeApp();
    app.answer('alerts.update', ({ alert }) => {
      if (alert.kind === 'price' && alert.symbol === 'dogeusdt') {
        throw new AppError('invalid-input', 'No market dogeusdt on this exchange', 'alert.symbol');
      }
      return saved({ threshold: alert.kind === 'price' ? alert.threshold : '0' });
    });
    const { done } = renderForm(saved());
    expect(screen.getByTestId('alert-submit').textContent).toBe('Save alert');
    const user = await fill({ symbol: 'dogeusdt', threshold: '65000' });
    await user.click(screen.getByTestId('alert-submit'));

    expect((await screen.findByTestId('alert-error-symbol')).textContent).toBe(
      'No market dogeusdt on this exchange',
    );
    expect(done).toEqual([]);
    await fill({ symbol: 'btcusdt' });
    await user.click(screen.getByTestId('alert-submit'));
    await waitFor(() =>
      expect(done.map((alert) => alert.kind === 'price' && alert.threshold)).toEqual(['65000']),
    );
    expect(app.inputsOf('alerts.update')).toEqual([
      { id: 3, alert: { ...PRICE_ALERT, symbol: 'dogeusdt', threshold: '65000' } },
      { id: 3, alert: { ...PRICE_ALERT, threshold: '65000' } },
    ]);
  });
});
