/**
 * Creating and editing an alert: the form the Alerts screen uses, and the "Create alert" button
 * a market page and an asset page show with what they know prefilled (the current price, the
 * free balance). The line is checked here by the decimal rule the main process enforces; the
 * market or asset and duplicates are checked there, and its errors land on their field.
 */
import { useState, type FormEvent } from 'react';
import {
  DEFAULT_COOLDOWN_MINUTES,
  LINE_DIRECTIONS,
  MOVE_DIRECTIONS,
  MOVE_WINDOWS,
  type AlertKind,
  type AlertView,
  type MoveWindow,
} from '../../../shared/alerts';
import type { MethodInput } from '../../../shared/contract';
import { isPositiveDecimalText, normalizeDecimalText } from '../../../shared/decimal';
import { useApp } from '../context';
import { bridge, errorInfo } from '../lib/bridge';
import { useAction, useBridgeQuery } from '../lib/query';
import { ErrorBox, Modal } from './common';

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  price: 'Price crosses a line',
  'price-move': 'Price moves by a percentage',
  balance: 'Free balance crosses an amount',
  portfolio: 'Portfolio value crosses a line',
  withdrawal: 'A withdrawal changes status',
};

/** What the form holds: text as typed, for every kind at once (switching kind keeps it). */
export interface AlertDraft {
  kind: AlertKind;
  symbol: string;
  asset: string;
  quoteAsset: string;
  lineDirection: 'above' | 'below';
  moveDirection: 'up' | 'down' | 'either';
  threshold: string;
  percent: string;
  window: MoveWindow;
  repeat: boolean;
  cooldownMinutes: string;
}

function draftOf(quoteAsset: string, initial: Partial<AlertDraft>, view?: AlertView): AlertDraft {
  const draft: AlertDraft = {
    kind: 'price',
    symbol: '',
    asset: '',
    quoteAsset,
    lineDirection: 'above',
    moveDirection: 'either',
    threshold: '',
    percent: '5',
    window: '24h',
    repeat: false,
    cooldownMinutes: String(DEFAULT_COOLDOWN_MINUTES),
    ...initial,
  };
  if (!view) return draft;
  draft.kind = view.kind;
  draft.repeat = view.repeat;
  draft.cooldownMinutes = String(view.cooldownMinutes);
  switch (view.kind) {
    case 'price':
      return {
        ...draft,
        symbol: view.symbol,
        lineDirection: view.direction,
        threshold: view.threshold,
      };
    case 'price-move':
      return {
        ...draft,
        symbol: view.symbol,
        moveDirection: view.direction,
        percent: view.threshold,
        window: view.window,
      };
    case 'balance':
      return {
        ...draft,
        asset: view.asset,
        lineDirection: view.direction,
        threshold: view.threshold,
      };
    case 'portfolio':
      return {
        ...draft,
        quoteAsset: view.asset,
        lineDirection: view.direction,
        threshold: view.threshold,
      };
    case 'withdrawal':
      return { ...draft, asset: view.asset ?? '' };
  }
}

type AlertInput = MethodInput<'alerts.create'>;

/** The bridge input of a draft, or the field at fault and why. */
function inputOf(draft: AlertDraft): { input: AlertInput } | { field: string; message: string } {
  const timing = { repeat: draft.repeat, cooldownMinutes: Number(draft.cooldownMinutes) };
  if (draft.repeat && !/^\d{1,5}$/.test(draft.cooldownMinutes.trim())) {
    return { field: 'cooldownMinutes', message: 'The cool-down is a whole number of minutes.' };
  }
  const line = (what: string, text: string) => {
    const value = text.trim();
    if (!isPositiveDecimalText(value)) {
      return { field: 'threshold', message: `${what} must be a positive decimal like 12.5.` };
    }
    return normalizeDecimalText(value);
  };
  const direction = draft.lineDirection;
  switch (draft.kind) {
    case 'price': {
      const threshold = line('The price', draft.threshold);
      if (typeof threshold !== 'string') return threshold;
      return {
        input: { kind: 'price', symbol: draft.symbol.trim(), direction, threshold, ...timing },
      };
    }
    case 'price-move': {
      const threshold = line('The move', draft.percent);
      if (typeof threshold !== 'string') return threshold;
      return {
        input: {
          kind: 'price-move',
          symbol: draft.symbol.trim(),
          direction: draft.moveDirection,
          threshold,
          window: draft.window,
          ...timing,
        },
      };
    }
    case 'balance': {
      const threshold = line('The amount', draft.threshold);
      if (typeof threshold !== 'string') return threshold;
      return {
        input: { kind: 'balance', asset: draft.asset.trim(), direction, threshold, ...timing },
      };
    }
    case 'portfolio': {
      const threshold = line('The value', draft.threshold);
      if (typeof threshold !== 'string') return threshold;
      return {
        input: {
          kind: 'portfolio',
          asset: draft.quoteAsset.trim(),
          direction,
          threshold,
          ...timing,
        },
      };
    }
    case 'withdrawal':
      return {
        input: {
          kind: 'withdrawal',
          asset: draft.asset.trim() === '' ? null : draft.asset.trim(),
          ...timing,
        },
      };
  }
}

