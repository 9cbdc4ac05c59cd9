import { useCallback, useEffect, useMemo, useState } from 'react';
import type { MethodInput } from '../../../shared/contract';
import type { BackfillProgress, WithdrawStatus, WithdrawView } from '../../../shared/types';
import { formatDateTime } from '../../../shared/format';
import { useApp } from '../context';
import { bridge } from '../lib/bridge';
import { useBridgeEvent, useNow } from '../lib/hooks';
import { bridgeKey, queryClient, useBridgeAction, useBridgeQuery } from '../lib/query';
import {
  Amount,
  CopyButton,
  EmptyState,
  ErrorBox,
  InlineError,
  PageHeader,
  ProgressBar,
} from '../components/common';
import { VirtualTable } from '../components/VirtualTable';
import { dateInputToMs } from '../lib/dates';
import {
  backfillWaitText,
  dateRangeProblem,
  withdrawDestination,
  withdrawKind,
} from '../lib/withdrawals';

type WithdrawPageInput = MethodInput<'withdrawals.list'>;
type WithdrawFilter = NonNullable<WithdrawPageInput['filter']>;

/** Tall enough for a status with its failure reason on a line of its own. */
export const withdrawRowHeight = 48;
const pageSize = 200;

const statusLabels: Record<WithdrawStatus, string> = {
  success: 'Completed',
  failed: 'Failed',
  pending: 'Pending',
  cancelled: 'Canceled',
};

function shorten(text: string, keep = 6): string {
  return text.length > keep * 2 + 1 ? `${text.slice(0, keep)}…${text.slice(-keep)}` : text;
}

