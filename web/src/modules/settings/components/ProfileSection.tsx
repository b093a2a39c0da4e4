import { Link } from 'react-router';
import { Spinner } from '../../../ui/Spinner';
import { NameField } from '../../auth/components/NameField';
import { useUser } from '../../auth/state/authStore';
import { useProfileName } from '../hooks/useProfileName';

type ProfileSectionProps = { registered: boolean };

/** Who the user is: the number and e-mail signed in with, and the name (guests are asked to sign in). */
export function ProfileSection({ registered }: ProfileSectionProps) {
  const user = useUser();
  const { name, setName, saving, canSave, submit } = useProfileName();
  if (!registered) {
    return (
      <p>
        You are using the assistant as a guest. <Link to="/login">Sign in or sign up</Link> to keep your conversations on every device.
      </p>
    );
  }
  return (
    <>
      <dl className="facts">
        {user?.phone_number && (
          <>
            <dt>Mobile number</dt>
            <dd>{user.phone_number}</dd>
          </>
        )}
        {user?.email && (
          <>
            <dt>E-mail</dt>
            <dd>{user.email}</dd>
          </>
        )}
      </dl>
      <form className="form form--inline" onSubmit={submit}>
        <NameField value={name} onChange={setName} autoComplete="name" />
        <button type="submit" className="button button--secondary" disabled={!canSave}>
          {saving ? <Spinner label="Saving" /> : 'Save'}
        </button>
      </form>
    </>
  );
}
