import { createStore } from '../../common/state/createStore';
import type { EngineState } from './audioEngine';
import type { VoiceModeState } from '../utils/micState';

/**
 * What is being read aloud, for the buttons (this module is small and in the first load; the
 * engine itself loads on first use): the keys of the message being spoken (a streamed reply's
 * draft key, then its message id), the engine's state, and whether the message is complete.
 */
export type SpeechView = { session: number; keys: string[]; state: EngineState; complete: boolean };

export const speechStore = createStore<SpeechView>(() => ({ session: 0, keys: [], state: 'idle', complete: true }));

/** Voice mode's state (the controller loads on first use). */
export const voiceModeStore = createStore<VoiceModeState & { assistantSpeaking: boolean }>(() => ({
  phase: 'off',
  intent: 'active',
  error: null,
  assistantSpeaking: false,
}));
