import { TTS_VOICES } from '@app/contracts/insider-config';
import { SPEECH_CONTENT_TYPES, type Voices } from '@app/contracts/tts';
import OpenAI from 'openai';
import { randomUUID } from 'node:crypto';
import type { ProviderAccess } from '../config';
import { PREVIEW_TEXT, SpeechEngineError, type SpeechAudio, type SpeechEngine, type SpeechJob } from './speech-engine';

const capitalised = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** Our sentence for a provider's failure: its status at most, never its body (which may quote the key). */
export function providerFailure(error: unknown, what: string): SpeechEngineError {
  if (error instanceof SpeechEngineError) return error;
  const because = { cause: error };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new SpeechEngineError(`The ${what} took too long to answer.`, because);
  if (error instanceof OpenAI.APIConnectionError) return new SpeechEngineError(`The ${what} could not be reached.`, because);
  if (error instanceof OpenAI.APIError && error.status)
    return new SpeechEngineError(`The ${what} failed (status ${error.status}).`, { ...because, undecodable: error.status === 400 });
  return new SpeechEngineError(`The ${what} failed.`, because);
}

/**
 * OpenAI's speech endpoint through the `openai` SDK, or any server that answers it
 * (openai-compatible: the same code with a base URL). The audio is passed on as it arrives.
 */
export class OpenAiSpeechEngine implements SpeechEngine {
  private readonly client: OpenAI;
  /** OpenAI's model names are the ones the voice settings offer; a compatible server has its own. */
  readonly takesModelSetting: boolean;

  constructor(
    readonly name: 'openai' | 'openai-compatible',
    access: ProviderAccess,
    timeoutMs: number,
  ) {
    this.takesModelSetting = name === 'openai';
    this.client = new OpenAI({ apiKey: access.apiKey, baseURL: access.baseURL, maxRetries: 0, timeout: timeoutMs });
  }

  voices(): Voices {
    const language = 'multilingual';
    return Object.fromEntries(
      TTS_VOICES.map((id) => [id, { label: capitalised(id), language, engine: this.name, preview_text: PREVIEW_TEXT }]),
    );
  }

  async synthesize(job: SpeechJob): Promise<SpeechAudio> {
    let answer: { data: Response; request_id: string | null };
    try {
      answer = await this.client.audio.speech
        .create(
          { model: job.model, voice: job.voice, input: job.text, speed: job.speed, response_format: job.format },
          { signal: job.signal },
        )
        .withResponse();
    } catch (error) {
      throw providerFailure(error, 'voice provider');
    }
    const { data, request_id } = answer;
    const stream = data.body;
    if (!stream) throw new SpeechEngineError('The voice provider answered no audio.');
    const length = Number(data.headers.get('content-length'));
    return {
      contentType: SPEECH_CONTENT_TYPES[job.format],
      requestId: request_id ?? `${this.name}-${randomUUID()}`,
      size: Number.isSafeInteger(length) && length > 0 ? length : null,
      body: (async function* () {
        try {
          for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) yield Buffer.from(chunk);
        } catch (error) {
          throw providerFailure(error, 'voice provider');
        }
      })(),
    };
  }
}
