import { useEffect, useMemo, useState } from 'react';
import QRCode from 'qrcode';
import type { CoinView, DepositAddressView, NetworkView } from '../../../shared/types';
import { formatDateTime, formatTime } from '../../../shared/format';
import { bridge } from '../lib/bridge';
import { useNow } from '../lib/hooks';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import {
  AsOf,
  CopyButton,
  EmptyState,
  ErrorBox,
  PageHeader,
  Skeleton,
  QueryStatus,
} from '../components/common';

export function Deposit() {
  const coins = useBridgeQuery('deposits.coins');
  const [coinName, setCoinName] = useState('');
  const [network, setNetwork] = useState('');

  const list = useMemo(
    () => [...(coins.data?.coins ?? [])].sort((a, b) => a.coin.localeCompare(b.coin)),
    [coins.data],
  );
  const coin: CoinView | undefined = list.find((c) => c.coin === coinName);

  const pickCoin = (name: string) => {
    setCoinName(name);
    const picked = list.find((c) => c.coin === name);
    const usable = picked?.networks.filter((n) => n.depositEnable) ?? [];
    // One usable network (or a default one) needs no extra click.
    const preferred =
      usable.find((n) => n.isDefault) ?? (usable.length === 1 ? usable[0] : undefined);
    setNetwork(preferred?.network ?? '');
  };

  return (
    <section className="page" data-testid="screen-deposit">
      <PageHeader title="Deposit">{coins.data && <AsOf asOf={coins.data.asOf} />}</PageHeader>
      <QueryStatus query={coins} rows={4} />
      {coins.data && list.length === 0 && (
        <EmptyState title="No coins known yet">
          The coin list loads from the exchange; check the connection.
        </EmptyState>
      )}
      {list.length > 0 && (
        <div className="grid two deposit">
          <div className="card">
            <label className="field">
              <span>1. Coin</span>
              <select
                value={coinName}
                onChange={(e) => pickCoin(e.target.value)}
                data-testid="deposit-coin"
              >
                <option value="">Choose a coin</option>
                {list.map((c) => (
                  <option key={c.coin} value={c.coin}>
                    {c.coin.toUpperCase()} — {c.name}
                  </option>
                ))}
              </select>
            </label>
            {coin && (
              <fieldset className="networks">
                <legend>2. Network</legend>
                {coin.networks.length === 0 && (
                  <p className="muted">This coin has no network to deposit on.</p>
                )}
                {coin.networks.map((n) => (
                  <NetworkOption
                    key={n.network}
                    net={n}
                    selected={network === n.network}
                    onSelect={() => setNetwork(n.network)}
                  />
                ))}
              </fieldset>
            )}
          </div>
          <div className="card">
            {coin && network ? (
              <AddressPanel
                key={`${coin.coin}:${network}`}
                coin={coin.coin}
                network={network}
                net={coin.networks.find((n) => n.network === network)}
              />
            ) : (
              <EmptyState title="Pick a coin and a network">
                The deposit address appears here with a QR code.
              </EmptyState>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function NetworkOption(props: { net: NetworkView; selected: boolean; onSelect: () => void }) {
  const { net } = props;
  return (
    <label
      className={`network ${net.depositEnable ? '' : 'disabled'} ${props.selected ? 'selected' : ''}`}
      data-testid={`network-${net.network}`}
    >
      <input
        type="radio"
        name="network"
        checked={props.selected}
        disabled={!net.depositEnable}
        onChange={props.onSelect}
      />
      <span>
        <strong>{net.name || net.network}</strong> <span className="muted">({net.network})</span>
        {net.memoRequired && <span className="badge warn">Memo</span>}
        <br />
        <small className="muted">
          {net.depositEnable
            ? `${net.confirmations} confirmation${net.confirmations === 1 ? '' : 's'} before the deposit is credited`
            : 'Deposits are suspended on this network by the exchange (maintenance or delisting). Pick another network.'}
        </small>
      </span>
    </label>
  );
}

/** Whole seconds until `at`, never below 0. */
function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * While the request waits for the exchange's one-a-minute slot: when it runs (from the pacer's
 * own next slot, counted down each second) and a way to cancel it.
 */
function QueuedRequest(props: {
  coin: string;
  network: string;
  canceling: boolean;
  onCancel: () => void;
}) {
  const pending = useBridgeQuery('deposits.pending');
  const now = useNow(1000);
  const mine = pending.data?.find(
    (request) => request.coin === props.coin && request.network === props.network,
  );
  if (!mine || mine.state === 'fetching' || mine.startsAt === null) {
    return <Skeleton rows={4} label="Fetching the deposit address" />;
  }
  const seconds = secondsUntil(mine.startsAt, now);
  return (
    <div
      className="queued-request"
      role="status"
      data-testid="deposit-queued"
      data-seconds={seconds}
    >
      <h2>
        {props.coin.toUpperCase()} address queued: runs in {seconds} s
      </h2>
      <p>
        The exchange gives out one deposit address a minute, and one was asked for less than a
        minute ago. This request goes out at {formatTime(mine.startsAt)}; addresses fetched before
        are shown at once meanwhile.
      </p>
      <div className="form-actions">
        <button
          type="button"
          onClick={props.onCancel}
          disabled={props.canceling}
          data-testid="deposit-cancel"
        >
          {props.canceling ? 'Canceling…' : 'Cancel the request'}
        </button>
      </div>
    </div>
  );
}

function AddressPanel(props: { coin: string; network: string; net: NetworkView | undefined }) {
  const [address, setAddress] = useState<DepositAddressView | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const [canceled, setCanceled] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (canceled) return;
    let live = true;
    bridge()
      .deposits.address({ coin: props.coin, network: props.network })
      .then(
        (view) => live && setAddress(view),
        (caught: unknown) => live && setError(caught),
      );
    return () => {
      live = false;
    };
  }, [props.coin, props.network, attempt, canceled]);

  useEffect(() => {
    if (!address) return;
    let live = true;
    QRCode.toDataURL(address.address, { margin: 1, width: 180, errorCorrectionLevel: 'M' }).then(
      (url) => live && setQr(url),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [address]);

  // Said canceled only once the main process has taken it out of the queue: a request that has
  // already gone out comes back as an address (or an error) instead.
  const canceling = useBridgeAction('deposits.cancel', {
    onSuccess: ({ canceled: taken }) => taken && setCanceled(true),
  });
  const cancel = () => void canceling.run({ coin: props.coin, network: props.network });
  // The address's failure, else the cancel's: either takes the queued request's place.
  const shownError = error ?? canceling.error;
  const askAgain = () => {
    setError(undefined);
    canceling.reset();
    setAttempt((a) => a + 1);
  };

  if (canceled && !address)
    return (
      <div className="queued-request" data-testid="deposit-canceled">
        <h2>Request canceled</h2>
        <p>Nothing was asked of the exchange for this address.</p>
        {shownError !== undefined && <ErrorBox error={shownError} />}
        <div className="form-actions">
          <button
            type="button"
            onClick={() => {
              setCanceled(false);
              askAgain();
            }}
            data-testid="deposit-ask-again"
          >
            Ask again
          </button>
        </div>
      </div>
    );
  if (shownError !== undefined && !address)
    return <ErrorBox error={shownError} onRetry={askAgain} />;
  if (!address)
    return (
      <QueuedRequest
        coin={props.coin}
        network={props.network}
        canceling={canceling.pending}
        onCancel={cancel}
      />
    );
  const memoNeeded = address.memoRequired || Boolean(props.net?.memoRequired);
  return (
    <div className="address-panel" data-testid="deposit-address-panel">
      <h2>
        Deposit {address.coin.toUpperCase()} on {props.net?.name || address.network}
      </h2>
      {memoNeeded && (
        <div className="banner danger" role="alert" data-testid="memo-warning">
          This network needs the memo/tag below as well as the address. A deposit without it cannot
          be credited to your account automatically.
        </div>
      )}
      <div className="address-body">
        {qr && (
          <img
            src={qr}
            alt={`QR code of the ${address.coin.toUpperCase()} deposit address`}
            width={180}
            height={180}
            data-testid="deposit-qr"
          />
        )}
        <div className="address-fields">
          <div className="field">
            <span>Address</span>
            <div className="copy-line">
              <code data-testid="deposit-address">{address.address}</code>
              <CopyButton text={address.address} label="Copy address" testId="copy-address" />
            </div>
          </div>
          {address.tag && (
            <div className="field">
              <span>{memoNeeded ? 'Memo / tag (required)' : 'Memo / tag'}</span>
              <div className="copy-line">
                <code data-testid="deposit-tag">{address.tag}</code>
                <CopyButton text={address.tag} label="Copy memo" testId="copy-tag" />
              </div>
            </div>
          )}
          <p className="muted small-text" data-testid="deposit-fetched">
            {address.fromCache ? 'Saved address' : 'Fetched from the exchange'},{' '}
            {formatDateTime(address.fetchedAt)}. Send only {address.coin.toUpperCase()} on this
            network to it.
          </p>
        </div>
      </div>
    </div>
  );
}
