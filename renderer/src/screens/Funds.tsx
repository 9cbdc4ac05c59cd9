import { Fragment, useMemo, useState } from 'react';
import { formatPercent } from '../../../shared/format';
import { MAIN_ACCOUNT } from '../../../shared/ledger';
import { useApp } from '../context';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { hideSmall, searchFunds, sortFunds, type FundSortField } from '../lib/sorting';
import {
  Amount,
  AsOf,
  EmptyState,
  ErrorBox,
  PageHeader,
  SortHeader,
  StaleBanner,
  Price,
  Value,
  QueryStatus,
} from '../components/common';

export function Funds() {
  const { settings, updateSettings } = useApp();
  const funds = useBridgeQuery('funds.list');
  // Price, 24h change, average cost and unrealized P&L per asset come from the ledger, for the
  // main account alone: the account whose balances the rows show.
  const ledger = useBridgeQuery('ledger.summary', { account: MAIN_ACCOUNT });
  const pnl = useMemo(
    () => new Map((ledger.data?.assets ?? []).map((row) => [row.asset, row])),
    [ledger.data],
  );
  const { navigate } = useApp();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ field: FundSortField; dir: 'asc' | 'desc' }>({
    field: 'value',
    dir: 'desc',
  });
  /** Rows opened to show the columns a narrow window leaves out. */
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (asset: string) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(asset)) next.add(asset);
      return next;
    });

  const rows = useMemo(() => {
    if (!funds.data) return [];
    const visible = settings.hideSmallBalances
      ? hideSmall(funds.data.rows, settings.smallBalanceThreshold)
      : funds.data.rows;
    return sortFunds(searchFunds(visible, query), sort.field, sort.dir);
  }, [funds.data, query, sort, settings.hideSmallBalances, settings.smallBalanceThreshold]);

  const onSort = (field: FundSortField) =>
    setSort((s) => ({
      field,
      dir:
        s.field === field && s.dir === 'desc'
          ? 'asc'
          : field === 'asset' && s.field !== field
            ? 'asc'
            : 'desc',
    }));

  const refresh = useBridgeAction('funds.refresh', { onSuccess: () => funds.reload() });
  const { pending: refreshing, error: refreshError } = refresh;

  const quote = funds.data?.quoteAsset ?? settings.quoteAsset;
  // The columns a narrow window leaves out (CSS), shown again in an opened row.
  const locked = (row: (typeof rows)[number]) => <Amount value={row.locked} asset={row.asset} />;
  const reservedFee = (row: (typeof rows)[number]) =>
    row.reservedFee === null ? (
      <span className="muted">—</span>
    ) : (
      <Amount value={row.reservedFee} asset={row.asset} />
    );
  const averageCost = (row: (typeof rows)[number]) => {
    const cost = pnl.get(row.asset.toLowerCase())?.averageCost;
    return cost ? <Price value={cost} quote={ledger.data!.currency} unit={false} /> : '—';
  };

  return (
    <section className="page" data-testid="screen-funds">
      <PageHeader title="Funds">
        {funds.data && <AsOf asOf={funds.data.asOf} stale={funds.data.stale} />}
        <input
          type="search"
          placeholder="Search asset"
          aria-label="Search asset"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="funds-search"
        />
        <label className="toggle">
          <input
            type="checkbox"
            checked={settings.hideSmallBalances}
            onChange={(e) => void updateSettings({ hideSmallBalances: e.target.checked })}
          />
          Hide small
        </label>
        <button
          type="button"
          onClick={() => void refresh.run({})}
          disabled={refreshing}
          data-testid="funds-refresh"
        >
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
      </PageHeader>
      <p className="muted small-text" data-testid="funds-scope">
        The main account: every figure of a row, its P&amp;L included, is the main account&apos;s.
        Sub-accounts have a page of their own; the Portfolio&apos;s P&amp;L card can cover every
        account.
      </p>
      {funds.data && <StaleBanner asOf={funds.data.asOf} stale={funds.data.stale} />}
      {refreshError !== undefined && <ErrorBox error={refreshError} />}
      <QueryStatus query={funds} rows={8} />
      {funds.data && rows.length === 0 && (
        <EmptyState title={query ? `No asset matches "${query}"` : 'No balances'}>
          {query ? 'Clear the search to see every asset.' : 'Deposit funds to see them here.'}
        </EmptyState>
      )}
      {rows.length > 0 && (
        <div className="card table-wrap flush">
          <table className="table responsive" data-testid="funds-table">
            <thead>
              <tr>
                <th className="expander-cell">
                  <span className="sr-only">More</span>
                </th>
                <SortHeader field="asset" label="Asset" sort={sort} onSort={onSort} />
                <SortHeader field="free" label="Free" sort={sort} onSort={onSort} numeric />
                <SortHeader
                  field="locked"
                  label="Locked"
                  sort={sort}
                  onSort={onSort}
                  numeric
                  className="minor"
                />
                <SortHeader
                  field="reservedFee"
                  label="Reserved fee"
                  sort={sort}
                  onSort={onSort}
                  numeric
                  className="minor"
                />
                <SortHeader field="total" label="Total" sort={sort} onSort={onSort} numeric />
                <SortHeader
                  field="value"
                  label={`Value (${quote.toUpperCase()})`}
                  sort={sort}
                  onSort={onSort}
                  numeric
                />
                <th className="num">Price</th>
                <th className="num">24h</th>
                <th className="num minor">Avg cost</th>
                <th className="num">Unrealized P&amp;L</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Fragment key={row.asset}>
                  <tr
                    data-testid={`fund-row-${row.asset}`}
                    style={{ cursor: 'pointer' }}
                    title={`Open ${row.asset.toUpperCase()}: lots, trades and P&L`}
                    onClick={() => navigate({ screen: 'funds', asset: row.asset.toLowerCase() })}
                  >
                    <td className="expander-cell">
                      <button
                        type="button"
                        className="small ghost expander"
                        aria-expanded={expanded.has(row.asset)}
                        aria-label={`More of ${row.asset.toUpperCase()}: locked, reserved fee, average cost`}
                        onClick={(event) => {
                          event.stopPropagation();
                          toggle(row.asset);
                        }}
                        data-testid="fund-expand"
                      >
                        {expanded.has(row.asset) ? '▾' : '▸'}
                      </button>
                    </td>
                    <td className="asset">{row.asset.toUpperCase()}</td>
                    <td className="num" data-testid="fund-free">
                      <Amount value={row.free} asset={row.asset} />
                    </td>
                    <td className="num minor" data-testid="fund-locked">
                      {locked(row)}
                    </td>
                    <td className="num minor">{reservedFee(row)}</td>
                    <td className="num" data-testid="fund-total">
                      <Amount value={row.total} asset={row.asset} />
                    </td>
                    <td className="num" data-testid="fund-value">
                      {row.value === null ? (
                        <span className="muted" title="No price path to the quote asset">
                          no price
                        </span>
                      ) : (
                        <Value value={row.value} quote={quote} unit={false} />
                      )}
                    </td>
                    <td className="num" data-testid="fund-price">
                      {row.price === null ? (
                        '—'
                      ) : (
                        <Price value={row.price} quote={quote} unit={false} />
                      )}
                    </td>
                    <td className="num" data-testid="fund-change">
                      {formatPercent(pnl.get(row.asset.toLowerCase())?.change24h ?? null, {
                        signed: true,
                      })}
                    </td>
                    <td className="num minor" data-testid="fund-average-cost">
                      {averageCost(row)}
                    </td>
                    <td className="num" data-testid="fund-unrealized">
                      {pnl.get(row.asset.toLowerCase()) ? (
                        <Value
                          value={pnl.get(row.asset.toLowerCase())!.unrealizedPnl}
                          quote={ledger.data!.currency}
                          signed
                          unit={false}
                        />
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                  {expanded.has(row.asset) && (
                    <tr className="row-details" data-testid="fund-details">
                      <td colSpan={11}>
                        <dl className="facts inline">
                          <div>
                            <dt>Locked</dt>
                            <dd>{locked(row)}</dd>
                          </div>
                          <div>
                            <dt>Reserved fee</dt>
                            <dd>{reservedFee(row)}</dd>
                          </div>
                          <div>
                            <dt>Avg cost</dt>
                            <dd>{averageCost(row)}</dd>
                          </div>
                        </dl>
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
