import { useEffect, useMemo, useState } from 'react';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { DepthView, PublicTradeView } from '../../../shared/types';
import type { KlineInterval } from '../../../shared/market';
import {
  formatAge,
  decimalsOfStep,
  formatAxisTick,
  formatDateTime,
  formatPercent,
  formatStated,
  formatSymbol,
  formatTime,
  percentChange,
} from '../../../shared/format';
import { useApp } from '../context';
import { bridge, errorInfo } from '../lib/bridge';
import { useBridgeEvent, useFrameBatcher, useNow } from '../lib/hooks';
import { useBridgeQuery } from '../lib/query';
import { candleDomain, priceToY, toCandles, type CandlePoint } from '../lib/candles';
import { ladder, spread } from '../lib/depth';
import {
  Segmented,
  EmptyState,
  InlineError,
  PageHeader,
  Skeleton,
  QueryStatus,
  useExchangeStatus,
} from '../components/common';
import { MarketAlertButton } from '../components/AlertForm';
import { PlaceOrderForm, type PickedPrice } from '../components/PlaceOrderForm';
import { figures, TableHead } from '../components/TableHead';
import { normalizeDecimalText } from '../../../shared/decimal';

type Interval = KlineInterval;
const pickerIntervals: Interval[] = ['1m', '5m', '15m', '1h', '4h', '1d', '1w'];

/** Whether a failure means the exchange did not answer (so only what was kept can be shown). */
function unanswered(error: unknown): boolean {
  const { kind } = errorInfo(error);
  return kind === 'network' || kind === 'server';
}

