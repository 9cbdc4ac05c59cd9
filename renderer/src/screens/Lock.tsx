/**
 * The lock screen and the gate around the app. While the main process says the app is locked,
 * nothing of the app is mounted (its calls would be refused anyway) and the page's query cache is
 * emptied, so no balance, address or order stays in the page's memory behind the lock. While
 * unlocked, the gate tells the main process the user is active (it owns the idle timer).
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  LOCK_ACTIVITY_REPORT_MS,
  LOCK_RESET_EXPLANATION,
  lockWaitText,
  type LockStatus,
} from '../../../shared/lock';
import iconUrl from '../../../resources/icon.png';
import { ConfirmActions, ErrorBox, InlineError, Skeleton } from '../components/common';
import { bridge } from '../lib/bridge';
import { useBridgeEvent, useNow } from '../lib/hooks';
import { LockContext, type LockContextValue } from '../lib/lock';
import { queryClient, useBridgeAction } from '../lib/query';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

/** Reports the user's activity to the main process, at most once per LOCK_ACTIVITY_REPORT_MS. */
function useActivityReports(active: boolean): void {
  const lastReport = useRef(0);
  useEffect(() => {
    if (!active) return undefined;
    const report = () => {
      const now = Date.now();
      if (now - lastReport.current < LOCK_ACTIVITY_REPORT_MS) return;
      lastReport.current = now;
      bridge()
        .lock.activity()
        .catch(() => undefined);
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, report, { passive: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, report);
    };
  }, [active]);
}

/**
 * Ctrl+Shift+L (Cmd+Shift+L on a Mac) locks from the page itself: browser mode has no global
 * shortcut, and on the desktop the page hears the keys the global one did not take.
 */
function useLockShortcut(armed: boolean, onStatus: (status: LockStatus) => void): void {
  useEffect(() => {
    if (!armed) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || !event.shiftKey || event.altKey) return;
      if (event.key.toLowerCase() !== 'l') return;
      event.preventDefault();
      bridge()
        .lock.lock()
        .then(onStatus, () => undefined);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [armed, onStatus]);
}

export function LockGate({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<LockStatus | null>(null);
  const [unavailable, setUnavailable] = useState(false);

  useEffect(() => {
    let live = true;
    bridge()
      .lock.status()
      .then(
        (answer) => live && setStatus(answer),
        // An app that could not open its data answers app.status only; the app shows why.
        () => live && setUnavailable(true),
      );
    return () => {
      live = false;
    };
  }, []);
  useBridgeEvent('lock.changed', setStatus);

  const locked = status?.locked ?? false;
  useEffect(() => {
    // Whatever the page had read before locking goes; after unlocking it is read afresh.
    if (locked) queryClient.clear();
  }, [locked]);
  useActivityReports(status !== null && status.enabled && !status.locked && status.idleMinutes > 0);
  useLockShortcut(status !== null && status.enabled && !status.locked, setStatus);

  const context = useMemo<LockContextValue | null>(
    () =>
      status && {
        status,
        update: setStatus,
        lockNow: async () => setStatus(await bridge().lock.lock()),
      },
    [status],
  );

  if (unavailable) return <>{children}</>;
  if (!context) {
    return (
      <div className="boot">
        <Skeleton rows={4} label="Starting Spotfolio" />
      </div>
    );
  }
  return (
    <LockContext.Provider value={context}>
      {context.status.locked ? (
        <LockScreen status={context.status} onStatus={setStatus} />
      ) : (
        children
      )}
    </LockContext.Provider>
  );
}

function LockScreen(props: { status: LockStatus; onStatus: (status: LockStatus) => void }) {
  const { status, onStatus } = props;
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [forgot, setForgot] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const now = useNow(500);
  const waitMs = status.retryAt !== null ? status.retryAt - now : 0;
  const waiting = waitMs > 0;

  const unlocking = useBridgeAction('lock.unlock', {
    onSuccess: (result) => {
      setPassword('');
      if (!result.unlocked) {
        setMessage(
          result.reason === 'too-soon'
            ? 'Too many wrong passwords: wait before trying again.'
            : 'That password is not right.',
        );
      } else {
        setMessage(null);
      }
      onStatus(result.status);
    },
  });
  // A reset that succeeds turns the lock off: the gate then takes this screen away.
  const resetting = useBridgeAction('lock.reset', { onSuccess: onStatus });
  // Either one on its way holds both forms' buttons.
  const busy = unlocking.pending || resetting.pending;

  const unlock = () => void unlocking.run({ password }).then(() => inputRef.current?.focus());

  return (
    <main className="lock-screen" data-testid="lock-screen">
      <form
        className="card lock-card"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy && !waiting && password) unlock();
        }}
      >
        <div className="brand">
          <img src={iconUrl} alt="" width={32} height={32} />
          <h1>Spotfolio is locked</h1>
        </div>
        {!forgot ? (
          <>
            <label className="field">
              <span>Password</span>
              <input
                ref={inputRef}
                type="password"
                autoComplete="current-password"
                autoFocus
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                data-testid="lock-password"
              />
            </label>
            {message && (
              <p className="inline-error" role="alert" data-testid="lock-message">
                {message}
              </p>
            )}
            {status.failedAttempts > 0 && (
              <p className="muted small-text" data-testid="lock-attempts" aria-live="polite">
                {status.failedAttempts === 1
                  ? '1 wrong password'
                  : `${status.failedAttempts} wrong passwords in a row`}
                {waiting ? `; the next try is possible in ${lockWaitText(waitMs)}.` : '.'}
              </p>
            )}
            {unlocking.error !== undefined && (
              <InlineError error={unlocking.error} testId="lock-error" />
            )}
            <div className="form-actions">
              <button
                type="button"
                className="link"
                onClick={() => setForgot(true)}
                data-testid="lock-forgot"
              >
                Forgot the password?
              </button>
              <button
                type="submit"
                className="primary"
                disabled={busy || waiting || !password}
                data-testid="lock-submit"
              >
                {busy ? 'Checking…' : 'Unlock'}
              </button>
            </div>
          </>
        ) : (
          <div data-testid="lock-reset">
            <h2>Reset the lock</h2>
            <p data-testid="lock-reset-explanation">{LOCK_RESET_EXPLANATION}</p>
            {resetting.error !== undefined && (
              <ErrorBox error={resetting.error} testId="lock-error" />
            )}
            <ConfirmActions
              confirmLabel="Delete the keys and the local data, and reset"
              busyLabel="Removing…"
              busy={busy}
              danger
              focusBack
              onBack={() => setForgot(false)}
              onConfirm={() => void resetting.run({ confirm: true })}
              testId="lock-reset-confirm"
              backTestId="lock-reset-back"
            />
          </div>
        )}
      </form>
    </main>
  );
}
