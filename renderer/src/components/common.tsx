import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import {
  endSentence,
  exactFigure,
  formatAge,
  formatPrice,
  formatStated,
  formatTime,
  formatValue,
  maskAmount,
} from '../../../shared/format';
import { useApp } from '../context';
import { errorInfo } from '../lib/bridge';
import { exchangeStatus, type ExchangeStatus } from '../lib/exchange-status';
import { useNow } from '../lib/hooks';
import type { QueryState } from '../lib/query';
import { routeHash } from '../lib/router';

/**
 * An amount of an asset as the exchange stated it (a balance, a fee, a quantity, a price) or an
 * exact sum of such: every digit (formatStated), hidden in privacy mode.
 */
export function Amount(props: {
  value: string | null | undefined;
  asset?: string;
  unit?: boolean;
  signed?: boolean;
  testId?: string;
}) {
  const { settings } = useApp();
  const text = formatStated(props.value, { signed: props.signed });
  const unit = props.unit && props.asset && text !== '—' ? ` ${props.asset.toUpperCase()}` : '';
  return (
    <span
      className="num"
      data-testid={props.testId}
      data-private={settings.privacyMode || undefined}
    >
      {maskAmount(`${text}${unit}`, settings.privacyMode)}
    </span>
  );
}

/**
 * A rounded figure the app computed, hidden in privacy mode; otherwise its exact figure is its
 * tooltip and what a copy of it carries (data-exact, read by lib/copy-exact.ts).
 */
function Rounded(props: {
  text: string;
  value: string | null | undefined;
  unit: string;
  testId?: string;
}) {
  const { settings } = useApp();
  const exact = settings.privacyMode ? null : exactFigure(props.value);
  return (
    <span
      className="num"
      data-testid={props.testId}
      data-private={settings.privacyMode || undefined}
      data-exact={exact ?? undefined}
      title={exact === null ? undefined : `${exact} ${props.unit.toUpperCase()}`}
    >
      {maskAmount(props.text, settings.privacyMode)}
    </span>
  );
}

/** A value the app computed in the quote asset ("12,345.67 USDT"): formatValue. */
export function Value(props: {
  value: string | null | undefined;
  quote: string;
  signed?: boolean;
  unit?: boolean;
  testId?: string;
}) {
  const text = formatValue(props.value, props.quote, {
    signed: props.signed,
    withUnit: props.unit !== false,
  });
  return <Rounded text={text} value={props.value} unit={props.quote} testId={props.testId} />;
}

/** A price the app computed in the quote asset (an average cost, a bridged price): formatPrice. */
export function Price(props: {
  value: string | null | undefined;
  quote: string;
  unit?: boolean;
  testId?: string;
}) {
  const text = formatPrice(props.value, props.quote, { withUnit: props.unit !== false });
  return <Rounded text={text} value={props.value} unit={props.quote} testId={props.testId} />;
}

export function Skeleton(props: { rows?: number; height?: number; label?: string }) {
  const rows = props.rows ?? 3;
  return (
    <div
      className="skeleton"
      role="status"
      aria-label={props.label ?? 'Loading'}
      data-testid="skeleton"
    >
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-line" style={{ height: props.height ?? 18 }} />
      ))}
    </div>
  );
}

export function EmptyState(props: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="empty" data-testid={props.testId ?? 'empty-state'}>
      <strong>{props.title}</strong>
      {props.children && <div className="muted">{props.children}</div>}
    </div>
  );
}

/** What a query shows until its first data: its error with a retry, or a skeleton meanwhile. */
export function QueryStatus(props: { query: QueryState<unknown>; rows?: number; height?: number }) {
  const { query } = props;
  if (query.data !== undefined) return null;
  if (query.error !== undefined) return <ErrorBox error={query.error} onRetry={query.reload} />;
  return <Skeleton rows={props.rows} height={props.height} />;
}

