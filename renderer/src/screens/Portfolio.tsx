import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { Decimal } from '../../../shared/exact-decimal';
import type { HistoryRange } from '../../../shared/types';
import { formatDateTime, formatPercent, privacyMask } from '../../../shared/format';
import { useApp } from '../context';
import { chartPalette } from '../lib/palette';
import { useBridgeQuery } from '../lib/query';
import {
  Segmented,
  AsOf,
  EmptyState,
  ErrorBox,
  PageHeader,
  Skeleton,
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

const ranges: { range: HistoryRange; label: string }[] = [
  { range: 'day', label: 'Day' },
  { range: 'week', label: 'Week' },
  { range: 'month', label: 'Month' },
  { range: 'year', label: 'Year' },
  { range: 'all', label: 'All' },
];

export function Portfolio() {
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
          <HistoryCard quote={quote} total={data.totalValue} />
          <div className="grid two">
            <PnlCard />
            <NetWorthCard />
          </div>
        </>
      )}
    </section>
  );
}

/** Its own queries and state: a new summary (every live change) does not redraw this chart. */
const HistoryCard = memo(function HistoryCard({ quote, total }: { quote: string; total: string }) {
  const { settings } = useApp();
  const [range, setRange] = useState<HistoryRange>('week');
  const history = useBridgeQuery('portfolio.history', { range });
  const estimate = history.data?.estimate ?? null;
  const points = useMemo(() => {
    const answer = history.data?.points ?? [];
    // The history's last point is the value now; the two answers are read at slightly different
    // moments, so the chart ends on the very total shown above it.
    const last = answer.at(-1);
    const ending =
      last?.source === 'current' ? [...answer.slice(0, -1), { ...last, value: total }] : answer;
    // Chart positions only: the plotted number never feeds back into an amount.
    return ending.map((p) => ({
      time: p.time,
      plot: Number(p.value),
      value: p.value,
      estimated: p.source === 'backfill',
    }));
  }, [history.data, total]);
  return (
    <div className="card">
      <div className="card-header">
        <h2>Value history</h2>
        <Segmented
          label="History range"
          options={ranges.map((r) => ({ value: r.range, label: r.label }))}
          value={range}
          onChange={setRange}
          testIdPrefix="range"
        />
      </div>
      <QueryStatus query={history} rows={1} height={220} />
      {history.data && points.length === 0 && (
        <EmptyState title="No history yet">
          Values are recorded every few minutes while Spotfolio runs.
        </EmptyState>
      )}
      {points.length > 0 && estimate && (
        <div className="muted small-text" data-testid="history-estimate">
          <span className="estimate-swatch" aria-hidden="true" /> Estimated before{' '}
          {formatDateTime(estimate.until).slice(0, 16)}:{' '}
          {estimate.basis === 'first-snapshot'
            ? 'the holdings of the first recorded value'
            : "today's holdings"}{' '}
          at past prices. Values are recorded from then on while Spotfolio runs.
        </div>
      )}
      {points.length > 0 && (
        <div
          data-testid="history-chart"
          role="img"
          aria-label={`Portfolio value over the ${range}`}
          data-last-value={settings.privacyMode ? undefined : points.at(-1)?.value}
          data-estimated-until={estimate?.until}
        >
          <Suspense fallback={<Skeleton rows={1} height={230} />}>
            <ValueChart
              points={points}
              estimatedUntil={estimate?.until ?? null}
              range={range}
              quote={quote}
              privacy={settings.privacyMode}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
});
