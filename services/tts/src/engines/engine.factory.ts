import type { FactoryProvider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import { speechAccessOf, ttsEngineOf, type TtsConfig } from '../config';
import { OfflineSpeechEngine } from './offline.engine';
import { OpenAiSpeechEngine } from './openai.engine';
import { SPEECH_ENGINE, type SpeechEngine } from './speech-engine';

export function speechEngineFor(config: TtsConfig): SpeechEngine {
  const engine = ttsEngineOf(config);
  if (engine === 'offline') return new OfflineSpeechEngine();
  return new OpenAiSpeechEngine(engine, speechAccessOf(config), config.TTS_TIMEOUT_MS);
}

export const speechEngineProvider: FactoryProvider<SpeechEngine> = {
  provide: SPEECH_ENGINE,
  inject: [SERVICE_CONFIG],
  useFactory: (config: TtsConfig) => speechEngineFor(config),
};
