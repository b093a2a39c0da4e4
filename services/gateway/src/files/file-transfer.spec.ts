import multipart from '@fastify/multipart';
import type { Caller } from '@app/contracts';
import { FILES_RPC, type FileChunk } from '@app/contracts/files';
import { DomainError, RpcCallError, type RpcClient } from '@app/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { storedFileEntries, sendZipStream, type ExportEntry } from './export-zip';
import { sendFileStream } from './file-response';
import { MALFORMED_MULTIPART, NO_FILE, NOT_MULTIPART, relayUpload } from './upload-relay';

const caller: Caller = { user_id: 'u-ada', is_anon: false, session_id: 's', request_id: 'r' };
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

/** The files service as the relay and the export see it: every call recorded, answers scripted. */
class FakeFiles {
  readonly calls: { subject: string; data: Record<string, unknown> }[] = [];
  failOn?: { subject: string; error: Error; atSeq?: number };
  chunkBytes = 4;
  stored = new Map<string, Buffer>();

  async call(contract: { subject: string }, data: Record<string, unknown>): Promise<unknown> {
    this.calls.push({ subject: contract.subject, data });
    const fail = this.failOn;
    if (fail && fail.subject === contract.subject && (fail.atSeq === undefined || fail.atSeq === data.seq)) throw fail.error;
    if (contract.subject === FILES_RPC.uploadBegin.subject) return { upload_id: 'up-1', chunk_bytes: this.chunkBytes };
    if (contract.subject === FILES_RPC.uploadCommit.subject) return { object_store_object_id: 'f-1' };
    return {};
  }

  async *stream(_contract: { subject: string }, data: { object_store_object_id: string }): AsyncIterable<FileChunk> {
    const body = this.stored.get(data.object_store_object_id);
    // As the files service answers for a file deleted since it was listed.
    if (!body) throw new RpcCallError({ status: 404, detail: 'File not found', code: 'not_found' }, FILES_RPC.read.subject);
    yield { kind: 'head', content_type: 'application/octet-stream', disposition: 'attachment', filename: 'x', size: body.length };
    for (let i = 0; i < body.length; i += 3) yield { kind: 'data', data: b64(body.subarray(i, i + 3)) };
  }

  subjects(): string[] {
    return this.calls.map((c) => c.subject);
  }
}

let app: FastifyInstance;
let files: FakeFiles;
let frames: () => AsyncIterable<FileChunk>;
let entries: () => ExportEntry[];

beforeAll(async () => {
  app = Fastify();
  await app.register(multipart);
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof DomainError) return reply.status(error.status).send({ detail: error.detail });
    return reply.status(500).send({ detail: 'internal' });
  });
  app.post('/upload', (request) => relayUpload(request, files as unknown as RpcClient, caller));
  app.get('/file', (_request, reply) => sendFileStream(reply, frames()));
  app.get('/export', (_request, reply) => sendZipStream(reply.header('content-type', 'application/zip'), entries()));
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => (files = new FakeFiles()));

