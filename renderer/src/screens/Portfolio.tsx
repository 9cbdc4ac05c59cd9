import { lazy, memo, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Decimal } from '../../../shared/exact-decimal';
import { HISTORY_SPAN_MS, type HistoryRange } from '../../../shared/types';
import { formatPercent, privacyMask } from '../../../shared/format';
import { useApp } from '../context';
import { chartPalette } from '../lib/palette';
import { historyWait, inferredNote, unreadWithdrawalsNote } from '../lib/value-history';
import { useBridgeQuery } from '../lib/query';
import {
  Segmented,
  AsOf,
  EmptyState,
  ErrorBox,
  PageHeader,
  Skeleton,
  ProgressBar,
  StaleBanner,
  Value,
  QueryStatus,
} from '../components/common';
import { NetWorthCard, PnlCard } from '../components/LedgerCards';

// The charts (recharts) load in their own chunk, after the numbers are on screen.
const AllocationDonut = lazy(() =>
  import('./PortfolioCharts').then((m) => ({ default: m.AllocationDonut })),
);
const ValueChart = lazy(() => import('./PortfolioCharts').then((m) => ({ default: m.ValueChart })));
// Every profile together is a view of its own, loaded when it is chosen.
const PortfolioAllProfiles = lazy(() =>
  import('./PortfolioAllProfiles').then((m) => ({ default: m.PortfolioAllProfiles })),
);

const ranges: { range: HistoryRange; label: string }[] = [
  { range: 'day', label: 'Day' },
  { range: 'week', label: 'Week' },
  { range: 'month', label: 'Month' },
  { range: 'year', label: 'Year' },
  { range: 'all', label: 'All' },
];

const views = [
  { value: 'one', label: 'This profile' },
  { value: 'all', label: 'All profiles' },
] as const;

/**
 * The active profile's portfolio, or every profile's together (`all`, "#/portfolio/all"); the
 * choice between them is shown once there is more than one profile.
 */
export function Portfolio(props: { all: boolean }) {
  const { profiles, navigate } = useApp();
  const choice =
    profiles.length > 1 || props.all ? (
      <Segmented
        label="Portfolio of"
        options={views}
        value={props.all ? 'all' : 'one'}
        onChange={(view) =>
          navigate(view === 'all' ? { screen: 'portfolio', all: true } : { screen: 'portfolio' })
        }
        testIdPrefix="portfolio-view"
      />
    ) : null;
  return props.all ? (
    <Suspense fallback={<Skeleton rows={6} height={28} label="Loading the portfolio" />}>
      <PortfolioAllProfiles choice={choice} charts={{ AllocationDonut, ValueChart }} />
    </Suspense>
  ) : (
    <OneProfile choice={choice} />
  );
}

function OneProfile(props: { choice: ReactNode }) {
  const { settings, updateSettings } = useApp();
  const summary = useBridgeQuery('portfolio.summary');
  // A profile whose funds were never fetched has no value yet: a 0 would be a false statement.
  const data = summary.data?.asOf === null ? undefined : summary.data;
  const quote = data?.quoteAsset ?? settings.quoteAsset;

  const slices = useMemo(() => {
    if (!data) return [];
    const threshold = new Decimal(settings.smallBalanceThreshold || '0');
    const visible = settings.hideSmallBalances
      ? data.allocation.filter((s) => new Decimal(s.value).gte(threshold))
      : data.allocation;
    return visible.map((slice) => ({ ...slice, plot: Number(slice.value) }));
  }, [data, settings.hideSmallBalances, settings.smallBalanceThreshold]);

  const changeTone = data ? (new Decimal(data.change24hValue).isNegative() ? 'down' : 'up') : '';

  return (
    <section className="page" data-testid="screen-portfolio">
      <PageHeader title="Portfolio">
        {props.choice}
        {data && <AsOf asOf={data.asOf} />}
        <label className="toggle">
          <input
            type="checkbox"
            checked={settings.hideSmallBalances}
            onChange={(e) => void updateSettings({ hideSmallBalances: e.target.checked })}
            data-testid="hide-small"
          />
          Hide small balances
        </label>
      </PageHeader>
      {data && <StaleBanner asOf={data.asOf} />}
      {summary.error !== undefined && !data && (
        <ErrorBox error={summary.error} onRetry={summary.reload} />
      )}
      {!data && summary.error === undefined && (
        <Skeleton
          rows={6}
          height={28}
          label={summary.data ? 'Fetching your funds from the exchange' : 'Loading the portfolio'}
        />
      )}
      {data && (
        <>
          <div className="grid three">
            <div className="card stat">
              <div className="stat-label">Total value</div>
              <div className="muted small-text" data-testid="portfolio-scope">
                Main account only: sub-accounts are not included.
              </div>
              <div className="stat-value">
                <Value value={data.totalValue} quote={quote} testId="portfolio-total" />
              </div>
              <div className={`stat-change ${changeTone}`} data-testid="portfolio-change">
                <Value value={data.change24hValue} quote={quote} signed /> (
                {settings.privacyMode
                  ? privacyMask
                  : formatPercent(data.change24hPercent, { signed: true })}
                ) 24h
              </div>
              {data.unpriced.length > 0 && (
                <div className="muted small-text">
                  Not counted (no price in {quote.toUpperCase()}):{' '}
                  {data.unpriced.map((a) => a.toUpperCase()).join(', ')}
                </div>
              )}
              <dl className="facts">
                <div>
                  <dt>Assets held</dt>
                  <dd>{data.allocation.length + data.unpriced.length}</dd>
                </div>
                {data.allocation[0] && (
                  <div>
                    <dt>Largest holding</dt>
                    <dd>
                      {data.allocation[0].asset.toUpperCase()} ·{' '}
                      {formatPercent(data.allocation[0].share, { isRatio: true, precision: 1 })}
                    </dd>
                  </div>
                )}
              </dl>
              <a href="#/funds" className="small-text">
                See every balance →
              </a>
            </div>
            <div className="card span-two">
              <h2>Allocation</h2>
              {slices.length === 0 ? (
                <EmptyState title="Nothing to show yet">
                  Deposit funds or show small balances to see the allocation.
                </EmptyState>
              ) : (
                <div className="allocation">
                  <div
                    className="allocation-chart"
                    data-testid="allocation-chart"
                    aria-label="Allocation by asset"
                    role="img"
                  >
                    <Suspense fallback={<Skeleton rows={1} height={200} />}>
                      <AllocationDonut slices={slices} />
                    </Suspense>
                  </div>
                  <ul className="legend" aria-label="Allocation">
                    {slices.slice(0, 8).map((slice, i) => (
                      <li key={slice.asset}>
                        <span
                          className="swatch"
                          style={{ background: chartPalette[i % chartPalette.length] }}
                        />
                        <span className="legend-asset">{slice.asset.toUpperCase()}</span>
                        <span className="num">
                          {formatPercent(slice.share, { isRatio: true, precision: 1 })}
                        </span>
                        <Value value={slice.value} quote={quote} />
                      </li>
                    ))}
                    {slices.length > 8 && <li className="muted">and {slices.length - 8} more</li>}
                  </ul>
                </div>
              )}
            </div>
          </div>
          <HistoryCard />
          <div className="grid two">
            <PnlCard />
            <NetWorthCard />
          </div>
        </>
      )}
    </section>
  );
}

