import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Spinner } from '../ui/Spinner';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { PhoneField } from '../modules/sms/components/PhoneField';
import { useGroupInvite, useJoinGroup, useSmsService } from '../modules/sms/hooks/smsQueries';
import { normalizePhone, PHONE_EXAMPLE } from '@app/contracts/sms';
import { formatPhone } from '../modules/sms/utils/phone';
import '../modules/sms/components/sms.css';

/** /group-search/invite/{id} (public, logged-out visitors too): join a group text with a mobile number. */
export function GroupInvitePage() {
  const { groupChannelInviteLinkId = '' } = useParams();
  const { invite, loading, error } = useGroupInvite(groupChannelInviteLinkId);
  const { service } = useSmsService();
  const join = useJoinGroup(groupChannelInviteLinkId);
  const [number, setNumber] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Numbers without a country code are read as North American only when the assistant's number is one.
  const northAmerican = !service?.phone_number || service.phone_number.startsWith('+1');

  if (loading)
    return (
      <PublicPage title="Join a group text">
        <Spinner label="Loading the invitation" />
      </PublicPage>
    );
  if (error || !invite)
    return (
      <PublicPage title="This invitation cannot be used">
        <p className="notice notice--info">{error ?? 'This invite link has expired or was revoked.'}</p>
        <p>Ask the person who sent it for a new link. You can still text the assistant on your own.</p>
        <p>
          <Link to="/text" className="button button--primary">
            How texting the assistant works
          </Link>
        </p>
      </PublicPage>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = normalizePhone(number, { northAmerican });
    if (!checked.ok) return setProblem(checked.message);
    setProblem(null);
    setNumber(checked.e164);
    join.join(checked.e164);
  };
  const members = invite.member_count === 1 ? '1 member' : `${invite.member_count} members`;
  return (
    <PublicPage title={`Join “${invite.group_name}”`} subtitle={`A group text with the assistant · ${members}`}>
      {join.sentTo ? (
        <div className="card stack" role="status">
          <h2>Check your phone</h2>
          <p>
            We texted {formatPhone(join.sentTo)}. Reply <strong>YES</strong> to join.
          </p>
          <p className="muted">
            Not your number?{' '}
            <button type="button" className="link-button" onClick={join.reset}>
              Use another number
            </button>
          </p>
        </div>
      ) : (
        <form className="card form" onSubmit={submit} noValidate>
          <p>Enter your mobile number. We text it once to confirm, and you join the group when you reply YES.</p>
          <PhoneField
            label="Mobile number"
            value={number}
            onChange={(value) => {
              setNumber(value);
              if (problem) setProblem(null);
            }}
            problem={problem}
            hint={`With the country code, like ${PHONE_EXAMPLE}`}
          />
          {join.error && (
            <p className="notice notice--error" role="alert">
              {join.error}
            </p>
          )}
          <button type="submit" className="button button--primary button--block" disabled={join.busy}>
            {join.busy ? <Spinner label="Sending the text" /> : 'Join'}
          </button>
          <p className="muted small">
            Texting the assistant creates an account for your number. Text STOP at any time to stop. See the{' '}
            <Link to="/privacy">Privacy Policy</Link> and <Link to="/text">how it works</Link>.
          </p>
        </form>
      )}
    </PublicPage>
  );
}
