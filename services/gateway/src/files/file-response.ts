import { INLINE_FILE_TYPES, type FileChunk } from '@app/contracts/files';
import type { FastifyReply } from 'fastify';
import { headAndBody } from '../http/headed-stream';

/** Served files may not run anything, embed anything or be framed. */
const SANDBOX_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
const INLINE_TYPES = new Set(INLINE_FILE_TYPES);

/**
 * How the gateway lets a browser handle a file: inline only when the files service says so AND
 * the type (without its parameters) is on the inline allow-list; an attachment otherwise.
 */
export function dispositionOf(head: { content_type: string; disposition: 'inline' | 'attachment' }): 'inline' | 'attachment' {
  const type = head.content_type.split(';')[0].trim().toLowerCase();
  return head.disposition === 'inline' && INLINE_TYPES.has(type) ? 'inline' : 'attachment';
}

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
  const { head, body } = await headAndBody(frames, 'files service');
  return reply
    .header('content-type', head.content_type)
    .header('content-length', String(head.size))
    .header('content-disposition', contentDisposition(dispositionOf(head), head.filename))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=300')
    .header('content-security-policy', SANDBOX_POLICY)
    .send(body);
}
