import { dismissToast, useToasts } from './toastStore';
import { Icon } from './Icon';

export function Toasts() {
  const toasts = useToasts();
  return (
    <div className="floating-stack toasts" role="region" aria-label="Notifications" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`floating-note floating-note--${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
          <span>{toast.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
