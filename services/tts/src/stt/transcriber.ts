import type { FactoryProvider } from '@nestjs/common';
import { STT_FILE_NAMES, type SttAudioType } from '@app/contracts/tts';
import { SERVICE_CONFIG } from '@app/platform';
import OpenAI, { toFile } from 'openai';
import { sttDiscovered, sttEngineOf, transcriptionAccessOf, type TtsConfig } from '../config';
import { providerFailure } from '../engines/openai.engine';

export interface Transcriber {
  readonly name: 'openai' | 'openai-compatible';
  /** Whether it can be used now (a configured provider: always; the local server looked for: while it answers). */
  available(): Promise<boolean>;
  /** The words of a recording; throws SpeechEngineError when the provider fails. */
  transcribe(audio: Buffer, type: SttAudioType): Promise<string>;
}

/** How often a discovered server is looked for, and how long an answer is waited for. */
const PROBE_EVERY_MS = 3_000;
const PROBE_TIMEOUT_MS = 1_500;

/** The configured transcriber, or null (speech-to-text not available). */
export const TRANSCRIBER = Symbol('TRANSCRIBER');

/** OpenAI's transcription endpoint through the `openai` SDK, or an OpenAI-compatible server's. */
export class OpenAiTranscriber implements Transcriber {
  private readonly client: OpenAI;

  private probed: { at: number; answers: boolean; pending: Promise<boolean> | null } = { at: -Infinity, answers: false, pending: null };

  constructor(
    readonly name: 'openai' | 'openai-compatible',
    private readonly model: string,
    private readonly access: { baseURL: string | undefined; apiKey: string },
    timeoutMs: number,
    /** Looked for rather than configured: available only while its address answers HTTP (any status). */
    private readonly discovered = false,
  ) {
    this.client = new OpenAI({ apiKey: access.apiKey, baseURL: access.baseURL, maxRetries: 0, timeout: timeoutMs });
  }

  /** A discovered server is asked at most every PROBE_EVERY_MS (any HTTP answer, even a 404, means it runs). */
  available(): Promise<boolean> {
    if (!this.discovered) return Promise.resolve(true);
    if (this.probed.pending) return this.probed.pending;
    if (performance.now() - this.probed.at < PROBE_EVERY_MS) return Promise.resolve(this.probed.answers);
    const pending = fetch(`${this.access.baseURL}/models`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
      async (response) => {
        await response.body?.cancel();
        return true;
      },
      () => false,
    );
    this.probed.pending = pending;
    return pending.then((answers) => {
      this.probed = { at: performance.now(), answers, pending: null };
      return answers;
    });
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
  return new OpenAiTranscriber(engine, config.STT_MODEL, transcriptionAccessOf(config), config.TTS_TIMEOUT_MS * 2, sttDiscovered(config));
}

export const transcriberProvider: FactoryProvider<Transcriber | null> = {
  provide: TRANSCRIBER,
  inject: [SERVICE_CONFIG],
  useFactory: (config: TtsConfig) => transcriberFor(config),
};
