import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Decimal } from '../../../shared/exact-decimal';
import type { SubAccountsView, TransferOutcome } from '../../../shared/types';
import { formatDateTime, formatStated } from '../../../shared/format';
import { useApp } from '../context';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { KeyPermissions } from '../components/KeyPermissions';
import { SubAccountKey } from '../components/SubAccountKey';
import { figures, TableHead } from '../components/TableHead';
import { MAIN_ACCOUNT, checkAmount, freeBalance, isEmail } from '../lib/validation';
import {
  ConfirmActions,
  Amount,
  AsOf,
  EmptyState,
  ErrorBox,
  InlineError,
  Modal,
  PageHeader,
  Skeleton,
  StaleBanner,
  Value,
  QueryStatus,
} from '../components/common';

interface TransferDraft {
  asset: string;
  amount: string;
  fromEmail: string;
  toEmail: string;
}

export function SubAccounts() {
  const subs = useBridgeQuery('subAccounts.list');
  const funds = useBridgeQuery('funds.list');
  const history = useBridgeQuery('subAccounts.history', { limit: 100 });
  const refresh = useBridgeAction('subAccounts.refresh', {
    onSuccess: () => {
      subs.reload();
      history.reload();
    },
  });
  const { pending: refreshing, error: refreshError } = refresh;

  const view = subs.data;
  return (
    <section className="page" data-testid="screen-sub-accounts">
      <PageHeader title="Sub-accounts">
        {view && <AsOf asOf={view.asOf} />}
        <button type="button" onClick={() => void refresh.run({})} disabled={refreshing}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
      </PageHeader>
      {view && <StaleBanner asOf={view.asOf} />}
      {refreshError !== undefined && <ErrorBox error={refreshError} />}
      {subs.error !== undefined && !view && <ErrorBox error={subs.error} onRetry={subs.reload} />}
      {!view && subs.error === undefined && <Skeleton rows={5} />}
      {view && (
        <div className="grid two-one">
          <div>
            {view.accounts.length === 0 ? (
              <EmptyState title="No sub-accounts">
                Create sub-accounts on the exchange; they appear here with their balances.
              </EmptyState>
            ) : (
              <div className="sub-list">
                {view.accounts.map((account) => (
                  <div
                    key={account.email}
                    className="card compact"
                    data-testid={`sub-${account.email}`}
                  >
                    <div className="card-header">
                      <h3>{account.email}</h3>
                      <span className="badge">{account.status}</span>
                    </div>
                    <div className="muted small-text">
                      Value:{' '}
                      <Value value={account.value} quote={view.quoteAsset} testId="sub-value" />
                      {account.unpriced.length > 0 && (
                        <>
                          {' '}
                          (not counted, no price in {view.quoteAsset.toUpperCase()}:{' '}
                          {account.unpriced.map((a) => a.toUpperCase()).join(', ')})
                        </>
                      )}
                    </div>
                    {account.balances.length === 0 ? (
                      <div className="muted small-text">No balances</div>
                    ) : (
                      <table className="table dense">
                        <tbody>
                          {account.balances.map((b) => (
                            <tr key={b.asset} data-testid={`sub-balance-${b.asset}`}>
                              <td className="asset">{b.asset.toUpperCase()}</td>
                              <td className="num">
                                <Amount value={b.balance} asset={b.asset} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    )}
                    <SubAccountKey account={account} onChanged={subs.reload} />
                  </div>
                ))}
              </div>
            )}
          </div>
          <TransferForm
            view={view}
            mainFree={funds.data ? new Map(funds.data.rows.map((r) => [r.asset, r.free])) : null}
            onDone={() => {
              subs.reload();
              funds.reload();
              history.reload();
            }}
          />
        </div>
      )}
      <div className="card">
        <h2>Transfer history</h2>
        <QueryStatus query={history} rows={3} />
        {history.data && history.data.rows.length === 0 && <EmptyState title="No transfers yet" />}
        {history.data && history.data.rows.length > 0 && (
          <div className="table-wrap">
            <table className="table" data-testid="transfer-history">
              <TableHead columns={['Time', 'From', 'To', 'Asset', figures('Amount'), 'Status']} />
              <tbody>
                {history.data.rows.map((t) => (
                  <tr key={`${t.txnId}:${t.fromEmail}`}>
                    <td>{formatDateTime(t.time)}</td>
                    <td>{t.fromEmail}</td>
                    <td>{t.toEmail}</td>
                    <td className="asset">{t.asset.toUpperCase()}</td>
                    <td className="num">
                      <Amount value={t.qty} asset={t.asset} />
                    </td>
                    <td>{t.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

function TransferForm(props: {
  view: SubAccountsView;
  mainFree: Map<string, string> | null;
  onDone: () => void;
}) {
  const { view, mainFree } = props;
  const { precisionOf, settings, activeProfile } = useApp();
  const canTransfer = activeProfile?.canTransfer ?? false;
  // Until a transfer has named it, the user tells us the main account's e-mail.
  const [typedMain, setTypedMain] = useState('');
  const mainKnown = view.parentEmail !== null;
  const main = view.parentEmail ?? typedMain.trim().toLowerCase();
  const accounts = useMemo(
    () => [MAIN_ACCOUNT, ...view.accounts.map((a) => a.email)],
    [view.accounts],
  );
  const [draft, setDraft] = useState<TransferDraft>({
    asset: 'usdt',
    amount: '',
    fromEmail: MAIN_ACCOUNT,
    toEmail: view.accounts[0]?.email ?? '',
  });
  const emailOf = (account: string) => (account === MAIN_ACCOUNT ? main : account);
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState<TransferDraft | null>(null);
  const [outcome, setOutcome] = useState<{ outcome: TransferOutcome; draft: TransferDraft } | null>(
    null,
  );

  // Only what the source account holds can be moved: each asset with its free amount.
  const assets = useMemo(
    () => heldAssets(draft.fromEmail, view, mainFree),
    [draft.fromEmail, view, mainFree],
  );
  const assetShown = assets.some((a) => a.asset === draft.asset)
    ? draft.asset
    : (assets[0]?.asset ?? '');
  useEffect(() => {
    if (assetShown !== draft.asset) setDraft((d) => ({ ...d, asset: assetShown }));
  }, [assetShown, draft.asset]);
  // A change to the form starts a new transfer: the outcome of the last one no longer applies.
  const edit = (change: Partial<TransferDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setOutcome(null);
  };

  const free = freeBalance(draft.fromEmail, draft.asset, view, mainFree);
  const amountCheck = checkAmount(draft.amount, {
    free,
    // A transfer moves a balance, not a trade: it may have as many places as the balance the
    // exchange states (a market's step would refuse "Use all" of 321.6766 SOL on a 3-place market).
    precision: Math.max(
      precisionOf(draft.asset),
      free === null ? 0 : new Decimal(free).decimalPlaces(),
    ),
    asset: draft.asset,
  });
  const sameAccount = draft.fromEmail === draft.toEmail;
  const viaMain = draft.fromEmail !== MAIN_ACCOUNT && draft.toEmail !== MAIN_ACCOUNT;
  const mainCheck = mainKnown || isEmail(main);
  const valid =
    amountCheck.ok &&
    mainCheck &&
    !sameAccount &&
    Boolean(draft.fromEmail) &&
    Boolean(draft.toEmail);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (valid) {
      setConfirming({
        ...draft,
        fromEmail: emailOf(draft.fromEmail),
        toEmail: emailOf(draft.toEmail),
        amount: draft.amount.trim(),
      });
    }
  };

  const send = useBridgeAction('subAccounts.transfer', {
    onSuccess: (result, transfer) => {
      setOutcome({ outcome: result, draft: transfer });
      setConfirming(null);
      // The outcome shows below the form; the transfer's notification brings the toast.
      if (result.state === 'completed') {
        setDraft((d) => ({ ...d, amount: '' }));
        setTouched(false);
      }
      props.onDone();
    },
    onError: () => setConfirming(null),
  });
  const { pending: sending, error } = send;

  const label = (email: string) =>
    email === MAIN_ACCOUNT || email === main
      ? main
        ? `Main account (${main})`
        : 'Main account'
      : email;
  const select = (name: 'fromEmail' | 'toEmail', text: string) => (
    <label className="field">
      <span>{text}</span>
      <select
        value={draft[name]}
        onChange={(e) => edit({ [name]: e.target.value })}
        data-testid={`transfer-${name === 'fromEmail' ? 'from' : 'to'}`}
      >
        {accounts.map((email) => (
          <option key={email} value={email}>
            {label(email)}
          </option>
        ))}
      </select>
    </label>
  );
  const unfinished =
    outcome && (outcome.outcome.state === 'partial' || outcome.outcome.state === 'unknown');

  return (
    <form
      className="card form"
      onSubmit={submit}
      aria-label="Transfer between accounts"
      data-testid="transfer-form"
      noValidate
    >
      <h2>Transfer</h2>
      {activeProfile && !canTransfer && (
        <KeyPermissions profile={activeProfile} disabled="So the transfer form is disabled." />
      )}
      <fieldset className="plain" disabled={!canTransfer}>
        {!mainKnown && (
          <label className="field">
            <span>Main account e-mail</span>
            <input
              type="email"
              autoComplete="email"
              value={typedMain}
              onChange={(e) => setTypedMain(e.target.value)}
              aria-invalid={(touched && !mainCheck) || undefined}
              aria-describedby="transfer-main-help"
              data-testid="transfer-main-email"
            />
            <small
              id="transfer-main-help"
              className={touched && !mainCheck ? 'field-error' : 'muted'}
            >
              {touched && !mainCheck
                ? 'Enter the e-mail of the account this API key belongs to.'
                : 'The exchange does not tell Spotfolio this e-mail; it is remembered after the first transfer.'}
            </small>
          </label>
        )}
        {select('fromEmail', 'From')}
        {select('toEmail', 'To')}
        {sameAccount && <small className="field-error">Pick two different accounts.</small>}
        {viaMain && !sameAccount && (
          <small className="muted">
            Sub to sub moves through the main account: two transfers, shown as one step.
          </small>
        )}
        <div className="field-row">
          <label className="field">
            <span>Asset</span>
            <select
              value={assetShown}
              onChange={(e) => edit({ asset: e.target.value })}
              data-testid="transfer-asset"
              disabled={assets.length === 0}
            >
              {assets.length === 0 && <option value="">Nothing to move</option>}
              {assets.map((a) => (
                <option key={a.asset} value={a.asset}>
                  {a.asset.toUpperCase()}
                  {settings.privacyMode ? '' : ` (${formatStated(a.free)} free)`}
                </option>
              ))}
            </select>
          </label>
          <label className="field grow">
            <span>Amount</span>
            <input
              inputMode="decimal"
              value={draft.amount}
              onChange={(e) => edit({ amount: e.target.value })}
              onBlur={() => setTouched(true)}
              aria-invalid={(touched && !amountCheck.ok) || undefined}
              data-testid="transfer-amount"
            />
          </label>
        </div>
        <small className="muted">
          Free:{' '}
          {settings.privacyMode ? (
            '••••'
          ) : free === null ? (
            '—'
          ) : (
            <Amount value={free} asset={draft.asset} unit />
          )}{' '}
          {free !== null && new Decimal(free).gt(0) && (
            <button type="button" className="link" onClick={() => edit({ amount: free })}>
              Use all
            </button>
          )}
        </small>
        {touched && !amountCheck.ok && (
          <small className="field-error" data-testid="transfer-amount-error">
            {amountCheck.message}
          </small>
        )}
        {error !== undefined && <InlineError error={error} testId="transfer-error" />}
        <div className="form-actions">
          <button
            type="submit"
            className="primary"
            disabled={sending}
            data-testid="transfer-review"
          >
            Review transfer
          </button>
        </div>
        {outcome && <OutcomeView result={outcome.outcome} main={main} />}
        {unfinished &&
          outcome.outcome.fundsAt &&
          outcome.outcome.fundsAt !== outcome.draft.toEmail && (
            <button
              type="button"
              className="primary"
              data-testid="transfer-finish"
              onClick={() =>
                setConfirming({ ...outcome.draft, fromEmail: outcome.outcome.fundsAt ?? main })
              }
            >
              Finish transfer to {outcome.draft.toEmail}
            </button>
          )}
        {confirming && (
          <Modal
            title="Confirm the transfer"
            onClose={() => setConfirming(null)}
            testId="transfer-confirm"
          >
            <p>
              Move{' '}
              <strong>
                {confirming.amount} {confirming.asset.toUpperCase()}
              </strong>
              <br />
              from <strong>{label(confirming.fromEmail)}</strong>
              <br />
              to <strong>{label(confirming.toEmail)}</strong>
            </p>
            {confirming.fromEmail !== main && confirming.toEmail !== main && (
              <p className="muted">
                This is two transfers: first to the main account, then on to {confirming.toEmail}.
              </p>
            )}
            <ConfirmActions
              confirmLabel="Transfer"
              busyLabel="Sending…"
              busy={sending}
              onBack={() => setConfirming(null)}
              onConfirm={() => void send.run(confirming)}
              testId="transfer-confirm-send"
            />
          </Modal>
        )}
      </fieldset>
    </form>
  );
}

/**
 * The assets `account` holds a free amount of, with that amount: the main account's from its
 * funds (none until they load), a sub-account's from its balances.
 */
function heldAssets(
  account: string,
  view: SubAccountsView,
  mainFree: Map<string, string> | null,
): { asset: string; free: string }[] {
  const main = account === MAIN_ACCOUNT || account === view.parentEmail;
  const balances: [string, string][] = main
    ? [...(mainFree ?? new Map<string, string>()).entries()]
    : (view.accounts.find((a) => a.email === account)?.balances ?? []).map((b) => [
        b.asset,
        b.balance,
      ]);
  return balances
    .filter(([, free]) => /[1-9]/.test(free))
    .map(([asset, free]) => ({ asset, free }))
    .sort((a, b) => a.asset.localeCompare(b.asset));
}

const outcomeText: Record<TransferOutcome['state'], string> = {
  completed: 'Transfer completed',
  partial: 'Transfer stopped half-way',
  failed: 'Transfer failed; nothing moved',
  unknown: 'The exchange did not confirm the transfer',
};

function OutcomeView({ result, main }: { result: TransferOutcome; main: string }) {
  const tone = result.state === 'completed' ? 'ok' : result.state === 'failed' ? 'danger' : 'warn';
  return (
    <div
      className={`banner ${tone}`}
      role="status"
      data-testid="transfer-outcome"
      data-state={result.state}
    >
      <strong>{outcomeText[result.state]}</strong>
      <ol className="legs">
        {result.legs.map((leg, i) => (
          <li key={i} data-testid="transfer-leg">
            {leg.fromEmail === main ? 'Main' : leg.fromEmail} →{' '}
            {leg.toEmail === main ? 'Main' : leg.toEmail}:{' '}
            <span className={`badge leg-${leg.status}`}>{leg.status}</span>
            {leg.txnId !== undefined && <span className="muted"> #{leg.txnId}</span>}
            {leg.message && <span className="muted"> — {leg.message}</span>}
          </li>
        ))}
      </ol>
      {result.state !== 'completed' && (
        <div>
          {result.fundsAt
            ? `The ${formatStated(result.amount)} ${result.asset.toUpperCase()} ${result.state === 'unknown' ? 'are most likely' : 'are'} in ${result.fundsAt === main ? 'the main account' : result.fundsAt}.`
            : 'Where the funds are is not known yet: check the transfer history below before trying again.'}
        </div>
      )}
    </div>
  );
}
