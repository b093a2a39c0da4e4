import type { SpeechFormat, TtsEngineName, Voices } from '@app/contracts/tts';
import type { TtsVoice } from '@app/contracts/insider-config';
import { DomainError, type AppLogger } from '@app/platform';

/** What an engine is asked to speak (the text already checked, and normalised when asked). */
export interface SpeechJob {
  text: string;
  model: string;
  voice: TtsVoice;
  /** 0.25..4, 1 is normal. */
  speed: number;
  format: SpeechFormat;
  /** Whose fair share of the engine the job takes (the offline engine); none for a warm-up or a script. */
  userId?: string;
  /** Aborted when the caller went away: the engine stops at once, or at its next stretch. */
  signal?: AbortSignal;
}

/** Audio as it comes out of an engine: its type, the provider's request id, and its bytes in order. */
export interface SpeechAudio {
  contentType: string;
  requestId: string;
  /** Bytes in all, when known before the first one is sent. */
  size: number | null;
  body: AsyncIterable<Buffer>;
}

export interface SpeechEngine {
  readonly name: TtsEngineName;
  /** The one model the engine speaks with, when it has one (the offline voice): recorded in the cache key. */
  readonly model?: string;
  /**
   * Whether the user's voice setting `openai_model` names this engine's model (OpenAI's own TTS
   * models); otherwise the engine's `model`, the request's, or TTS_DEFAULT_MODEL.
   */
  readonly takesModelSetting: boolean;
  /** The TTS_VOICES ids as this engine speaks them. */
  voices(): Voices;
  /** Throws SpeechEngineError when the engine fails, a DomainError (422) for a format it cannot make. */
  synthesize(job: SpeechJob): Promise<SpeechAudio>;
  /** Starts what the first request would otherwise wait for (the offline engine's worker). */
  warmUp?(): Promise<void>;
  close?(): Promise<void>;
}

export const SPEECH_ENGINE = Symbol('SPEECH_ENGINE');

/** The engine failed: answered 502 with `detail`, a sentence of ours (never the provider's body or key). */
export class SpeechEngineError extends Error {
  /** The provider could not read the audio it was sent (speech-to-text): the client's recording, a 422. */
  readonly undecodable: boolean;

  constructor(
    readonly detail: string,
    options: { cause?: unknown; undecodable?: boolean } = {},
  ) {
    super(detail, { cause: options.cause });
    this.undecodable = options.undecodable ?? false;
    this.name = 'SpeechEngineError';
  }
}

/**
 * An engine's failure as the answer (speech and transcription alike): a SpeechEngineError is a 502
 * with our sentence, the provider's own words kept out of the answer and the log keeping only their
 * kind; any other error passes through as it is.
 */
export function engineFailureAnswer(error: unknown, logger: Pick<AppLogger, 'warn'>, msg: string): unknown {
  if (!(error instanceof SpeechEngineError)) return error;
  logger.warn({ msg, detail: error.detail, cause: (error.cause as Error | undefined)?.name }, 'Speech');
  return new DomainError('unavailable', `${error.detail} Please try again.`, 502);
}

/** What the voice picker shows for a voice, per language. */
export const PREVIEW_TEXT = 'Hello! This is how I sound when I read your answers aloud.';
