import { Icon } from '../../../../ui/Icon';

type CutShortProps = { onRegenerate?: () => void; busy: boolean };

/** A stored reply that was cut short (an error, a stop, a crash), with a way to ask again. */
export function CutShortNotice({ onRegenerate, busy }: CutShortProps) {
  return (
    <div className="notice notice--warning" role="note">
      <Icon name="alert" size={15} /> The reply was cut short.
      {onRegenerate && (
        <button type="button" className="link-button" onClick={onRegenerate} disabled={busy}>
          Regenerate
        </button>
      )}
    </div>
  );
}

type FailedProps = { error: string; onRetry?: () => void };

/** A reply that failed while it streamed, with a way to try again once the stream ended. */
export function FailedNotice({ error, onRetry }: FailedProps) {
  return (
    <div className="notice notice--error" role="alert">
      {error}
      {onRetry && (
        <button type="button" className="link-button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
