import { z } from 'zod';
import { SpeechRequestSchema, SttInfoSchema, TranscriptionSchema, TTS_RPC, VoicesSchema } from '../../tts/index';
import { defineRoute } from '../route';

/** The routes of the area `voice` (`API.voice`). */
export const voiceRoutes = {
  voices: defineRoute({
    method: 'GET',
    path: '/api/v1/text-to-speech/voices',
    summary: 'The voices a user may save (TTS_VOICES ids), as the configured engine speaks them',
    tag: 'text_to_speech',
    auth: 'bearer',
    response: VoicesSchema,
    rpc: TTS_RPC.voices,
  }),
  speak: defineRoute({
    method: 'POST',
    path: '/api/v1/text-to-speech/file',
    summary:
      "Speak a text: PCM s16le mono 24 kHz by default (audio/pcm;rate=24000;channels=1), WAV or (OpenAI) MP3 on request; the provider's request id in X-TTS-Request-Id",
    tag: 'text_to_speech',
    auth: 'bearer',
    body: SpeechRequestSchema,
    produces: 'audio/pcm',
    response: z.string(),
    errors: {
      404: 'No such conversation or message of the caller',
      413: 'The text is too long (4096 characters; 300 for a preview without chat_id)',
      429: 'Too many voice requests this minute (TTS_REQUESTS_PER_MINUTE)',
      502: 'The speech engine failed',
    },
  }),
  sttInfo: defineRoute({
    method: 'GET',
    path: '/api/v1/speech-to-text',
    summary: 'Whether speech-to-text is configured (the voice mode), and its limits',
    tag: 'speech_to_text',
    auth: 'bearer',
    response: SttInfoSchema,
    rpc: TTS_RPC.sttInfo,
  }),
  transcribe: defineRoute({
    method: 'POST',
    path: '/api/v1/speech-to-text',
    summary: 'Transcribe a recording (the body: audio/webm, audio/ogg, audio/wav, audio/mpeg or audio/mp4)',
    tag: 'speech_to_text',
    auth: 'bearer',
    consumes: 'audio/webm',
    response: TranscriptionSchema,
    errors: {
      413: 'The recording is over max_bytes',
      415: 'Not a recording type taken',
      422: 'Empty or undecodable recording',
      429: 'Too many voice requests this minute',
      502: 'The speech-to-text provider failed',
      503: 'Speech-to-text is not configured on this server',
    },
  }),
} as const;