export function SymbolPage({ symbol }: { symbol: string }) {
  const { symbols, navigate } = useApp();
  // Offline, the book, candles and trades are the last ones kept; coming back reads them again.
  const { restDown, streamLive } = useExchangeStatus();
  const online = !restDown && streamLive;
  const now = useNow(5000);
  const info = symbols.find((s) => s.symbol === symbol);
  const priceDecimals = info ? decimalsOfStep(info.tickSize) : 8;
  const [depth, setDepth] = useState<DepthView | null>(null);
  const [trades, setTrades] = useState<PublicTradeView[] | null>(null);
  const [tradesError, setTradesError] = useState<unknown>(undefined);
  const [liveError, setLiveError] = useState<unknown>(undefined);
  const [pickedPrice, setPickedPrice] = useState<PickedPrice | null>(null);
  const ticker = useBridgeQuery('market.tickers', undefined, {
    select: (all) => all.find((t) => t.symbol === symbol) ?? null,
  });

  // Live depth and trades for this symbol only while the page is open.
  useEffect(() => {
    let live = true;
    const api = bridge();
    // The book on its own: offline it comes from the cache while trades and the watch fail.
    api.market.depth({ symbol, limit: 20 }).then(
      (d) => {
        if (!live) return;
        setDepth(d);
        setLiveError(undefined);
      },
      (error: unknown) => live && setLiveError(error),
    );
    // The trades on their own too: offline they come from the cache while the watch fails.
    api.market.trades({ symbol, limit: 50 }).then(
      (t) => {
        if (!live) return;
        setTrades([...t].sort((a, b) => b.time - a.time || b.id - a.id));
        setTradesError(undefined);
      },
      (error: unknown) => live && setTradesError(error),
    );
    api.market.watch({ symbol }).catch(() => undefined);
    return () => {
      live = false;
      void api.market.unwatch().catch(() => undefined);
    };
  }, [symbol, online]);

  const pushTrades = useFrameBatcher<PublicTradeView>((batch) =>
    setTrades((previous) => {
      const seen = new Set((previous ?? []).map((t) => t.id));
      const fresh = batch.filter((t) => !seen.has(t.id));
      const sorted = fresh.sort((a, b) => b.time - a.time || b.id - a.id);
      return [...sorted, ...(previous ?? [])].slice(0, 60);
    }),
  );
  const pushDepth = useFrameBatcher<DepthView>((batch) => {
    const latest = batch[batch.length - 1];
    if (latest) setDepth(latest);
  });
  useBridgeEvent(
    'market.trades',
    (payload) => payload.symbol === symbol && pushTrades(payload.trades),
  );
  useBridgeEvent('market.depth', (payload) => payload.symbol === symbol && pushDepth([payload]));

  const change = ticker.data ? percentChange(ticker.data.openPrice, ticker.data.lastPrice) : null;
  return (
    <section className="page" data-testid="screen-symbol">
      <PageHeader title={formatSymbol(symbol, info?.baseAsset, info?.quoteAsset)}>
        <MarketAlertButton symbol={symbol} />
        <button type="button" className="ghost" onClick={() => navigate({ screen: 'markets' })}>
          ← All markets
        </button>
      </PageHeader>
      {ticker.data && (
        <div className="ticker-strip" data-testid="symbol-ticker">
          <span className="big num">{formatStated(ticker.data.lastPrice)}</span>
          <span className={change?.startsWith('-') ? 'down' : 'up'}>
            {formatPercent(change, { signed: true })} 24h
          </span>
          <span className="muted">High {formatStated(ticker.data.highPrice)}</span>
          <span className="muted">Low {formatStated(ticker.data.lowPrice)}</span>
          <span className="muted">
            Volume {formatStated(ticker.data.volume)} {info?.baseAsset.toUpperCase()}
          </span>
        </div>
      )}
      <div className="grid symbol-grid">
        <div className="stack">
          <CandleCard symbol={symbol} />
          <PlaceOrderForm symbol={symbol} pickedPrice={pickedPrice} />
        </div>
        <div className="stack">
          <div className="card compact" data-testid="depth-ladder">
            <h2>Order book</h2>
            {depth && restDown && (
              <div className="muted small-text" data-testid="depth-age">
                Last received {formatAge(depth.at, now)}: the exchange is not answering.
              </div>
            )}
            {!depth && liveError !== undefined && unanswered(liveError) && (
              <EmptyState title="No order book kept for this market" testId="depth-none">
                The exchange is not answering, and Spotfolio keeps a market&apos;s book only once it
                has shown it.
              </EmptyState>
            )}
            {liveError !== undefined && !unanswered(liveError) && <InlineError error={liveError} />}
            {!depth && liveError === undefined && <Skeleton rows={8} height={14} />}
            {depth && (
              <DepthLadder
                depth={depth}
                priceDecimals={priceDecimals}
                onPick={(price) => setPickedPrice({ price, at: Date.now() })}
              />
            )}
          </div>
          <div className="card compact" data-testid="recent-trades">
            <h2>Recent trades</h2>
            {trades && trades.length > 0 && restDown && (
              <div className="muted small-text" data-testid="trades-age">
                Trades as last received, the newest at {formatDateTime(trades[0]!.time)}: the
                exchange is not answering.
              </div>
            )}
            {!trades && tradesError !== undefined && unanswered(tradesError) && (
              <EmptyState title="No trades kept for this market" testId="trades-none">
                The exchange is not answering, and Spotfolio keeps a market&apos;s recent trades
                only once it has shown them.
              </EmptyState>
            )}
            {!trades && tradesError !== undefined && !unanswered(tradesError) && (
              <InlineError error={tradesError} />
            )}
            {!trades && tradesError === undefined && <Skeleton rows={6} height={14} />}
            {trades && trades.length === 0 && <EmptyState title="No trades yet" />}
            {trades && trades.length > 0 && (
              <table className="table dense mini">
                <TableHead columns={[figures('Price'), figures('Qty'), 'Time']} />
                <tbody>
                  {trades.slice(0, 30).map((t) => (
                    <tr key={t.id}>
                      <td className={`num ${t.isBuyerMaker ? 'down' : 'up'}`}>
                        {formatStated(t.price)}
                      </td>
                      <td className="num">{formatStated(t.qty)}</td>
                      <td className="muted">{formatTime(t.time)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}

/** The order book; a click on a price puts it in the order form. */
function DepthLadder({
  depth,
  priceDecimals,
  onPick,
}: {
  depth: DepthView;
  /** The tick's places: prices are padded to them so the column lines up; no digit is cut. */
  priceDecimals: number;
  onPick: (price: string) => void;
}) {
  const asks = ladder(depth.asks, 10).reverse();
  const bids = ladder(depth.bids, 10);
  const gap = spread(depth.bids, depth.asks);
  const row = (r: ReturnType<typeof ladder>[number], side: 'ask' | 'bid') => (
    <div key={`${side}${r.price}`} className={`ladder-row ${side}`} role="row">
      <div
        className="ladder-bar"
        style={{ width: `${(r.fill * 100).toFixed(1)}%` }}
        aria-hidden="true"
      />
      <span role="cell" className="num price">
        <button
          type="button"
          className="ladder-pick"
          onClick={() => onPick(normalizeDecimalText(r.price))}
          aria-label={`Use price ${normalizeDecimalText(r.price)}`}
          title="Use this price in the order form"
        >
          {formatStated(r.price, { minFraction: priceDecimals })}
        </button>
      </span>
      <span role="cell" className="num">
        {formatStated(r.qty)}
      </span>
      <span role="cell" className="num muted">
        {formatStated(r.cumulative)}
      </span>
    </div>
  );
  return (
    <div className="ladder" role="table" aria-label="Order book">
      <div className="ladder-row head" role="row">
        <span role="columnheader">Price</span>
        <span role="columnheader">Size</span>
        <span role="columnheader">Total</span>
      </div>
      {asks.map((r) => row(r, 'ask'))}
      <div className="ladder-spread" data-testid="spread">
        Spread {gap === null ? '—' : formatStated(gap)}
      </div>
      {bids.map((r) => row(r, 'bid'))}
    </div>
  );
}

interface CandleShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  payload?: CandlePoint;
}

/** One candle: the bar spans low..high (the wick); the body is drawn from open to close inside it. */
function CandleShape(props: CandleShapeProps) {
  const { x = 0, y = 0, width = 0, height = 0, payload } = props;
  if (!payload) return null;
  const color = payload.rising ? 'var(--up)' : 'var(--down)';
  const openY = priceToY(payload.open, payload.high, payload.low, y, height);
  const closeY = priceToY(payload.close, payload.high, payload.low, y, height);
  const bodyTop = Math.min(openY, closeY);
  const bodyHeight = Math.max(1, Math.abs(openY - closeY));
  const center = x + width / 2;
  const bodyWidth = Math.max(1, width * 0.7);
  return (
    <g className="candle" style={{ stroke: color, fill: color }}>
      <line x1={center} x2={center} y1={y} y2={y + height} strokeWidth={1} />
      <rect x={center - bodyWidth / 2} y={bodyTop} width={bodyWidth} height={bodyHeight} />
    </g>
  );
}

function CandleCard({ symbol }: { symbol: string }) {
  const [interval, setInterval] = useState<Interval>('15m');
  const klines = useBridgeQuery('market.klines', { symbol, interval, limit: 120 });
  const candles = useMemo(() => toCandles(klines.data ?? []), [klines.data]);
  const domain = useMemo(() => candleDomain(candles), [candles]);
  const intraday = !['1d', '1w'].includes(interval);
  const { restDown } = useExchangeStatus();
  const newest = candles.at(-1)?.time;
  const noneKept = !klines.data && klines.error !== undefined && unanswered(klines.error);
  return (
    <div className="card compact candles-card">
      <div className="card-header">
        <h2>Price</h2>
        <Segmented
          label="Candle interval"
          options={pickerIntervals.map((i) => ({ value: i, label: i }))}
          value={interval}
          onChange={setInterval}
          testIdPrefix="interval"
        />
      </div>
      {noneKept ? (
        <EmptyState title="No chart kept for this market" testId="candles-none">
          The exchange is not answering, and Spotfolio keeps a market&apos;s candles only once it
          has shown them.
        </EmptyState>
      ) : (
        <QueryStatus query={klines} rows={1} height={260} />
      )}
      {restDown && newest !== undefined && (
        <div className="muted small-text" data-testid="candles-age">
          Candles as last received, up to {formatDateTime(newest)}: the exchange is not answering.
        </div>
      )}
      {klines.data && candles.length === 0 && (
        <EmptyState title="No candles for this interval yet" />
      )}
      {candles.length > 0 && (
        <div
          data-testid="candle-chart"
          role="img"
          aria-label={`${symbol.toUpperCase()} candles, ${interval}`}
        >
          <ResponsiveContainer width="100%" height={280}>
            <ComposedChart
              title="Price chart (candles)"
              data={candles}
              margin={{ top: 8, right: 8, left: 0, bottom: 0 }}
              barCategoryGap="15%"
            >
              <CartesianGrid strokeDasharray="3 3" stroke="var(--grid)" vertical={false} />
              <XAxis
                dataKey="time"
                tickFormatter={(t: number) =>
                  intraday ? formatDateTime(t).slice(11, 16) : formatDateTime(t).slice(5, 10)
                }
                stroke="var(--muted)"
                fontSize={11}
                minTickGap={30}
              />
              <YAxis
                domain={domain}
                orientation="right"
                width={64}
                tickFormatter={(v: number) => formatAxisTick(v, domain[1] - domain[0])}
                stroke="var(--muted)"
                fontSize={11}
              />
              <Tooltip
                cursor={{ fill: 'var(--hover)' }}
                contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }}
                labelFormatter={(t) => formatDateTime(Number(t))}
                formatter={(_v, _n, item) => {
                  const c = item.payload as CandlePoint;
                  const { open, high, low, close } = c.stated;
                  return [
                    `O ${formatStated(open)}  H ${formatStated(high)}  L ${formatStated(low)}  C ${formatStated(close)}`,
                    'Price',
                  ];
                }}
              />
              <Bar
                dataKey="range"
                shape={(p: unknown) => <CandleShape {...(p as CandleShapeProps)} />}
                isAnimationActive={false}
              />
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      )}
    </div>
  );
}
