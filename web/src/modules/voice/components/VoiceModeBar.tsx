import { Icon } from '../../../ui/Icon';
import { useStore } from '../../common/state/createStore';
import { voiceModeStore } from '../state/speechStore';
import { loadVoiceMode } from '../state/voiceModules';
import { voiceModeLabel } from '../utils/micState';

/** Voice mode's state while it is on: what it does now (announced), a tap to end the utterance or interrupt, mute. */
export function VoiceModeBar() {
  const state = useStore(voiceModeStore, (s) => s);
  const on = state.phase !== 'off';
  const label = voiceModeLabel(state);
  const muted = state.intent === 'muted';
  return (
    <>
      {on && (
        <div className="voice-mode" data-phase={state.phase} data-muted={muted || undefined}>
          <button
            type="button"
            className="voice-mode__orb"
            onClick={() => void loadVoiceMode().then((m) => m.voiceMode.tap())}
            disabled={state.phase !== 'listening' && state.phase !== 'speaking' && state.phase !== 'thinking'}
            aria-label={state.phase === 'speaking' || state.phase === 'thinking' ? 'Interrupt the assistant' : 'Done speaking'}
          >
            <Icon name={muted ? 'mic-off' : state.phase === 'speaking' ? 'speaker' : 'mic'} size={22} />
          </button>
          <p className="voice-mode__state" role="status" aria-live="polite">
            {label}
          </p>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-pressed={muted}
            aria-label="Mute the microphone"
            title={muted ? 'Unmute' : 'Mute'}
            onClick={() => void loadVoiceMode().then((m) => m.voiceMode.toggleMute())}
          >
            <Icon name={muted ? 'mic-off' : 'mic'} size={15} />
          </button>
          {state.error && (
            <p className="voice-mode__error" role="alert">
              {state.error}
            </p>
          )}
        </div>
      )}
    </>
  );
}
