import { Link, useNavigate } from 'react-router';
import { finishOnboarding } from '../modules/auth/api/onboardingApi';
import { OnboardingSteps } from '../modules/auth/components/OnboardingSteps';
import { setUser } from '../modules/auth/state/authStore';
import { useBusyAction } from '../modules/common/hooks/useBusyAction';
import { InferenceReview } from '../modules/memory/components/InferenceReview';
import { UndoBar } from '../modules/memory/components/UndoBar';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { Spinner } from '../ui/Spinner';

/** Step 3: what the assistant guessed, to confirm or reject; then Continue finishes the onboarding. */
export function ConfirmMemoriesPage() {
  const navigate = useNavigate();
  const finishing = useBusyAction(() => finishOnboarding(), {
    fallback: 'Something went wrong.',
    onSuccess: (user) => {
      setUser(user);
      navigate('/chat', { replace: true });
    },
  });
  const { busy, error } = finishing;
  return (
    <PublicPage
      title="Confirm your memories"
      subtitle="The assistant keeps facts you share so it can help you better. You can review, edit or delete them at any time."
    >
      <OnboardingSteps current={2} />
      <div className="card">
        <InferenceReview />
        {error && (
          <p className="notice notice--error" role="alert">
            {error} {error.includes('age') && <Link to="/new-user">Confirm your age</Link>}
          </p>
        )}
        <button
          type="button"
          id="confirm-memories-continue"
          className="button button--primary button--block"
          onClick={() => finishing.run()}
          disabled={busy}
        >
          {busy ? <Spinner label="Finishing" /> : 'Continue'}
        </button>
      </div>
      <UndoBar />
    </PublicPage>
  );
}
