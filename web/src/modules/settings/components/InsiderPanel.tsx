import { useEffect } from 'react';
import { Spinner } from '../../../ui/Spinner';
import { effectiveFlags, loadInsiderForSettings, setInsiderEnabled, updateFlags, useInsider, type FlagName } from '../../insider/state/insiderStore';

const FLAG_LABELS: Record<Exclude<FlagName, 'can_create_invite'>, string> = {
  dislike_button_verbose_feedback: 'Ask why when I dislike a reply',
  show_rewritten_user_message: 'Show how my question was rewritten',
  show_auto_model_selection: 'Show which model answered',
  enable_ko_search: 'Enable KO search',
};

/** Insider mode and flags: optimistic, replaced by the server's answer, rolled back with a message on failure. */
export function InsiderPanel() {
  const status = useInsider((s) => s.status);
  const flags = useInsider((s) => s.flags);
  const loading = useInsider((s) => s.loading);
  const unavailable = useInsider((s) => s.unavailable);
  const error = useInsider((s) => s.error);
  useEffect(() => {
    void loadInsiderForSettings();
  }, []);
  if (unavailable) return <p className="muted">Early-access settings are not available on this server yet.</p>;
  if (!status.is_insider) return <p className="muted">Early access is by invitation. When you are an insider, its switches show up here.</p>;
  const effective = effectiveFlags(status, flags);
  return (
    <div className="stack">
      <label className="switch">
        <input type="checkbox" role="switch" checked={status.is_insider_enabled} disabled={loading} onChange={(event) => void setInsiderEnabled(event.target.checked).catch(() => undefined)} />
        <span>Insider mode</span>
        {loading && <Spinner label="Saving" />}
      </label>
      {status.is_insider_enabled && (
        <fieldset className="fieldset">
          <legend>Early-access features</legend>
          {(Object.keys(FLAG_LABELS) as (keyof typeof FLAG_LABELS)[]).map((name) => (
            <label key={name} className="switch">
              <input type="checkbox" role="switch" checked={!!flags[name]} disabled={loading} onChange={(event) => void updateFlags({ [name]: event.target.checked }).catch(() => undefined)} />
              <span>{FLAG_LABELS[name]}</span>
            </label>
          ))}
        </fieldset>
      )}
      {effective.can_create_invite && <p className="muted small">You can invite people to the assistant: see “Invite people” below.</p>}
      {error && <p className="notice notice--error" role="alert">{error}</p>}
    </div>
  );
}
