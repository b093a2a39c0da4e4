import { z } from 'zod';
import { HEADERS, PRODUCT_CONSTANTS } from '../common/constants';
import { defineRpc, defineStream } from '../common/contract';
import { commonCalls } from '../common/service-calls';
import { isBase64 } from '../files/index';
import { TTS_VOICES } from '../insider-config/index';

// ---- Engines, formats, limits (issue 14; spec sections 3, 4, 7 and 9) -----------------------------

export const TTS_ENGINES = ['offline', 'openai', 'openai-compatible'] as const;
export type TtsEngineName = (typeof TTS_ENGINES)[number];

export const STT_ENGINES = ['openai', 'openai-compatible', 'offline'] as const;
export type SttEngineName = (typeof STT_ENGINES)[number];

export const SPEECH_FORMATS = ['pcm', 'wav', 'mp3'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

/** The answer's Content-Type per format; pcm is signed 16-bit little-endian mono at 24,000 Hz (spec 9). */
export const SPEECH_CONTENT_TYPES: Readonly<Record<SpeechFormat, string>> = {
  pcm: `audio/pcm;rate=${PRODUCT_CONSTANTS.tts.pcmSampleRate};channels=1`,
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
};

export const SPEECH_LIMITS = {
  /** Characters of one request's text, after trimming (413 above). */
  textMaxChars: 4096,
  /** Without chat_id the request is a voice preview: at most this many characters (413 above). */
  previewMaxChars: 300,
  /** What the HTTP body may carry at all (a larger text is a 413 before it is read as text). */
  bodyTextMaxChars: 64 * 1024,
  sampleRate: PRODUCT_CONSTANTS.tts.pcmSampleRate,
} as const;

/** The response header carrying the provider's request id (offline: a generated one). */
export const TTS_REQUEST_ID_HEADER = HEADERS.ttsRequestId;

/** Recorded audio the speech-to-text endpoint takes (a `codecs` parameter is allowed). */
/** audio/wav first: what the web client records (16 kHz mono PCM, which every whisper server reads without transcoding). */
export const STT_AUDIO_TYPES = ['audio/wav', 'audio/webm', 'audio/ogg', 'audio/mpeg', 'audio/mp4'] as const;
export type SttAudioType = (typeof STT_AUDIO_TYPES)[number];

/** The file name the transcription provider is given per type (it decides the decoder by the extension). */
export const STT_FILE_NAMES: Readonly<Record<SttAudioType, string>> = {
  'audio/webm': 'speech.webm',
  'audio/ogg': 'speech.ogg',
  'audio/wav': 'speech.wav',
  'audio/mpeg': 'speech.mp3',
  'audio/mp4': 'speech.mp4',
};

export const STT_NOT_CONFIGURED = 'Speech-to-text is not configured on this server.';

/** Audio moves over the bus in chunks of this many raw bytes (base64 on the wire: 256 KiB), never as one message. */
export const AUDIO_TRANSFER = { chunkBytes: 192 * 1024, chunkBase64Chars: 256 * 1024 } as const;

const base64Chunk = z
  .string()
  .min(1)
  .max(AUDIO_TRANSFER.chunkBase64Chars + 4)
  .refine(isBase64, 'must be base64');

// ---- HTTP bodies and answers -----------------------------------------------------------------------

export const VoiceSchema = z.object({
  label: z.string(),
  language: z.string(),
  engine: z.enum(TTS_ENGINES),
  preview_text: z.string(),
});
export type Voice = z.infer<typeof VoiceSchema>;
/** `GET /api/v1/text-to-speech/voices`: voice id (a TTS_VOICES id) to its description. */
export const VoicesSchema = z.record(z.string(), VoiceSchema);
export type Voices = z.infer<typeof VoicesSchema>;

const uuid = z.uuid({ message: 'must be an id (UUID)' });

/** `POST /api/v1/text-to-speech/file` (the length limits are answered 413 by the service, not here). */
export const SpeechRequestSchema = z
  .object({
    text: z
      .string()
      .max(SPEECH_LIMITS.bodyTextMaxChars, `must be at most ${SPEECH_LIMITS.textMaxChars} characters`)
      .trim()
      .min(1, 'must not be empty'),
    chat_id: uuid.optional(),
    message_id: uuid.optional(),
    normalize_text_for_reading: z.boolean().default(false),
    openai_model: z.string().trim().min(1).max(100).optional(),
    voice: z.enum(TTS_VOICES).optional(),
    speed: z.number().min(0.25).max(4).optional(),
    format: z.enum(SPEECH_FORMATS).default('pcm'),
  })
  .refine((body) => body.message_id === undefined || body.chat_id !== undefined, {
    path: ['message_id'],
    message: 'needs chat_id (the conversation the message is in)',
  });
export type SpeechRequest = z.output<typeof SpeechRequestSchema>;

/** `GET /api/v1/speech-to-text` */
export const SttInfoSchema = z.object({
  available: z.boolean(),
  engine: z.enum(STT_ENGINES).nullable(),
  max_seconds: z.number().int().positive(),
  max_bytes: z.number().int().positive(),
  /** When not available: the one command that starts the speech-to-text server this deployment looks for (voice mode turns on once it answers). */
  setup_command: z.string().nullable(),
});
export type SttInfo = z.infer<typeof SttInfoSchema>;

/** `POST /api/v1/speech-to-text` */
export const TranscriptionSchema = z.object({ text: z.string() });

/** The first frame of synthesised audio says how to serve it; the bytes follow in order. */
export const SpeechChunkSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('head'),
    content_type: z.string(),
    /** The provider's request id (offline: a generated one), for X-TTS-Request-Id. */
    request_id: z.string(),
    engine: z.enum(TTS_ENGINES),
    /** Served from the cache (nothing was synthesised). */
    cached: z.boolean(),
    /** Total bytes when known in advance (cached or offline audio). */
    size: z.number().int().nonnegative().nullable(),
  }),
  z.object({ kind: z.literal('data'), data: base64Chunk }),
]);
export type SpeechChunk = z.infer<typeof SpeechChunkSchema>;

