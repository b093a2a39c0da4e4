import './voice.css';
import { Icon } from '../../../ui/Icon';
import { useStore } from '../../common/state/createStore';
import { useSpeechToTextStatus } from '../hooks/voiceConfig';
import { voiceModeStore } from '../state/speechStore';
import { loadVoiceMode } from '../state/voiceModules';
import { lazy, Suspense, useEffect, useState } from 'react';

type VoiceModeButtonProps = { onTranscript: (text: string) => void; disabled?: boolean };

const NO_STT = 'Voice mode needs a speech-to-text provider: ask the operator to configure one on the server.';
const START_STT =
  'Voice mode needs a speech-to-text server. Run this one command where the assistant runs; voice mode turns on by itself once the server answers:';

/**
 * Voice mode by the composer: a button turns it on and off; while it is on, a bar shows the state
 * (listening, transcribing, thinking, speaking, muted; announced), a tap ends the utterance or
 * interrupts the assistant, and a mute switch keeps the microphone closed.
 */
export function VoiceModeButton({ onTranscript, disabled }: VoiceModeButtonProps) {
  const status = useSpeechToTextStatus();
  const state = useStore(voiceModeStore, (s) => s);
  const [explain, setExplain] = useState(false);
  const on = state.phase !== 'off';
  const unavailable = status.data ? !status.data.available : status.isError;
  const command = unavailable ? (status.data?.setup_command ?? null) : null;
  useComposerSend(onTranscript);

  const toggle = () => {
    if (unavailable) return setExplain((v) => !v);
    void loadVoiceMode().then(({ voiceMode }) =>
      on ? voiceMode.stop() : voiceMode.start({ send: (text) => composerSend.current?.(text), maxSeconds: status.data?.max_seconds }),
    );
  };
  return (
    <>
      <button
        type="button"
        className={`icon-button composer__voice${on ? ' composer__voice--on' : ''}`}
        aria-label="Voice mode"
        aria-pressed={on}
        aria-disabled={unavailable || undefined}
        aria-describedby={unavailable ? 'voice-mode-unavailable' : undefined}
        title={unavailable ? (command ? START_STT : NO_STT) : on ? 'Turn voice mode off' : 'Voice mode: speak and hear the replies'}
        disabled={disabled && !on}
        onClick={toggle}
      >
        <Icon name="mic" />
      </button>
      {unavailable && (
        <div id="voice-mode-unavailable" className={explain ? 'voice-mode__note' : 'visually-hidden'} role={explain ? 'note' : undefined}>
          {command ? (
            <>
              <p>{START_STT}</p>
              <code className="voice-mode__command" aria-label="Command to start speech-to-text">
                {command}
              </code>
            </>
          ) : (
            <p>{NO_STT}</p>
          )}
        </div>
      )}
    </>
  );
}

const Bar = lazy(async () => ({ default: (await import('./VoiceModeBar')).VoiceModeBar }));

/** Voice mode's bar, loaded when voice mode is first turned on. */
export function VoiceModeBar() {
  const on = useStore(voiceModeStore, (s) => s.phase !== 'off');
  return on ? (
    <Suspense fallback={null}>
      <Bar />
    </Suspense>
  ) : null;
}

/**
 * Where a transcript is sent: the composer on screen now. Voice mode outlives the chat view (a first
 * message opens a new conversation, whose view replaces the empty one), so it sends through the
 * latest mounted button's handler, never through a view that is gone (which would start yet
 * another conversation with each utterance).
 */
const composerSend: { current: ((text: string) => void) | null } = { current: null };

function useComposerSend(send: (text: string) => void): void {
  const [mine] = useState(() => ({ send }));
  mine.send = send;
  useEffect(() => {
    const handler = (text: string) => mine.send(text);
    composerSend.current = handler;
    return () => {
      if (composerSend.current === handler) composerSend.current = null;
    };
  }, [mine]);
}
