import { IconButton } from '../../../ui/IconButton';
import { useStore } from '../../common/state/createStore';
import { useVoiceConfig } from '../hooks/voiceConfig';
import { speechStore } from '../state/speechStore';
import { loadReadAloud } from '../state/voiceModules';

type ReadAloudButtonProps = { messageId: string; chatId?: string; text: string };

/** Reads a reply aloud (the engine loads on the first click); while it does: pause or resume, and stop. */
export function ReadAloudButton({ messageId, chatId, text }: ReadAloudButtonProps) {
  // A message read to its end (complete, nothing left to play) can be read again.
  const state = useStore(speechStore, (s) => (s.keys.includes(messageId) && !(s.complete && s.state === 'idle') ? s.state : null));
  const config = useVoiceConfig();
  if (!text.trim()) return null;
  if (state === null) {
    return (
      <IconButton
        small
        icon="speaker"
        iconSize={15}
        label="Read aloud"
        title="Read aloud"
        onClick={() =>
          void loadReadAloud().then(({ readAloud }) => {
            readAloud.configure(config);
            readAloud.play(messageId, text, { chatId, messageId });
          })
        }
      />
    );
  }
  const control = () => loadReadAloud().then((m) => m.readAloud);
  return (
    <>
      {state === 'paused' ? (
        <IconButton
          small
          icon="play"
          iconSize={15}
          label="Resume reading"
          title="Resume"
          onClick={() => void control().then((r) => r.resume())}
        />
      ) : (
        <IconButton
          small
          icon="pause"
          iconSize={15}
          label="Pause reading"
          title="Pause"
          disabled={state !== 'playing'}
          onClick={() => void control().then((r) => r.pause())}
        />
      )}
      <IconButton
        small
        icon="stop"
        iconSize={15}
        label="Stop reading"
        title="Stop reading"
        onClick={() => void control().then((r) => r.stop())}
      />
      <span className="visually-hidden" role="status">
        {state === 'loading' ? 'Preparing the audio' : state === 'paused' ? 'Reading paused' : 'Reading aloud'}
      </span>
    </>
  );
}
