import { TTS_MODELS, TTS_VOICES } from '@app/contracts/insider-config';
import { useEffect, useState } from 'react';
import { Spinner } from '../../../ui/Spinner';
import { loadVoiceSettings, updateVoiceConfig, useVoice } from '../../voice/state/voiceStore';

/** AI voice settings: merged optimistically, replaced by the server's config, restored on failure. */
export function VoicePanel() {
  const config = useVoice((s) => s.config);
  const voices = useVoice((s) => s.voices);
  const loading = useVoice((s) => s.loading);
  const unavailable = useVoice((s) => s.unavailable);
  const error = useVoice((s) => s.error);
  useEffect(() => {
    void loadVoiceSettings();
  }, []);
  if (unavailable) return <p className="muted">Voice settings are not available on this server yet.</p>;
  if (!config) return loading ? <Spinner label="Loading voice settings" /> : <p className="muted">Voice settings could not be loaded.</p>;
  const voiceNames = voices && Object.keys(voices).length > 0 ? Object.keys(voices) : [...TTS_VOICES];
  const save = (patch: Record<string, unknown>) => void updateVoiceConfig(patch).catch(() => undefined);
  return (
    <div className="stack">
      {typeof config.auto_read_aloud === 'boolean' && (
        <label className="switch">
          <input type="checkbox" role="switch" checked={config.auto_read_aloud} disabled={loading} onChange={(event) => save({ auto_read_aloud: event.target.checked })} />
          <span>Read replies aloud automatically</span>
        </label>
      )}
      {voiceNames.length > 0 && (
        <label className="field">
          <span>Voice</span>
          <select value={String(config.voice ?? '')} disabled={loading} onChange={(event) => save({ voice: event.target.value })}>
            {voiceNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
      {typeof config.speed === 'number' && <SpeedSlider speed={config.speed} disabled={loading} onCommit={(speed) => save({ speed })} />}
      {typeof config.openai_model === 'string' && (
        <label className="field">
          <span>Voice model</span>
          <select value={config.openai_model} disabled={loading} onChange={(event) => save({ openai_model: event.target.value })}>
            {TTS_MODELS.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        <span>Shortest spoken chunk (characters)</span>
        <input
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
      </label>
      {loading && <Spinner label="Saving" />}
      {error && <p className="notice notice--error" role="alert">{error}</p>}
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
    <label className="field">
      <span>Speed ({value.toFixed(2)}×)</span>
      <input type="range" min={0.5} max={2} step={0.05} value={value} disabled={disabled} onChange={(event) => setValue(Number(event.target.value))} onPointerUp={commit} onKeyUp={commit} onBlur={commit} />
    </label>
  );
}
