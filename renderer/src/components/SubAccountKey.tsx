import { useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../shared/format';
import type { SubAccountView } from '../../../shared/types';
import { errorInfo } from '../lib/bridge';
import { useBridgeAction } from '../lib/query';
import { CheckedTextField, ErrorBox } from './common';

/**
 * A sub-account's own API key: linked (its trades are read with it; unlink removes the keychain
 * entry), or not (only its balances are known; a form links one, checked with the exchange to be
 * this sub-account's before anything is kept). Read-only is enough.
 */
export function SubAccountKey(props: { account: SubAccountView; onChanged: () => void }) {
  const { account } = props;
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ apiKey: '', secretKey: '' });
  const done = () => {
    setOpen(false);
    setForm({ apiKey: '', secretKey: '' });
    props.onChanged();
  };
  const link = useBridgeAction('subAccounts.link', { onSuccess: done });
  const unlink = useBridgeAction('subAccounts.unlink', { onSuccess: props.onChanged });
  const fieldError = link.error !== undefined ? errorInfo(link.error) : null;
  const testId = (name: string) => `sub-key-${name}-${account.email}`;

  if (account.link) {
    return (
      <div className="small-text" data-testid={testId('linked')}>
        Trades read with its own key <code>{account.link.apiKeyMasked}</code>, linked{' '}
        {formatDateTime(account.link.linkedAt)}.{' '}
        <button
          type="button"
          className="link"
          disabled={unlink.pending}
          onClick={() => void unlink.run({ email: account.email })}
          data-testid={testId('unlink')}
        >
          {unlink.pending ? 'Unlinking…' : 'Unlink'}
        </button>
        {unlink.error !== undefined && <ErrorBox error={unlink.error} />}
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void link.run({ email: account.email, ...form });
  };
  const field = (name: 'apiKey' | 'secretKey', label: string, type: string) => (
    <CheckedTextField
      name={name}
      label={label}
      type={type}
      value={form[name]}
      onChange={(value) => setForm({ ...form, [name]: value })}
      error={fieldError}
      testId={testId(name)}
      errorTestId={testId(`${name}-error`)}
    />
  );
  return (
    <div className="small-text" data-testid={testId('unlinked')}>
      <span className="muted">
        Its trades are not seen with the main account&apos;s key: only its balances count, and its
        trades show as inferred deposits and debits.
      </span>{' '}
      {!open && (
        <button
          type="button"
          className="link"
          onClick={() => setOpen(true)}
          data-testid={testId('open')}
        >
          Link its API key
        </button>
      )}
      {open && (
        <form
          className="form"
          onSubmit={submit}
          aria-label={`Link the API key of ${account.email}`}
          data-testid={testId('form')}
          noValidate
        >
          {field('apiKey', 'API key of this sub-account', 'text')}
          {field('secretKey', 'Secret key', 'password')}
          <small className="muted">
            Read-only is enough. Checked with the exchange to be this sub-account&apos;s, then kept
            in the system keychain; never shown again.
          </small>
          {link.error !== undefined && !fieldError?.field && <ErrorBox error={link.error} />}
          <div className="form-actions">
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button
              type="submit"
              className="primary"
              disabled={link.pending}
              data-testid={testId('submit')}
            >
              {link.pending ? 'Checking the key with the exchange…' : 'Verify and link'}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** Which accounts' trades the figures cannot see, with the way to link them; nothing when none. */
export function UnseenTrades(props: { unseen: readonly string[]; testId: string }) {
  if (props.unseen.length === 0) return null;
  const one = props.unseen.length === 1;
  return (
    <p className="small-text" role="note" data-testid={props.testId}>
      The trades of {props.unseen.join(', ')} are not seen: {one ? 'its' : 'their'} balances count,{' '}
      {one ? 'its' : 'their'} trades show as inferred deposits and debits.{' '}
      <a href="#/sub-accounts">Link {one ? 'its key' : 'their keys'}</a> on the Sub-accounts screen.
    </p>
  );
}

/**
 * The sub-accounts of a scope whose orders and trades cannot be read (no key of their own
 * linked: the parent's key reads neither), with the way to link one.
 */
export function UnlinkedAccounts(props: { unlinked: readonly string[]; testId: string }) {
  if (props.unlinked.length === 0) return null;
  const one = props.unlinked.length === 1;
  return (
    <p className="small-text" role="note" data-testid={props.testId}>
      The orders and trades of {props.unlinked.join(', ')} are not shown: the main account&apos;s
      key cannot read them.{' '}
      <a href="#/sub-accounts">Link {one ? 'its own key' : 'their own keys'}</a> on the Sub-accounts
      screen to see them here.
    </p>
  );
}