export function AlertForm(props: {
  initial?: Partial<AlertDraft>;
  editing?: AlertView;
  onDone: (alert: AlertView) => void;
  onCancel: () => void;
}) {
  const { settings, symbols } = useApp();
  const [draft, setDraft] = useState(() =>
    draftOf(settings.quoteAsset, props.initial ?? {}, props.editing),
  );
  // What the page knows (a free balance, a last price) may arrive after the form opened: it fills
  // the field then, unless something was typed there.
  const known = props.editing ? undefined : props.initial?.threshold;
  const [seenKnown, setSeenKnown] = useState(known);
  if (known !== seenKnown) {
    setSeenKnown(known);
    if (known && draft.threshold === '')
      setDraft((previous) => ({ ...previous, threshold: known }));
  }
  // What the form's own check refused (nothing sent), else what the app answered.
  const [refused, setRefused] = useState<unknown>(undefined);
  const { editing, onDone } = props;
  const save = useAction(
    (alert: AlertInput) =>
      editing ? bridge().alerts.update({ id: editing.id, alert }) : bridge().alerts.create(alert),
    { onSuccess: (saved) => onDone(saved) },
  );
  const error = refused ?? save.error;
  const busy = save.pending;
  const info = error === undefined ? null : errorInfo(error);
  // An edit's errors name the field inside "alert".
  const fieldAtFault = info?.field?.replace(/^alert\./, '');
  const set = (patch: Partial<AlertDraft>) => setDraft((previous) => ({ ...previous, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = inputOf(draft);
    if (!('input' in checked)) {
      save.reset();
      setRefused({ kind: 'invalid-input', message: checked.message, field: checked.field });
      return;
    }
    setRefused(undefined);
    void save.run(checked.input);
  };

  const fieldError = (name: string) =>
    fieldAtFault === name && info ? (
      <small className="field-error" data-testid={`alert-error-${name}`}>
        {info.message}
      </small>
    ) : null;
  /** A text field; `errorField` is the name the main process gives it in an error. */
  const text = (
    name: 'symbol' | 'asset' | 'quoteAsset' | 'threshold' | 'percent' | 'cooldownMinutes',
    label: string,
    options: { hint?: string; list?: string; errorField?: string } = {},
  ) => {
    const { hint, list, errorField = name } = options;
    return (
      <label className="field">
        <span>{label}</span>
        <input
          value={draft[name]}
          onChange={(e) => set({ [name]: e.target.value })}
          autoComplete="off"
          spellCheck={false}
          inputMode={name === 'threshold' || name === 'percent' ? 'decimal' : undefined}
          list={list}
          aria-invalid={fieldAtFault === errorField || undefined}
          data-testid={`alert-${name}`}
        />
        {hint && <small className="muted">{hint}</small>}
        {fieldError(errorField)}
      </label>
    );
  };
  const lineDirection = (
    <label className="field">
      <span>When it goes</span>
      <select
        value={draft.lineDirection}
        onChange={(e) => set({ lineDirection: e.target.value as AlertDraft['lineDirection'] })}
        data-testid="alert-direction"
      >
        {LINE_DIRECTIONS.map((direction) => (
          <option key={direction} value={direction}>
            {direction}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <form className="form" onSubmit={submit} data-testid="alert-form" noValidate>
      <label className="field">
        <span>Tell me when</span>
        <select
          value={draft.kind}
          onChange={(e) => set({ kind: e.target.value as AlertKind })}
          data-testid="alert-kind"
          data-autofocus
        >
          {(Object.keys(ALERT_KIND_LABELS) as AlertKind[]).map((kind) => (
            <option key={kind} value={kind}>
              {ALERT_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
      </label>
      <datalist id="alert-symbols">
        {symbols.map((s) => (
          <option key={s.symbol} value={s.symbol} />
        ))}
      </datalist>
      {(draft.kind === 'price' || draft.kind === 'price-move') &&
        text('symbol', 'Market', { hint: 'For example btcusdt', list: 'alert-symbols' })}
      {draft.kind === 'price' && (
        <>
          {lineDirection}
          {text('threshold', 'Price')}
        </>
      )}
      {draft.kind === 'price-move' && (
        <>
          <label className="field">
            <span>Which way</span>
            <select
              value={draft.moveDirection}
              onChange={(e) =>
                set({ moveDirection: e.target.value as AlertDraft['moveDirection'] })
              }
              data-testid="alert-move-direction"
            >
              {MOVE_DIRECTIONS.map((direction) => (
                <option key={direction} value={direction}>
                  {direction === 'either' ? 'up or down' : direction}
                </option>
              ))}
            </select>
          </label>
          {text('percent', 'By at least (%)', { errorField: 'threshold' })}
          <label className="field">
            <span>Within</span>
            <select
              value={draft.window}
              onChange={(e) => set({ window: e.target.value as MoveWindow })}
              data-testid="alert-window"
            >
              {MOVE_WINDOWS.map((window) => (
                <option key={window} value={window}>
                  {window === '1h' ? '1 hour' : '24 hours'}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      {draft.kind === 'balance' && (
        <>
          {text('asset', 'Asset', { hint: 'For example usdt' })}
          {lineDirection}
          {text('threshold', 'Free amount')}
        </>
      )}
      {draft.kind === 'portfolio' && (
        <>
          {text('quoteAsset', 'Counted in', {
            hint: 'The quote asset the value is counted in',
            errorField: 'asset',
          })}
          {lineDirection}
          {text('threshold', 'Value')}
        </>
      )}
      {draft.kind === 'withdrawal' &&
        text('asset', 'Asset', { hint: 'Leave empty for every asset' })}
      <label className="toggle">
        <input
          type="checkbox"
          checked={draft.repeat}
          onChange={(e) => set({ repeat: e.target.checked })}
          data-testid="alert-repeat"
        />
        Repeat (otherwise it fires once and rests until resumed)
      </label>
      {draft.repeat && text('cooldownMinutes', 'Wait between firings (minutes)')}
      {info && !fieldAtFault && <ErrorBox error={error} testId="alert-form-error" />}
      <div className="form-actions">
        <button type="button" className="ghost" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy} data-testid="alert-submit">
          {props.editing ? 'Save alert' : 'Create alert'}
        </button>
      </div>
    </form>
  );
}

/** A button that opens the form in a dialog, prefilled with what the page knows. */
export function CreateAlertButton(props: {
  initial: Partial<AlertDraft>;
  label?: string;
  testId?: string;
}) {
  const { toast } = useApp();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        data-testid={props.testId ?? 'create-alert'}
      >
        {props.label ?? 'Create alert'}
      </button>
      {open && (
        <Modal title="New alert" onClose={() => setOpen(false)} testId="alert-dialog">
          <AlertForm
            initial={props.initial}
            onDone={() => {
              setOpen(false);
              toast({
                title: 'Alert created',
                body: 'It is listed on the Alerts page.',
                tone: 'success',
              });
            }}
            onCancel={() => setOpen(false)}
          />
        </Modal>
      )}
    </>
  );
}

/** A market page's entry: a price alert on the market, at its last price. */
export function MarketAlertButton(props: { symbol: string }) {
  const last = useBridgeQuery('market.tickers', undefined, {
    select: (all) => all.find((t) => t.symbol === props.symbol)?.lastPrice ?? '',
  });
  return (
    <CreateAlertButton
      initial={{ kind: 'price', symbol: props.symbol, threshold: cleanDecimal(last.data) }}
      testId="market-create-alert"
    />
  );
}

/** An asset page's entry: a balance alert on the asset, at its free balance now. */
export function AssetAlertButton(props: { asset: string }) {
  const free = useBridgeQuery('funds.list', undefined, {
    select: (view) => view.rows.find((row) => row.asset.toLowerCase() === props.asset)?.free ?? '',
  });
  return (
    <CreateAlertButton
      initial={{ kind: 'balance', asset: props.asset, threshold: cleanDecimal(free.data) }}
      testId="asset-create-alert"
    />
  );
}

/** Decimal text as a person would type it ("61250.50000000" -> "61250.5"); blank when none. */
function cleanDecimal(value: string | undefined): string {
  return value && isPositiveDecimalText(value) ? normalizeDecimalText(value) : '';
}
