import type { SttEngineName, TtsEngineName } from '@app/contracts/tts';
import { envHelpers } from '@app/platform';
import { z } from 'zod';

const url = envHelpers.urlWithProtocols(['http', 'https']);
const MIB = 1024 * 1024;

/**
 * The tts service's variables. With none set, the offline engine (CMU Flite, in worker threads)
 * speaks and speech-to-text is not available.
 */
export const ttsEnvSchema = z
  .object({
    /** offline | openai | openai-compatible. Default: openai when OPENAI_API_KEY is set, else offline. */
    TTS_ENGINE: z.enum(['offline', 'openai', 'openai-compatible']).optional(),
    OPENAI_API_KEY: z.string().optional(),
    /** The OpenAI API's address (a local fake in tests); the SDK's default when unset. */
    OPENAI_BASE_URL: url.optional(),
    /** The speech server of openai-compatible (any server answering POST <url>/audio/speech). */
    TTS_BASE_URL: url.optional(),
    /** Its key, when it wants one (OPENAI_API_KEY otherwise). */
    TTS_API_KEY: z.string().optional(),
    /** The offline engine's synthesiser: flite (CMU Flite, BSD-style licence, in the product) or espeak-ng (GPL-3.0-or-later: installed by the operator on purpose, see the README). */
    TTS_OFFLINE_VOICE: z.enum(['flite', 'espeak-ng']).default('flite'),
    /** Worker threads the offline engine speaks in at once (default: the cores but one, at least 1, at most 4); each user gets a fair share of them. */
    TTS_OFFLINE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
    /** The model when the request and the user's voice settings name none (openai-compatible: the server's model name). */
    TTS_DEFAULT_MODEL: z.string().min(1).default('gpt-4o-mini-tts'),
    /** Speech requests per user and minute (429 above). */
    TTS_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
    /** Longest wait for the speech provider's first byte. */
    TTS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
    /** Bytes of synthesised audio kept for replays, all users together (least recently used first out); 0: no cache. */
    TTS_CACHE_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(64 * 1024 * MIB)
      .default(256 * MIB),
    /** A cached clip unused for this long is dropped. */
    TTS_CACHE_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(365 * 24 * 3600)
      .default(7 * 24 * 3600),
    /**
     * Speech-to-text: openai | openai-compatible | none. Default: openai when OPENAI_API_KEY is set,
     * else a local whisper server at STT_LOCAL_URL, used once it answers (voice mode turns on by itself).
     */
    STT_ENGINE: z.enum(['openai', 'openai-compatible', 'none']).optional(),
    /** Where a local OpenAI-compatible whisper server is looked for when STT_ENGINE is unset and there is no OpenAI key. */
    STT_LOCAL_URL: url.default('http://127.0.0.1:8178/v1'),
    /** The one command that starts that server, told to users while it does not answer (compose: its profile; k8s: the component). */
    STT_SETUP_COMMAND: z
      .string()
      .min(1)
      .default(
        'docker run -d --name assistant-stt -p 127.0.0.1:8178:8080 ghcr.io/ggml-org/whisper.cpp:main-371b5a7561823ab2bb32142d2751e35e7534727b "whisper-server --host 0.0.0.0 --port 8080 -m /app/models/ggml-base.en.bin --inference-path /v1/audio/transcriptions"',
      ),
    /** The transcription server of openai-compatible (POST <url>/audio/transcriptions). */
    STT_BASE_URL: url.optional(),
    STT_API_KEY: z.string().optional(),
    STT_MODEL: z.string().min(1).default('gpt-4o-mini-transcribe'),
    /** Largest recording taken, in bytes (413 above; OpenAI takes at most 25 MiB). */
    STT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(16 * 1024)
      .max(25 * MIB)
      .default(10 * MIB),
    /** Longest recording the client should send, in seconds (told to it by GET /speech-to-text). */
    STT_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  })
  .superRefine((env, ctx) => {
    if (ttsEngineOf(env) === 'openai-compatible' && !env.TTS_BASE_URL && !env.OPENAI_BASE_URL)
      ctx.addIssue({ code: 'custom', path: ['TTS_BASE_URL'], message: 'is needed with TTS_ENGINE=openai-compatible (the speech server)' });
    if (env.STT_ENGINE === 'openai-compatible' && !env.STT_BASE_URL && !env.OPENAI_BASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['STT_BASE_URL'],
        message: 'is needed with STT_ENGINE=openai-compatible (the transcription server)',
      });
  });
export type TtsConfig = z.output<typeof ttsEnvSchema>;

type EngineChoice = Pick<TtsConfig, 'TTS_ENGINE' | 'OPENAI_API_KEY'>;

export function ttsEngineOf(config: EngineChoice): TtsEngineName {
  return config.TTS_ENGINE ?? (config.OPENAI_API_KEY ? 'openai' : 'offline');
}

/**
 * The speech-to-text engine, or null when turned off (no offline one is dependable enough: see the
 * README). Unset with no OpenAI key: openai-compatible at STT_LOCAL_URL, looked for (`discovered`).
 */
export function sttEngineOf(config: Pick<TtsConfig, 'STT_ENGINE' | 'OPENAI_API_KEY'>): Exclude<SttEngineName, 'offline'> | null {
  const engine = config.STT_ENGINE ?? (config.OPENAI_API_KEY ? 'openai' : 'openai-compatible');
  return engine === 'none' ? null : engine;
}

/** Whether the speech-to-text server is the local one looked for (used only while it answers) rather than one configured. */
export function sttDiscovered(config: Pick<TtsConfig, 'STT_ENGINE' | 'OPENAI_API_KEY'>): boolean {
  return config.STT_ENGINE === undefined && !config.OPENAI_API_KEY;
}

/** Where and how the SDK reaches a provider. */
export interface ProviderAccess {
  baseURL: string | undefined;
  apiKey: string;
}

export function speechAccessOf(config: TtsConfig): ProviderAccess {
  const compatible = ttsEngineOf(config) === 'openai-compatible';
  return {
    baseURL: (compatible ? config.TTS_BASE_URL : undefined) ?? config.OPENAI_BASE_URL,
    apiKey: (compatible ? config.TTS_API_KEY : undefined) ?? config.OPENAI_API_KEY ?? 'not-needed',
  };
}

export function transcriptionAccessOf(config: TtsConfig): ProviderAccess {
  if (sttDiscovered(config)) return { baseURL: config.STT_LOCAL_URL, apiKey: config.STT_API_KEY ?? 'not-needed' };
  const compatible = sttEngineOf(config) === 'openai-compatible';
  return {
    baseURL: (compatible ? config.STT_BASE_URL : undefined) ?? config.OPENAI_BASE_URL,
    apiKey: (compatible ? config.STT_API_KEY : undefined) ?? config.OPENAI_API_KEY ?? 'not-needed',
  };
}
