import { useMemo, useRef, useState } from 'react';
import type { OrderStatus, OrderView } from '../../../shared/types';
import { formatDateTime, formatSymbol } from '../../../shared/format';
import { useApp } from '../context';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { PlaceOrderForm } from '../components/PlaceOrderForm';
import { KeyPermissions, noTradeReason } from '../components/KeyPermissions';
import { actions, figures, TableHead } from '../components/TableHead';
import {
  Amount,
  ConfirmActions,
  EmptyState,
  ErrorBox,
  InlineError,
  Modal,
  PageHeader,
  Skeleton,
  QueryStatus,
} from '../components/common';

type Tab = 'open' | 'history' | 'trades';

const statusText: Record<OrderStatus, string> = {
  idle: 'Waiting for stop',
  wait: 'Open',
  done: 'Filled',
  cancel: 'Canceled',
};

export function Orders() {
  const [tab, setTab] = useState<Tab>('open');
  return (
    <section className="page" data-testid="screen-orders">
      <PageHeader title="Orders" />
      <div className="grid two-one orders-grid">
        <div className="card">
          <div className="tabs" role="tablist" aria-label="Orders">
            {(
              [
                ['open', 'Open orders'],
                ['history', 'Order history'],
                ['trades', 'Trades & fees'],
              ] as const
            ).map(([id, label]) => (
              <button
                key={id}
                type="button"
                role="tab"
                aria-selected={tab === id}
                className={tab === id ? 'active' : undefined}
                onClick={() => setTab(id)}
                data-testid={`tab-${id}`}
              >
                {label}
              </button>
            ))}
          </div>
          {tab === 'open' && <OpenOrders />}
          {tab === 'history' && <OrderHistory />}
          {tab === 'trades' && <OwnTrades />}
        </div>
        <PlaceOrderForm />
      </div>
    </section>
  );
}

function SymbolName({ symbol }: { symbol: string }) {
  const { symbols } = useApp();
  const info = symbols.find((s) => s.symbol === symbol);
  return <>{formatSymbol(symbol, info?.baseAsset, info?.quoteAsset)}</>;
}

function useSymbolAssets() {
  const { symbols } = useApp();
  return (symbol: string) => {
    const info = symbols.find((s) => s.symbol === symbol);
    return { base: info?.baseAsset ?? '', quote: info?.quoteAsset ?? '' };
  };
}

function AmountCell(props: { value: string | null | undefined; asset: string; unit?: boolean }) {
  return (
    <td className="num">
      <Amount value={props.value} asset={props.asset} unit={props.unit} />
    </td>
  );
}

/** The columns of an order in the open and the past orders' tables, after the symbol's. */
const ORDER_COLUMNS = [
  'Side',
  'Type',
  figures('Price'),
  figures('Quantity'),
  figures('Filled'),
  'Status',
];

/** An order's time, its market when asked for, and the cells of ORDER_COLUMNS. */
function OrderCells(props: { order: OrderView; withSymbol?: boolean }) {
  const { order } = props;
  const { base, quote } = useSymbolAssets()(order.symbol);
  return (
    <>
      <td title={formatDateTime(order.createdTime)}>
        {formatDateTime(order.createdTime).slice(5, 16)}
      </td>
      {props.withSymbol && (
        <td>
          <SymbolName symbol={order.symbol} />
        </td>
      )}
      <td className={`side-${order.side}`}>{order.side}</td>
      <td>
        {order.type === 'stop_limit' ? (
          <>
            Stop-limit{' '}
            <span className="muted">
              @ <Amount value={order.stopPrice} asset={quote} />
            </span>
          </>
        ) : (
          'Limit'
        )}
      </td>
      <AmountCell value={order.price} asset={quote} />
      <AmountCell value={order.origQty} asset={base} />
      <AmountCell value={order.executedQty} asset={base} />
      <td data-testid="order-status">
        {order.goneAt != null ? (
          <span title={`Found gone ${formatDateTime(order.goneAt)}`}>
            No longer on the exchange
          </span>
        ) : (
          statusText[order.status]
        )}
      </td>
    </>
  );
}