// ---- Calls to the tts service ---------------------------------------------------------------------

const uploadId = z.uuid();

export const TTS_RPC = {
  ...commonCalls('tts'),
  voices: defineRpc({
    subject: 'tts.voices.list',
    request: z.object({}).strict(),
    response: VoicesSchema,
    description: 'The voices of the configured engine (the TTS_VOICES ids)',
  }),
  synthesize: defineStream({
    subject: 'tts.speech.synthesize',
    request: SpeechRequestSchema,
    chunk: SpeechChunkSchema,
    description:
      "Speak a text for the caller (their conversation's message, or a short preview): the head, then the audio in chunks of AUDIO_TRANSFER.chunkBytes",
  }),
  sttInfo: defineRpc({
    subject: 'tts.stt.info',
    request: z.object({}).strict(),
    response: SttInfoSchema,
    description: 'Whether speech-to-text is configured, and its limits',
  }),
  /** A recording travels as begin, chunk..., commit (each chunk its own message), like file uploads. */
  sttBegin: defineRpc({
    subject: 'tts.stt.begin',
    request: z.object({ content_type: z.string().max(255) }).strict(),
    response: z.object({ upload_id: z.string(), chunk_bytes: z.number().int(), max_bytes: z.number().int() }),
    description: 'Open a recording for transcription (503 when not configured, 415 for a type not taken, 429 over the limit)',
  }),
  sttChunk: defineRpc({
    subject: 'tts.stt.chunk',
    request: z.object({ upload_id: uploadId, seq: z.number().int().min(0).max(10_000), data: base64Chunk }).strict(),
    response: z.object({ received_bytes: z.number().int() }),
    description: 'The next chunk of a recording (seq from 0; 413 past max_bytes)',
  }),
  sttCommit: defineRpc({
    subject: 'tts.stt.commit',
    request: z.object({ upload_id: uploadId }).strict(),
    response: TranscriptionSchema,
    description: 'Transcribe the recording received and forget it (422 empty or undecodable, 502 provider failure)',
  }),
  sttAbort: defineRpc({
    subject: 'tts.stt.abort',
    request: z.object({ upload_id: uploadId }).strict(),
    response: z.object({ aborted: z.boolean() }),
    description: 'Drop a recording',
  }),
} as const;
