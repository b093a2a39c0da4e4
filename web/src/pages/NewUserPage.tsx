import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { confirmAge } from '../modules/auth/api/onboardingApi';
import { setUser, useUser } from '../modules/auth/state/authStore';
import { useBusyAction } from '../modules/common/hooks/useBusyAction';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { Field } from '../ui/Field';
import { Spinner } from '../ui/Spinner';
import { OnboardingSteps } from '../modules/auth/components/OnboardingSteps';

/** Step 1 of onboarding: the age of majority (18). */
export function NewUserPage() {
  const user = useUser();
  const navigate = useNavigate();
  const [birthDate, setBirthDate] = useState('');
  const confirming = useBusyAction((date: string) => confirmAge(date), {
    fallback: 'Something went wrong.',
    onSuccess: (updated) => {
      setUser(updated);
      navigate('/onboarding');
    },
  });
  const { busy, error } = confirming;
  if (user?.onboarding_config.onboarding_done) return <Navigate to="/chat" replace />;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirming.run(birthDate);
  };
  const today = new Date().toISOString().slice(0, 10);
  return (
    <PublicPage title="Welcome!" subtitle="A couple of quick steps and you are set.">
      <OnboardingSteps current={0} />
      <form className="card form" onSubmit={submit}>
        <Field label="Your date of birth" hint="You must be 18 or older to use the assistant. We only keep that you confirmed it.">
          {(control) => (
            <input
              {...control}
              type="date"
              value={birthDate}
              max={today}
              min="1900-01-01"
              onChange={(event) => setBirthDate(event.target.value)}
              required
            />
          )}
        </Field>
        {error && (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={busy || !birthDate}>
          {busy ? <Spinner label="Checking" /> : 'Continue'}
        </button>
      </form>
    </PublicPage>
  );
}
