import { Spinner } from '../../../ui/Spinner';
import { Switch } from '../../../ui/Switch';
import { useInsiderSettings } from '../../insider/hooks/useInsiderSettings';
import type { FlagName } from '../../insider/utils/flags';

const FLAG_LABELS: Record<Exclude<FlagName, 'can_create_invite'>, string> = {
  dislike_button_verbose_feedback: 'Ask why when I dislike a reply',
  show_rewritten_user_message: 'Show how my question was rewritten',
  show_auto_model_selection: 'Show which model answered',
  enable_ko_search: 'Enable KO search',
};
const FLAG_NAMES = Object.keys(FLAG_LABELS) as (keyof typeof FLAG_LABELS)[];

/** Insider mode and flags: optimistic, replaced by the server's answer, rolled back with a message on failure. */
export function InsiderPanel() {
  const { status, flags, effective, loading, unavailable, error, setEnabled, updateFlags } = useInsiderSettings();
  if (unavailable) return <p className="muted">Early-access settings are not available on this server yet.</p>;
  if (!status.is_insider)
    return <p className="muted">Early access is by invitation. When you are an insider, its switches show up here.</p>;
  return (
    <div className="stack">
      <Switch
        label="Insider mode"
        checked={status.is_insider_enabled}
        disabled={loading}
        onChange={(on) => setEnabled(on).catch(() => undefined)}
      >
        {loading && <Spinner label="Saving" />}
      </Switch>
      {status.is_insider_enabled && (
        <fieldset className="fieldset">
          <legend>Early-access features</legend>
          {FLAG_NAMES.map((name) => (
            <Switch
              key={name}
              label={FLAG_LABELS[name]}
              checked={!!flags[name]}
              disabled={loading}
              onChange={(on) => updateFlags({ [name]: on }).catch(() => undefined)}
            />
          ))}
        </fieldset>
      )}
      {effective.can_create_invite && <p className="muted small">You can invite people to the assistant: see “Invite people” below.</p>}
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
