/**
 * The ledger on the Portfolio screen: the P&L card (the chosen range's realized P&L, fees, change
 * in unrealized P&L and total change, each the ledger's for that interval; unrealized P&L, cost
 * basis and value now; what the totals include, inferred entries, the trade import's progress, the
 * reports) and the net worth card (each account's value and their sum); each covers every account
 * together or the main account alone, as its switch says.
 */
import { memo, useState } from 'react';
import { Decimal } from '../../../shared/exact-decimal';
import {
  COST_METHOD_HINTS,
  COST_METHOD_LABELS,
  COST_METHODS,
  type CostMethodName,
  type LedgerComputingView,
  type RangePnlView,
  type TradeImportView,
} from '../../../shared/ledger';
import type { HistoryRange } from '../../../shared/types';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { ReportsDialog } from './ReportsDialog';
import { InlineError, ProgressBar, QueryStatus, Segmented, Value } from './common';
import { ScopeSwitch, scopeInput, type LedgerScope } from './ScopeSwitch';
import { UnseenTrades } from './SubAccountKey';

function tone(value: string): string {
  const number = new Decimal(value);
  return number.isZero() ? '' : number.isNegative() ? 'down' : 'up';
}

/**
 * One figure of the P&L card; a P&L (signed) is shown with its sign and coloured by it. A figure
 * the ledger is still computing (null) shows no number: a number shown would silently change.
 */
export function Figure(props: {
  label: string;
  value: string | null;
  currency: string;
  testId: string;
  signed?: boolean;
}) {
  if (props.value === null) {
    return (
      <div>
        <dt>{props.label}</dt>
        <dd className="muted" data-testid={props.testId} data-state="computing">
          Computing…
        </dd>
      </div>
    );
  }
  return (
    <div>
      <dt>{props.label}</dt>
      <dd className={props.signed ? tone(props.value) : undefined}>
        <Value
          value={props.value}
          quote={props.currency}
          signed={props.signed}
          testId={props.testId}
        />
      </dd>
    </div>
  );
}

function ImportProgress(props: { progress: TradeImportView }) {
  const { progress } = props;
  if (progress.state === 'running') {
    return (
      <ProgressBar
        value={progress.symbolsDone}
        max={Math.max(1, progress.symbolsTotal)}
        label={`Importing own trades: ${progress.symbolsDone} of ${progress.symbolsTotal} markets, ${progress.trades.toLocaleString('en-US')} new trades`}
        testId="ledger-import-progress"
      />
    );
  }
  if (progress.state === 'error') {
    return (
      <div className="muted small-text" data-testid="ledger-import-progress">
        Trade import paused ({progress.error}); it resumes where it stopped.
      </div>
    );
  }
  return (
    <div className="muted small-text" data-testid="ledger-import-progress">
      {progress.complete
        ? `${progress.storedTrades.toLocaleString('en-US')} own trades imported`
        : `${progress.storedTrades.toLocaleString('en-US')} own trades so far; the import continues`}
    </div>
  );
}

/** What the figures still wait for, in words: "the trade import and past prices of BTCUSDT". */
export function computingWords(computing: LedgerComputingView): string {
  const waits: string[] = [];
  if (computing.trades) waits.push('the import of your trades');
  if (computing.prices.length > 0) {
    const markets = computing.prices.map((symbol) => symbol.toUpperCase()).join(', ');
    const progress = computing.progress;
    waits.push(
      progress
        ? `past prices of ${markets} (${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')} looked up)`
        : `past prices of ${markets}`,
    );
  }
  return waits.join(' and ');
}

/** How a range's figures are named: "this week", "over all history". */
export function rangeWords(range: HistoryRange): string {
  return range === 'all' ? 'over all history' : `this ${range}`;
}

/**
 * The range's four figures on a P&L card (realized, fees, the change in unrealized, the total),
 * each shown only once final; none when no range was asked for. Test ids are `${prefix}-...`.
 */
export function rangeFacts(
  pnl: RangePnlView | null,
  range: HistoryRange,
  final: (value: string) => string | null,
  prefix: string,
) {
  if (!pnl) return [];
  return [
    {
      label: `Realized P&L ${rangeWords(range)}`,
      value: final(pnl.realizedPnl),
      signed: true,
      testId: `${prefix}-realized`,
    },
    {
      label: `Fees paid ${rangeWords(range)}`,
      value: final(pnl.feesPaid),
      testId: `${prefix}-fees`,
    },
    {
      label: `Change in unrealized P&L ${rangeWords(range)}`,
      value: final(pnl.unrealizedChange),
      signed: true,
      testId: `${prefix}-unrealized-change`,
    },
    {
      label: `P&L ${rangeWords(range)}`,
      value: final(pnl.pnl),
      signed: true,
      testId: `${prefix}-range`,
    },
  ];
}

export const RANGES: { value: HistoryRange; label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
  { value: 'year', label: 'Year' },
  { value: 'all', label: 'All' },
];

