// @vitest-environment jsdom
/**
 * The Withdrawals screen's two changes, the CSV export and the history's backfill: each is sent
 * once (its button held while the app answers), the app's failure is said at its own place, and
 * an answer does what it did before (the file is downloaded and a toast says so; the backfill's
 * progress replaces its button).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackfillProgress, WithdrawView } from '../../../shared/types';
import { Withdrawals } from '../../../renderer/src/screens/Withdrawals';
import { AppError, appContext, gate, installFakeApp, renderInApp } from '../support/component';

const ROW: WithdrawView = {
  id: 'w1',
  coin: 'btc',
  amount: '0.5',
  transactionFee: '0.0001',
  status: 'success',
  partnerTransfer: false,
  address: 'bc1qexampleaddress000000000000',
  network: 'btc',
  txId: 'tx-000000000001',
  withdrawOrderId: null,
  failureInfo: null,
  createdAt: Date.UTC(2024, 0, 2),
  lastUpdated: Date.UTC(2024, 0, 2),
};

const IDLE: BackfillProgress = {
  state: 'idle',
  doneWindows: 0,
  totalWindows: 0,
  records: 1,
  coveredFrom: null,
};

function renderScreen() {
  const app = installFakeApp();
  app.answer('withdrawals.coins', () => ['btc', 'eth']);
  app.answer('withdrawals.list', () => ({ rows: [ROW], total: 1, asOf: 0 }));
  app.answer('withdrawals.backfillStatus', () => IDLE);
  const context = appContext();
  renderInApp(<Withdrawals />, context.value);
  return { app, toasts: context.toasts };
}

const downloads: { href: string; download: string }[] = [];

beforeEach(() => {
  downloads.length = 0;
  Object.assign(URL, {
    createObjectURL: vi.fn(() => 'blob:withdrawals'),
    revokeObjectURL: vi.fn(),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    downloads.push({ href: this.href, download: this.download });
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The export's button, once the list has said how many records there are. */
async function exportButton() {
  const button = screen.getByTestId('export-csv');
  await waitFor(() => expect(button).toHaveProperty('disabled', false));
  return button;
}

describe('Withdrawals: the CSV export', () => {
  it('exports once with the filters, holding the button, then downloads the file and says so', async () => {
    const { app, toasts } = renderScreen();
    const answered = gate();
    app.answer('export.csv', async () => {
      await answered.passed;
      return { fileName: 'withdrawals.csv', content: 'id\nw1\n', rows: 1 };
    });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getAllByRole('option', { name: 'BTC' })).toHaveLength(1));
    await user.selectOptions(screen.getByTestId('filter-coin'), 'btc');
    const button = await exportButton();
    await user.dblClick(button);
    await waitFor(() => expect(button).toHaveProperty('disabled', true));
    expect(button.textContent).toBe('Exporting…');
    answered.open();

    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    expect(button.textContent).toBe('Export CSV');
    expect(app.inputsOf('export.csv')).toEqual([
      { kind: 'withdrawals', filter: { coin: 'btc' }, delimiter: ',' },
    ]);
    expect(downloads).toEqual([{ href: 'blob:withdrawals', download: 'withdrawals.csv' }]);
    expect(toasts).toEqual([
      { title: 'Export ready', body: '1 withdrawals saved as withdrawals.csv', tone: 'success' },
    ]);
    expect(screen.queryByTestId('inline-error')).toBeNull();
  });

  it('says the app’s refusal under the filters, not in the backfill card, and clears it on the next try', async () => {
    const { app, toasts } = renderScreen();
    let refuse = true;
    app.answer('export.csv', () => {
      if (refuse) throw new AppError('internal', 'The export could not be written.');
      return { fileName: 'withdrawals.csv', content: 'id\n', rows: 0 };
    });
    const user = userEvent.setup();
    await user.click(await exportButton());

    const errors = await screen.findAllByTestId('inline-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.textContent).toContain('The export could not be written.');
    expect(errors[0]!.closest('[data-testid="backfill"]')).toBeNull();
    expect(downloads).toEqual([]);
    expect(toasts).toEqual([]);

    refuse = false;
    await user.click(await exportButton());
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(screen.queryByTestId('inline-error')).toBeNull();
    expect(app.inputsOf('export.csv')).toHaveLength(2);
  });
});

describe('Withdrawals: the history backfill', () => {
  it('starts once, holding the button, and shows the progress it answers', async () => {
    const { app } = renderScreen();
    const answered = gate();
    app.answer('withdrawals.backfill', async () => {
      await answered.passed;
      const running: BackfillProgress = {
        ...IDLE,
        state: 'running',
        doneWindows: 1,
        totalWindows: 8,
      };
      return running;
    });
    const user = userEvent.setup();
    const start = await screen.findByTestId('backfill-start');
    expect(start.textContent).toBe('Fetch full history');
    await user.dblClick(start);
    await waitFor(() => expect(start).toHaveProperty('disabled', true));
    answered.open();

    expect(await screen.findByTestId('backfill-progress')).toBeTruthy();
    expect(screen.getByTestId('backfill').textContent).toContain(
      'Fetching history: 1 of 8 windows: 1 record kept',
    );
    expect(screen.queryByTestId('backfill-start')).toBeNull();
    expect(app.inputsOf('withdrawals.backfill')).toEqual([{}]);
  });

  it('says the app’s refusal in the backfill card and lets it be asked again', async () => {
    const { app } = renderScreen();
    app.answer('withdrawals.backfill', () => {
      throw new AppError('internal', 'The history could not be fetched.');
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('backfill-start'));

    const card = screen.getByTestId('backfill');
    const error = await within(card).findByTestId('inline-error');
    expect(error.textContent).toContain('The history could not be fetched.');
    expect(screen.getAllByTestId('inline-error')).toHaveLength(1);
    expect(within(card).getByTestId('backfill-start')).toHaveProperty('disabled', false);
    expect(card.textContent).toContain('Fetch the full history once');
    expect(app.inputsOf('withdrawals.backfill')).toHaveLength(1);
  });
});
