import { useState } from 'react';
import type { NotificationSettings, ProfileView, Theme } from '../../../shared/types';
import { formatDateTime } from '../../../shared/format';
import { useApp } from '../context';
import { bridge } from '../lib/bridge';
import { useAction, useBridgeQuery } from '../lib/query';
import { ErrorBox, InlineError, Modal, PageHeader } from '../components/common';
import { ProfileCapabilities, ProfileEditor, ProfileForm } from '../components/ProfileForm';
import { LockSettings } from '../components/LockSettings';
import { RemovedProfiles } from '../components/RemovedProfiles';
import { CostMethodSetting } from '../components/CostMethodSetting';
import { OrderSettings } from '../components/OrderSettings';
import { SavedDecimalField } from '../components/SavedField';

const notificationLabels: Record<keyof NotificationSettings, string> = {
  fills: 'Orders placed and filled',
  cancels: 'Order cancels',
  balances: 'Balance changes',
  transfers: 'Transfers',
  alerts: 'Price and balance alerts',
};

/** `editProfile`: the profile whose editor is open (a link to fix its address opens it). */
export function SettingsScreen(props: { editProfile?: string }) {
  const { settings, updateSettings, profiles, reloadProfiles, status, toast } = useApp();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ProfileView | null>(null);
  const [editing, setEditing] = useState<string | null>(props.editProfile ?? null);
  const tickers = useBridgeQuery('market.tickers');
  const quotes = [
    ...new Set([
      settings.quoteAsset,
      'usdt',
      'btc',
      ...(tickers.data ?? []).map((t) => t.quoteAsset),
    ]),
  ].sort();

  // Each switch is its own change: a second one is saved even while the first is on its way.
  const saving = useAction(updateSettings, { concurrent: true });
  const profileChanged = async (done: string) => {
    await reloadProfiles();
    toast({ title: done, tone: 'success' });
  };
  const activate = useAction(
    (profile: ProfileView) => bridge().profiles.activate({ id: profile.id }),
    {
      onSuccess: (_, profile) => profileChanged(`Switched to ${profile.name}`),
    },
  );
  const remove = useAction((profile: ProfileView) => bridge().profiles.remove({ id: profile.id }), {
    onSuccess: (_, profile) => profileChanged(`Removed ${profile.name}`),
  });
  // One box says what failed last: each change clears what the others said.
  const error = saving.error ?? activate.error ?? remove.error;
  const clearErrors = () => {
    saving.reset();
    activate.reset();
    remove.reset();
  };
  const save = async (patch: Parameters<typeof updateSettings>[0]) => {
    clearErrors();
    await saving.run(patch);
  };

  return (
    <section className="page" data-testid="screen-settings">
      <PageHeader title="Settings" />
      {error !== undefined && <ErrorBox error={error} />}
      <div className="grid two">
        <div className="card">
          <h2>Appearance</h2>
          <fieldset className="radio-row">
            <legend>Theme</legend>
            {(['light', 'dark', 'system'] as Theme[]).map((theme) => (
              <label key={theme} className="radio">
                <input
                  type="radio"
                  name="theme"
                  checked={settings.theme === theme}
                  onChange={() => void save({ theme })}
                  data-testid={`theme-${theme}`}
                />
                {theme === 'system' ? 'Same as the system' : theme === 'dark' ? 'Dark' : 'Light'}
              </label>
            ))}
          </fieldset>
          <label className="toggle">
            <input
              type="checkbox"
              checked={settings.privacyMode}
              onChange={(e) => void save({ privacyMode: e.target.checked })}
              data-testid="privacy-mode"
            />
            Privacy mode: hide amounts everywhere as ••••
          </label>
          <h2>Values</h2>
          <label className="field">
            <span>Quote asset (what totals are shown in)</span>
            <select
              value={settings.quoteAsset}
              onChange={(e) => void save({ quoteAsset: e.target.value })}
              data-testid="quote-asset"
            >
              {quotes.map((q) => (
                <option key={q} value={q}>
                  {q.toUpperCase()}
                </option>
              ))}
            </select>
          </label>
          {status.activeProfileId !== null && <CostMethodSetting />}
          <label className="toggle">
            <input
              type="checkbox"
              checked={settings.hideSmallBalances}
              onChange={(e) => void save({ hideSmallBalances: e.target.checked })}
            />
            Hide small balances
          </label>
          <SavedDecimalField
            label={`Small means worth less than (${settings.quoteAsset.toUpperCase()})`}
            saved={settings.smallBalanceThreshold}
            save={(smallBalanceThreshold) => save({ smallBalanceThreshold })}
          />
          <OrderSettings settings={settings} save={save} />
          <h2>Notifications</h2>
          <p className="muted small-text" data-testid="notify-explainer">
            These switches govern both the toasts in this window and the desktop notifications.
            Whatever is switched off is still recorded in Activity. Balance changes come at most one
            per set of coins every few seconds, the latest replacing the one before.
          </p>
          {(Object.keys(notificationLabels) as (keyof NotificationSettings)[]).map((kind) => (
            <label key={kind} className="toggle">
              <input
                type="checkbox"
                checked={settings.notifications[kind]}
                onChange={(e) =>
                  void save({
                    notifications: { ...settings.notifications, [kind]: e.target.checked },
                  })
                }
                data-testid={`notify-${kind}`}
              />
              {notificationLabels[kind]}
            </label>
          ))}
        </div>
        <div className="card">
          <div className="card-header">
            <h2>Profiles</h2>
            <button type="button" onClick={() => setAdding(!adding)} data-testid="add-profile">
              {adding ? 'Close' : 'Add API key'}
            </button>
          </div>
          {!status.keychain.available && (
            <div className="banner warn" role="status">
              The system keychain is not available
              {status.keychain.message ? `: ${status.keychain.message}` : ''}. Keys cannot be added
              until it is.
            </div>
          )}
          {adding && (
            <ProfileForm
              onAdded={(profile) => {
                setAdding(false);
                void reloadProfiles();
                toast({
                  title: `Added ${profile.name}`,
                  body: `${profile.canTrade ? 'Can trade' : 'Cannot trade'}, ${profile.canWithdraw ? 'can withdraw' : 'cannot withdraw'}`,
                  tone: 'success',
                });
              }}
            />
          )}
          <ul className="profiles" data-testid="profiles">
            {profiles.map((profile) => (
              <li
                key={profile.id}
                className={profile.active ? 'active' : undefined}
                data-testid={`profile-${profile.name}`}
              >
                <div>
                  <strong>{profile.name}</strong>{' '}
                  {profile.isDemo && <span className="badge demo">Demo</span>}{' '}
                  {profile.active && <span className="badge ok">Active</span>}
                  <div className="muted small-text">
                    {profile.apiKeyMasked} · {profile.baseUrl} · {profile.streamUrl} · added{' '}
                    {formatDateTime(profile.createdAt).slice(0, 10)}
                  </div>
                  {profile.isDemo && (
                    <div className="muted small-text" data-testid="demo-note">
                      The demo&apos;s exchange is built in and starts afresh each time Spotfolio
                      starts: its market, orders and balances begin anew. The profile stays here;
                      switching to it starts the demo again.
                    </div>
                  )}
                  <ProfileCapabilities profile={profile} />
                  {editing === profile.id && (
                    <ProfileEditor
                      profile={profile}
                      onCancel={() => setEditing(null)}
                      onSaved={(saved) => {
                        setEditing(null);
                        void reloadProfiles();
                        toast({ title: `Saved ${saved.name}`, tone: 'success' });
                      }}
                    />
                  )}
                </div>
                <div className="profile-actions">
                  {!profile.active && (
                    <button
                      type="button"
                      className="small"
                      disabled={activate.pending}
                      onClick={() => {
                        clearErrors();
                        void activate.run(profile);
                      }}
                      data-testid="profile-activate"
                    >
                      Switch to
                    </button>
                  )}
                  <button
                    type="button"
                    className="small"
                    onClick={() => setEditing(editing === profile.id ? null : profile.id)}
                    aria-expanded={editing === profile.id}
                    data-testid="profile-edit"
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="small danger"
                    onClick={() => setRemoving(profile)}
                    data-testid="profile-remove"
                  >
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ul>
          {profiles.length === 0 && (
            <InlineError error={{ kind: 'no-profile', message: 'No profile yet' }} />
          )}
        </div>
        <RemovedProfiles />
        <LockSettings />
      </div>
      {removing && (
        <Modal
          title={`Remove ${removing.name}?`}
          onClose={() => setRemoving(null)}
          testId="profile-remove-confirm"
        >
          <p>
            The key is deleted from the keychain and the exchange&apos;s data from this computer.
            Its labels, cost bases, alerts, value history and money movements are kept: it is listed
            under Removed profiles, where it can be restored with its key. The exchange account is
            not touched.
          </p>
          <div className="form-actions">
            <button type="button" onClick={() => setRemoving(null)} data-autofocus autoFocus>
              Keep it
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                setRemoving(null);
                clearErrors();
                void remove.run(removing);
              }}
            >
              Remove
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