export function ErrorBox(props: { error: unknown; onRetry?: () => void; testId?: string }) {
  const info = errorInfo(props.error);
  return (
    <div
      className="error-box"
      role="alert"
      data-testid={props.testId ?? 'error'}
      data-kind={info.kind}
    >
      <div>
        <strong>{info.message}</strong>
        <div>{info.advice}</div>
      </div>
      {props.onRetry && (
        <button type="button" onClick={props.onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function InlineError(props: { error: unknown; testId?: string }) {
  const info = errorInfo(props.error);
  return (
    <div
      className="inline-error"
      role="alert"
      data-testid={props.testId ?? 'inline-error'}
      data-kind={info.kind}
    >
      {endSentence(info.message)} {info.advice}
    </div>
  );
}

export function ProgressBar(props: { value: number; max: number; label: string; testId?: string }) {
  const share = props.max > 0 ? Math.min(1, props.value / props.max) : 0;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={props.max}
      aria-valuenow={props.value}
      data-testid={props.testId}
    >
      <div className="progress-fill" style={{ width: `${(share * 100).toFixed(1)}%` }} />
    </div>
  );
}

function CopyIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" className="icon">
      <rect x="3.5" y="3.5" width="7" height="7" rx="1" fill="none" stroke="currentColor" />
      <path
        d="M8 2.5V2a1 1 0 0 0-1-1H2a1 1 0 0 0-1 1v5a1 1 0 0 0 1 1h.5"
        fill="none"
        stroke="currentColor"
      />
    </svg>
  );
}

export function CopyButton(props: { text: string; label: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const copy = () => {
    navigator.clipboard.writeText(props.text).then(
      () => {
        setCopied(true);
        setFailed(false);
        setTimeout(() => setCopied(false), 1500);
      },
      () => setFailed(true),
    );
  };
  return (
    <button
      type="button"
      className="small"
      onClick={copy}
      aria-label={props.label}
      title={failed ? 'Copy failed: select the text and copy it' : copied ? 'Copied' : props.label}
      data-testid={props.testId}
    >
      {copied ? '✓' : failed ? '!' : <CopyIcon />}
    </button>
  );
}

/** The exchange's state as every badge and banner shows it (lib/exchange-status.ts). */
export function useExchangeStatus(): ExchangeStatus {
  const { status, activeProfile, connection } = useApp();
  return exchangeStatus(activeProfile !== null, connection, status.rest);
}

/** "As of 5 min ago", with a warning look when the data is stale or the app is offline. */
export function AsOf(props: { asOf: number | null | undefined; stale?: boolean; testId?: string }) {
  const now = useNow();
  // Cached data goes stale when REST fails; a stream that is down leaves REST refreshing it.
  const { restDown } = useExchangeStatus();
  const old = props.asOf !== null && props.asOf !== undefined && now - props.asOf > 5 * 60_000;
  const warn = props.stale || restDown || old;
  return (
    <span className={warn ? 'as-of warn' : 'as-of'} data-testid={props.testId ?? 'as-of'}>
      {props.asOf ? `As of ${formatAge(props.asOf, now)}` : 'Not fetched yet'}
    </span>
  );
}

/**
 * The banner a screen shows when its data is old or the exchange is unreachable. The REST
 * interface and the stream are told apart: with REST answering and the stream down, the data
 * still refreshes, only the live updates wait. When the address refuses every connection, the
 * app-wide AddressRefusedBanner says why; this one only says how old the data is.
 */
export function StaleBanner(props: { asOf: number | null | undefined; stale?: boolean }) {
  const now = useNow();
  const { connection } = useApp();
  const exchange = useExchangeStatus();
  if (!exchange.restDown && !props.stale) {
    if (exchange.kind !== 'stream-down') return null;
    return (
      <div className="banner info" role="status" data-testid="stream-banner">
        Live updates are paused: the exchange&apos;s stream cannot be reached (since{' '}
        {formatAge(connection.since, now)}). The exchange itself answers, so balances and prices
        still refresh every few seconds; the stream reconnects by itself.
      </div>
    );
  }
  const age = `Showing cached data from ${formatAge(props.asOf, now)}.`;
  return (
    <div className="banner warn" role="status" data-testid="stale-banner">
      {exchange.kind === 'refused'
        ? age
        : exchange.restDown
          ? `Offline: the exchange cannot be reached. ${age} It refreshes by itself once the connection is back.`
          : `This data may be out of date. ${age}`}
    </div>
  );
}

/**
 * Said once for the whole app when the active profile's address has refused every connection
 * for a while: nothing listens there, so waiting may never end. The exchange may be stopped, or
 * it may have moved; the link opens the profile's editor, which checks a new address with the
 * exchange before saving it.
 */
export function AddressRefusedBanner() {
  const { activeProfile } = useApp();
  const exchange = useExchangeStatus();
  if (exchange.kind !== 'refused' || !activeProfile) return null;
  return (
    <div className="banner warn" role="alert" data-testid="address-refused">
      Nothing answers at {activeProfile.baseUrl}: every connection to it has been refused since{' '}
      {exchange.since !== null ? formatTime(exchange.since) : 'a while'}. The exchange may be
      stopped, or its address may have changed.{' '}
      <a
        href={routeHash({ screen: 'settings', profile: activeProfile.id })}
        data-testid="edit-exchange-address"
      >
        Check the profile&apos;s address
      </a>
    </div>
  );
}

export function PageHeader(props: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{props.title}</h1>
      <div className="page-header-tools">{props.children}</div>
    </header>
  );
}

export function SortHeader<F extends string>(props: {
  field: F;
  label: string;
  sort: { field: F; dir: 'asc' | 'desc' };
  onSort: (field: F) => void;
  numeric?: boolean;
  /** More classes of the header cell (e.g. "minor": a column a narrow window leaves out). */
  className?: string;
}) {
  const active = props.sort.field === props.field;
  const className = [props.numeric ? 'num' : '', props.className ?? ''].join(' ').trim();
  return (
    <th
      scope="col"
      className={className || undefined}
      aria-sort={active ? (props.sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" className="th-button" onClick={() => props.onSort(props.field)}>
        {props.label}
        {active ? (props.sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
}

/** The dialogs open now, innermost last: only the innermost one answers keys. */
const openDialogs: HTMLElement[] = [];

const focusableSelector = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusablesIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(focusableSelector)].filter(
    (element) => element.getClientRects().length > 0,
  );
}

/**
 * The one dialog of the app. It is drawn outside the page (a portal on body) and makes the page
 * inert while open, so Tab, a click or Enter can never reach what lies behind it; Tab and
 * Shift+Tab cycle inside it, Escape closes it, and on closing focus goes back to where it was
 * (or to `returnFocus()` when that element is gone, such as a row that was just removed).
 */
export function Modal(props: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** Where focus goes on closing when the element that opened the dialog is gone. */
  returnFocus?: () => HTMLElement | null;
}) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  const returnFocus = useRef(props.returnFocus);
  returnFocus.current = props.returnFocus;
  // Read while rendering: an autoFocus button inside takes focus before any effect runs.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return undefined;
    const host = dialog.closest<HTMLElement>('.modal-backdrop') ?? dialog;
    openDialogs.push(dialog);
    if (!dialog.contains(document.activeElement)) {
      // The close button is for the pointer and the end of a Tab cycle: the dialog's own first
      // control (or the one it prefers) takes focus, so Enter never just closes it.
      const preferred = dialog.querySelector<HTMLElement>('[data-autofocus]');
      const firstControl = focusablesIn(dialog).find((element) => !element.dataset.modalClose);
      (preferred ?? firstControl ?? dialog).focus();
    }
    const madeInert: Element[] = [];
    for (const element of document.body.children) {
      if (element === host || element.hasAttribute('inert')) continue;
      element.setAttribute('inert', '');
      madeInert.push(element);
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1] !== dialog) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        onClose.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusables = focusablesIn(dialog);
      const first = focusables[0];
      const last = focusables[focusables.length - 1];
      if (!first || !last) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const active = document.activeElement;
      const outside = !dialog.contains(active);
      if (event.shiftKey && (active === first || active === dialog || outside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || outside)) {
        event.preventDefault();
        first.focus();
      }
    };
    // Focus that lands outside anyway (a click on the backdrop, a toast) is brought back.
    const onFocusIn = (event: FocusEvent) => {
      if (openDialogs[openDialogs.length - 1] !== dialog) return;
      if (event.target instanceof Node && !dialog.contains(event.target)) dialog.focus();
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      openDialogs.splice(openDialogs.indexOf(dialog), 1);
      for (const element of madeInert) element.removeAttribute('inert');
      const usable = (element: HTMLElement | null | undefined): element is HTMLElement =>
        Boolean(element?.isConnected) &&
        element !== document.body &&
        !element!.closest('[inert]') &&
        !element!.matches(':disabled');
      const fallback = returnFocus.current?.();
      const target = usable(opener) ? opener : usable(fallback) ? fallback : null;
      (target ?? document.getElementById('main'))?.focus();
    };
  }, [opener]);

  return createPortal(
    <div className="modal-backdrop">
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={props.testId}
      >
        <div className="modal-head">
          <h2 id={titleId}>{props.title}</h2>
          <button
            type="button"
            className="modal-close"
            aria-label="Close"
            title="Close (Esc)"
            data-modal-close="true"
            onClick={() => onClose.current()}
          >
            ×
          </button>
        </div>
        {props.children}
      </div>
    </div>,
    document.body,
  );
}

