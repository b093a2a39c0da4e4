import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { confirmAge } from '../modules/auth/api/onboardingApi';
import { setUser, useUser } from '../modules/auth/state/authStore';
import { PublicPage } from '../ui/PublicPage';
import { Spinner } from '../ui/Spinner';
import { OnboardingSteps } from '../modules/auth/components/OnboardingSteps';

/** Step 1 of onboarding: the age of majority (18). */
export function NewUserPage() {
  const user = useUser();
  const navigate = useNavigate();
  const [birthDate, setBirthDate] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (user?.onboarding_config.onboarding_done) return <Navigate to="/chat" replace />;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setUser(await confirmAge(birthDate));
      navigate('/onboarding');
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  };
  const today = new Date().toISOString().slice(0, 10);
  return (
    <PublicPage title="Welcome!" subtitle="A couple of quick steps and you are set.">
      <OnboardingSteps current={0} />
      <form className="card form" onSubmit={submit}>
        <label className="field">
          <span>Your date of birth</span>
          <input type="date" value={birthDate} max={today} min="1900-01-01" onChange={(event) => setBirthDate(event.target.value)} required />
          <small className="muted">You must be 18 or older to use the assistant. We only keep that you confirmed it.</small>
        </label>
        {error && <p className="notice notice--error" role="alert">{error}</p>}
        <button type="submit" className="button button--primary button--block" disabled={busy || !birthDate}>
          {busy ? <Spinner label="Checking" /> : 'Continue'}
        </button>
      </form>
    </PublicPage>
  );
}
