export interface ToastItem {
  id: number;
  title: string;
  body?: string;
  tone: 'info' | 'success' | 'error';
}

export function Toasts(props: { toasts: ToastItem[]; onDismiss: (id: number) => void }) {
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {props.toasts.map((toast) => (
        <div key={toast.id} className={`toast ${toast.tone}`} role="status" data-testid="toast">
          <div>
            <strong>{toast.title}</strong>
            {toast.body && <div>{toast.body}</div>}
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
