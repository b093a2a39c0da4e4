import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { finishOnboarding } from '../modules/auth/api/onboardingApi';
import { OnboardingSteps } from '../modules/auth/components/OnboardingSteps';
import { setUser } from '../modules/auth/state/authStore';
import { InferenceReview } from '../modules/memory/components/InferenceReview';
import { UndoBar } from '../modules/memory/components/UndoBar';
import { PublicPage } from '../ui/PublicPage';
import { Spinner } from '../ui/Spinner';

/** Step 3: what the assistant guessed, to confirm or reject; then Continue finishes the onboarding. */
export function ConfirmMemoriesPage() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const done = async () => {
    setBusy(true);
    setError(null);
    try {
      setUser(await finishOnboarding());
      navigate('/chat', { replace: true });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <PublicPage title="Confirm your memories" subtitle="The assistant keeps facts you share so it can help you better. You can review, edit or delete them at any time.">
      <OnboardingSteps current={2} />
      <div className="card">
        <InferenceReview />
        {error && (
          <p className="notice notice--error" role="alert">
            {error} {error.includes('age') && <Link to="/new-user">Confirm your age</Link>}
          </p>
        )}
        <button type="button" id="confirm-memories-continue" className="button button--primary button--block" onClick={done} disabled={busy}>
          {busy ? <Spinner label="Finishing" /> : 'Continue'}
        </button>
      </div>
      <UndoBar />
    </PublicPage>
  );
}
