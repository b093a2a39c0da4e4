import type { Caller } from '@app/contracts';
import { TTS_RPC } from '@app/contracts/tts';
import { RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { relayChunks } from '../http/chunked-relay';

const TRANSCRIBE_TIMEOUT_MS = 120_000;
export const EMPTY_RECORDING = 'The recording is empty.';
export const MALFORMED_RECORDING = 'The recording could not be read (the upload broke off).';

const isStream = (value: unknown): value is Readable => typeof (value as Partial<Readable> | null)?.pipe === 'function';

/**
 * Moves a recording from the HTTP request to the tts service without holding it whole, like file
 * uploads: `tts.stt.begin` (503 not configured, 415, 429 come before any byte is read), each chunk
 * as its own `tts.stt.chunk` call as the bytes arrive (413 past the limit), then `tts.stt.commit`,
 * which transcribes. The body stream is the raw request (the audio/* parser passes it on unread).
 */
export async function relayRecording(request: FastifyRequest, rpc: RpcClient, caller: Caller): Promise<{ text: string }> {
  const contentType = request.headers['content-type'] ?? '';
  const body = isStream(request.body) ? request.body : null;
  return relayChunks(
    body,
    {
      // First, so that "not configured" (503) and a type not taken (415) are said before anything else.
      begin: () => rpc.call(TTS_RPC.sttBegin, { content_type: contentType.slice(0, 255) }, caller),
      chunk: (input) => rpc.call(TTS_RPC.sttChunk, input, caller),
      commit: (upload_id) => rpc.call(TTS_RPC.sttCommit, { upload_id }, caller, { timeoutMs: TRANSCRIBE_TIMEOUT_MS }),
      abort: (upload_id) => rpc.call(TTS_RPC.sttAbort, { upload_id }, caller),
    },
    { malformed: MALFORMED_RECORDING, empty: EMPTY_RECORDING },
  );
}
