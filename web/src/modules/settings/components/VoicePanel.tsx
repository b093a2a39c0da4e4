import { TTS_MODELS, TTS_VOICES } from '@app/contracts/insider-config';
import { useEffect, useState } from 'react';
import { Field } from '../../../ui/Field';
import { Spinner } from '../../../ui/Spinner';
import { Switch } from '../../../ui/Switch';
import { IconButton } from '../../../ui/IconButton';
import { useStore } from '../../common/state/createStore';
import type { VoiceConfig, VoiceMap } from '../../voice/api/voiceApi';
import { useVoiceSettings } from '../../voice/hooks/voiceQueries';
import { speechStore } from '../../voice/state/speechStore';
import { loadReadAloud } from '../../voice/state/voiceModules';

/** AI voice settings: merged optimistically, replaced by the server's config, restored on failure. */
export function VoicePanel() {
  const { config, voices, loading, unavailable, error, update } = useVoiceSettings();
  if (unavailable) return <p className="muted">Voice settings are not available on this server yet.</p>;
  if (!config) return loading ? <Spinner label="Loading voice settings" /> : <p className="muted">Voice settings could not be loaded.</p>;
  const voiceNames = voices && Object.keys(voices).length > 0 ? Object.keys(voices) : [...TTS_VOICES];
  const save = (patch: Record<string, unknown>) => void update(patch).catch(() => undefined);
  return (
    <div className="stack">
      {typeof config.auto_read_aloud === 'boolean' && (
        <Switch
          label="Read replies aloud automatically"
          checked={config.auto_read_aloud}
          disabled={loading}
          onChange={(on) => save({ auto_read_aloud: on })}
        />
      )}
      {voiceNames.length > 0 && (
        <SelectField
          label="Voice"
          value={String(config.voice ?? '')}
          choices={voiceNames}
          labels={voices ? Object.fromEntries(Object.entries(voices).map(([id, v]) => [id, v.label || id])) : undefined}
          disabled={loading}
          onChange={(voice) => save({ voice })}
        />
      )}
      {voices && Object.keys(voices).length > 0 && <VoicePreviews voices={voices} config={config} />}
      {typeof config.speed === 'number' && <SpeedSlider speed={config.speed} disabled={loading} onCommit={(speed) => save({ speed })} />}
      {typeof config.openai_model === 'string' && (
        <SelectField
          label="Voice model"
          value={config.openai_model}
          choices={TTS_MODELS}
          disabled={loading}
          onChange={(openai_model) => save({ openai_model })}
        />
      )}
      <Field label="Shortest spoken chunk (characters)">
        {(control) => (
          <input
            {...control}
            key={config.min_chars}
            type="number"
            min={20}
            max={2000}
            defaultValue={config.min_chars ?? 100}
            disabled={loading}
            onBlur={(event) => {
              const value = Number(event.target.value);
              if (Number.isInteger(value) && value !== config.min_chars) save({ min_chars: value });
            }}
          />
        )}
      </Field>
      {loading && <Spinner label="Saving" />}
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The speed is saved when the slider is let go, not at every step of a drag. */
function SpeedSlider({ speed, disabled, onCommit }: { speed: number; disabled: boolean; onCommit: (speed: number) => void }) {
  const [value, setValue] = useState(speed);
  useEffect(() => setValue(speed), [speed]);
  const commit = () => {
    if (value !== speed) onCommit(value);
  };
  return (
    <Field label={`Speed (${value.toFixed(2)}×)`}>
      {(control) => (
        <input
          {...control}
          type="range"
          min={0.5}
          max={2}
          step={0.05}
          value={value}
          disabled={disabled}
          onChange={(event) => setValue(Number(event.target.value))}
          onPointerUp={commit}
          onKeyUp={commit}
          onBlur={commit}
        />
      )}
    </Field>
  );
}

type SelectFieldProps = {
  label: string;
  value: string;
  choices: readonly string[];
  labels?: Record<string, string>;
  disabled: boolean;
  onChange: (value: string) => void;
};

function SelectField({ label, value, choices, labels, disabled, onChange }: SelectFieldProps) {
  return (
    <Field label={label}>
      {(control) => (
        <select {...control} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {labels?.[choice] ?? choice}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Each voice of the server with a short spoken preview (its preview text, in that voice). */
function VoicePreviews({ voices, config }: { voices: VoiceMap; config: VoiceConfig }) {
  const playing = useStore(speechStore, (s) => s.keys.find((key) => key.startsWith('preview:'))?.slice('preview:'.length) ?? null);
  return (
    <section className="voice-previews" aria-label="Voices">
      <h3 className="voice-previews__title">Voices</h3>
      <ul className="voice-previews__list">
        {Object.entries(voices).map(([id, voice]) => {
          const name = voice.label ?? id;
          const on = playing === id;
          return (
            <li key={id} className="voice-previews__item">
              <span className="voice-previews__name">
                <span>{name}</span>
                {voice.language && <span className="muted voice-previews__language">{voice.language}</span>}
                {id === config.voice && <span className="badge badge--muted">Your voice</span>}
              </span>
              <IconButton
                small
                icon={on ? 'stop' : 'speaker'}
                iconSize={15}
                label={on ? `Stop the preview of ${name}` : `Preview ${name}`}
                title={on ? 'Stop' : 'Preview'}
                onClick={() =>
                  void loadReadAloud().then(({ readAloud }) => {
                    if (on) return readAloud.stop();
                    readAloud.configure({ ...config, voice: id as VoiceConfig['voice'] }); // the voices' ids are TTS_VOICES ids
                    readAloud.play(`preview:${id}`, voice.preview_text || `Hello, I am ${name}.`);
                  })
                }
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
