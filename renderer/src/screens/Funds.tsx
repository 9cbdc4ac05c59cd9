import { useMemo, useState } from 'react';
import { formatPercent } from '../../../shared/format';
import { useApp } from '../context';
import { bridge } from '../lib/bridge';
import { useBridgeQuery } from '../lib/query';
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
  // Price, 24h change, average cost and unrealized P&L per asset come from the ledger.
  const ledger = useBridgeQuery('ledger.summary', {});
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
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState<unknown>(undefined);

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

  const refresh = async () => {
    setRefreshing(true);
    setRefreshError(undefined);
    try {
      await bridge().funds.refresh();
      funds.reload();
    } catch (error) {
      setRefreshError(error);
    } finally {
      setRefreshing(false);
    }
  };

  const quote = funds.data?.quoteAsset ?? settings.quoteAsset;
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
          onClick={() => void refresh()}
          disabled={refreshing}
          data-testid="funds-refresh"
        >
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
      </PageHeader>
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
          <table className="table" data-testid="funds-table">
            <thead>
              <tr>
                <SortHeader field="asset" label="Asset" sort={sort} onSort={onSort} />
                <SortHeader field="free" label="Free" sort={sort} onSort={onSort} numeric />
                <SortHeader field="locked" label="Locked" sort={sort} onSort={onSort} numeric />
                <SortHeader
                  field="reservedFee"
                  label="Reserved fee"
                  sort={sort}
                  onSort={onSort}
                  numeric
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
                <th className="num">Avg cost</th>
                <th className="num">Unrealized P&amp;L</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={row.asset}
                  data-testid={`fund-row-${row.asset}`}
                  style={{ cursor: 'pointer' }}
                  title={`Open ${row.asset.toUpperCase()}: lots, trades and P&L`}
                  onClick={() => navigate({ screen: 'funds', asset: row.asset.toLowerCase() })}
                >
                  <td className="asset">{row.asset.toUpperCase()}</td>
                  <td className="num" data-testid="fund-free">
                    <Amount value={row.free} asset={row.asset} />
                  </td>
                  <td className="num">
                    <Amount value={row.locked} asset={row.asset} />
                  </td>
                  <td className="num">
                    {row.reservedFee === null ? (
                      <span className="muted">—</span>
                    ) : (
                      <Amount value={row.reservedFee} asset={row.asset} />
                    )}
                  </td>
                  <td className="num">
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
                  <td className="num" data-testid="fund-average-cost">
                    {pnl.get(row.asset.toLowerCase())?.averageCost ? (
                      <Price
                        value={pnl.get(row.asset.toLowerCase())!.averageCost}
                        quote={ledger.data!.currency}
                        unit={false}
                      />
                    ) : (
                      '—'
                    )}
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
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