/**
 * A confirmation's buttons: back out, or go ahead (busy while the action runs). The go-ahead
 * button has focus first unless `focusBack` says the safe choice should (a destructive action).
 */
export function ConfirmActions(props: {
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  onBack: () => void;
  onConfirm: () => void;
  testId?: string;
  backLabel?: string;
  backTestId?: string;
  danger?: boolean;
  focusBack?: boolean;
}) {
  return (
    <div className="form-actions">
      <button
        type="button"
        onClick={props.onBack}
        disabled={props.busy}
        data-testid={props.backTestId}
        data-autofocus={props.focusBack || undefined}
        autoFocus={props.focusBack}
      >
        {props.backLabel ?? 'Back'}
      </button>
      <button
        type="button"
        className={props.danger ? 'danger' : 'primary'}
        onClick={props.onConfirm}
        disabled={props.busy}
        data-testid={props.testId}
        data-autofocus={!props.focusBack || undefined}
        autoFocus={!props.focusBack}
      >
        {props.busy ? props.busyLabel : props.confirmLabel}
      </button>
    </div>
  );
}

/** A row of buttons choosing one of a few values (a range, an interval). */
export function Segmented<T extends string>(props: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  testIdPrefix: string;
}) {
  return (
    <div className="segmented" role="group" aria-label={props.label}>
      {props.options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={props.value === option.value}
          className={props.value === option.value ? 'active' : undefined}
          onClick={() => props.onChange(option.value)}
          data-testid={`${props.testIdPrefix}-${option.value}`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/**
 * A text input of a form the main process checks: its label, an optional hint, and the error the
 * main process named this field in (`errorInfo(...).field`), shown under it and marked invalid.
 */
export function CheckedTextField(props: {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The error of the form's last answer, if any; shown here only when it names this field. */
  error: { field?: string; message: string } | null;
  testId: string;
  type?: string;
  hint?: string;
  required?: boolean;
  errorTestId?: string;
}) {
  const fieldError = props.error?.field === props.name ? props.error : null;
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete="off"
        spellCheck={false}
        required={props.required}
        aria-invalid={fieldError !== null || undefined}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
      {props.hint && <small className="muted">{props.hint}</small>}
      {fieldError && (
        <small className="field-error" data-testid={props.errorTestId}>
          {fieldError.message}
        </small>
      )}
    </label>
  );
}
