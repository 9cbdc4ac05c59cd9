/**
 * The active profile's price and balance alerts: what each watches, whether it is waiting,
 * paused or has fired (a one-shot alert rests after firing until resumed), the value last seen
 * and when it last fired; create, edit, pause or resume, delete. The main process evaluates them
 * whether or not this page (or any window) is open.
 */
import { useState } from 'react';
import type { AlertView } from '../../../shared/alerts';
import { formatDateTime, formatStated, formatValue, maskNumbers } from '../../../shared/format';
import { AlertForm } from '../components/AlertForm';
import { actions, figures, TableHead } from '../components/TableHead';
import {
  ConfirmActions,
  EmptyState,
  ErrorBox,
  Modal,
  PageHeader,
  QueryStatus,
} from '../components/common';
import { useApp } from '../context';
import { useBridgeAction, useBridgeQuery } from '../lib/query';

const STATUS_LABELS: Record<AlertView['status'], string> = {
  active: 'Waiting',
  paused: 'Paused',
  fired: 'Fired (resume to arm again)',
};

/** The alert in a few words: "BTCUSDT above 62,000". */
export function describeAlert(alert: AlertView): string {
  switch (alert.kind) {
    case 'price':
      return `${alert.symbol.toUpperCase()} ${alert.direction} ${formatStated(alert.threshold)}`;
    case 'price-move': {
      const way =
        alert.direction === 'either' ? 'moves' : alert.direction === 'up' ? 'rises' : 'falls';
      return `${alert.symbol.toUpperCase()} ${way} ${alert.threshold} % within ${alert.window}`;
    }
    case 'balance':
      return `Free ${alert.asset.toUpperCase()} ${alert.direction} ${formatStated(alert.threshold)}`;
    case 'portfolio':
      return `Portfolio value ${alert.direction} ${formatStated(alert.threshold)} ${alert.asset.toUpperCase()}`;
    case 'withdrawal':
      return alert.asset
        ? `A ${alert.asset.toUpperCase()} withdrawal changes status`
        : 'A withdrawal changes status';
  }
}

/** What the alert last saw, in its own unit. */
function lastSeen(alert: AlertView): string {
  if (alert.lastValue === null) return '—';
  if (alert.kind === 'price-move')
    return `${alert.lastValue.startsWith('-') ? '' : '+'}${alert.lastValue} %`;
  // A portfolio's worth is computed; a price or a balance is the exchange's own figure.
  if (alert.kind === 'portfolio') return formatValue(alert.lastValue, alert.asset);
  return formatStated(alert.lastValue);
}

export function Alerts() {
  const { settings, toast } = useApp();
  const alerts = useBridgeQuery('alerts.list');
  const [editing, setEditing] = useState<AlertView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AlertView | null>(null);
  const privacy = (text: string) => maskNumbers(text, settings.privacyMode);
  const pause = useBridgeAction('alerts.setPaused', { onSuccess: () => alerts.reload() });
  const remove = useBridgeAction('alerts.remove', { onSuccess: () => alerts.reload() });
  // One line says what failed last: starting the one clears the other's.
  const error = pause.error ?? remove.error;

  return (
    <section className="page" data-testid="screen-alerts">
      <PageHeader title="Alerts">
        <button
          type="button"
          className="primary"
          onClick={() => setEditing('new')}
          data-testid="new-alert"
        >
          New alert
        </button>
      </PageHeader>
      <p className="muted small-text">
        Alerts are checked by Spotfolio itself as prices and balances stream in, also while its
        window is closed; a crossing missed while the connection was down is found when it returns.
      </p>
      {error !== undefined && <ErrorBox error={error} testId="alerts-error" />}
      <QueryStatus query={alerts} rows={4} />
      {alerts.data && alerts.data.length === 0 && (
        <EmptyState title="No alerts yet" testId="alerts-empty">
          Create one here, or from a market or an asset page with its current figure filled in.
        </EmptyState>
      )}
      {alerts.data && alerts.data.length > 0 && (
        <div className="card">
          <table className="table" data-testid="alerts-table">
            <TableHead
              columns={['Alert', 'Status', 'Fires', figures('Last seen'), 'Last fired', actions]}
            />
            <tbody>
              {alerts.data.map((alert) => (
                <tr
                  key={alert.id}
                  data-testid="alert-row"
                  data-alert-id={alert.id}
                  data-status={alert.status}
                >
                  <td data-testid="alert-description">{privacy(describeAlert(alert))}</td>
                  <td>
                    <span className={`badge ${alert.status}`} data-testid="alert-status">
                      {STATUS_LABELS[alert.status]}
                    </span>
                  </td>
                  <td>{alert.repeat ? `Repeating, ${alert.cooldownMinutes} min apart` : 'Once'}</td>
                  <td className="num" data-testid="alert-last-value">
                    {privacy(lastSeen(alert))}
                  </td>
                  <td data-testid="alert-last-fired">
                    {alert.lastFiredAt === null ? 'Never' : formatDateTime(alert.lastFiredAt)}
                    {alert.firedCount > 1 ? ` (${alert.firedCount} times)` : ''}
                  </td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="small"
                      disabled={pause.pending}
                      onClick={() => {
                        remove.reset();
                        void pause.run({ id: alert.id, paused: alert.status === 'active' });
                      }}
                      data-testid="alert-pause"
                    >
                      {alert.status === 'active' ? 'Pause' : 'Resume'}
                    </button>
                    <button
                      type="button"
                      className="small"
                      onClick={() => setEditing(alert)}
                      data-testid="alert-edit"
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="small danger"
                      onClick={() => setDeleting(alert)}
                      data-testid="alert-delete"
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing !== null && (
        <Modal
          title={editing === 'new' ? 'New alert' : 'Edit alert'}
          onClose={() => setEditing(null)}
          testId="alert-dialog"
        >
          <AlertForm
            {...(editing === 'new' ? {} : { editing })}
            onDone={() => {
              setEditing(null);
              toast({
                title: editing === 'new' ? 'Alert created' : 'Alert saved',
                tone: 'success',
              });
              alerts.reload();
            }}
            onCancel={() => setEditing(null)}
          />
        </Modal>
      )}
      {deleting !== null && (
        <Modal
          title="Delete this alert?"
          onClose={() => setDeleting(null)}
          testId="alert-delete-dialog"
        >
          <p>{privacy(describeAlert(deleting))}</p>
          <ConfirmActions
            confirmLabel="Delete"
            busyLabel="Deleting…"
            busy={false}
            danger
            focusBack
            testId="alert-delete-confirm"
            onBack={() => setDeleting(null)}
            onConfirm={() => {
              const id = deleting.id;
              setDeleting(null);
              pause.reset();
              void remove.run({ id });
            }}
          />
        </Modal>
      )}
    </section>
  );
}
