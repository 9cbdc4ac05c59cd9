/**
 * The lock's controls: the Settings section (set, change or remove the password, the idle time,
 * lock now) and the top bar's lock button. The main process checks every password; the page only
 * checks that the two new ones match.
 */
import { useState, type FormEvent } from 'react';
import {
  LOCK_IDLE_MINUTES,
  LOCK_SEALED_NOTE,
  MIN_LOCK_PASSWORD_LENGTH,
  REAUTH_AFTER_MS,
  type LockStatus,
} from '../../../shared/lock';
import { bridge } from '../lib/bridge';
import { useLock } from '../lib/lock';
import { useAction, useBridgeAction } from '../lib/query';
import { InlineError } from './common';

function idleLabel(minutes: number): string {
  if (minutes === 0) return 'Never';
  if (minutes === 60) return 'After 1 hour';
  return `After ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function LockButton() {
  const { status, lockNow } = useLock();
  if (!status.enabled) return null;
  return (
    <button
      type="button"
      className="small ghost"
      onClick={() => void lockNow()}
      data-testid="lock-now"
      title="Lock Spotfolio (Ctrl+Shift+L; on the desktop app from anywhere)"
    >
      Lock
    </button>
  );
}

type Mode = 'idle' | 'set' | 'remove';

function PasswordField(props: {
  label: string;
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange: (value: string) => void;
  testId: string;
  minLength?: number;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        type="password"
        autoComplete={props.autoComplete}
        minLength={props.minLength}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
    </label>
  );
}

/** The end of a password form: what went wrong, Cancel, and the form's own button. */
function FormEnd(props: {
  error: unknown;
  busy: boolean;
  onCancel: () => void;
  submit: { label: string; busyLabel: string; className: string; testId: string };
}) {
  const { submit } = props;
  return (
    <>
      {props.error !== undefined && (
        <InlineError error={props.error} testId="lock-settings-error" />
      )}
      <div className="form-actions">
        <button type="button" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
        <button
          type="submit"
          className={submit.className}
          disabled={props.busy}
          data-testid={submit.testId}
        >
          {props.busy ? submit.busyLabel : submit.label}
        </button>
      </div>
    </>
  );
}

export function LockSettings() {
  const { status, update, lockNow } = useLock();
  const [mode, setMode] = useState<Mode>('idle');
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  // What the form's own check refused (nothing sent), else what the app answered.
  const [refused, setRefused] = useState<unknown>();
  const [done, setDone] = useState<string | null>(null);

  const close = (message: string | null) => {
    setMode('idle');
    setCurrent('');
    setPassword('');
    setRepeat('');
    setDone(message);
  };

  const change = useAction(
    (job: { send: () => Promise<LockStatus>; message: string }) => job.send(),
    {
      onSuccess: (changed, { message }) => {
        update(changed);
        close(message);
      },
    },
  );
  // The idle time is a choice of its own, saved even while another is on its way.
  const idle = useBridgeAction('lock.setIdle', {
    concurrent: true,
    onSuccess: (changed) => {
      update(changed);
      close('The idle time was saved.');
    },
  });
  const error = refused ?? change.error ?? idle.error;
  const busy = change.pending;
  const run = (send: () => Promise<LockStatus>, message: string) => {
    setRefused(undefined);
    idle.reset();
    return change.run({ send, message });
  };

  const submitSet = (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) {
      change.reset();
      setRefused({
        kind: 'invalid-input',
        field: 'repeat',
        message: 'The two new passwords differ',
      });
      return;
    }
    void run(
      () => bridge().lock.setPassword(status.enabled ? { current, password } : { password }),
      status.enabled
        ? 'The password was changed.'
        : 'The password is set. Spotfolio now locks at start.',
    );
  };

  const submitRemove = (event: FormEvent) => {
    event.preventDefault();
    void run(() => bridge().lock.removePassword({ current }), 'The password was removed.');
  };

  const currentField = (
    <PasswordField
      label="Current password"
      autoComplete="current-password"
      value={current}
      onChange={setCurrent}
      testId="lock-current"
    />
  );

  return (
    <div className="card" data-testid="lock-settings">
      <h2>App lock</h2>
      <p className="muted small-text">
        {status.enabled
          ? 'Spotfolio asks for the password when it starts, after the idle time below, when you lock it (button, menu, tray, Ctrl+Shift+L) and when the computer locks or sleeps.'
          : 'Keep others out of Spotfolio on a shared or unattended computer. The password is kept only as a scrypt hash; there is no way to recover it.'}
      </p>
      {status.enabled && (
        <p className="muted small-text" data-testid="lock-sealed-note">
          {LOCK_SEALED_NOTE} Transfers, large orders, re-attaching a key, changing a profile’s
          addresses, removing a profile and exporting reports ask for it again when it was last
          given more than {REAUTH_AFTER_MS / 60_000} minutes ago.
        </p>
      )}
      {done && (
        <p className="muted small-text" role="status" data-testid="lock-settings-done">
          {done}
        </p>
      )}
      {mode === 'idle' && (
        <div className="form-actions">
          <button type="button" onClick={() => setMode('set')} data-testid="lock-set-password">
            {status.enabled ? 'Change password' : 'Set a password'}
          </button>
          {status.enabled && (
            <>
              <button
                type="button"
                onClick={() => setMode('remove')}
                data-testid="lock-remove-password"
              >
                Remove password
              </button>
              <button type="button" className="primary" onClick={() => void lockNow()}>
                Lock now
              </button>
            </>
          )}
        </div>
      )}
      {mode === 'set' && (
        <form onSubmit={submitSet} data-testid="lock-password-form">
          {status.enabled && currentField}
          <PasswordField
            label={`New password (at least ${MIN_LOCK_PASSWORD_LENGTH} characters)`}
            autoComplete="new-password"
            minLength={MIN_LOCK_PASSWORD_LENGTH}
            value={password}
            onChange={setPassword}
            testId="lock-new"
          />
          <PasswordField
            label="New password again"
            autoComplete="new-password"
            value={repeat}
            onChange={setRepeat}
            testId="lock-repeat"
          />
          <FormEnd
            error={error}
            busy={busy}
            onCancel={() => close(null)}
            submit={{
              label: 'Save password',
              busyLabel: 'Saving…',
              className: 'primary',
              testId: 'lock-save',
            }}
          />
        </form>
      )}
      {mode === 'remove' && (
        <form onSubmit={submitRemove}>
          {currentField}
          <FormEnd
            error={error}
            busy={busy}
            onCancel={() => close(null)}
            submit={{
              label: 'Remove password',
              busyLabel: 'Removing…',
              className: 'danger',
              testId: 'lock-remove-confirm',
            }}
          />
        </form>
      )}
      <label className="field">
        <span>Lock when idle</span>
        <select
          value={status.idleMinutes}
          disabled={!status.enabled}
          onChange={(e) => {
            setRefused(undefined);
            change.reset();
            void idle.run({ idleMinutes: Number(e.target.value) });
          }}
          data-testid="lock-idle"
        >
          {LOCK_IDLE_MINUTES.map((minutes) => (
            <option key={minutes} value={minutes}>
              {idleLabel(minutes)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
