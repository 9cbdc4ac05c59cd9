import { useState, type FormEvent } from 'react';
import type { ProfileView } from '../../../shared/types';
import { useApp } from '../context';
import { bridge, errorInfo } from '../lib/bridge';
import { ErrorBox, PageHeader } from '../components/common';

/** Adds an API key (verified by the app before it is saved), or starts the demo. */
export function ProfileForm(props: { onAdded: (profile: ProfileView) => void }) {
  const [form, setForm] = useState({
    name: '',
    apiKey: '',
    secretKey: '',
    baseUrl: 'https://',
    streamUrl: 'wss://',
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fieldError = error ? errorInfo(error) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const profile = await bridge().profiles.add(form);
      props.onAdded(profile);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: keyof typeof form, label: string, type = 'text', hint?: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        name={name}
        type={type}
        value={form[name]}
        autoComplete="off"
        spellCheck={false}
        required
        aria-invalid={fieldError?.field === name || undefined}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
        data-testid={`profile-${name}`}
      />
      {hint && <small className="muted">{hint}</small>}
      {fieldError?.field === name && <small className="field-error">{fieldError.message}</small>}
    </label>
  );

  return (
    <form
      className="card form"
      onSubmit={(e) => void submit(e)}
      aria-label="Add an API key"
      data-testid="profile-form"
    >
      <h2>Add an API key</h2>
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
      {error !== null && !fieldError?.field && <ErrorBox error={error} testId="profile-error" />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="profile-submit">
          {busy ? 'Checking the key with the exchange…' : 'Verify and save'}
        </button>
      </div>
    </form>
  );
}

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

export function Onboarding() {
  const { reloadProfiles, navigate } = useApp();
  const [added, setAdded] = useState<ProfileView | null>(null);
  const [demoBusy, setDemoBusy] = useState(false);
  const [demoError, setDemoError] = useState<unknown>(null);

  const enterDemo = async () => {
    setDemoBusy(true);
    setDemoError(null);
    try {
      await bridge().profiles.enterDemo();
      await reloadProfiles();
      navigate({ screen: 'portfolio' });
    } catch (error) {
      setDemoError(error);
    } finally {
      setDemoBusy(false);
    }
  };

  return (
    <section className="page onboarding" data-testid="screen-onboarding">
      <PageHeader title="Welcome to Spotfolio" />
      <p className="lead">
        See what your funds are worth, read your full withdraw history, fetch deposit addresses and
        move funds between accounts. Your keys stay in the system keychain.
      </p>
      <div className="grid two">
        {added ? (
          <div className="card" data-testid="profile-added">
            <h2>Key verified and saved</h2>
            <p>
              <strong>{added.name}</strong> ({added.apiKeyMasked})
            </p>
            <p>This key may:</p>
            <ProfileCapabilities profile={added} />
            <div className="form-actions">
              <button
                type="button"
                className="primary"
                data-testid="onboarding-continue"
                onClick={() => void reloadProfiles().then(() => navigate({ screen: 'portfolio' }))}
              >
                Open the portfolio
              </button>
            </div>
          </div>
        ) : (
          <ProfileForm onAdded={setAdded} />
        )}
        <div className="card">
          <h2>Try the demo</h2>
          <p>
            A built-in sandbox exchange with a demo account and a market that trades by itself. No
            real money; every screen works. It is labelled <span className="badge demo">Demo</span>{' '}
            everywhere.
          </p>
          {demoError !== null && <ErrorBox error={demoError} />}
          <button
            type="button"
            onClick={() => void enterDemo()}
            disabled={demoBusy}
            data-testid="enter-demo"
          >
            {demoBusy ? 'Starting the sandbox…' : 'Start the demo'}
          </button>
        </div>
      </div>
    </section>
  );
}