/**
 * The main account's value over the chosen range, from the ledger: its holdings replayed from the
 * exchange's records at the prices of the time. Its own query and state: a new summary (every live
 * change) does not redraw this chart.
 */
const HistoryCard = memo(function HistoryCard() {
  const { settings } = useApp();
  const [range, setRange] = useState<HistoryRange>('week');
  const history = useBridgeQuery('ledger.history', { range });
  const backfill = useBridgeQuery('withdrawals.backfillStatus');
  const data = history.data;
  const wait = data ? historyWait(data) : null;
  const unread = unreadWithdrawalsNote(backfill.data, Date.now() - HISTORY_SPAN_MS[range]);
  const points = useMemo(
    () =>
      // Chart positions only: the plotted number never feeds back into an amount.
      (data?.points ?? []).map((p) => ({ ...p, plot: Number(p.value) })),
    [data],
  );
  const drawn = data !== undefined && wait === null && points.length > 1;
  return (
    <div className="card" data-testid="history-card">
      <div className="card-header">
        <h2>Value history</h2>
        <Segmented
          label="History range"
          options={ranges.map((r) => ({ value: r.range, label: r.label }))}
          value={range}
          onChange={setRange}
          testIdPrefix="range"
        />
        {data && (
          <span className="muted small-text">Main account, in {data.currency.toUpperCase()}</span>
        )}
      </div>
      <QueryStatus query={history} rows={1} height={220} />
      {wait && (
        <div className="muted small-text" data-testid="history-wait" data-kind={wait.kind}>
          {wait.text}
          {wait.kind === 'import' && wait.progress && (
            <ProgressBar
              value={wait.progress.done}
              max={Math.max(1, wait.progress.total)}
              label="Own trades imported, by market"
            />
          )}
        </div>
      )}
      {data && !wait && !drawn && (
        <EmptyState title="No history yet" testId="history-empty">
          The history starts with the first trade, withdrawal or transfer of the main account.
        </EmptyState>
      )}
      {drawn && (
        <div
          data-testid="history-chart"
          role="img"
          aria-label={`Portfolio value over the ${range}`}
          data-range={range}
          data-currency={data.currency}
          data-interval={data.interval}
          // The points as the ledger gave them, for whoever checks the line: hidden amounts stay
          // out of the page in privacy mode.
          data-points={
            settings.privacyMode
              ? undefined
              : JSON.stringify(data.points.map((p) => [p.time, p.value, p.onInferred ? 1 : 0]))
          }
          data-last-value={settings.privacyMode ? undefined : points.at(-1)?.value}
        >
          <Suspense fallback={<Skeleton rows={1} height={230} />}>
            <ValueChart
              points={points}
              inferred={data.inferred}
              range={range}
              quote={data.currency}
              privacy={settings.privacyMode}
            />
          </Suspense>
        </div>
      )}
      {drawn && data.inferred && (
        <div
          className="muted small-text"
          data-testid="history-inferred"
          data-entries={data.inferred.entries}
        >
          <span className="inferred-swatch" aria-hidden="true" /> {inferredNote(data.inferred)}{' '}
          Label them on each asset&apos;s page:{' '}
          {data.inferred.assets.map((asset, i) => (
            <span key={asset}>
              {i > 0 && ', '}
              <a href={`#/funds/${asset}`}>{asset.toUpperCase()}</a>
            </span>
          ))}
          .
        </div>
      )}
      {drawn && unread && (
        <div className="muted small-text" data-testid="history-withdrawals">
          {unread} <a href="#/withdrawals">Fetch the full withdraw history</a>.
        </div>
      )}
    </div>
  );
});
