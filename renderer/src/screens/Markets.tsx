import { useMemo, useState } from 'react';
import {
  formatAge,
  formatDateTime,
  formatPercent,
  formatStated,
  formatSymbol,
  formatValue,
} from '../../../shared/format';
import { useApp } from '../context';
import { useBridgeQuery } from '../lib/query';
import { tickerRows, type SortDir, type TickerSortField } from '../lib/sorting';
import { useNow } from '../lib/hooks';
import {
  EmptyState,
  PageHeader,
  SortHeader,
  QueryStatus,
  useExchangeStatus,
} from '../components/common';

export function Markets() {
  const { navigate } = useApp();
  const now = useNow(5000);
  const tickers = useBridgeQuery('market.tickers');
  // Cached tickers (the exchange did not answer) carry the time they were last seen.
  const newest = tickers.data?.reduce((at, t) => Math.max(at, t.at), 0) ?? 0;
  // The tickers are read over REST: whether they are current is REST's state, not the stream's
  // (with the stream down and REST answering they still refresh every few seconds).
  const { restDown, kind } = useExchangeStatus();
  const cachedAge = tickers.data && tickers.data.length > 0 && (restDown || now - newest > 60_000);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ field: TickerSortField; dir: SortDir }>({
    field: 'volume',
    dir: 'desc',
  });
  const rows = useMemo(
    () => tickerRows(tickers.data ?? [], query, sort.field, sort.dir),
    [tickers.data, query, sort],
  );
  const onSort = (field: TickerSortField) =>
    setSort((s) => ({ field, dir: s.field === field && s.dir === 'desc' ? 'asc' : 'desc' }));

  return (
    <section className="page" data-testid="screen-markets">
      <PageHeader title="Markets">
        <input
          type="search"
          placeholder="Search market"
          aria-label="Search market"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          data-testid="markets-search"
        />
      </PageHeader>
      {cachedAge && (
        <div className="banner warn" role="status" data-testid="markets-cached">
          {/* A refused address is said once, app-wide (AddressRefusedBanner). */}
          {restDown && kind !== 'refused' ? 'Offline: the exchange cannot be reached. ' : ''}Showing
          the prices last received from the exchange, as of {formatAge(newest, now)} (
          {formatDateTime(newest)}). They update by themselves once it answers again.
        </div>
      )}
      <QueryStatus query={tickers} rows={8} />
      {tickers.data && rows.length === 0 && (
        <EmptyState title={query ? `No market matches "${query}"` : 'No markets'} />
      )}
      {rows.length > 0 && (
        <div className="card table-wrap flush">
          <table className="table hover" data-testid="tickers-table">
            <thead>
              <tr>
                <SortHeader field="symbol" label="Market" sort={sort} onSort={onSort} />
                <SortHeader
                  field="lastPrice"
                  label="Last price"
                  sort={sort}
                  onSort={onSort}
                  numeric
                />
                <SortHeader field="change" label="24h change" sort={sort} onSort={onSort} numeric />
                <th scope="col" className="num">
                  24h high
                </th>
                <th scope="col" className="num">
                  24h low
                </th>
                <SortHeader
                  field="volume"
                  label="24h volume (quote)"
                  sort={sort}
                  onSort={onSort}
                  numeric
                />
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => {
                const change = t.change === null ? null : t.change;
                const tone = change === null ? '' : change.startsWith('-') ? 'down' : 'up';
                return (
                  <tr key={t.symbol} data-testid={`ticker-${t.symbol}`}>
                    <td>
                      <a
                        href={`#/markets/${t.symbol}`}
                        onClick={(e) => {
                          e.preventDefault();
                          navigate({ screen: 'markets', symbol: t.symbol });
                        }}
                      >
                        {formatSymbol(t.symbol, t.baseAsset, t.quoteAsset)}
                      </a>
                    </td>
                    <td className="num">
                      <Price value={t.lastPrice} />
                    </td>
                    <td className={`num ${tone}`}>{formatPercent(change, { signed: true })}</td>
                    <td className="num">
                      <Price value={t.highPrice} />
                    </td>
                    <td className="num">
                      <Price value={t.lowPrice} />
                    </td>
                    <td
                      className="num"
                      data-testid="ticker-volume"
                      title={
                        t.quoteVolumeEstimated
                          ? `Estimated: ${formatStated(t.volume)} ${t.baseAsset.toUpperCase()} at the last price`
                          : `${formatStated(t.volume)} ${t.baseAsset.toUpperCase()}`
                      }
                    >
                      {t.quoteVolumeEstimated ? '≈ ' : ''}
                      {t.quoteVolumeEstimated
                        ? formatValue(t.quoteVolume, t.quoteAsset)
                        : `${formatStated(t.quoteVolume)} ${t.quoteAsset.toUpperCase()}`}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Market prices are public, so privacy mode leaves them visible; the exchange's, every digit. */
function Price({ value }: { value: string }) {
  return <span className="num">{formatStated(value)}</span>;
}
