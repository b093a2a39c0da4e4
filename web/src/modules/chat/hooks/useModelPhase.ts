import { PRODUCT_CONSTANTS } from '@app/contracts/common/constants';
import { useEffect, useState } from 'react';

/** The model query phase of section 4. */
export type ModelPhase = 'idle' | 'personalizing' | 'searching' | 'thinking';

export const PHASE_LABELS: Record<ModelPhase, string> = {
  idle: 'Idle',
  personalizing: 'Personalizing query',
  searching: 'Searching',
  thinking: 'Thinking',
};

/**
 * Loading from idle goes to personalizing, after 2.5 s to searching, after another 2.5 s to
 * thinking, each only if still loading; when loading ends it returns to idle.
 */
export function useModelPhase(loading: boolean, stepMs: number = PRODUCT_CONSTANTS.modelPhaseStepMs): ModelPhase {
  const [phase, setPhase] = useState<ModelPhase>('idle');
  useEffect(() => {
    if (!loading) {
      setPhase('idle');
      return;
    }
    setPhase('personalizing');
    const toSearching = setTimeout(() => setPhase('searching'), stepMs);
    const toThinking = setTimeout(() => setPhase('thinking'), 2 * stepMs);
    return () => {
      clearTimeout(toSearching);
      clearTimeout(toThinking);
    };
  }, [loading, stepMs]);
  return phase;
}
