import { maskNumbers } from '../../../shared/format';

export interface ToastItem {
  id: number;
  title: string;
  body?: string;
  tone: 'info' | 'success' | 'error';
  /** The body tells amounts (a notification): privacy mode hides its numbers. */
  hasAmounts?: boolean;
  /** A newer toast of the same group takes this one's place instead of stacking above it. */
  group?: string;
}

/** At most this many toasts at once: the oldest gives way to a new one. */
export const MAX_TOASTS = 3;
/** How long a toast stays unless dismissed. */
export const TOAST_SHOWN_MS = 7000;

/** The list with `toast` added: in place of its group's toast, else on top, at most MAX_TOASTS. */
export function addToast(list: readonly ToastItem[], toast: ToastItem): ToastItem[] {
  const same = toast.group === undefined ? -1 : list.findIndex((t) => t.group === toast.group);
  if (same >= 0) return list.map((t, index) => (index === same ? toast : t));
  return [...list, toast].slice(-MAX_TOASTS);
}

/**
 * The toasts, in a corner of their own below the screen's content: the shell gives them a row
 * of their own, so they never lie over a table or its buttons.
 */
export function Toasts(props: {
  toasts: ToastItem[];
  privacyMode: boolean;
  onDismiss: (id: number) => void;
}) {
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions" data-testid="toasts">
      {props.toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast ${toast.tone}`}
          role="status"
          data-testid="toast"
          data-group={toast.group}
        >
          <div>
            <strong>{toast.title}</strong>
            {toast.body && (
              <div>
                {toast.hasAmounts ? maskNumbers(toast.body, props.privacyMode) : toast.body}
              </div>
            )}
          </div>
          <button
            type="button"
            className="small ghost"
            aria-label="Dismiss"
            onClick={() => props.onDismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
