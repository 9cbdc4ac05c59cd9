import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { MethodInput } from '../../../shared/contract';
import type { OrderCheck, OrderReview, OrderSide, OrderType } from '../../../shared/types';
import { endSentence, formatStated, formatSymbol } from '../../../shared/format';
import { useApp } from '../context';
import { errorInfo } from '../lib/bridge';
import { defaultOrderMarket } from '../lib/order-text';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { checkAmount, orderTotal } from '../lib/validation';
import { Amount, ConfirmActions, InlineError, Modal } from './common';
import { KeyPermissions } from './KeyPermissions';

type NewOrder = MethodInput<'orders.place'>;

/** A price picked elsewhere (the depth ladder); `at` tells two picks of one price apart. */
export interface PickedPrice {
  price: string;
  at: number;
}

const checkMark: Record<OrderCheck['status'], string> = {
  passed: '✓',
  warning: '!',
  failed: '✗',
  skipped: '–',
};

/** The review's checks, each with what it compared. */
function OrderChecks({ checks }: { checks: OrderCheck[] }) {
  return (
    <ul className="order-checks" data-testid="order-checks">
      {checks.map((check) => (
        <li
          key={check.check}
          className={`order-check ${check.status}`}
          data-testid="order-check"
          data-check={check.check}
          data-status={check.status}
        >
          <span aria-hidden="true" className="order-check-mark">
            {checkMark[check.status]}
          </span>
          <span>
            <span className="sr-only">{check.status}: </span>
            {check.text}
          </span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The order form: on the Orders screen for any market, on a symbol page for that one. It shows
 * what the order pays with (the free balance) and the last price, and its review lists every
 * check the order passed before it can be placed.
 */
export function PlaceOrderForm(props: { symbol?: string; pickedPrice?: PickedPrice | null }) {
  const { symbols, activeProfile } = useApp();
  const canTrade = activeProfile?.canTrade ?? false;
  const tradable = useMemo(
    () => [...symbols].sort((a, b) => a.symbol.localeCompare(b.symbol)),
    [symbols],
  );
  const funds = useBridgeQuery('funds.list');
  // Until the user picks a market, the form stays on one they can pay for (defaultOrderMarket).
  const [chosen, setSymbol] = useState<string | null>(props.symbol ?? null);
  const opening = useMemo(
    () =>
      defaultOrderMarket(
        tradable,
        new Map((funds.data?.rows ?? []).map((row) => [row.asset.toLowerCase(), row.free])),
      ),
    [tradable, funds.data],
  );
  const symbol = chosen ?? opening;
  const [side, setSide] = useState<OrderSide>('buy');
  const [type, setType] = useState<OrderType>('limit');
  const [quantity, setQuantity] = useState('');
  const [price, setPrice] = useState('');
  const [stopPrice, setStopPrice] = useState('');
  const [refused, setRefused] = useState<OrderReview | null>(null);
  const [confirm, setConfirm] = useState<{ order: NewOrder; checks: OrderCheck[] } | null>(null);
  const [touched, setTouched] = useState(false);
  const review = useBridgeAction('orders.test', {
    onSuccess: (verdict, order) => {
      if (verdict.ok) setConfirm({ order, checks: verdict.checks });
      else setRefused(verdict);
    },
  });
  const place = useBridgeAction('orders.place', {
    // "Order placed" comes from the main process as a notification, told before any fill.
    onSuccess: () => {
      setConfirm(null);
      setQuantity('');
      setTouched(false);
    },
    onError: () => setConfirm(null),
  });
  const checking = review.pending;
  const placing = place.pending;
  const testError = review.error;
  const placeError = place.error;
  const { reset: resetReview } = review;
  // The review button is disabled while the check runs, so the dialog cannot note it as opener.
  const reviewButton = useRef<HTMLButtonElement>(null);

  const info = symbols.find((s) => s.symbol === (symbol || tradable[0]?.symbol));
  const activeSymbol = info?.symbol ?? symbol;
  const base = info?.baseAsset ?? '';
  const quote = info?.quoteAsset ?? '';
  const paying = side === 'buy' ? quote : base;
  const free = funds.data
    ? (funds.data.rows.find((row) => row.asset.toLowerCase() === paying.toLowerCase())?.free ?? '0')
    : null;
  const lastPrice = useBridgeQuery('market.tickers', undefined, {
    select: (tickers) => tickers.find((t) => t.symbol === activeSymbol)?.lastPrice ?? null,
  }).data;

  // A verdict belongs to the order it judged: any change of the order clears it.
  useEffect(() => {
    setRefused(null);
    resetReview();
  }, [symbol, side, type, quantity, price, stopPrice, resetReview]);

  const picked = props.pickedPrice;
  useEffect(() => {
    if (picked) setPrice(picked.price);
  }, [picked]);

  const qtyCheck = checkAmount(quantity, {
    precision: info?.baseAssetPrecision,
    label: 'Quantity',
  });
  // Tick size, step and limits are the market's: the review (orders.test) checks them with numbers.
  const priceCheck = checkAmount(price, { label: 'Price' });
  const stopCheck =
    type === 'stop_limit' ? checkAmount(stopPrice, { label: 'Stop price' }) : { ok: true };
  const total = orderTotal(quantity, price);
  const typeAllowed = !info || info.orderTypes.includes(type);
  const valid =
    Boolean(activeSymbol) && qtyCheck.ok && priceCheck.ok && stopCheck.ok && typeAllowed;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    review.reset();
    place.reset();
    if (!valid) return;
    const order: NewOrder = {
      symbol: activeSymbol,
      side,
      type,
      quantity: quantity.trim(),
      price: price.trim(),
      ...(type === 'stop_limit' ? { stopPrice: stopPrice.trim() } : {}),
    };
    setRefused(null);
    void review.run(order);
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
      onSubmit={submit}
      aria-label="Place an order"
      data-testid="order-form"
      noValidate
    >
      <h2>Place an order</h2>
      {activeProfile && !canTrade && (
        <KeyPermissions profile={activeProfile} disabled="So the order form is disabled." />
      )}
      <fieldset className="plain" disabled={!canTrade}>
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
        <div className="order-facts muted small-text">
          <span data-testid="order-free">
            Free: {free === null ? '—' : <Amount value={free} asset={paying} unit />}
          </span>
          <span data-testid="order-last-price">
            Last price: {lastPrice ? `${formatStated(lastPrice)} ${quote.toUpperCase()}` : '—'}
          </span>
        </div>
        <div className="muted small-text">
          Total: {/* Quantity × price is exact: what the order spends or brings, every digit. */}
          {total === null ? '—' : <Amount value={total} asset={quote} unit />}
        </div>
        {testInfo && (
          <div className="inline-error" role="alert" data-testid="order-test-error">
            This order would be refused: {endSentence(testInfo.message)} {testInfo.advice}
          </div>
        )}
        {refused && (
          <div className="inline-error" role="alert" data-testid="order-test-error">
            <strong>This order would be refused. What was checked:</strong>
            <OrderChecks checks={refused.checks} />
          </div>
        )}
        {placeError !== undefined && <InlineError error={placeError} testId="order-place-error" />}
        <div className="form-actions">
          <button
            type="submit"
            className={`primary side-${side}`}
            disabled={checking || placing}
            data-testid="order-review"
            ref={reviewButton}
          >
            {checking ? 'Checking the order…' : `Review ${side} order`}
          </button>
        </div>
      </fieldset>
      {confirm && (
        <Modal
          title="Confirm the order"
          onClose={() => setConfirm(null)}
          testId="order-confirm"
          returnFocus={() => reviewButton.current}
        >
          <p>
            <strong className={`side-${confirm.order.side}`}>
              {confirm.order.side === 'buy' ? 'Buy' : 'Sell'}
            </strong>{' '}
            {confirm.order.quantity} {base.toUpperCase()} at {confirm.order.price}{' '}
            {quote.toUpperCase()}
            {confirm.order.stopPrice && <> when the price reaches {confirm.order.stopPrice}</>}.
          </p>
          {confirm.checks
            .filter((check) => check.status === 'warning')
            .map((check) => (
              <p
                key={check.check}
                className="banner warn"
                role="alert"
                data-testid="order-price-warning"
              >
                <strong>Check the price:</strong> {check.text}
              </p>
            ))}
          <p className="muted">Checked before placing:</p>
          <OrderChecks checks={confirm.checks} />
          <ConfirmActions
            focusBack
            confirmLabel="Place order"
            busyLabel="Placing…"
            busy={placing}
            onBack={() => setConfirm(null)}
            onConfirm={() => void place.run(confirm.order)}
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