export function Withdrawals() {
  const { toast } = useApp();
  const [coin, setCoin] = useState('');
  const [transferType, setTransferType] = useState<'' | 'onchain' | 'partner'>('');
  const [status, setStatus] = useState<'' | WithdrawStatus>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [sortDir, setSortDir] = useState<'asc' | 'desc'>('desc');
  const [total, setTotal] = useState<number | null>(null);
  const [listError, setListError] = useState<unknown>(undefined);

  const coins = useBridgeQuery('withdrawals.coins');

  const dateProblem = dateRangeProblem(dateInputToMs(from, false), dateInputToMs(to, true));
  const filter = useMemo<WithdrawFilter>(() => {
    const f: WithdrawFilter = {};
    if (coin) f.coin = coin;
    if (transferType) f.transferType = transferType;
    if (status) f.status = status;
    const startTime = dateInputToMs(from, false);
    const endTime = dateInputToMs(to, true);
    if (startTime !== undefined) f.startTime = startTime;
    if (endTime !== undefined) f.endTime = endTime;
    if (search.trim()) f.search = search.trim();
    return f;
  }, [coin, transferType, status, from, to, search]);
  const pageInput = useCallback(
    (offset: number, limit: number): WithdrawPageInput => ({
      filter,
      sort: { field: 'time', dir: sortDir },
      offset,
      limit,
    }),
    [filter, sortDir],
  );
  const pageKey = useCallback(
    (offset: number, limit: number) => bridgeKey('withdrawals.list', pageInput(offset, limit)),
    [pageInput],
  );
  const loadPage = useCallback(
    (offset: number, limit: number) => bridge().withdrawals.list(pageInput(offset, limit)),
    [pageInput],
  );
  const retryList = () =>
    void queryClient.refetchQueries({ queryKey: ['withdrawals.list'], type: 'active' });

  const exporting = useBridgeAction('export.csv', {
    onSuccess: (file) => {
      const url = URL.createObjectURL(new Blob([file.content], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast({
        title: 'Export ready',
        body: `${file.rows.toLocaleString('en-US')} withdrawals saved as ${file.fileName}`,
        tone: 'success',
      });
    },
  });

  const filtersActive = Object.keys(filter).length > 0;
  // Every record kept, unfiltered: the one count the banner and the header both give.
  const stored = useBridgeQuery('withdrawals.list', {
    filter: {},
    sort: { field: 'time', dir: 'desc' },
    offset: 0,
    limit: 1,
  });
  const storedTotal = stored.data?.total ?? null;
  const clearFilters = () => {
    setCoin('');
    setTransferType('');
    setStatus('');
    setFrom('');
    setTo('');
    setSearch('');
  };

  return (
    <section className="page page-fill" data-testid="screen-withdrawals">
      <PageHeader title="Withdrawals">
        <span className="muted" data-testid="withdraw-total">
          {dateProblem !== null || total === null
            ? ''
            : recordCount(total, filtersActive ? storedTotal : null)}
        </span>
        <button
          type="button"
          onClick={() => void exporting.run({ kind: 'withdrawals', filter, delimiter: ',' })}
          disabled={exporting.pending || total === 0 || dateProblem !== null}
          data-testid="export-csv"
        >
          {exporting.pending ? 'Exporting…' : 'Export CSV'}
        </button>
      </PageHeader>
      <BackfillCard storedTotal={storedTotal} />
      <div className="filters" role="search" aria-label="Filter withdrawals">
        <label>
          <span>Coin</span>
          <select value={coin} onChange={(e) => setCoin(e.target.value)} data-testid="filter-coin">
            <option value="">All coins</option>
            {(coins.data ?? []).map((c) => (
              <option key={c} value={c}>
                {c.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Type</span>
          <select
            value={transferType}
            onChange={(e) => setTransferType(e.target.value as typeof transferType)}
            data-testid="filter-type"
          >
            <option value="">On-chain and partner</option>
            <option value="onchain">On-chain</option>
            <option value="partner">Partner transfer</option>
          </select>
        </label>
        <label>
          <span>Status</span>
          <select
            value={status}
            onChange={(e) => setStatus(e.target.value as typeof status)}
            data-testid="filter-status"
          >
            <option value="">Any status</option>
            {(Object.keys(statusLabels) as WithdrawStatus[]).map((s) => (
              <option key={s} value={s}>
                {statusLabels[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>From</span>
          <input
            type="date"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            data-testid="filter-from"
          />
        </label>
        <label>
          <span>To</span>
          <input
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            data-testid="filter-to"
          />
        </label>
        <label className="grow">
          <span>Address or TxID</span>
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search"
            data-testid="filter-search"
          />
        </label>
        <label>
          <span>Order</span>
          <select
            value={sortDir}
            onChange={(e) => setSortDir(e.target.value as 'asc' | 'desc')}
            data-testid="sort-dir"
          >
            <option value="desc">Newest first</option>
            <option value="asc">Oldest first</option>
          </select>
        </label>
        {filtersActive && (
          <button
            type="button"
            className="ghost"
            onClick={clearFilters}
            data-testid="filters-clear"
          >
            Clear filters
          </button>
        )}
      </div>
      {exporting.error !== undefined && <InlineError error={exporting.error} />}
      {listError !== undefined && dateProblem === null && (
        <ErrorBox error={listError} onRetry={retryList} />
      )}
      {dateProblem !== null && (
        <div className="card">
          <EmptyState title="These dates select no day" testId="withdraw-date-problem">
            {dateProblem}
          </EmptyState>
        </div>
      )}
      {dateProblem === null && (
        <VirtualTable<WithdrawView>
          pageKey={pageKey}
          rowHeight={withdrawRowHeight}
          pageSize={pageSize}
          loadPage={loadPage}
          onTotal={setTotal}
          onError={setListError}
          label="Withdraw history"
          testId="withdraw-table"
          header={
            <>
              <div role="columnheader" className="c-time">
                Time
              </div>
              <div role="columnheader" className="c-coin">
                Coin
              </div>
              <div role="columnheader" className="c-amount num">
                Amount
              </div>
              <div role="columnheader" className="c-fee num">
                Fee
              </div>
              <div role="columnheader" className="c-type">
                Type
              </div>
              <div role="columnheader" className="c-network">
                Network
              </div>
              <div role="columnheader" className="c-status">
                Status
              </div>
              <div role="columnheader" className="c-address">
                Address or account
              </div>
              <div role="columnheader" className="c-txid">
                TxID
              </div>
            </>
          }
          empty={
            <EmptyState
              title={filtersActive ? 'No withdrawal matches these filters' : 'No withdrawals yet'}
              testId="withdraw-empty"
            >
              {filtersActive
                ? 'Change or clear the filters.'
                : 'Fetch the full history above to read older records.'}
            </EmptyState>
          }
          renderRow={(row) =>
            row ? (
              <WithdrawRow row={row} />
            ) : (
              <div role="cell" className="vrow-loading" aria-busy="true" />
            )
          }
        />
      )}
    </section>
  );
}

function WithdrawRow({ row }: { row: WithdrawView }) {
  const destination = withdrawDestination(row);
  return (
    <>
      <div role="cell" className="c-time">
        {formatDateTime(row.createdAt)}
      </div>
      <div role="cell" className="c-coin asset">
        {row.coin.toUpperCase()}
      </div>
      <div role="cell" className="c-amount num">
        <Amount value={row.amount} asset={row.coin} />
      </div>
      <div role="cell" className="c-fee num">
        <Amount value={row.transactionFee} asset={row.coin} />
      </div>
      <div role="cell" className="c-type">
        {row.partnerTransfer ? (
          <span
            className="badge partner"
            title="Sent to another account on the exchange, off-chain"
          >
            {withdrawKind(row)}
          </span>
        ) : (
          <span className="badge">{withdrawKind(row)}</span>
        )}
      </div>
      <div role="cell" className="c-network">
        {row.network ?? <span className="muted">—</span>}
      </div>
      <div role="cell" className="c-status">
        <span className={`badge status-${row.status}`}>{statusLabels[row.status]}</span>
        {row.failureInfo && (
          <span className="withdraw-failure" data-testid="failure-info">
            {row.failureInfo}
          </span>
        )}
      </div>
      <div role="cell" className="c-address mono">
        {destination ? (
          <>
            {destination.kind === 'account' && <span className="muted">to</span>}
            <span
              title={destination.text}
              data-testid={destination.kind === 'account' ? 'counterparty' : undefined}
            >
              {shorten(destination.text)}
            </span>
            <CopyButton
              text={destination.text}
              label={`Copy ${destination.kind} ${destination.text}`}
            />
          </>
        ) : (
          <span className="muted">{row.partnerTransfer ? 'account not named' : '—'}</span>
        )}
      </div>
      <div role="cell" className="c-txid mono">
        {row.txId ? (
          <>
            <span title={row.txId}>{shorten(row.txId)}</span>
            <CopyButton text={row.txId} label="Copy transaction ID" />
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </div>
    </>
  );
}

/** "323 records", or "12 of 323 records" when filters hide some. */
function recordCount(shown: number, of: number | null): string {
  const count = `${shown.toLocaleString('en-US')}${of === null ? '' : ` of ${of.toLocaleString('en-US')}`}`;
  return `${count} record${shown === 1 && of === null ? '' : 's'}`;
}

function BackfillCard({ storedTotal }: { storedTotal: number | null }) {
  // A wait for the rate limit counts down by the second.
  const now = useNow(1000);
  const [progress, setProgress] = useState<BackfillProgress | null>(null);
  // What reading the state failed with, until a fetch is asked for.
  const [readError, setReadError] = useState<unknown>(undefined);
  useEffect(() => {
    bridge().withdrawals.backfillStatus().then(setProgress, setReadError);
  }, []);
  useBridgeEvent('sync.progress', (payload) => {
    if (payload.job === 'withdrawBackfill') setProgress(payload.progress);
  });
  const backfill = useBridgeAction('withdrawals.backfill', { onSuccess: setProgress });
  const start = () => {
    setReadError(undefined);
    void backfill.run({});
  };
  const error = backfill.error ?? readError;
  const running = progress?.state === 'running';
  const waitText = progress === null ? null : backfillWaitText(progress, now);
  const kept = storedTotal === null ? '' : `: ${recordCount(storedTotal, null)} kept`;
  return (
    <div className="card compact backfill" data-testid="backfill">
      <div className="backfill-text">
        {progress === null && 'Reading the history state…'}
        {progress?.state === 'idle' &&
          'The exchange answers 90 days at a time. Fetch the full history once; it is kept offline.'}
        {running &&
          `Fetching history: ${progress.doneWindows} of ${progress.totalWindows} windows${kept}`}
        {waitText !== null && (
          <div className="muted small-text" data-testid="backfill-wait">
            {waitText}
          </div>
        )}
        {progress?.state === 'done' &&
          `Full history fetched${progress.coveredFrom ? ` back to ${formatDateTime(progress.coveredFrom).slice(0, 10)}` : ''}${kept}.`}
        {progress?.state === 'error' &&
          `History fetch stopped: ${progress.error ?? 'unknown error'}. Resume to continue where it stopped.`}
      </div>
      {running && (
        <ProgressBar
          value={progress.doneWindows}
          max={progress.totalWindows}
          label="Withdraw history backfill"
          testId="backfill-progress"
        />
      )}
      {!running && progress !== null && (
        <button
          type="button"
          onClick={start}
          disabled={backfill.pending}
          data-testid="backfill-start"
        >
          {progress.state === 'error'
            ? 'Resume'
            : progress.state === 'done'
              ? 'Fetch again'
              : 'Fetch full history'}
        </button>
      )}
      {error !== undefined && <InlineError error={error} />}
    </div>
  );
}
