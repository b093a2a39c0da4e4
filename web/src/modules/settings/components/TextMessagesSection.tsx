import { Link } from 'react-router';
import { Spinner } from '../../../ui/Spinner';
import { CreateGroupForm, GroupList } from '../../sms/components/GroupList';
import { UsageBar } from '../../sms/components/UsageBar';
import { useSmsMe, useSmsService } from '../../sms/hooks/smsQueries';
import { formatPhone } from '../../sms/utils/phone';
import '../../sms/components/sms.css';

/** Settings, "Text messages": the number, whether texts are answered (STOP / START), this month's usage, the group texts. */
export function TextMessagesSection() {
  const { me, loading, error, reload } = useSmsMe();
  const { service } = useSmsService();
  if (loading) return <Spinner label="Loading your text messages" />;
  if (error || !me)
    return (
      <p className="notice notice--error" role="alert">
        {error ?? 'Your text messages could not be loaded.'}{' '}
        <button type="button" className="link-button" onClick={reload}>
          Try again
        </button>
      </p>
    );
  const assistant = service?.phone_number ? formatPhone(service.phone_number) : null;
  return (
    <div className="stack sms-me">
      <dl className="facts">
        <dt>Your number</dt>
        <dd>{me.phone_number ? formatPhone(me.phone_number) : 'No mobile number on your account'}</dd>
        <dt>Replies by text</dt>
        <dd>{me.opted_out ? <span className="badge badge--muted">Stopped</span> : <span className="badge">On</span>}</dd>
      </dl>
      {!me.phone_number ? (
        <p className="muted">
          Sign in with your mobile number to use the same account by text. Texting the assistant from a new number creates a separate
          account for that number.
        </p>
      ) : me.opted_out ? (
        <p className="muted">
          You texted STOP, so the assistant sends nothing to {formatPhone(me.phone_number)}, not even notices. Text <strong>START</strong>
          {assistant ? ` to ${assistant}` : ''} to turn replies back on.
        </p>
      ) : (
        <p className="muted">
          Text <strong>STOP</strong>
          {assistant ? ` to ${assistant}` : ''} at any time and the assistant stops replying; text <strong>START</strong> to resume.
        </p>
      )}
      <UsageBar used={me.texts_used} allowance={me.monthly_allowance} period={me.period} />
      <p>
        <Link to="/text">How texting the assistant works</Link>
      </p>
      <h3>Group texts</h3>
      <GroupList />
      {me.phone_number && <CreateGroupForm />}
    </div>
  );
}
