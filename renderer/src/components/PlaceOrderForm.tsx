import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { MethodInput } from '../../../shared/contract';
import type { OrderSide, OrderType } from '../../../shared/types';
import { formatAmount, formatSymbol } from '../../../shared/format';
import { useApp } from '../context';
import { bridge, errorInfo } from '../lib/bridge';
import { orderSummary } from '../lib/order-text';
import { checkAmount, orderTotal } from '../lib/validation';
import { ConfirmActions, InlineError, Modal } from './common';

type NewOrder = MethodInput<'orders.place'>;

/** The order form: on the Orders screen for any market, on a symbol page for that one. */
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
