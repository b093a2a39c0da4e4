import { HEADERS } from '@app/contracts/common/constants';
import { API } from '@app/contracts/gateway';
import type { SpeechRequestSchema } from '@app/contracts/tts';
import type { z } from 'zod';
import { call } from '../../common/api/http';

// The audio calls, loaded with the voice engine (not in the chat's first load).

/** What a text-to-speech call sends (the contract's SpeechRequestSchema, before its defaults). */
export type SpeechRequest = z.input<typeof SpeechRequestSchema>;

export type SpeechAudio = { bytes: ArrayBuffer; contentType: string | null; requestId: string | null };

/** A text-to-speech answer that was not audio: logged as `fetch {url} → {status}` (spec section 8). */
export class SpeechFetchError extends Error {
  constructor(
    readonly url: string,
    readonly status: number | string,
  ) {
    super(`fetch ${url} → ${status}`);
    this.name = 'SpeechFetchError';
  }
}

/** POST /text-to-speech/file: the audio bytes, their type and the provider's request id. */
export async function fetchSpeech(request: SpeechRequest, signal?: AbortSignal): Promise<SpeechAudio> {
  const url = API.voice.speak.path;
  try {
    return await call(
      API.voice.speak,
      { body: request },
      {
        signal,
        failure: (status) => new SpeechFetchError(url, status),
        read: async (response) => ({
          bytes: await response.arrayBuffer(),
          contentType: response.headers.get('content-type'),
          requestId: response.headers.get(HEADERS.ttsRequestId),
        }),
      },
    );
  } catch (error) {
    // fetch fails with a TypeError when the server cannot be reached (an abort is a DOMException).
    if (error instanceof TypeError) throw new SpeechFetchError(url, 'network error');
    throw error;
  }
}

/** POST /speech-to-text with the recorded audio as the body (voice mode records a 16 kHz mono WAV). */
export async function transcribe(audio: Blob): Promise<string> {
  const type = audio.type || 'audio/wav';
  const answer = await call(API.voice.transcribe, {}, { orElse: undefined, body: audio, headers: { 'content-type': type } });
  return answer?.text ?? '';
}
