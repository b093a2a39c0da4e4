import { DomainError, rechunk } from '@app/platform';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

/** The four calls of a chunked upload session on the bus (files.upload.*, tts.stt.*). */
export interface ChunkedSession<Result> {
  begin(): Promise<{ upload_id: string; chunk_bytes: number }>;
  chunk(input: { upload_id: string; seq: number; data: string }): Promise<unknown>;
  commit(uploadId: string): Promise<Result>;
  abort(uploadId: string): Promise<unknown>;
}

export interface RelayTexts {
  /** The body broke off or is malformed mid-way: the client's fault, a 400. */
  malformed: string;
  /** No body at all (said after `begin`, so the service's own refusals come first). */
  empty?: string;
}

/** Reads what is left of a body and throws it away, so the client still gets its answer (413, 415...). */
export async function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return;
  stream.resume();
  await finished(stream).catch(() => undefined);
}

/** The bytes of a body; one that breaks off (busboy's "Unexpected end of multipart data", say) is a 400 `{detail}`, never a 500. */
async function* bodyBytes(stream: Readable, malformed: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch {
    throw DomainError.badRequest(malformed);
  }
}

/**
 * Moves a body from the HTTP request to a service without ever holding it whole: `begin`, then
 * each chunk (the session's chunk_bytes, base64) as its own call as the bytes arrive (the request
 * is read no faster than the service takes them), then `commit`. On any failure the rest of the
 * body is drained (the client gets its answer) and the session aborted. `complete` may refuse
 * the body once read (a multipart part cut at its size cap).
 */
export async function relayChunks<Result>(
  body: Readable | null,
  session: ChunkedSession<Result>,
  texts: RelayTexts,
  complete: () => void = () => undefined,
): Promise<Result> {
  let opened: { upload_id: string; chunk_bytes: number };
  try {
    opened = await session.begin();
  } catch (error) {
    if (body) await drain(body);
    throw error;
  }
  const { upload_id, chunk_bytes } = opened;
  if (!body) {
    await session.abort(upload_id).catch(() => undefined);
    throw new DomainError('validation_failed', texts.empty ?? texts.malformed);
  }
  try {
    let seq = 0;
    for await (const chunk of rechunk(bodyBytes(body, texts.malformed), chunk_bytes)) {
      await session.chunk({ upload_id, seq: seq++, data: chunk.toString('base64') });
    }
    complete();
    return await session.commit(upload_id);
  } catch (error) {
    await drain(body);
    await session.abort(upload_id).catch(() => undefined);
    throw error;
  }
}
