import { CopyButton } from '../../../ui/CopyButton';
import { Spinner } from '../../../ui/Spinner';
import { useGroupInviteLinks } from '../hooks/smsQueries';

const dateTime = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });
const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
};

/** Invite links of a group: made here, copied, revoked. */
export function GroupInviteLinks({ channelUrl }: { channelUrl: string }) {
  const { invites, create, creating, revoke, revokingId, error } = useGroupInviteLinks(channelUrl);
  return (
    <div className="stack">
      <p className="muted">Anyone with the link can enter their number to join. They get a text and join once they reply YES.</p>
      <p>
        <button type="button" className="button button--secondary" onClick={create} disabled={creating}>
          {creating ? <Spinner label="Creating the invite link" /> : 'Create invite link'}
        </button>
      </p>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      {invites.length > 0 && (
        <ul className="invites" aria-label="Invite links">
          {invites.map((invite) => {
            const link = new URL(invite.url, window.location.origin).href;
            const fieldId = `group-invite-${invite.invite_id}`;
            return (
              <li key={invite.invite_id} className="invite">
                <div className="share-link">
                  <label className="visually-hidden" htmlFor={fieldId}>
                    Invite link
                  </label>
                  <input id={fieldId} readOnly value={link} disabled={invite.revoked} onFocus={(event) => event.currentTarget.select()} />
                  {!invite.revoked && (
                    <>
                      <CopyButton text={link} label="Copy invite link" className="button button--secondary" />
                      <button
                        type="button"
                        className="button button--danger"
                        onClick={() => revoke(invite.invite_id)}
                        disabled={revokingId === invite.invite_id}
                      >
                        {revokingId === invite.invite_id ? <Spinner label="Revoking" /> : 'Revoke'}
                      </button>
                    </>
                  )}
                </div>
                <p className="muted small invite__meta">
                  {invite.revoked ? 'Revoked: this link no longer works.' : `Expires ${formatDate(invite.expires_at)}`}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
