/**
 * Voice mode as a state machine (spec section 4, "Microphone"): the user's intent is active or
 * muted; the effective mute is on when the user chose muted or the system mutes the microphone
 * while the assistant speaks (and while it transcribes and thinks: nothing is recorded then), so
 * the assistant never hears itself.
 */
export type VoicePhase = 'off' | 'starting' | 'listening' | 'transcribing' | 'thinking' | 'speaking';
export type MicIntent = 'active' | 'muted';

export type VoiceModeState = {
  phase: VoicePhase;
  intent: MicIntent;
  /** The last problem to show (a refused microphone, a failed transcription). */
  error: string | null;
};

export type VoiceModeEvent =
  | { type: 'start' }
  | { type: 'ready' }
  | { type: 'utterance-end' }
  | { type: 'transcribed'; text: string }
  | { type: 'reply-speaking' }
  | { type: 'reply-done' }
  | { type: 'barge-in' }
  | { type: 'toggle-mute' }
  | { type: 'fail'; error: string }
  | { type: 'stop' };

export const initialVoiceMode: VoiceModeState = { phase: 'off', intent: 'active', error: null };

export function voiceModeReducer(state: VoiceModeState, event: VoiceModeEvent): VoiceModeState {
  switch (event.type) {
    case 'start':
      return state.phase === 'off' ? { phase: 'starting', intent: 'active', error: null } : state;
    case 'ready':
      return state.phase === 'starting' ? { ...state, phase: 'listening' } : state;
    case 'utterance-end':
      return state.phase === 'listening' && state.intent === 'active' ? { ...state, phase: 'transcribing', error: null } : state;
    case 'transcribed':
      if (state.phase !== 'transcribing') return state;
      return event.text.trim() ? { ...state, phase: 'thinking' } : { ...state, phase: 'listening', error: 'Nothing was heard. Try again.' };
    case 'reply-speaking':
      return state.phase === 'thinking' ? { ...state, phase: 'speaking' } : state;
    case 'reply-done':
      return state.phase === 'thinking' || state.phase === 'speaking' ? { ...state, phase: 'listening' } : state;
    case 'barge-in':
      return state.phase === 'speaking' || state.phase === 'thinking' ? { ...state, phase: 'listening', intent: 'active' } : state;
    case 'toggle-mute':
      return state.phase === 'off' ? state : { ...state, intent: state.intent === 'active' ? 'muted' : 'active' };
    case 'fail':
      return state.phase === 'off' ? state : { ...state, phase: state.phase === 'starting' ? 'off' : 'listening', error: event.error };
    case 'stop':
      return { ...initialVoiceMode };
  }
}

/** The system mutes the microphone whenever it is not listening for the user. */
export const systemMuted = (state: VoiceModeState) => state.phase !== 'listening';

/** Effective mute: the user chose muted, or the system mutes it (also whenever the assistant's voice plays). */
export const effectiveMuted = (state: VoiceModeState, assistantSpeaking = false) =>
  state.intent === 'muted' || systemMuted(state) || assistantSpeaking;

/** What the screen shows and a screen reader hears. */
export function voiceModeLabel(state: VoiceModeState): string {
  if (state.phase === 'off') return 'Voice mode off';
  if (state.phase === 'starting') return 'Starting the microphone…';
  if (state.phase === 'listening') return state.intent === 'muted' ? 'Muted' : 'Listening…';
  if (state.phase === 'transcribing') return 'Transcribing…';
  if (state.phase === 'thinking') return 'Thinking…';
  return 'Speaking… tap to interrupt';
}
