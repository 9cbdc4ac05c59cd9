import { maskNumbers } from '../../../shared/format';

export interface ToastItem {
  id: number;
  title: string;
  body?: string;
  tone: 'info' | 'success' | 'error';
  /** The body tells amounts (a notification): privacy mode hides its numbers. */
  hasAmounts?: boolean;
}

export function Toasts(props: {
  toasts: ToastItem[];
  privacyMode: boolean;
  onDismiss: (id: number) => void;
}) {
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {props.toasts.map((toast) => (
        <div key={toast.id} className={`toast ${toast.tone}`} role="status" data-testid="toast">
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
