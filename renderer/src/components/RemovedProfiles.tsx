/**
 * Profiles the user removed (Settings): their labels, cost bases, alerts, history and journal
 * stay on this computer, and each can be restored. The key went from the keychain with the
 * removal, so restoring asks for it again (the same key; the exchange checks it first).
 */
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { RemovedProfileView } from '../../../shared/types';
import { formatDateTime } from '../../../shared/format';
import { useApp } from '../context';
import { errorInfo } from '../lib/bridge';
import { bridgeKey, useBridgeAction, useBridgeQuery } from '../lib/query';
import { InlineError } from './common';

export function RemovedProfiles() {
  const client = useQueryClient();
  const removed = useBridgeQuery('profiles.removed');
  const list = removed.data ?? [];
  // The restore's answer says the profile is listed again: it leaves this list at once, instead
  // of staying until a read of the list comes back (a read that is slow, or fails and so keeps
  // the list it had, left it listed). The list is read again all the same; a read already on
  // its way is dropped, as it may have been answered before the restore.
  const restored = (id: string) => {
    client.setQueryData<RemovedProfileView[]>(bridgeKey('profiles.removed'), (before) =>
      before?.filter((profile) => profile.id !== id),
    );
    removed.reload();
  };
  if (list.length === 0) return null;
  return (
    <div className="card" data-testid="removed-profiles">
      <div className="card-header">
        <h2>Removed profiles</h2>
      </div>
      <p className="muted small-text">
        What these profiles had (labels, cost bases, alerts, value history, money movements) is kept
        on this computer. Restore one with its API key.
      </p>
      <ul className="profiles">
        {list.map((profile) => (
          <RemovedProfile key={profile.id} profile={profile} onRestored={restored} />
        ))}
      </ul>
    </div>
  );
}

function RemovedProfile({
  profile,
  onRestored,
}: {
  profile: RemovedProfileView;
  onRestored: (id: string) => void;
}) {
  const { reloadProfiles, toast } = useApp();
  const [form, setForm] = useState<{ apiKey: string; secretKey: string } | null>(null);
  const restoring = useBridgeAction('profiles.restore', {
    onSuccess: async () => {
      setForm(null);
      onRestored(profile.id);
      await reloadProfiles();
      toast({ title: `Restored ${profile.name}`, tone: 'success' });
    },
  });
  const { pending: busy, error } = restoring;
  const fieldError = error !== undefined ? errorInfo(error) : null;

  const restore = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    void restoring.run({ id: profile.id, ...form });
  };
  const field = (name: 'apiKey' | 'secretKey', label: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        name={name}
        type={name === 'secretKey' ? 'password' : 'text'}
        autoComplete="off"
        value={form?.[name] ?? ''}
        onChange={(event) => setForm((f) => f && { ...f, [name]: event.target.value })}
        aria-invalid={fieldError?.field === name || undefined}
        data-testid={`removed-${name}`}
        required
      />
      {fieldError?.field === name && <small className="field-error">{fieldError.message}</small>}
    </label>
  );

  return (
    <li data-testid={`removed-profile-${profile.name}`}>
      <div>
        <strong>{profile.name}</strong>
        <div className="muted small-text">
          {profile.apiKeyMasked} · {profile.baseUrl} · removed{' '}
          {formatDateTime(profile.removedAt).slice(0, 16)}
        </div>
        {form !== null && (
          <form onSubmit={restore} data-testid="removed-form">
            {field('apiKey', 'API key')}
            {field('secretKey', 'Secret key')}
            <div className="form-actions">
              <button type="button" onClick={() => setForm(null)} disabled={busy}>
                Cancel
              </button>
              <button type="submit" className="primary" disabled={busy} data-testid="removed-save">
                {busy ? 'Checking the key…' : 'Check and restore'}
              </button>
            </div>
          </form>
        )}
        {error !== undefined && !fieldError?.field && <InlineError error={error} />}
      </div>
      {form === null && (
        <div className="profile-actions">
          <button
            type="button"
            className="small primary"
            onClick={() => setForm({ apiKey: '', secretKey: '' })}
            data-testid="removed-restore"
          >
            Restore…
          </button>
        </div>
      )}
    </li>
  );
}
