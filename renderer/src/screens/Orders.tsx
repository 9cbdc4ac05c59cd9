import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { MethodInput } from '../../../shared/contract';
import type { OrderSide, OrderStatus, OrderType, OrderView } from '../../../shared/types';
import { formatAmount, formatDateTime, formatSymbol } from '../../../shared/format';
import { useApp } from '../context';
import { bridge, errorInfo } from '../lib/bridge';
import { useQuery } from '../lib/hooks';
import { checkAmount, orderTotal } from '../lib/validation';
import {
  ConfirmActions,
  Amount,
  EmptyState,
  ErrorBox,
  InlineError,
  Modal,
  PageHeader,
  Skeleton,
  QueryStatus,
} from '../components/common';

type Tab = 'open' | 'history' | 'trades';
type NewOrder = MethodInput<'orders.place'>;

const statusText: Record<OrderStatus, string> = {
  idle: 'Waiting for stop',
  wait: 'Open',
  done: 'Filled',
  cancel: 'Cancelled',
};

export function Orders() {
  const [tab, setTab] = useState<Tab>('open');
  return (
    <section className="page" data-testid="screen-orders">
      <PageHeader title="Orders" />
      <div className="grid two-one">
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

function OpenOrders() {
  const { toast } = useApp();
  const assetsOf = useSymbolAssets();
  const open = useQuery('open-orders', () => bridge().orders.open({}), ['orders']);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const bySymbol = useMemo(() => {
    const groups = new Map<string, OrderView[]>();
    for (const order of open.data?.rows ?? [])
      groups.set(order.symbol, [...(groups.get(order.symbol) ?? []), order]);
    return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [open.data]);

  const cancel = async (order: OrderView) => {
    setBusy(`order:${order.id}`);
    setError(undefined);
    try {
      await bridge().orders.cancel({ symbol: order.symbol, orderId: order.id });
      toast({
        title: 'Order cancelled',
        body: orderSummary(order),
        hasAmounts: true,
      });
      open.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };
  const cancelAll = async (symbol: string) => {
    setBusy(`symbol:${symbol}`);
    setError(undefined);
    try {
      const result = await bridge().orders.cancelAll({ symbol });
      toast({
        title: `Cancelled ${result.canceled.length} order${result.canceled.length === 1 ? '' : 's'}`,
        body: symbol.toUpperCase(),
      });
      open.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  if (open.error !== undefined && !open.data)
    return <ErrorBox error={open.error} onRetry={open.reload} />;
  if (!open.data) return <Skeleton rows={4} />;
  if (open.data.rows.length === 0)
    return (
      <EmptyState title="No open orders" testId="open-orders-empty">
        Place a limit or stop-limit order with the form.
      </EmptyState>
    );
  return (
    <div data-testid="open-orders">
      {error !== undefined && <InlineError error={error} />}
      {bySymbol.map(([symbol, orders]) => {
        const { base, quote } = assetsOf(symbol);
        return (
          <div key={symbol} className="order-group">
            <div className="card-header">
              <h3>
                <SymbolName symbol={symbol} />
              </h3>
              <button
                type="button"
                className="small danger"
                disabled={busy !== null}
                onClick={() => void cancelAll(symbol)}
                data-testid={`cancel-all-${symbol}`}
              >
                Cancel all {symbol.toUpperCase()}
              </button>
            </div>
            <div className="table-wrap">
              <table className="table dense">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Side</th>
                    <th scope="col">Type</th>
                    <th scope="col" className="num">
                      Price
                    </th>
                    <th scope="col" className="num">
                      Quantity
                    </th>
                    <th scope="col" className="num">
                      Filled
                    </th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {orders.map((order) => (
                    <tr key={order.id} data-testid={`open-order-${order.id}`}>
                      <td title={formatDateTime(order.createdTime)}>
                        {formatDateTime(order.createdTime).slice(5, 16)}
                      </td>
                      <td className={`side-${order.side}`}>{order.side}</td>
                      <td>
                        {order.type === 'stop_limit' ? (
                          <>
                            Stop-limit <span className="muted">@ {order.stopPrice ?? '—'}</span>
                          </>
                        ) : (
                          'Limit'
                        )}
                      </td>
                      <td className="num">
                        <Amount value={order.price} asset={quote} />
                      </td>
                      <td className="num">
                        <Amount value={order.origQty} asset={base} />
                      </td>
                      <td className="num">
                        <Amount value={order.executedQty} asset={base} />
                      </td>
                      <td>{statusText[order.status]}</td>
                      <td>
                        <button
                          type="button"
                          className="small"
                          disabled={busy !== null}
                          onClick={() => void cancel(order)}
                          aria-label={`Cancel order ${order.id}`}
                          data-testid="cancel-order"
                        >
                          {busy === `order:${order.id}` ? 'Cancelling…' : 'Cancel'}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        );
      })}
    </div>
  );
}

function OrderHistory() {
  const assetsOf = useSymbolAssets();
  const [status, setStatus] = useState<'' | OrderStatus>('');
  const history = useQuery(
    `order-history:${status}`,
    () => bridge().orders.history({ status: status || undefined, limit: 200 }),
    ['orders'],
  );
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
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Symbol</th>
                <th scope="col">Side</th>
                <th scope="col">Type</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Quantity
                </th>
                <th scope="col" className="num">
                  Filled
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {history.data.rows.map((order) => {
                const { base, quote } = assetsOf(order.symbol);
                return (
                  <tr key={order.id}>
                    <td title={formatDateTime(order.createdTime)}>
                      {formatDateTime(order.createdTime).slice(5, 16)}
                    </td>
                    <td>
                      <SymbolName symbol={order.symbol} />
                    </td>
                    <td className={`side-${order.side}`}>{order.side}</td>
                    <td>{order.type === 'stop_limit' ? 'Stop-limit' : 'Limit'}</td>
                    <td className="num">
                      <Amount value={order.price} asset={quote} />
                    </td>
                    <td className="num">
                      <Amount value={order.origQty} asset={base} />
                    </td>
                    <td className="num">
                      <Amount value={order.executedQty} asset={base} />
                    </td>
                    <td>{statusText[order.status]}</td>
                  </tr>
                );
              })}
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
  const trades = useQuery('own-trades', () => bridge().orders.trades({ limit: 200 }), ['trades']);
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
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Symbol</th>
                <th scope="col">Side</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Quantity
                </th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col" className="num">
                  Fee
                </th>
              </tr>
            </thead>
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
                    <td className="num">
                      <Amount value={t.price} asset={quote} />
                    </td>
                    <td className="num">
                      <Amount value={t.qty} asset={base} />
                    </td>
                    <td className="num">
                      <Amount value={t.quoteQty} asset={quote} />
                    </td>
                    <td className="num">
                      <Amount value={t.fee} asset={t.feeCurrency} unit />
                    </td>
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

export function PlaceOrderForm(props: { symbol?: string }) {
  const { symbols, toast, settings } = useApp();
  const tradable = useMemo(
    () => [...symbols].sort((a, b) => a.symbol.localeCompare(b.symbol)),
    [symbols],
  );
  const [symbol, setSymbol] = useState(props.symbol ?? tradable[0]?.symbol ?? '');
  const [side, setSide] = useState<OrderSide>('buy');
  const [type, setType] = useState<OrderType>('limit');
  const [quantity, setQuantity] = useState('');
  const [price, setPrice] = useState('');
  const [stopPrice, setStopPrice] = useState('');
  const [checking, setChecking] = useState(false);
  const [testError, setTestError] = useState<unknown>(undefined);
  const [confirm, setConfirm] = useState<NewOrder | null>(null);
  const [placing, setPlacing] = useState(false);
  const [placeError, setPlaceError] = useState<unknown>(undefined);
  const [touched, setTouched] = useState(false);

  const info = symbols.find((s) => s.symbol === (symbol || tradable[0]?.symbol));
  const activeSymbol = info?.symbol ?? symbol;
  const base = info?.baseAsset ?? '';
  const quote = info?.quoteAsset ?? '';

  const qtyCheck = checkAmount(quantity, {
    precision: info?.baseAssetPrecision,
    label: 'Quantity',
  });
  // Tick size and minimum price are the exchange's to judge: orders.test reports them inline.
  const priceCheck = checkAmount(price, { label: 'Price' });
  const stopCheck =
    type === 'stop_limit' ? checkAmount(stopPrice, { label: 'Stop price' }) : { ok: true };
  const total = orderTotal(quantity, price);
  const typeAllowed = !info || info.orderTypes.includes(type);
  const valid =
    Boolean(activeSymbol) && qtyCheck.ok && priceCheck.ok && stopCheck.ok && typeAllowed;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setTestError(undefined);
    setPlaceError(undefined);
    if (!valid) return;
    const order: NewOrder = {
      symbol: activeSymbol,
      side,
      type,
      quantity: quantity.trim(),
      price: price.trim(),
      ...(type === 'stop_limit' ? { stopPrice: stopPrice.trim() } : {}),
    };
    setChecking(true);
    try {
      await bridge().orders.test(order);
      setConfirm(order);
    } catch (error) {
      setTestError(error);
    } finally {
      setChecking(false);
    }
  };

  const place = async (order: NewOrder) => {
    setPlacing(true);
    try {
      const placed = await bridge().orders.place(order);
      toast({
        title: 'Order placed',
        body: orderSummary(placed),
        tone: 'success',
        hasAmounts: true,
      });
      setConfirm(null);
      setQuantity('');
      setTouched(false);
    } catch (error) {
      setPlaceError(error);
      setConfirm(null);
    } finally {
      setPlacing(false);
    }
  };

  const showError = (check: { ok: boolean; message?: string }, testId: string) =>
    touched && !check.ok ? (
      <small className="field-error" data-testid={testId}>
        {check.message}
      </small>
    ) : null;
  const testInfo = testError !== undefined ? errorInfo(testError) : null;

  return (
    <form
      className="card form"
      onSubmit={(e) => void submit(e)}
      aria-label="Place an order"
      data-testid="order-form"
      noValidate
    >
      <h2>Place an order</h2>
      {!props.symbol && (
        <label className="field">
          <span>Market</span>
          <select
            value={activeSymbol}
            onChange={(e) => setSymbol(e.target.value)}
            data-testid="order-symbol"
          >
            {tradable.map((s) => (
              <option key={s.symbol} value={s.symbol}>
                {formatSymbol(s.symbol, s.baseAsset, s.quoteAsset)}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="segmented wide" role="group" aria-label="Side">
        {(['buy', 'sell'] as const).map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={side === s}
            className={side === s ? `active side-${s}` : undefined}
            onClick={() => setSide(s)}
            data-testid={`order-side-${s}`}
          >
            {s === 'buy' ? 'Buy' : 'Sell'}
          </button>
        ))}
      </div>
      <label className="field">
        <span>Type</span>
        <select
          value={type}
          onChange={(e) => setType(e.target.value as OrderType)}
          data-testid="order-type"
        >
          <option value="limit">Limit</option>
          <option value="stop_limit">Stop-limit</option>
        </select>
      </label>
      {!typeAllowed && (
        <small className="field-error">
          This market does not accept {type === 'limit' ? 'limit' : 'stop-limit'} orders.
        </small>
      )}
      {type === 'stop_limit' && (
        <DecimalField
          label={`Stop price (${quote.toUpperCase()})`}
          value={stopPrice}
          onChange={setStopPrice}
          testId="order-stop"
          error={showError(stopCheck, 'order-stop-error')}
        />
      )}
      <DecimalField
        label={`Price (${quote.toUpperCase()})`}
        value={price}
        onChange={setPrice}
        testId="order-price"
        error={showError(priceCheck, 'order-price-error')}
      />
      <DecimalField
        label={`Quantity (${base.toUpperCase()})`}
        value={quantity}
        onChange={setQuantity}
        testId="order-quantity"
        error={showError(qtyCheck, 'order-quantity-error')}
      />
      <div className="muted small-text">
        Total:{' '}
        {total === null
          ? '—'
          : settings.privacyMode
            ? '••••'
            : `${formatAmount(total, { precision: info?.quoteAssetPrecision ?? 8, rounding: 'half-up' })} ${quote.toUpperCase()}`}
      </div>
      {testInfo && (
        <div className="inline-error" role="alert" data-testid="order-test-error">
          The exchange would reject this order: {testInfo.message}. {testInfo.advice}
        </div>
      )}
      {placeError !== undefined && <InlineError error={placeError} testId="order-place-error" />}
      <div className="form-actions">
        <button
          type="submit"
          className={`primary side-${side}`}
          disabled={checking || placing}
          data-testid="order-review"
        >
          {checking ? 'Checking with the exchange…' : `Review ${side} order`}
        </button>
      </div>
      {confirm && (
        <Modal title="Confirm the order" onClose={() => setConfirm(null)} testId="order-confirm">
          <p>
            <strong className={`side-${confirm.side}`}>
              {confirm.side === 'buy' ? 'Buy' : 'Sell'}
            </strong>{' '}
            {confirm.quantity} {base.toUpperCase()} at {confirm.price} {quote.toUpperCase()}
            {confirm.stopPrice && <> when the price reaches {confirm.stopPrice}</>}.
          </p>
          <p className="muted">The exchange checked this order and would accept it.</p>
          <ConfirmActions
            confirmLabel="Place order"
            busyLabel="Placing…"
            busy={placing}
            onBack={() => setConfirm(null)}
            onConfirm={() => void place(confirm)}
            testId="order-confirm-place"
          />
        </Modal>
      )}
    </form>
  );
}

/** "Buy 0.001 BTCUSDT at 61,250.07", for toasts. */
function orderSummary(order: OrderView): string {
  const side = order.side === 'buy' ? 'Buy' : 'Sell';
  return `${side} ${formatAmount(order.origQty)} ${order.symbol.toUpperCase()} at ${formatAmount(order.price)}`;
}

/** A labelled decimal input (kept as typed text: amounts never pass through a float). */
function DecimalField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  error: ReactNode;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        inputMode="decimal"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
      {props.error}
    </label>
  );
}
