import { useState } from 'react';
import type { ProfileView } from '../../../shared/types';
import { useApp } from '../context';
import { useBridgeAction } from '../lib/query';
import { ErrorBox, PageHeader } from '../components/common';
import { ProfileCapabilities, ProfileForm } from '../components/ProfileForm';
import { RemovedProfiles } from '../components/RemovedProfiles';

/**
 * The first start, and the way from the demo to one's own key: try the demo, or add an exchange
 * key. Nothing is started before the user chooses.
 */
export function Onboarding() {
  const { reloadProfiles, navigate, activeProfile } = useApp();
  const inDemo = activeProfile?.isDemo ?? false;
  const [added, setAdded] = useState<ProfileView | null>(null);
  const demo = useBridgeAction('profiles.enterDemo', {
    onSuccess: async () => {
      await reloadProfiles();
      navigate({ screen: 'portfolio' });
    },
  });
  const { pending: demoBusy, error: demoError } = demo;

  return (
    <section className="page onboarding" data-testid="screen-onboarding">
      <PageHeader title="Welcome to Spotfolio" />
      <p className="lead">
        See what your funds are worth, read your full withdraw history, fetch deposit addresses and
        move funds between accounts. Your keys stay in the system keychain.
      </p>
      {inDemo ? (
        <div className="banner info" role="status" data-testid="onboarding-from-demo">
          You are trying the demo. Add your exchange key here: Spotfolio switches to it once it is
          verified, and the demo stays in Settings → Profiles.
        </div>
      ) : (
        <p>Choose how to start: try the demo, or add your exchange key.</p>
      )}
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
                onClick={() => {
                  // At once: a reload finishing later must not take the user back here from
                  // wherever they went next.
                  navigate({ screen: 'portfolio' });
                  void reloadProfiles();
                }}
              >
                Open the portfolio
              </button>
            </div>
          </div>
        ) : (
          <ProfileForm onAdded={setAdded} title="Add your exchange key" />
        )}
        <div className="card">
          <h2>Try the demo</h2>
          <p>
            A built-in sandbox exchange with a demo account and a market that trades by itself. No
            real money; every screen works. It is labelled <span className="badge demo">Demo</span>{' '}
            everywhere. Its exchange starts afresh each time Spotfolio starts.
          </p>
          {demoError !== undefined && <ErrorBox error={demoError} />}
          <button
            type="button"
            onClick={() => void demo.run({})}
            disabled={demoBusy}
            data-testid="enter-demo"
          >
            {demoBusy ? 'Starting the sandbox…' : inDemo ? 'Back to the demo' : 'Try the demo'}
          </button>
        </div>
        {/* With no profile left the app opens here: a removed one can be restored from here too. */}
        <RemovedProfiles />
      </div>
    </section>
  );
}
