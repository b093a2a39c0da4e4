import { Icon } from '../../../ui/Icon';
import { devSmsInboxUrl } from '../api/authApi';
import { useDevSmsInbox } from '../hooks/useDevSmsInbox';

/** On a development server: a link to the texts sent to the number (the code among them). */
export function DevSmsInboxNote({ phoneNumber }: { phoneNumber: string }) {
  if (!useDevSmsInbox(phoneNumber)) return null;
  return (
    <p className="dev-note">
      <Icon name="info" size={14} /> Development: see the{' '}
      <a href={devSmsInboxUrl(phoneNumber)} target="_blank" rel="noopener noreferrer">
        SMS inbox
      </a>
    </p>
  );
}
