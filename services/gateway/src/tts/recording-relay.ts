import type { Caller } from '@app/contracts';
import { TTS_RPC } from '@app/contracts/tts';
import { DomainError, rechunk, RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

const TRANSCRIBE_TIMEOUT_MS = 120_000;
export const EMPTY_RECORDING = 'The recording is empty.';
export const MALFORMED_RECORDING = 'The recording could not be read (the upload broke off).';

const isStream = (value: unknown): value is Readable => typeof (value as Partial<Readable> | null)?.pipe === 'function';

async function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return;
  stream.resume();
  await finished(stream).catch(() => undefined);
}

async function* bodyBytes(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch {
    throw DomainError.badRequest(MALFORMED_RECORDING);
  }
}

/**
 * Moves a recording from the HTTP request to the tts service without holding it whole, like file
 * uploads: `tts.stt.begin` (503 not configured, 415, 429 come before any byte is read), each chunk
 * as its own `tts.stt.chunk` call as the bytes arrive (413 past the limit), then `tts.stt.commit`,
 * which transcribes. The body stream is the raw request (the audio/* parser passes it on unread).
 */
export async function relayRecording(request: FastifyRequest, rpc: RpcClient, caller: Caller): Promise<{ text: string }> {
  const contentType = request.headers['content-type'] ?? '';
  const body = isStream(request.body) ? request.body : null;
  let session: { upload_id: string; chunk_bytes: number };
  try {
    // First, so that "not configured" (503) and a type not taken (415) are said before anything else.
    session = await rpc.call(TTS_RPC.sttBegin, { content_type: contentType.slice(0, 255) }, caller);
  } catch (error) {
    if (body) await drain(body);
    throw error;
  }
  const { upload_id, chunk_bytes } = session;
  if (!body) {
    await rpc.call(TTS_RPC.sttAbort, { upload_id }, caller).catch(() => undefined);
    throw new DomainError('validation_failed', EMPTY_RECORDING);
  }
  try {
    let seq = 0;
    for await (const chunk of rechunk(bodyBytes(body), chunk_bytes)) {
      await rpc.call(TTS_RPC.sttChunk, { upload_id, seq: seq++, data: chunk.toString('base64') }, caller);
    }
    return await rpc.call(TTS_RPC.sttCommit, { upload_id }, caller, { timeoutMs: TRANSCRIBE_TIMEOUT_MS });
  } catch (error) {
    await drain(body);
    await rpc.call(TTS_RPC.sttAbort, { upload_id }, caller).catch(() => undefined);
    throw error;
  }
}
