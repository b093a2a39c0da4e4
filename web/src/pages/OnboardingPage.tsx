import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { saveProfile } from '../modules/auth/api/onboardingApi';
import { OnboardingSteps } from '../modules/auth/components/OnboardingSteps';
import { setUser, useUser } from '../modules/auth/state/authStore';
import { PublicPage } from '../ui/PublicPage';
import { Spinner } from '../ui/Spinner';

/** Step 2: the name (registers the user once the age is confirmed). */
export function OnboardingPage() {
  const user = useUser();
  const navigate = useNavigate();
  const [name, setName] = useState(user?.name ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [needsAge, setNeedsAge] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const updated = await saveProfile(name.trim());
      setUser(updated);
      if (!updated.onboarding_config.registered) setNeedsAge(true);
      else navigate('/confirm-memories');
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <PublicPage title="What should the assistant call you?">
      <OnboardingSteps current={1} />
      <form className="card form" onSubmit={submit}>
        <label className="field">
          <span>Name</span>
          <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="given-name" maxLength={100} required />
        </label>
        {error && <p className="notice notice--error" role="alert">{error}</p>}
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
