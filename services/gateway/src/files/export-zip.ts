import type { Caller } from '@app/contracts';
import { FILES_RPC } from '@app/contracts/files';
import type { RpcClient } from '@app/platform';
import type { FastifyReply } from 'fastify';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';

/** One entry of the export: small documents whole, file bodies as a stream of bytes. */
export type ExportEntry = { name: string; data: Uint8Array } | { name: string; stream: () => AsyncIterable<Uint8Array> };

/** The caller's stored files as zip entries `files/<id>-<name>`, each streamed from the files service. */
export function storedFileEntries(rpc: RpcClient, caller: Caller, rows: Record<string, unknown>[]): ExportEntry[] {
  return rows.map((row) => {
    const id = String(row.id);
    return {
      name: `files/${id}-${String(row.filename ?? 'file')}`,
      stream: async function* () {
        for await (const frame of rpc.stream(FILES_RPC.read, { object_store_object_id: id }, caller, { timeoutMs: 30_000 })) {
          if (frame.kind === 'data') yield Buffer.from(frame.data, 'base64');
        }
      },
    };
  });
}

/**
 * Sends a zip built as it goes (fflate's streaming Zip): documents compressed, file bodies stored
 * as they are (images and PDFs are compressed already), nothing held whole in memory. A failure
 * once bytes have gone cuts the download short (a broken zip), never a silently partial one.
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
        const file = new ZipPassThrough(entry.name);
        zip.add(file);
        for await (const chunk of entry.stream()) {
          file.push(chunk);
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
