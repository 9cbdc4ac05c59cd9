import { useState, type FormEvent } from 'react';
import type { ProfileView } from '../../../shared/types';
import { errorInfo } from '../lib/bridge';
import { useBridgeAction } from '../lib/query';
import { CheckedTextField, ErrorBox } from './common';

/**
 * Adds an API key. The app checks it before anything is saved: the key and the REST base URL
 * with the exchange, and the stream URL by subscribing to the private stream with the key.
 */
export function ProfileForm(props: { onAdded: (profile: ProfileView) => void; title?: string }) {
  const [form, setForm] = useState({
    name: '',
    apiKey: '',
    secretKey: '',
    baseUrl: 'https://',
    streamUrl: 'wss://',
  });
  const add = useBridgeAction('profiles.add', { onSuccess: (profile) => props.onAdded(profile) });
  const { error, pending: busy } = add;
  const fieldError = error !== undefined ? errorInfo(error) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void add.run(form);
  };

  const field = (name: keyof typeof form, label: string, type = 'text', hint?: string) => (
    <CheckedTextField
      name={name}
      label={label}
      type={type}
      hint={hint}
      required
      value={form[name]}
      onChange={(value) => setForm({ ...form, [name]: value })}
      error={fieldError}
      testId={`profile-${name}`}
    />
  );

  return (
    <form
      className="card form"
      onSubmit={submit}
      aria-label={props.title ?? 'Add an API key'}
      data-testid="profile-form"
    >
      <h2>{props.title ?? 'Add an API key'}</h2>
      {field('name', 'Profile name', 'text', 'For example "Main account"')}
      {field('apiKey', 'API key')}
      {field(
        'secretKey',
        'Secret key',
        'password',
        'Stored in the system keychain; never shown again.',
      )}
      {field('baseUrl', 'REST base URL', 'url')}
      {field('streamUrl', 'Stream URL', 'url')}
      {error !== undefined && !fieldError?.field && (
        <ErrorBox error={error} testId="profile-error" />
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="profile-submit">
          {busy ? 'Checking the key and the stream with the exchange…' : 'Verify and save'}
        </button>
      </div>
    </form>
  );
}

/**
 * Changes a profile's name and addresses in place. New addresses are checked with the profile's
 * own key (REST and the private stream) before they are saved; the demo's addresses belong to
 * its built-in exchange, so only its name can change.
 */
export function ProfileEditor(props: {
  profile: ProfileView;
  onSaved: (profile: ProfileView) => void;
  onCancel: () => void;
}) {
  const { profile } = props;
  const [form, setForm] = useState({
    name: profile.name,
    baseUrl: profile.baseUrl,
    streamUrl: profile.streamUrl,
  });
  const update = useBridgeAction('profiles.update', {
    onSuccess: (saved) => props.onSaved(saved),
  });
  const { error, pending: busy } = update;
  const fieldError = error !== undefined ? errorInfo(error) : null;
  const urlsChanged = form.baseUrl !== profile.baseUrl || form.streamUrl !== profile.streamUrl;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void update.run({ id: profile.id, ...form });
  };

  const field = (name: keyof typeof form, label: string, type: string) => (
    <CheckedTextField
      name={name}
      label={label}
      type={type}
      required
      value={form[name]}
      onChange={(value) => setForm({ ...form, [name]: value })}
      error={fieldError}
      testId={`profile-${name}`}
    />
  );

  return (
    <form
      className="form profile-editor"
      onSubmit={submit}
      aria-label={`Edit ${profile.name}`}
      data-testid="profile-editor"
    >
      {field('name', 'Profile name', 'text')}
      {!profile.isDemo && field('baseUrl', 'REST base URL', 'url')}
      {!profile.isDemo && field('streamUrl', 'Stream URL', 'url')}
      {!profile.isDemo && (
        <small className="muted">
          New addresses are checked with this profile&apos;s key (REST and the private stream)
          before they are saved. The key itself stays as it is.
        </small>
      )}
      {error !== undefined && !fieldError?.field && (
        <ErrorBox error={error} testId="profile-error" />
      )}
      <div className="form-actions">
        <button type="button" onClick={props.onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy} data-testid="profile-save">
          {busy ? (urlsChanged ? 'Checking with the exchange…' : 'Saving…') : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** What a profile's key may do on the exchange. */
export function ProfileCapabilities({ profile }: { profile: ProfileView }) {
  return (
    <div className="capabilities" data-testid="profile-capabilities">
      <span className={profile.canTrade ? 'badge ok' : 'badge'}>
        {profile.canTrade ? 'Can trade' : 'Cannot trade'}
      </span>
      <span className={profile.canWithdraw ? 'badge warn' : 'badge'}>
        {profile.canWithdraw ? 'Can withdraw' : 'Cannot withdraw'}
      </span>
    </div>
  );
}
