/**
 * The lock password asked for again before a sensitive action (a transfer, a large order,
 * re-attaching a key, changing addresses, removing a profile, exporting a report) when it was last
 * given more than a few minutes ago. The main process holds the action back and decides; the
 * bridge (lib/bridge.ts) asks this dialog for the password, confirms it and sends the action again.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { setPasswordPrompt } from '../lib/bridge';
import { Modal } from './common';

interface Pending {
  reason: string;
  answer: (password: string | null) => void;
}

export function PasswordConfirmDialog() {
  const [pending, setPending] = useState<Pending | null>(null);
  const [password, setPassword] = useState('');
  const pendingRef = useRef<Pending | null>(null);
  pendingRef.current = pending;

  useEffect(() => {
    setPasswordPrompt(
      (reason) =>
        new Promise<string | null>((resolve) => {
          // A second ask while one is open answers the first with "backed out".
          pendingRef.current?.answer(null);
          setPassword('');
          setPending({ reason, answer: resolve });
        }),
    );
    return () => {
      setPasswordPrompt(null);
      pendingRef.current?.answer(null);
    };
  }, []);

  if (!pending) return null;
  const finish = (value: string | null) => {
    setPending(null);
    setPassword('');
    pending.answer(value);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password.length > 0) finish(password);
  };
  return (
    <Modal title="Confirm it is you" onClose={() => finish(null)} testId="password-confirm">
      <form className="form" onSubmit={submit}>
        <p data-testid="password-confirm-reason">{pending.reason}</p>
        <label className="field">
          <span>Lock password</span>
          <input
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-autofocus="true"
            data-testid="password-confirm-input"
          />
        </label>
        <div className="form-actions">
          <button type="button" onClick={() => finish(null)} data-testid="password-confirm-cancel">
            Cancel
          </button>
          <button
            type="submit"
            className="primary"
            disabled={password.length === 0}
            data-testid="password-confirm-submit"
          >
            Confirm
          </button>
        </div>
      </form>
    </Modal>
  );
}
