import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { saveProfile } from '../modules/auth/api/onboardingApi';
import { NameField } from '../modules/auth/components/NameField';
import { OnboardingSteps } from '../modules/auth/components/OnboardingSteps';
import { setUser, useUser } from '../modules/auth/state/authStore';
import { useBusyAction } from '../modules/common/hooks/useBusyAction';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { Spinner } from '../ui/Spinner';

/** Step 2: the name (registers the user once the age is confirmed). */
export function OnboardingPage() {
  const user = useUser();
  const navigate = useNavigate();
  const [name, setName] = useState(user?.name ?? '');
  const [needsAge, setNeedsAge] = useState(false);
  const saving = useBusyAction((next: string) => saveProfile(next), {
    fallback: 'Something went wrong.',
    onSuccess: (updated) => {
      setUser(updated);
      if (!updated.onboarding_config.registered) setNeedsAge(true);
      else navigate('/confirm-memories');
    },
  });
  const { busy, error } = saving;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saving.run(name.trim());
  };
  return (
    <PublicPage title="What should the assistant call you?">
      <OnboardingSteps current={1} />
      <form className="card form" onSubmit={submit}>
        <NameField value={name} onChange={setName} autoComplete="given-name" />
        {error && (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        )}
        {needsAge && (
          <p className="notice notice--warning" role="alert">
            Confirm your age first. <Link to="/new-user">Go back to that step</Link>.
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={busy || !name.trim()}>
          {busy ? <Spinner label="Saving" /> : 'Continue'}
        </button>
      </form>
    </PublicPage>
  );
}
