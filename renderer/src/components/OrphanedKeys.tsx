/**
 * API keys Spotfolio finds in the system keychain with no profile to go with them (the profiles
 * were lost, or the data restored from an older backup), offered back at start-up: a banner, and
 * a dialog to re-attach one (a profile is made for it once the exchange accepts it) or delete it
 * from the keychain. "Later" hides them until the next start; the keys stay where they are.
 */
import { useState, type FormEvent } from 'react';
import type { OrphanedKeyView } from '../../../shared/types';
import { bridge, errorInfo } from '../lib/bridge';
import { useAction, useBridgeQuery } from '../lib/query';
import { InlineError, Modal } from './common';

const LATER_KEY = 'spotfolio.orphanedKeysLater';

export function OrphanedKeysDialog() {
  const orphans = useBridgeQuery('profiles.orphanedKeys', undefined, { retry: false });
  const [later, setLater] = useState(() => sessionStorage.getItem(LATER_KEY) === '1');
  const [open, setOpen] = useState(false);
  const list = orphans.data ?? [];
  if (later || list.length === 0) return null;
  const decideLater = () => {
    setOpen(false);
    setLater(true);
    try {
      sessionStorage.setItem(LATER_KEY, '1');
    } catch {
      // Storage refused: the notice comes back on reload, which is harmless.
    }
  };
  const keys = list.length === 1 ? 'API key' : `${list.length} API keys`;
  const count = list.length === 1 ? `An ${keys}` : keys;
  // A banner first, the dialog on request: a start-up modal would stand in front of whatever the
  // user came to do, and the keys are safe where they are until the user decides.
  return (
    <>
      <div className="banner warn store-notice" role="status" data-testid="orphaned-keys-notice">
        <div>
          <strong>
            {count} in the system keychain {list.length === 1 ? 'has' : 'have'} no profile.
          </strong>{' '}
          <span>Re-attach {list.length === 1 ? 'it' : 'them'} to a profile, or delete.</span>
        </div>
        <span className="orphaned-key-buttons">
          <button
            type="button"
            className="small primary"
            onClick={() => setOpen(true)}
            data-testid="orphaned-keys-review"
          >
            Review
          </button>
          <button type="button" className="small ghost" onClick={decideLater}>
            Later
          </button>
        </span>
      </div>
      {open && (
        <Modal
          title="API keys without a profile"
          onClose={() => setOpen(false)}
          testId="orphaned-keys"
        >
          <p>
            The system keychain holds {list.length === 1 ? `an ${keys}` : keys} of Spotfolio&apos;s
            that no profile uses (the profiles were removed from this computer&apos;s data, or the
            data was restored from an older backup). Re-attach a key to get its profile back, or
            delete it from the keychain.
          </p>
          <ul className="orphaned-keys">
            {list.map((orphan) => (
              <OrphanedKey key={orphan.id} orphan={orphan} onChanged={orphans.reload} />
            ))}
          </ul>
          <div className="form-actions">
            <button type="button" onClick={decideLater} data-testid="orphaned-keys-later">
              Decide later
            </button>
            <button type="button" onClick={() => setOpen(false)} data-testid="orphaned-keys-close">
              Close
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}

function OrphanedKey({ orphan, onChanged }: { orphan: OrphanedKeyView; onChanged: () => void }) {
  const [form, setForm] = useState<{ name: string; baseUrl: string; streamUrl: string } | null>(
    null,
  );
  // Re-attaching and deleting are one action at a time: the buttons are held while either runs.
  const acting = useAction((action: () => Promise<unknown>) => action(), {
    onSuccess: () => onChanged(),
  });
  const { pending: busy, error } = acting;
  const fieldError = error !== undefined ? errorInfo(error) : null;
  const act = (action: () => Promise<unknown>) => acting.run(action);
  const reattach = (event: FormEvent) => {
    event.preventDefault();
    if (form) void act(() => bridge().profiles.reattachKey({ id: orphan.id, ...form }));
  };
  const field = (name: 'name' | 'baseUrl' | 'streamUrl', label: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        name={name}
        value={form?.[name] ?? ''}
        onChange={(event) => setForm((f) => f && { ...f, [name]: event.target.value })}
        aria-invalid={fieldError?.field === name || undefined}
        data-testid={`orphan-${name}`}
        required
      />
      {fieldError?.field === name && <small className="field-error">{fieldError.message}</small>}
    </label>
  );

  return (
    <li data-testid="orphaned-key" data-entry={orphan.id}>
      <div className="orphaned-key-line">
        <code>{orphan.apiKeyMasked ?? 'not an API key pair'}</code>
        <span className="orphaned-key-buttons">
          {orphan.apiKeyMasked !== null && form === null && (
            <button
              type="button"
              className="small primary"
              onClick={() => setForm({ name: '', baseUrl: 'https://', streamUrl: 'wss://' })}
              data-testid="orphan-reattach"
            >
              Re-attach…
            </button>
          )}
          <button
            type="button"
            className="small danger"
            disabled={busy}
            onClick={() => void act(() => bridge().profiles.deleteOrphanedKey({ id: orphan.id }))}
            data-testid="orphan-delete"
          >
            Delete
          </button>
        </span>
      </div>
      {form !== null && (
        <form onSubmit={reattach} data-testid="orphan-form">
          {field('name', 'Profile name')}
          {field('baseUrl', 'REST base URL')}
          {field('streamUrl', 'Stream URL')}
          <div className="form-actions">
            <button type="button" onClick={() => setForm(null)} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={busy} data-testid="orphan-save">
              {busy ? 'Checking the key…' : 'Check and re-attach'}
            </button>
          </div>
        </form>
      )}
      {error !== undefined && !fieldError?.field && (
        <InlineError error={error} testId="orphan-error" />
      )}
    </li>
  );
}
