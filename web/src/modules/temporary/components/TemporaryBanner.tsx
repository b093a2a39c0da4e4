import { Icon } from '../../../ui/Icon';

/** Says, while it is open, that this chat is temporary and what that means. */
export function TemporaryBanner() {
  return (
    <p className="temporary-banner" role="note">
      <Icon name="clock" size={16} />
      <span>
        <strong>Temporary chat.</strong> It won’t appear in your history, nothing in it is remembered, and it is deleted when you leave it
        (after 24 hours at the latest).
      </span>
    </p>
  );
}
