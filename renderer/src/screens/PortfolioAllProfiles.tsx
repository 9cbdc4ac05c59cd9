/**
 * The Portfolio of every profile together ("#/portfolio/all"): net worth with each profile's
 * share, the allocation over every profile, the P&L card's figures and the value history of the
 * whole, in the Settings' quote asset, each profile (every account of it) valued at its own
 * exchange's prices. It says which profiles and accounts it covers and names any it leaves out,
 * with the reason. The charts are the Portfolio's own, handed in by Portfolio.tsx.
 */
import { Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { COST_METHOD_LABELS } from '../../../shared/ledger';
import { formatDateTime, formatPercent } from '../../../shared/format';
import type { HistoryRange } from '../../../shared/types';
import { useApp } from '../context';
import { chartPalette } from '../lib/palette';
import { useBridgeQuery } from '../lib/query';
import {
  EmptyState,
  PageHeader,
  QueryStatus,
  Segmented,
  Skeleton,
  Value,
} from '../components/common';
import { computingWords, Figure, RANGES, rangeFacts } from '../components/LedgerCards';

/** The Portfolio's charts (PortfolioCharts.tsx, loaded lazily by Portfolio.tsx). */
export interface PortfolioChartParts {
  AllocationDonut: ComponentType<{ slices: { asset: string; plot: number }[] }>;
  ValueChart: ComponentType<{
    points: { time: number; plot: number; value: string; onInferred: boolean }[];
    inferred: { from: number; to: number } | null;
    range: HistoryRange;
    quote: string;
    privacy: boolean;
  }>;
}

export function PortfolioAllProfiles(props: { choice: ReactNode; charts: PortfolioChartParts }) {
  const [range, setRange] = useState<HistoryRange>('month');
  const summary = useBridgeQuery('ledger.allProfiles', { range });
  const data = summary.data;
  const final = (value: string) => (data?.computing ? null : value);
  const slices = useMemo(
    // Chart positions only: the plotted number never feeds back into an amount.
    () => (data?.allocation ?? []).map((slice) => ({ ...slice, plot: Number(slice.value) })),
    [data],
  );
  const { AllocationDonut } = props.charts;
  return (
    <section className="page" data-testid="screen-portfolio-all">
      <PageHeader title="Portfolio">{props.choice}</PageHeader>
      <QueryStatus query={summary} rows={6} height={28} />
      {data && (
        <>
          <div className="grid two">
            <div className="card" data-testid="all-net-worth-card">
              <h2>Net worth of every profile</h2>
              <div className="stat-value">
                <Value value={data.total} quote={data.currency} testId="all-net-worth" />
              </div>
              <p className="muted small-text" data-testid="all-includes">
                {data.includes}.
              </p>
              <table className="table compact" data-testid="all-profiles">
                <thead>
                  <tr>
                    <th scope="col">Profile</th>
                    <th scope="col" className="num">
                      Value
                    </th>
                    <th scope="col" className="num">
                      Share
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.profiles.map((profile) => (
                    <tr key={profile.profileId} data-testid={`all-profile-${profile.profileId}`}>
                      <td>
                        {profile.name}
                        {profile.active && <span className="badge">Active</span>}
                        <div className="muted small-text">
                          {profile.covers}; balances as read {formatDateTime(profile.balancesAt)}
                          {profile.pricesAt !== null &&
                            `, prices ${formatDateTime(profile.pricesAt)}`}
                          ; P&amp;L by {COST_METHOD_LABELS[profile.method]}
                          {profile.unpriced.length > 0 &&
                            `; not counted (no price): ${profile.unpriced.map((a) => a.toUpperCase()).join(', ')}`}
                        </div>
                      </td>
                      <td className="num">
                        <Value
                          value={profile.value}
                          quote={data.currency}
                          testId={`all-profile-value-${profile.profileId}`}
                        />
                      </td>
                      <td className="num" data-testid={`all-profile-share-${profile.profileId}`}>
                        {formatPercent(profile.share, { isRatio: true, precision: 1 })}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {data.leftOut.length > 0 && (
                <div className="small-text" data-testid="all-left-out">
                  <strong>Left out of every figure here:</strong>
                  <ul>
                    {data.leftOut.map((profile) => (
                      <li key={profile.profileId} data-testid={`all-left-out-${profile.profileId}`}>
                        {profile.name}: {profile.reason}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
            <div className="card">
              <h2>Allocation of every profile</h2>
              {slices.length === 0 ? (
                <EmptyState title="Nothing to show yet">
                  No profile holds a priced asset.
                </EmptyState>
              ) : (
                <div className="allocation">
                  <div className="allocation-chart" aria-label="Allocation by asset" role="img">
                    <Suspense fallback={<Skeleton rows={1} height={200} />}>
                      <AllocationDonut slices={slices} />
                    </Suspense>
                  </div>
                  <ul className="legend" aria-label="Allocation" data-testid="all-allocation">
                    {slices.map((slice, i) => (
                      <li key={slice.asset}>
                        <span
                          className="swatch"
                          style={{ background: chartPalette[i % chartPalette.length] }}
                        />
                        <span className="legend-asset">{slice.asset.toUpperCase()}</span>
                        <span className="num">
                          {formatPercent(slice.share, { isRatio: true, precision: 1 })}
                        </span>
                        <Value value={slice.value} quote={data.currency} />
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {data.unpriced.length > 0 && (
                <p className="muted small-text">
                  Not counted (no price in {data.currency.toUpperCase()} on the profile&apos;s
                  exchange): {data.unpriced.map((a) => a.toUpperCase()).join(', ')}
                </p>
              )}
            </div>
          </div>
          <AllProfilesHistory charts={props.charts} />
          <div className="card" data-testid="all-pnl-card">
            <div className="card-header">
              <h2>Profit and loss of every profile</h2>
              <Segmented
                label="P&L range"
                options={RANGES}
                value={range}
                onChange={setRange}
                testIdPrefix="all-pnl-range"
              />
              <span className="muted small-text">in {data.currency.toUpperCase()}</span>
            </div>
            {data.computing && (
              <p className="small-text" role="status" data-testid="all-pnl-computing">
                Computing: waiting for{' '}
                {data.computing.map((wait) => waitWords(wait, data.profiles)).join('; ')}. The
                figures appear once they are final; the value now is already.
              </p>
            )}
            <dl className="facts">
              {[
                ...rangeFacts(data.range, range, final, 'all-pnl'),
                {
                  label: 'Unrealized P&L now',
                  value: final(data.totals.unrealizedPnl),
                  signed: true,
                  testId: 'all-pnl-unrealized',
                },
                {
                  label: 'Cost basis now',
                  value: final(data.totals.costBasis),
                  testId: 'all-pnl-cost',
                },
                { label: 'Value now', value: data.totals.value, testId: 'all-pnl-value' },
              ].map((figure) => (
                <Figure key={figure.testId} {...figure} currency={data.currency} />
              ))}
            </dl>
            <p className="muted small-text">
              The same profiles as the net worth: each profile&apos;s figures by its own cost
              method, added up.
            </p>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * What one profile's figures wait for: an inactive profile's trade import goes on only while it
 * is the active profile (its past prices are fetched either way).
 */
function waitWords(
  wait: { profileId: string; name: string; trades: boolean; prices: string[] },
  profiles: readonly { profileId: string; active: boolean }[],
): string {
  const active = profiles.some((p) => p.profileId === wait.profileId && p.active);
  const resumes =
    wait.trades && !active ? ` (the import goes on while ${wait.name} is the active profile)` : '';
  return `${wait.name}: ${computingWords(wait)}${resumes}`;
}

/** The value of every profile together over the chosen range. */
function AllProfilesHistory(props: { charts: PortfolioChartParts }) {
  const { settings } = useApp();
  const [range, setRange] = useState<HistoryRange>('week');
  const history = useBridgeQuery('ledger.allProfilesHistory', { range });
  const data = history.data;
  const points = useMemo(
    () => (data?.points ?? []).map((p) => ({ ...p, plot: Number(p.value) })),
    [data],
  );
  const waiting = data !== undefined && data.pending.length > 0;
  const drawn = data !== undefined && !waiting && points.length > 1;
  const { ValueChart } = props.charts;
  return (
    <div className="card" data-testid="all-history-card">
      <div className="card-header">
        <h2>Value history of every profile</h2>
        <Segmented
          label="History range"
          options={RANGES}
          value={range}
          onChange={setRange}
          testIdPrefix="all-range"
        />
        {data && (
          <span className="muted small-text">
            Every account of {data.profiles.map((p) => p.name).join(', ') || 'no profile'}, in{' '}
            {data.currency.toUpperCase()}
          </span>
        )}
      </div>
      <QueryStatus query={history} rows={1} height={220} />
      {waiting && (
        <div className="muted small-text" data-testid="all-history-wait">
          Drawn once every profile&apos;s history is known; waiting for{' '}
          {data.pending
            .map(
              (wait) =>
                `${wait.name}: ${computingWords({ trades: wait.import, prices: wait.prices })}`,
            )
            .join('; ')}
          .
        </div>
      )}
      {data && !waiting && !drawn && (
        <EmptyState title="No history yet" testId="all-history-empty">
          The history starts with the first trade, withdrawal or transfer of any profile.
        </EmptyState>
      )}
      {drawn && (
        <div
          data-testid="all-history-chart"
          role="img"
          aria-label={`Value of every profile over the ${range}`}
          data-interval={data.interval}
          data-last-value={settings.privacyMode ? undefined : points.at(-1)?.value}
        >
          <Suspense fallback={<Skeleton rows={1} height={230} />}>
            <ValueChart
              points={points}
              inferred={null}
              range={range}
              quote={data.currency}
              privacy={settings.privacyMode}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}
