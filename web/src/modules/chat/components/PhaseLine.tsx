import { PHASE_LABELS, type ModelPhase } from '../hooks/useModelPhase';

type PhaseLineProps = { phase: ModelPhase };

export function PhaseLine({ phase }: PhaseLineProps) {
  if (phase === 'idle') return null;
  return (
    <div className="phase" role="status" aria-live="polite" data-phase={phase}>
      <span className="phase__pulse" aria-hidden="true" />
      {PHASE_LABELS[phase]}…
    </div>
  );
}
