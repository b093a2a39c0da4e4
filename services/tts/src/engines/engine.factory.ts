import type { FactoryProvider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import { speechAccessOf, ttsEngineOf, type TtsConfig } from '../config';
import { availableParallelism } from 'node:os';
import { OfflineSpeechEngine } from './offline.engine';
import { offlineVoiceFor } from './offline-voices';
import { OpenAiSpeechEngine } from './openai.engine';
import { SPEECH_ENGINE, type SpeechEngine } from './speech-engine';

export function speechEngineFor(config: TtsConfig): SpeechEngine {
  const engine = ttsEngineOf(config);
  if (engine === 'offline') return new OfflineSpeechEngine(offlineVoiceFor(config.TTS_OFFLINE_VOICE, offlineWorkersOf(config)));
  return new OpenAiSpeechEngine(engine, speechAccessOf(config), config.TTS_TIMEOUT_MS);
}

export const speechEngineProvider: FactoryProvider<SpeechEngine> = {
  provide: SPEECH_ENGINE,
  inject: [SERVICE_CONFIG],
  useFactory: (config: TtsConfig) => speechEngineFor(config),
};

/**
 * TTS_OFFLINE_WORKERS, else one per core but one (at least one, at most 4): the core left over
 * keeps the service (and, embedded, the gateway beside it) answering while every worker speaks;
 * with both cores of a 2-core machine speaking, a newcomer's first byte took twice as long under
 * load (scripts/bench-voice-fairness.mjs). espeak-ng has one worker whatever is set.
 */
export function offlineWorkersOf(config: Pick<TtsConfig, 'TTS_OFFLINE_WORKERS'>, cores = availableParallelism()): number {
  return config.TTS_OFFLINE_WORKERS ?? Math.min(4, Math.max(1, cores - 1));
}
