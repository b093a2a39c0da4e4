import type { FileChunk } from '@app/contracts/files';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';

/** Served files may not run anything, embed anything or be framed; PDFs keep the browser's viewer. */
const SANDBOX_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
const PDF_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'self'";

/** A Content-Disposition value: an ASCII fallback and the UTF-8 name (RFC 6266 / RFC 5987). */
export function contentDisposition(disposition: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%;]/g, '_') || 'file';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a file body that arrives as frames of the `files.object.read` stream: the head decides
 * the headers (a failure before it is an ordinary `{detail}` answer), the chunks are written as
 * they come, with the response's backpressure.
 */
export async function sendFileStream(reply: FastifyReply, frames: AsyncIterable<FileChunk>): Promise<FastifyReply> {
  const iterator = frames[Symbol.asyncIterator]();
  const first = await iterator.next(); // throws → the exception filter answers with a status and {detail}
  if (first.done || first.value.kind !== 'head') throw new Error('The files service sent a body without its head');
  const head = first.value;
  async function* bytes() {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      if (next.value.kind === 'data') yield Buffer.from(next.value.data, 'base64');
    }
  }
  return reply
    .header('content-type', head.content_type)
    .header('content-length', String(head.size))
    .header('content-disposition', contentDisposition(head.disposition, head.filename))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=300')
    .header('content-security-policy', head.content_type === 'application/pdf' ? PDF_POLICY : SANDBOX_POLICY)
    .send(Readable.from(bytes(), { objectMode: false }));
}