// Memoised, as NetWorthCard: they read their own queries, so the Portfolio's new summary (every
// live change) or a toast does not re-render them.
export const PnlCard = memo(function PnlCard() {
  const [range, setRange] = useState<HistoryRange>('month');
  const [scope, setScope] = useState<LedgerScope>('every');
  const summary = useBridgeQuery('ledger.summary', { range, ...scopeInput(scope) });
  const [reports, setReports] = useState(false);
  const setMethod = useBridgeAction('ledger.setMethod', { concurrent: true });
  const methodError = setMethod.error;
  const data = summary.data;
  const final = (value: string) => (data?.computing ? null : value);
  // The profile's method, as Settings sets it: every figure here and the reports follow it.
  const chooseMethod = (method: CostMethodName) => void setMethod.run({ method });
  return (
    // data-at: when the main process's ledger made these figures (its clock), for whoever times
    // the card against it.
    <div className="card" data-testid="pnl-card" data-at={data?.at}>
      <div className="card-header">
        <h2>Profit and loss</h2>
        <Segmented
          label="P&L range"
          options={RANGES}
          value={range}
          onChange={setRange}
          testIdPrefix="pnl-range"
        />
        {data && (
          <span className="muted small-text">
            <select
              aria-label="Cost method"
              title={COST_METHOD_HINTS[data.method]}
              value={data.method}
              onChange={(e) => chooseMethod(e.target.value as CostMethodName)}
              data-testid="pnl-method-select"
            >
              {COST_METHODS.map((method) => (
                <option key={method} value={method}>
                  {COST_METHOD_LABELS[method]}
                </option>
              ))}
            </select>{' '}
            <span data-testid="pnl-method">in {data.currency.toUpperCase()}</span>
          </span>
        )}
      </div>
      <ScopeSwitch
        scope={scope}
        onChange={setScope}
        subAccounts={data?.subAccounts}
        testIdPrefix="pnl-scope"
      />
      {methodError !== undefined && <InlineError error={methodError} />}
      <QueryStatus query={summary} rows={4} />
      {data && (
        <>
          {data.computing && (
            <p className="small-text" role="status" data-testid="pnl-computing">
              Computing: waiting for {computingWords(data.computing)}. The figures appear once they
              are final; the value now is already.
            </p>
          )}
          <dl className="facts">
            {[
              ...rangeFacts(data.range, range, final, 'pnl'),
              {
                label: 'Unrealized P&L now',
                value: final(data.totals.unrealizedPnl),
                signed: true,
                testId: 'pnl-unrealized',
              },
              { label: 'Cost basis now', value: final(data.totals.costBasis), testId: 'pnl-cost' },
              { label: 'Value now', value: data.totals.value, testId: 'pnl-value' },
            ].map((figure) => (
              <Figure key={figure.testId} {...figure} currency={data.currency} />
            ))}
          </dl>
          <p className="muted small-text" data-testid="pnl-includes">
            Includes {data.includes}.
          </p>
          <UnseenTrades unseen={data.unseenTrades} testId="pnl-unseen" />
          {data.inferred.count > 0 && (
            <p className="small-text" data-testid="pnl-inferred">
              {data.inferred.count} inferred {data.inferred.count === 1 ? 'entry' : 'entries'}{' '}
              (movements the exchange&apos;s records do not explain, such as deposits);{' '}
              {data.inferred.estimatedBasis} valued at the market price of the time. Label them on
              each asset&apos;s page.
            </p>
          )}
          {data.inferred.review > 0 && (
            <p className="small-text" data-testid="pnl-review">
              <strong>
                {data.inferred.review}{' '}
                {data.inferred.review === 1 ? 'label or cost needs' : 'labels or costs need'} your
                look again
              </strong>{' '}
              (new records changed the entries they were written about):{' '}
              {data.inferred.reviewAssets.map((asset, index) => (
                <span key={asset}>
                  {index > 0 && ', '}
                  <a href={`#/funds/${asset}`}>{asset.toUpperCase()}</a>
                </span>
              ))}
              .
            </p>
          )}
          {data.unpriced.length > 0 && (
            <p className="muted small-text">
              Left out (no price in {data.currency.toUpperCase()}):{' '}
              {data.unpriced.map((a) => a.toUpperCase()).join(', ')}
            </p>
          )}
          <ImportProgress progress={data.import} />
          <button type="button" onClick={() => setReports(true)} data-testid="open-reports">
            Reports…
          </button>
        </>
      )}
      {reports && <ReportsDialog onClose={() => setReports(false)} />}
    </div>
  );
});

export const NetWorthCard = memo(function NetWorthCard() {
  const [scope, setScope] = useState<LedgerScope>('every');
  const worth = useBridgeQuery('ledger.netWorth', scopeInput(scope));
  const data = worth.data;
  return (
    <div className="card" data-testid="net-worth-card">
      <h2>Net worth</h2>
      <ScopeSwitch
        scope={scope}
        onChange={setScope}
        subAccounts={data?.subAccounts}
        testIdPrefix="net-worth-scope"
      />
      <QueryStatus query={worth} rows={3} />
      {data && (
        <>
          <div className="stat-value">
            <Value value={data.total} quote={data.currency} testId="net-worth-total" />
          </div>
          <p className="muted small-text" data-testid="net-worth-covers">
            {data.covers}, valued at today&apos;s prices.
          </p>
          <UnseenTrades unseen={data.unseenTrades} testId="net-worth-unseen" />
          <table className="table compact" data-testid="net-worth-accounts">
            <tbody>
              {data.accounts.map((account) => (
                <tr key={account.account} data-testid={`net-worth-${account.account}`}>
                  <td>{account.name}</td>
                  <td className="num">
                    <Value value={account.value} quote={data.currency} />
                  </td>
                  <td className="muted small-text">
                    {account.unpriced.length > 0
                      ? `not counted: ${account.unpriced.map((a) => a.toUpperCase()).join(', ')}`
                      : `${account.assets.length} ${account.assets.length === 1 ? 'asset' : 'assets'}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
});
