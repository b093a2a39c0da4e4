import type { Caller } from '@app/contracts';
import { FILES_RPC } from '@app/contracts/files';
import { RpcCallError, type RpcClient } from '@app/platform';
import type { FastifyReply } from 'fastify';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';

/** A file of the export that is gone before its first byte was read (deleted meanwhile): left out, not an error. */
export class EntryGone extends Error {}

/** One entry of the export: small documents whole, file bodies as a stream of bytes. */
export type ExportEntry = { name: string; data: Uint8Array } | { name: string; stream: () => AsyncIterable<Uint8Array> };

/** The caller's stored files as zip entries `files/<id>-<name>`, each streamed from the files service. */
export function storedFileEntries(rpc: RpcClient, caller: Caller, rows: Record<string, unknown>[]): ExportEntry[] {
  return rows.map((row) => {
    const id = String(row.id);
    return {
      name: `files/${id}-${String(row.filename ?? 'file')}`,
      stream: async function* () {
        const frames = rpc.stream(FILES_RPC.read, { object_store_object_id: id }, caller, { timeoutMs: 30_000 });
        let started = false;
        try {
          for await (const frame of frames) {
            started = true;
            if (frame.kind === 'data') yield Buffer.from(frame.data, 'base64');
          }
        } catch (error) {
          // Deleted since it was listed (the user deleted it in another tab; an import's zip discarded as its job ended).
          if (!started && error instanceof RpcCallError && error.shape.status === 404) throw new EntryGone(id);
          throw error;
        }
      },
    };
  });
}

/**
 * Sends a zip built as it goes (fflate's streaming Zip): documents compressed, file bodies stored
 * as they are (images and PDFs are compressed already), nothing held whole in memory. A file gone
 * before its first byte (EntryGone) is left out; any other failure once bytes have gone cuts the
 * download short (a broken zip), never a silently partial one.
 */
export function sendZipStream(reply: FastifyReply, entries: ExportEntry[]): FastifyReply {
  const out = new PassThrough();
  const zip = new Zip((error, chunk, final) => {
    if (error) return void out.destroy(error);
    out.write(chunk);
    if (final) out.end();
  });
  const pace = async () => {
    if (out.writableNeedDrain) await once(out, 'drain');
  };
  void (async () => {
    for (const entry of entries) {
      if ('data' in entry) {
        const file = new ZipDeflate(entry.name, { level: 6 });
        zip.add(file);
        file.push(entry.data, true);
      } else {
        // Its first chunk is read before the entry is added: a file gone by then is left out.
        const chunks = entry.stream()[Symbol.asyncIterator]();
        let next: IteratorResult<Uint8Array>;
        try {
          next = await chunks.next();
        } catch (error) {
          if (error instanceof EntryGone) continue;
          throw error;
        }
        const file = new ZipPassThrough(entry.name);
        zip.add(file);
        for (; !next.done; next = await chunks.next()) {
          file.push(next.value);
          await pace();
        }
        file.push(new Uint8Array(0), true);
      }
      await pace();
    }
    zip.end();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return reply.send(out);
}
