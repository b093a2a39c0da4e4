import { useId, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { LoadingScreen, Spinner } from '../ui/Spinner';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { GroupInviteLinks } from '../modules/sms/components/GroupInviteLinks';
import { GroupList } from '../modules/sms/components/GroupList';
import { HighlightedText } from '../modules/sms/components/HighlightedText';
import type { GroupChannel } from '../modules/sms/api/smsApi';
import { useGroup, useGroupSearch, useLeaveGroup } from '../modules/sms/hooks/smsQueries';
import { formatPhone } from '../modules/sms/utils/phone';
import '../modules/sms/components/sms.css';

const dateTime = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
};

function GroupSearch({ group }: { group: GroupChannel }) {
  const [typed, setTyped] = useState('');
  const search = useGroupSearch(group.channel_url, typed);
  const inputId = useId();
  const statusId = useId();
  if (search.notMember) return <Navigate to="/404" replace />;
  const status = search.error
    ? null
    : search.searching && !search.loaded
      ? 'Searching…'
      : search.q
        ? `${search.results.length} ${search.results.length === 1 ? 'message matches' : 'messages match'} “${search.q}”`
        : search.results.length
          ? 'The latest messages, newest first'
          : null;
  return (
    <section aria-labelledby={`${inputId}-heading`}>
      <h2 id={`${inputId}-heading`}>Search the messages</h2>
      <div className="field" role="search">
        <label htmlFor={inputId}>Search this group’s messages</label>
        <input
          id={inputId}
          type="search"
          value={typed}
          autoComplete="off"
          aria-describedby={statusId}
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      <p id={statusId} className="muted small" role="status" aria-live="polite">
        {status}
        {search.searching && search.loaded ? <Spinner label="Searching" /> : null}
      </p>
      {search.error ? (
        <p className="notice notice--error" role="alert">
          {search.error}
        </p>
      ) : search.loaded && search.results.length === 0 ? (
        <p className="muted">
          {search.q
            ? `No messages match “${search.q}”. Try another word.`
            : 'No messages in this group yet. Text the group number to start.'}
        </p>
      ) : (
        <ol className="group-search__results" aria-label="Messages">
          {search.results.map((m) => (
            <li key={m.message_id} className={`group-result ${m.is_assistant ? 'group-result--assistant' : ''}`}>
              <div className="group-result__meta">
                <span>{m.is_assistant ? 'Assistant' : m.sender}</span>
                <time dateTime={m.created_at}>{when(m.created_at)}</time>
              </div>
              <p className="group-result__body">
                <HighlightedText body={m.body} highlights={search.q ? m.highlights : []} />
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Leaving the group, asked twice: the member's number for it is free again for another group. */
function LeaveGroup({ group }: { group: GroupChannel }) {
  const [asked, setAsked] = useState(false);
  const navigate = useNavigate();
  const { leave, busy, error } = useLeaveGroup(group.channel_url);
  const last = group.members.length === 1;
  return (
    <section aria-labelledby="group-leave">
      <h2 id="group-leave">Leave the group</h2>
      <p className="muted">
        {last
          ? 'You are its last member: leaving deletes the group and its messages.'
          : 'You stop receiving its texts. What you said stays with the others.'}{' '}
        Its number ({formatPhone(group.phone_number)}) is then free for another of your groups.
      </p>
      {asked ? (
        <p className="row">
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => leave(undefined, { onSuccess: () => navigate('/settings', { replace: true }) })}
          >
            {busy ? <Spinner label="Leaving" /> : last ? 'Leave and delete the group' : 'Leave the group'}
          </button>{' '}
          <button type="button" className="button button--secondary" onClick={() => setAsked(false)} disabled={busy}>
            Cancel
          </button>
        </p>
      ) : (
        <p>
          <button type="button" className="button button--secondary" onClick={() => setAsked(true)}>
            Leave “{group.name}”…
          </button>
        </p>
      )}
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** /group-search/{channelUrl} (login): a group text's members, its messages searched, its invite links; a non-member gets /404. */
export function GroupSearchPage() {
  const { channelUrl = '' } = useParams();
  const { group, loading, notMember, error } = useGroup(channelUrl);
  if (notMember) return <Navigate to="/404" replace />;
  if (loading) return <LoadingScreen label="Loading the group" />;
  if (error || !group)
    return (
      <PublicPage title="Group text">
        <p className="notice notice--error" role="alert">
          {error ?? 'This group could not be loaded.'}
        </p>
        <p>
          <Link to="/settings">Your group texts in Settings</Link>
        </p>
      </PublicPage>
    );
  return (
    <PublicPage title={group.name} subtitle={<>Group text · you text it at {formatPhone(group.phone_number)}</>} wide>
      <div className="group-page">
        <section aria-labelledby="group-members">
          <h2 id="group-members">Members ({group.members.length})</h2>
          <ul className="group-page__members">
            {group.members.map((member, index) => (
              <li key={`${member.label}-${index}`} className={member.is_you ? 'badge' : 'badge badge--muted'}>
                {member.is_you ? `${member.label} (you)` : member.label}
              </li>
            ))}
          </ul>
        </section>
        <GroupSearch group={group} />
        <section aria-labelledby="group-invite">
          <h2 id="group-invite">Invite people</h2>
          <GroupInviteLinks channelUrl={group.channel_url} />
        </section>
        <section aria-labelledby="group-others">
          <h2 id="group-others">Your group texts</h2>
          <GroupList />
        </section>
        <LeaveGroup group={group} />
      </div>
    </PublicPage>
  );
}
