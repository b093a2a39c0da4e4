import type { FactoryProvider } from '@nestjs/common';
import { STT_FILE_NAMES, type SttAudioType } from '@app/contracts/tts';
import { SERVICE_CONFIG } from '@app/platform';
import OpenAI, { toFile } from 'openai';
import { sttEngineOf, transcriptionAccessOf, type TtsConfig } from '../config';
import { providerFailure } from '../engines/openai.engine';

export interface Transcriber {
  readonly name: 'openai' | 'openai-compatible';
  /** The words of a recording; throws SpeechEngineError when the provider fails. */
  transcribe(audio: Buffer, type: SttAudioType): Promise<string>;
}

/** The configured transcriber, or null (speech-to-text not available). */
export const TRANSCRIBER = Symbol('TRANSCRIBER');

/** OpenAI's transcription endpoint through the `openai` SDK, or an OpenAI-compatible server's. */
export class OpenAiTranscriber implements Transcriber {
  private readonly client: OpenAI;

  constructor(
    readonly name: 'openai' | 'openai-compatible',
    private readonly model: string,
    access: { baseURL: string | undefined; apiKey: string },
    timeoutMs: number,
  ) {
    this.client = new OpenAI({ apiKey: access.apiKey, baseURL: access.baseURL, maxRetries: 0, timeout: timeoutMs });
  }

  async transcribe(audio: Buffer, type: SttAudioType): Promise<string> {
    try {
      const file = await toFile(audio, STT_FILE_NAMES[type], { type });
      const result = await this.client.audio.transcriptions.create({ file, model: this.model, response_format: 'json' });
      return result.text;
    } catch (error) {
      throw providerFailure(error, 'speech-to-text provider');
    }
  }
}

export function transcriberFor(config: TtsConfig): Transcriber | null {
  const engine = sttEngineOf(config);
  if (!engine) return null;
  return new OpenAiTranscriber(engine, config.STT_MODEL, transcriptionAccessOf(config), config.TTS_TIMEOUT_MS * 2);
}

export const transcriberProvider: FactoryProvider<Transcriber | null> = {
  provide: TRANSCRIBER,
  inject: [SERVICE_CONFIG],
  useFactory: (config: TtsConfig) => transcriberFor(config),
};
