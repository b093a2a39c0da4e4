import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Field } from '../../../ui/Field';
import { Spinner } from '../../../ui/Spinner';
import { GROUP_NAME_MAX } from '../api/smsApi';
import { useCreateGroup, useGroups } from '../hooks/smsQueries';
import { formatPhone } from '../utils/phone';

/** The caller's group texts, each linking to its search page. */
export function GroupList() {
  const { groups, loading, error, reload } = useGroups();
  if (loading) return <Spinner label="Loading your groups" />;
  if (error)
    return (
      <p className="notice notice--error" role="alert">
        {error}{' '}
        <button type="button" className="link-button" onClick={reload}>
          Try again
        </button>
      </p>
    );
  if (groups.length === 0) return <p className="muted">You are not in any group text yet.</p>;
  return (
    <ul className="sms-groups" aria-label="Your group texts">
      {groups.map((group) => (
        <li key={group.channel_url} className="sms-group">
          <Link to={`/group-search/${encodeURIComponent(group.channel_url)}`} className="sms-group__name">
            {group.name}
          </Link>
          <span className="muted small">
            {group.members.length} {group.members.length === 1 ? 'member' : 'members'} · text {formatPhone(group.phone_number)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Starts a group text: a name, then the group's page to invite people. */
export function CreateGroupForm() {
  const { create, busy, created, error, reset } = useCreateGroup();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset();
    const trimmed = name.trim();
    if (!trimmed) return setProblem('Give the group a name.');
    if (trimmed.length > GROUP_NAME_MAX) return setProblem(`A group name has at most ${GROUP_NAME_MAX} characters.`);
    setProblem(null);
    create(trimmed, { onSuccess: () => setName('') });
  };
  const shown = problem ?? error;
  return (
    <form className="form form--inline sms-create" onSubmit={submit} noValidate>
      <Field label="New group name" hint={`Up to ${GROUP_NAME_MAX} characters. You can invite people once it exists.`}>
        {(control) => (
          <input
            {...control}
            value={name}
            maxLength={GROUP_NAME_MAX + 20}
            // The problem is the form's notice below, not the field's own.
            aria-invalid={problem ? true : undefined}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button button--secondary" disabled={busy}>
        {busy ? <Spinner label="Creating the group" /> : 'Create group'}
      </button>
      {shown && (
        <p className="notice notice--error sms-create__notice" role="alert">
          {shown}
        </p>
      )}
      {created && !shown && (
        <p className="notice notice--info sms-create__notice" role="status">
          <span>
            “{created.name}” is ready. <Link to={`/group-search/${encodeURIComponent(created.channel_url)}`}>Open it to invite people</Link>
            .
          </span>
        </p>
      )}
    </form>
  );
}
