import { optionalCall } from '../../common/api/dataCall';
import { apiFetch, jsonBody } from '../../common/api/http';

/** The audio calls, loaded with the voice engine (not in the chat's first load). */
export const SPEECH_URL = '/api/v1/text-to-speech/file';

export type SpeechRequest = {
  text: string;
  chat_id?: string;
  message_id?: string;
  normalize_text_for_reading?: boolean;
  openai_model?: string;
  voice?: string;
  speed?: number;
  format?: 'pcm' | 'wav' | 'mp3';
};

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
  let response: Response;
  try {
    response = await apiFetch(SPEECH_URL, { method: 'POST', ...jsonBody(request), signal });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new SpeechFetchError(SPEECH_URL, 'network error');
  }
  if (!response.ok) throw new SpeechFetchError(SPEECH_URL, response.status);
  return {
    bytes: await response.arrayBuffer(),
    contentType: response.headers.get('content-type'),
    requestId: response.headers.get('x-tts-request-id'),
  };
}

/** POST /speech-to-text with the recorded audio as the body (voice mode records a 16 kHz mono WAV). */
export async function transcribe(audio: Blob): Promise<string> {
  const type = audio.type || 'audio/wav';
  const answer = await optionalCall<{ text: string }>('/api/v1/speech-to-text', {
    method: 'POST',
    body: audio,
    headers: { 'content-type': type },
  });
  return answer?.text ?? '';
}