function multipartBody(
  parts: { field: string; filename?: string; type?: string; content: string }[],
  boundary = 'XyZ',
): { payload: Buffer; headers: Record<string, string> } {
  const chunks = parts.map(
    (p) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n` +
      `${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.content}\r\n`,
  );
  return {
    payload: Buffer.from(`${chunks.join('')}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (body: { payload: Buffer | string; headers: Record<string, string> }) =>
  app.inject({ method: 'POST', url: '/upload', ...body });

describe('relayUpload', () => {
  it('relays the file in the chunk size the service asks for, in order, then commits', async () => {
    const response = await upload(multipartBody([{ field: 'file', filename: 'notes.txt', type: 'text/plain', content: 'hello world' }]));
    expect(response.json()).toEqual({ object_store_object_id: 'f-1' });
    expect(files.calls[0]).toEqual({
      subject: FILES_RPC.uploadBegin.subject,
      data: { filename: 'notes.txt', declared_type: 'text/plain' },
    });
    const chunks = files.calls.filter((c) => c.subject === FILES_RPC.uploadChunk.subject).map((c) => c.data);
    expect(chunks.map((c) => c.seq)).toEqual([0, 1, 2]);
    expect(chunks.map((c) => Buffer.from(String(c.data), 'base64').toString()).join('|')).toBe('hell|o wo|rld');
    expect(files.subjects().at(-1)).toBe(FILES_RPC.uploadCommit.subject);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const response = await app.inject({ method: 'POST', url: '/upload', payload: { file: 'x' } });
    expect([response.statusCode, response.json()]).toEqual([415, { detail: NOT_MULTIPART }]);
    expect(files.calls).toEqual([]);
  });

  it('refuses a file in another field, or no file at all, with 422 and no upload begun', async () => {
    for (const parts of [[{ field: 'document', filename: 'a.txt', content: 'abc' }], [{ field: 'note', content: 'just a field' }]]) {
      const response = await upload(multipartBody(parts));
      expect([response.statusCode, response.json()]).toEqual([422, { detail: NO_FILE }]);
    }
    expect(files.calls).toEqual([]);
  });

  it('answers 400 for a body cut off in the middle of the file, and abandons the upload', async () => {
    const { headers } = multipartBody([]);
    const response = await upload({
      headers,
      payload: '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabcdefghij',
    });
    expect([response.statusCode, response.json()]).toEqual([400, { detail: MALFORMED_MULTIPART }]);
    expect(files.subjects()).toContain(FILES_RPC.uploadAbort.subject);
    expect(files.subjects()).not.toContain(FILES_RPC.uploadCommit.subject);
  });

  it("passes on the service's refusal of a chunk (a program, a file too large) and abandons the upload", async () => {
    files.failOn = {
      subject: FILES_RPC.uploadChunk.subject,
      atSeq: 1,
      error: new DomainError('payload_too_large', 'The file is too large.'),
    };
    const response = await upload(multipartBody([{ field: 'file', filename: 'big.bin', content: 'abcdefghijkl' }]));
    expect([response.statusCode, response.json()]).toEqual([413, { detail: 'The file is too large.' }]);
    expect(files.calls.at(-1)).toEqual({ subject: FILES_RPC.uploadAbort.subject, data: { upload_id: 'up-1' } });
  });

  it('still answers when the abandon itself fails', async () => {
    files.failOn = { subject: FILES_RPC.uploadCommit.subject, error: new DomainError('validation_failed', 'Not a text file.') };
    const answer = files.call.bind(files);
    const call = jest.spyOn(files, 'call').mockImplementation(async (contract, data) => {
      if (contract.subject === FILES_RPC.uploadAbort.subject) throw new Error('the bus is away');
      return answer(contract, data);
    });
    const response = await upload(multipartBody([{ field: 'file', filename: 'a.txt', content: 'abc' }]));
    expect([response.statusCode, response.json()]).toEqual([422, { detail: 'Not a text file.' }]);
    expect(call).toHaveBeenLastCalledWith(FILES_RPC.uploadAbort, { upload_id: 'up-1' }, caller);
  });

  it('reads the rest of the body when the service refuses to begin, so the client gets the refusal', async () => {
    files.failOn = { subject: FILES_RPC.uploadBegin.subject, error: new DomainError('forbidden', 'Uploads are off.') };
    const response = await upload(multipartBody([{ field: 'file', filename: 'a.txt', content: 'x'.repeat(100_000) }]));
    expect([response.statusCode, response.json()]).toEqual([403, { detail: 'Uploads are off.' }]);
    expect(files.subjects()).toEqual([FILES_RPC.uploadBegin.subject]);
  });

  it('passes an empty file name on as it is (the files service names it)', async () => {
    await upload(multipartBody([{ field: 'file', filename: '', content: 'abc' }]));
    expect(files.calls[0].data).toMatchObject({ filename: '' });
  });
});

describe('sendFileStream', () => {
  const frameList = (list: FileChunk[]) =>
    async function* () {
      yield* list;
    };

  it('serves the bytes in order with the head’s type and length, sandboxed and privately cached', async () => {
    frames = frameList([
      { kind: 'head', content_type: 'image/png', disposition: 'inline', filename: 'cat.png', size: 6 },
      { kind: 'data', data: b64('abc') },
      { kind: 'data', data: b64('def') },
    ]);
    const response = await app.inject({ method: 'GET', url: '/file' });
    expect(response.body).toBe('abcdef');
    expect(response.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': '6',
      'content-disposition': `inline; filename="cat.png"; filename*=UTF-8''cat.png`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=300',
      'content-security-policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox",
    });
  });

  it('makes a download of what the service calls inline but the gateway does not allow inline', async () => {
    frames = frameList([{ kind: 'head', content_type: 'text/html', disposition: 'inline', filename: 'page.html', size: 0 }]);
    expect((await app.inject({ method: 'GET', url: '/file' })).headers['content-disposition']).toMatch(/^attachment; /);
  });

  it('answers with the status of a failure before the head, and refuses a body without its head', async () => {
    frames = async function* () {
      yield* [];
      throw DomainError.notFound('No such file.');
    };
    expect((await app.inject({ method: 'GET', url: '/file' })).json()).toEqual({ detail: 'No such file.' });
    frames = frameList([{ kind: 'data', data: b64('abc') }]);
    expect((await app.inject({ method: 'GET', url: '/file' })).statusCode).toBe(500);
  });
});

describe('the export zip', () => {
  const download = async () => {
    const response = await app.inject({ method: 'GET', url: '/export' });
    return { response, files: unzipSync(new Uint8Array(response.rawPayload)) };
  };

  it('holds the documents and every stored file under files/<id>-<name>, byte for byte', async () => {
    files.stored.set('f-1', Buffer.from('first file body'));
    files.stored.set('f-2', Buffer.from([0, 255, 1, 254]));
    entries = () => [
      { name: 'profile.json', data: Buffer.from('{"name":"Ada"}') },
      ...storedFileEntries(files as unknown as RpcClient, caller, [{ id: 'f-1', filename: 'notes.txt' }, { id: 'f-2' }]),
    ];
    const { response, files: zipped } = await download();
    expect(response.headers['content-type']).toBe('application/zip');
    expect(Object.keys(zipped)).toEqual(['profile.json', 'files/f-1-notes.txt', 'files/f-2-file']);
    expect(Buffer.from(zipped['profile.json']).toString()).toBe('{"name":"Ada"}');
    expect(Buffer.from(zipped['files/f-1-notes.txt']).toString()).toBe('first file body');
    expect([...zipped['files/f-2-file']]).toEqual([0, 255, 1, 254]);
  });

  it('leaves out a file deleted since it was listed (before its first byte), and holds the others', async () => {
    files.stored.set('f-1', Buffer.from('kept'));
    files.stored.delete('f-gone');
    entries = () => [
      { name: 'profile.json', data: Buffer.from('{}') },
      ...storedFileEntries(files as unknown as RpcClient, caller, [
        { id: 'f-gone', filename: 'export.zip' },
        { id: 'f-1', filename: 'a.txt' },
      ]),
    ];
    const { response, files: zipped } = await download();
    expect(response.statusCode).toBe(200);
    expect(Object.keys(zipped)).toEqual(['profile.json', 'files/f-1-a.txt']);
    expect(Buffer.from(zipped['files/f-1-a.txt']).toString()).toBe('kept');
  });

  it('is an empty but valid zip when there is nothing to export', async () => {
    entries = () => [];
    expect(Object.keys((await download()).files)).toEqual([]);
  });

  it('is cut short (not a valid zip) when a file fails half way, never silently partial', async () => {
    entries = () => [
      { name: 'a.json', data: Buffer.from('{}') },
      {
        name: 'files/broken',
        stream: async function* () {
          yield Buffer.from('half');
          throw new Error('files service gone');
        },
      },
    ];
    // The response is destroyed mid-way: the client sees a broken download, not a complete-looking zip.
    await expect(app.inject({ method: 'GET', url: '/export' })).rejects.toThrow('response destroyed before completion');
  });
});
