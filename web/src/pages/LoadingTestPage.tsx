import { useState } from 'react';
import { PhaseLine } from '../modules/chat/components/message/PhaseLine';
import { PHASE_LABELS, useModelPhase } from '../modules/chat/hooks/useModelPhase';
import { PublicPage } from '../modules/layout/components/PublicPage';

/** Developer page: the model query phases with Start Loading and Stop Loading. */
export function LoadingTestPage() {
  const [loading, setLoading] = useState(false);
  const phase = useModelPhase(loading);
  return (
    <PublicPage title="Loading test" subtitle="The phase line as a reply is prepared: 2.5 s per step.">
      <div className="card stack">
        <div className="form__actions form__actions--start">
          <button type="button" className="button button--primary" onClick={() => setLoading(true)} disabled={loading}>
            Start Loading
          </button>
          <button type="button" className="button button--secondary" onClick={() => setLoading(false)} disabled={!loading}>
            Stop Loading
          </button>
        </div>
        <p>
          Phase: <strong data-testid="phase">{PHASE_LABELS[phase]}</strong>
        </p>
        <PhaseLine phase={phase} />
      </div>
    </PublicPage>
  );
}
