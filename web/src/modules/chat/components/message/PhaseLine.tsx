import { PHASE_LABELS, type ModelPhase } from '../../hooks/useModelPhase';

type PhaseLineProps = { phase: ModelPhase; /** Instead of the phase's own words (a tool running). */ label?: string };

export function PhaseLine({ phase, label }: PhaseLineProps) {
  if (phase === 'idle') return null;
  return (
    <div className="phase" role="status" aria-live="polite" data-phase={label ? 'tool' : phase}>
      <span className="phase__pulse" aria-hidden="true" />
      {label ?? PHASE_LABELS[phase]}…
    </div>
  );
}