function OpenOrders() {
  const { activeProfile } = useApp();
  const assetsOf = useSymbolAssets();
  const open = useBridgeQuery('orders.open', {});
  const [confirmAll, setConfirmAll] = useState<{ symbol: string; count: number } | null>(null);
  const [status, setStatus] = useState('');
  // Where focus rests after a cancel: a status line, never the next order's Cancel button, so a
  // second Enter cancels nothing.
  const statusLine = useRef<HTMLParagraphElement>(null);
  const canTrade = activeProfile?.canTrade ?? false;
  const refusal = activeProfile && !canTrade ? noTradeReason(activeProfile) : undefined;
  const bySymbol = useMemo(() => {
    const groups = new Map<string, OrderView[]>();
    for (const order of open.data?.rows ?? [])
      groups.set(order.symbol, [...(groups.get(order.symbol) ?? []), order]);
    return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [open.data]);
  const marketName = (symbol: string) => {
    const { base, quote } = assetsOf(symbol);
    return formatSymbol(symbol, base || undefined, quote || undefined);
  };
  const announce = (text: string) => {
    setStatus(text);
    statusLine.current?.focus();
  };

  const cancelOne = useBridgeAction('orders.cancel', {
    onSuccess: (_, { symbol, orderId }) => {
      // The cancel's notification brings the toast; the status line says it where focus is.
      announce(`Order ${orderId} on ${marketName(symbol)} canceled.`);
      open.reload();
    },
    onError: (_, { orderId }) => announce(`Order ${orderId} was not canceled.`),
  });
  const cancelMarket = useBridgeAction('orders.cancelAll', {
    onSuccess: (result, { symbol }) => {
      const count = result.canceled.length;
      const text = `Canceled ${count} order${count === 1 ? '' : 's'} on ${marketName(symbol)}`;
      announce(`${text}.`);
      open.reload();
    },
    onError: (_, { symbol }) => announce(`The orders on ${marketName(symbol)} were not canceled.`),
  });
  // One cancel at a time: while one is on its way every Cancel button is held.
  const busy =
    cancelOne.pending && cancelOne.input
      ? `order:${cancelOne.input.orderId}`
      : cancelMarket.pending && cancelMarket.input
        ? `symbol:${cancelMarket.input.symbol}`
        : null;
  const error = cancelOne.error ?? cancelMarket.error;

  const cancel = (order: OrderView) => {
    if (busy !== null) return;
    cancelMarket.reset();
    announce(`Canceling order ${order.id}…`);
    void cancelOne.run({ symbol: order.symbol, orderId: order.id });
  };
  const cancelAll = (symbol: string) => {
    setConfirmAll(null);
    if (busy !== null) return;
    cancelOne.reset();
    announce(`Canceling all orders on ${marketName(symbol)}…`);
    void cancelMarket.run({ symbol });
  };

  const statusAndNotice = (
    <>
      {activeProfile && !canTrade && (
        <div data-testid="orders-permission">
          <KeyPermissions
            profile={activeProfile}
            disabled={`${refusal ?? ''}, so Cancel and Cancel all are disabled.`}
          />
        </div>
      )}
      <p
        ref={statusLine}
        className="orders-status muted small-text"
        role="status"
        tabIndex={-1}
        data-testid="orders-status"
      >
        {status}
      </p>
    </>
  );

  if (open.error !== undefined && !open.data)
    return <ErrorBox error={open.error} onRetry={open.reload} />;
  if (!open.data) return <Skeleton rows={4} />;
  if (open.data.rows.length === 0)
    return (
      <>
        {statusAndNotice}
        <EmptyState title="No open orders" testId="open-orders-empty">
          Place a limit or stop-limit order with the form.
        </EmptyState>
      </>
    );
  return (
    <div data-testid="open-orders">
      {statusAndNotice}
      {error !== undefined && <InlineError error={error} />}
      {confirmAll && (
        <Modal
          title="Cancel all orders?"
          onClose={() => setConfirmAll(null)}
          testId="cancel-all-confirm"
          returnFocus={() => statusLine.current}
        >
          <p>
            Cancel all {confirmAll.count} open order{confirmAll.count === 1 ? '' : 's'} on{' '}
            {marketName(confirmAll.symbol)}?
          </p>
          <p className="muted">
            Orders placed on this market elsewhere (another app, the exchange&apos;s site) are
            canceled too.
          </p>
          <ConfirmActions
            confirmLabel={`Cancel ${confirmAll.count} order${confirmAll.count === 1 ? '' : 's'}`}
            busyLabel="Canceling…"
            busy={busy !== null}
            backLabel="Keep them"
            backTestId="cancel-all-keep"
            onBack={() => setConfirmAll(null)}
            onConfirm={() => cancelAll(confirmAll.symbol)}
            testId="cancel-all-confirm-go"
            danger
            focusBack
          />
        </Modal>
      )}
      {bySymbol.map(([symbol, orders]) => (
        <div key={symbol} className="order-group" data-testid={`order-group-${symbol}`}>
          <div className="card-header">
            <h3>
              <SymbolName symbol={symbol} />
            </h3>
            <button
              type="button"
              className="small danger"
              disabled={busy !== null || !canTrade}
              title={refusal}
              onClick={() => setConfirmAll({ symbol, count: orders.length })}
              data-testid={`cancel-all-${symbol}`}
            >
              Cancel all {symbol.toUpperCase()}
            </button>
          </div>
          <div className="table-wrap">
            <table className="table dense">
              <TableHead columns={['Time', ...ORDER_COLUMNS, actions]} />
              <tbody>
                {orders.map((order) => (
                  <tr key={order.id} data-testid={`open-order-${order.id}`}>
                    <OrderCells order={order} />
                    <td>
                      <button
                        type="button"
                        className="small"
                        disabled={busy !== null || !canTrade}
                        title={refusal}
                        onClick={() => cancel(order)}
                        aria-label={`Cancel order ${order.id}`}
                        data-testid="cancel-order"
                      >
                        {busy === `order:${order.id}` ? 'Canceling…' : 'Cancel'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </div>
  );
}

function OrderHistory() {
  const [status, setStatus] = useState<'' | OrderStatus>('');
  const history = useBridgeQuery('orders.history', { status: status || undefined, limit: 200 });
  return (
    <div>
      <div className="filters">
        <label>
          <span>Status</span>
          <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="">Any</option>
            {(Object.keys(statusText) as OrderStatus[]).map((s) => (
              <option key={s} value={s}>
                {statusText[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryStatus query={history} rows={4} />
      {history.data && history.data.rows.length === 0 && <EmptyState title="No orders yet" />}
      {history.data && history.data.rows.length > 0 && (
        <div className="table-wrap">
          <table className="table dense" data-testid="order-history">
            <TableHead columns={['Time', 'Symbol', ...ORDER_COLUMNS]} />
            <tbody>
              {history.data.rows.map((order) => (
                <tr key={order.id} data-testid={`history-order-${order.id}`}>
                  <OrderCells order={order} withSymbol />
                </tr>
              ))}
            </tbody>
          </table>
          {history.data.total > history.data.rows.length && (
            <p className="muted small-text">
              Showing the latest {history.data.rows.length} of{' '}
              {history.data.total.toLocaleString('en-US')} orders.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function OwnTrades() {
  const assetsOf = useSymbolAssets();
  const trades = useBridgeQuery('orders.trades', { limit: 200 });
  if (trades.error !== undefined && !trades.data)
    return <ErrorBox error={trades.error} onRetry={trades.reload} />;
  if (!trades.data) return <Skeleton rows={4} />;
  return (
    <div data-testid="own-trades">
      <div className="fees" data-testid="fees-paid">
        <strong>Fees paid:</strong>{' '}
        {trades.data.feesByAsset.length === 0
          ? 'none yet'
          : trades.data.feesByAsset.map((f, i) => (
              <span key={f.asset}>
                {i > 0 && ', '}
                <Amount value={f.fee} asset={f.asset} unit />
              </span>
            ))}
      </div>
      {trades.data.rows.length === 0 ? (
        <EmptyState title="No trades yet">
          Your fills appear here with the fee paid on each.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table dense">
            <TableHead
              columns={[
                'Time',
                'Symbol',
                'Side',
                figures('Price'),
                figures('Quantity'),
                figures('Total'),
                figures('Fee'),
              ]}
            />
            <tbody>
              {trades.data.rows.map((t) => {
                const { base, quote } = assetsOf(t.symbol);
                return (
                  <tr key={t.id}>
                    <td>{formatDateTime(t.time)}</td>
                    <td>
                      <SymbolName symbol={t.symbol} />
                    </td>
                    <td className={`side-${t.side}`}>
                      {t.side}{' '}
                      <span className="muted">
                        {t.isBuyerMaker === (t.side === 'buy') ? 'maker' : 'taker'}
                      </span>
                    </td>
                    <AmountCell value={t.price} asset={quote} />
                    <AmountCell value={t.qty} asset={base} />
                    <AmountCell value={t.quoteQty} asset={quote} />
                    <AmountCell value={t.fee} asset={t.feeCurrency} unit />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
