import { Icon } from '../../../../ui/Icon';

/** A discreet line saying the built-in offline model answered (no AI provider configured). */
export function OfflineNote() {
  return (
    <span
      className="badge badge--muted"
      title="This reply comes from the built-in offline model: no AI provider is configured on this server."
    >
      <Icon name="info" size={13} /> Offline model
    </span>
  );
}
