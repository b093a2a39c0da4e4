import { CopyButton } from '../../../ui/CopyButton';
import { Field } from '../../../ui/Field';
import { Spinner } from '../../../ui/Spinner';
import { INVITE_LIMITS, inviteLink } from '../api/inviteApi';
import { useInviteLinks } from '../hooks/useInviteLinks';

const EXPIRY_CHOICES = [1, 7, 30, 90] as const;
const dateTime = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
};

/** Invite links (shown when the effective can_create_invite is true): how many uses, how long, then the link to copy. */
export function InvitePanel() {
  const { maxUses, setMaxUses, days, setDays, usesValid, busy, error, invites, submit } = useInviteLinks();

  return (
    <div className="stack">
      <p className="muted invite-intro">Create a link that lets people sign up. Share it with those you want to invite.</p>
      <form className="form form--inline invite-form" onSubmit={submit} noValidate>
        <Field label="Number of uses" hint={`From ${INVITE_LIMITS.maxUses.min} to ${INVITE_LIMITS.maxUses.max}`}>
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={INVITE_LIMITS.maxUses.min}
              max={INVITE_LIMITS.maxUses.max}
              step={1}
              value={maxUses}
              // Checked as typed; why it is refused is the form's notice below.
              aria-invalid={!usesValid}
              onChange={(event) => setMaxUses(event.target.value)}
            />
          )}
        </Field>
        <Field label="Expires after">
          {(control) => (
            <select {...control} value={days} onChange={(event) => setDays(Number(event.target.value))}>
              {EXPIRY_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? '1 day' : `${n} days`}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="button button--primary invite-form__submit" disabled={busy}>
          {busy ? <Spinner label="Creating the invite" /> : 'Create invite link'}
        </button>
      </form>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      {invites.length > 0 && (
        <ul className="invites" aria-label="Invite links created">
          {invites.map((invite) => {
            const link = inviteLink(invite.invite_link_id);
            return (
              <li key={invite.invite_link_id} className="invite">
                <div className="share-link">
                  <label className="visually-hidden" htmlFor={`invite-${invite.invite_link_id}`}>
                    Invite link
                  </label>
                  <input id={`invite-${invite.invite_link_id}`} readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
                  <CopyButton text={link} label="Copy invite link" className="button button--secondary" />
                </div>
                <p className="muted small invite__meta">
                  Used {invite.uses} of {invite.max_uses} {invite.max_uses === 1 ? 'time' : 'times'} · expires{' '}
                  {formatDate(invite.expires_at)}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
