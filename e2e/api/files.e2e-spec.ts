import type { EmbeddedStack } from '@app/embedded';
import { FILES_RPC } from '@app/contracts/files';
import { UNSAFE_TEXT_MESSAGE, type Caller } from '@app/contracts';
import { RpcClient } from '@app/platform';
import { FakeS3, TRANSPORTS, type TestEnvironment, type TransportKind } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { ApiClient, binary, eventually } from '../support/api-client';
import { imageOfDataUrl, makeExecutable, makeJpeg, makePdf, makePng } from '../support/files';
import { rawRequest } from '../support/raw-http';
import { startTestStack } from '../support/test-stack';

const SECRET = 'a-test-signing-secret-of-at-least-32-chars';
const MAX_BYTES = 2 * 1024 * 1024;

/** Every file under a folder, as paths relative to it. */
/** Files the product keeps in DATA_DIR beside the object store (the chat's development key for MCP tokens). */
const NOT_OBJECTS = new Set(['tools-encryption.key']);

/** Every file under `dir` but the known ones beside the object store: a name trick that escaped the store shows here. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) await walk(join(at, entry.name));
      else found.push(relative(dir, join(at, entry.name)));
    }
  };
  await walk(dir);
  return found.filter((path) => !NOT_OBJECTS.has(path)).sort();
}

interface Booted {
  environment: TestEnvironment;
  stack: EmbeddedStack;
  dataDir: string;
  db: Client;
  rpc: RpcClient;
  close(): Promise<void>;
}

async function boot(label: string, transport: TransportKind, env: Record<string, string>): Promise<Booted> {
  const dataDir = await mkdtemp(join(tmpdir(), 'files-e2e-'));
  const booted = await startTestStack(label, transport, { DATA_DIR: dataDir, ...env });
  return {
    ...booted,
    dataDir,
    rpc: new RpcClient(booted.stack.runtime.bus, 10_000),
    close: async () => {
      await booted.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function guest(stack: EmbeddedStack): Promise<ApiClient & { userId: string; caller: Caller }> {
  const api = new ApiClient(stack.url);
  await api.guest();
  const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
  return Object.assign(api, { userId, caller: { user_id: userId, is_anon: true, session_id: null, request_id: randomUUID() } });
}

const upload = (api: ApiClient, bytes: Buffer, filename: string, contentType = 'application/octet-stream') =>
  api.auth(api.http.post('/api/v1/files/')).attach('file', bytes, { filename, contentType });

describe.each(TRANSPORTS)('file attachments over the %s transport', (transport) => {
  let booted: Booted;
  let stack: EmbeddedStack;

  beforeAll(async () => {
    booted = await boot('files', transport, { FILES_MAX_BYTES: String(MAX_BYTES), FILES_URL_SIGNING_SECRET: SECRET });
    stack = booted.stack;
  });

  afterAll(async () => {
    await booted?.close();
  });

  it('uploads an image (multipart), stores it as its bytes say, and serves it back to its owner', async () => {
    const api = await guest(stack);
    const png = await makePng(640, 480);
    const res = await upload(api, png, 'holiday.png', 'image/png').expect(201);
    expect(res.body).toEqual({
      object_store_object_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      mime_type: 'image/png',
      filename: 'holiday.png',
      size: png.length,
    });
    const id = res.body.object_store_object_id as string;
    expect(await filesUnder(booted.dataDir)).toEqual([`objects/objects/${id}`]);

    const view = await binary(api.get(`/api/v1/files/view/${id}`)).expect(200);
    expect(Buffer.compare(view.body as Buffer, png)).toBe(0);
    expect(view.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(png.length),
      'x-content-type-options': 'nosniff',
      'content-disposition': `inline; filename="holiday.png"; filename*=UTF-8''holiday.png`,
      'cache-control': 'private, max-age=300',
    });
    expect(view.headers['content-security-policy']).toContain('sandbox');
  });

  it('presigns with a preview of the requested resolution, made once and kept', async () => {
    const api = await guest(stack);
    const id = (await upload(api, await makeJpeg(800, 400), 'wide.jpg', 'image/jpeg').expect(201)).body.object_store_object_id;
    const first = (await api.get(`/api/v1/files/presigned/${id}?preview_resolution=256`).expect(200)).body;
    expect(first).toEqual({
      presigned_url: expect.stringMatching(new RegExp(`^/api/v1/files/view/${id}\\?expires=\\d+&signature=[\\w-]+$`)),
      preview_data_url: expect.any(String),
      filename: 'wide.jpg',
    });
    expect(await imageOfDataUrl(first.preview_data_url)).toEqual({ mime: 'image/webp', format: 'webp', width: 256, height: 128 });
    const byDefault = (await api.get(`/api/v1/files/presigned/${id}`).expect(200)).body;
    expect(byDefault.preview_data_url).toBe(first.preview_data_url);
    const small = (await api.get(`/api/v1/files/presigned/${id}?preview_resolution=64`).expect(200)).body;
    expect(await imageOfDataUrl(small.preview_data_url)).toMatchObject({ width: 64, height: 32 });
    // Kept as objects beside the file, and recorded with it.
    expect(await filesUnder(join(booted.dataDir, 'objects', 'derived', id))).toEqual(['preview-256.webp', 'preview-64.webp']);
    // A small image is never enlarged.
    const tiny = (await upload(api, await makePng(40, 20), 'tiny.png', 'image/png').expect(201)).body.object_store_object_id;
    expect(await imageOfDataUrl((await api.get(`/api/v1/files/presigned/${tiny}`).expect(200)).body.preview_data_url)).toMatchObject({
      width: 40,
      height: 20,
    });
    await api.get(`/api/v1/files/presigned/${id}?preview_resolution=0`).expect(422);
  });

  it('serves by bearer token, by the access_token cookie of the view path, and by signature alone', async () => {
    const api = await guest(stack);
    const png = await makePng(64, 64);
    const id = (await upload(api, png, 'p.png', 'image/png').expect(201)).body.object_store_object_id;
    const { presigned_url } = (await api.get(`/api/v1/files/presigned/${id}`).expect(200)).body;

    await binary(api.get(`/api/v1/files/view/${id}`)).expect(200);
    const byCookie = await binary(api.http.get(`/api/v1/files/view/${id}`).set('Cookie', `access_token=${api.token}`)).expect(200);
    expect(Buffer.compare(byCookie.body as Buffer, png)).toBe(0);
    const bySignature = await binary(api.http.get(presigned_url)).expect(200);
    expect(Buffer.compare(bySignature.body as Buffer, png)).toBe(0);

    // Nothing at all: 401; the cookie means nothing elsewhere.
    await api.http.get(`/api/v1/files/view/${id}`).expect(401, { detail: 'Not authenticated' });
    await api.http.get(`/api/v1/files/presigned/${id}`).set('Cookie', `access_token=${api.token}`).expect(401);
    // Altered: a signature for another expiry, another file, or garbage: as if there were no file.
    const url = new URL(presigned_url, stack.url);
    const later = Number(url.searchParams.get('expires')) + 60;
    await api.http
      .get(`${url.pathname}?expires=${later}&signature=${url.searchParams.get('signature')}`)
      .expect(404, { detail: 'File not found' });
    await api.http
      .get(`${url.pathname}?expires=${url.searchParams.get('expires')}&signature=AAAA`)
      .expect(404, { detail: 'File not found' });
    await api.http.get(`${url.pathname}?signature=${url.searchParams.get('signature')}`).expect(404, { detail: 'File not found' });
  });

  it('answers a forged link the same for a file that exists and for one that does not (no existence oracle)', async () => {
    const api = await guest(stack);
    const id = (await upload(api, await makePng(8, 8), 'p.png', 'image/png').expect(201)).body.object_store_object_id;
    const expires = Math.floor(Date.now() / 1000) + 60;
    const forged = createHmac('sha256', 'not-the-secret-of-this-server-at-all')
      .update(`files.view\n${id}\n${expires}\n${api.userId}`)
      .digest('base64url');
    const answers = [];
    for (const target of [id, randomUUID()]) {
      for (const query of [`expires=${expires}&signature=${forged}`, `signature=${forged}`, `expires=${expires}`, 'expires=1&signature=']) {
        const res = await api.http.get(`/api/v1/files/view/${target}?${query}`);
        answers.push({
          query,
          status: res.status,
          body: res.text,
          type: res.headers['content-type'],
          length: res.headers['content-length'],
        });
      }
    }
    expect(answers.slice(0, 4)).toEqual(answers.slice(4));
    expect(answers.every((a) => a.status === 404 && a.body === JSON.stringify({ detail: 'File not found' }))).toBe(true);
  });

  it('refuses an expired signed link with 403', async () => {
    const api = await guest(stack);
    const id = (await upload(api, await makePng(8, 8), 'p.png', 'image/png').expect(201)).body.object_store_object_id;
    // Signed exactly as the service signs, with the test's key, but a minute in the past.
    const expires = Math.floor(Date.now() / 1000) - 60;
    const signature = createHmac('sha256', SECRET).update(`files.view\n${id}\n${expires}\n${api.userId}`).digest('base64url');
    await api.http
      .get(`/api/v1/files/view/${id}?expires=${expires}&signature=${signature}`)
      .expect(403, { detail: 'This link has expired. Open the file again from the conversation.' });
    // The same link, still valid, works: only the time was wrong.
    const valid = Math.floor(Date.now() / 1000) + 60;
    const good = createHmac('sha256', SECRET).update(`files.view\n${id}\n${valid}\n${api.userId}`).digest('base64url');
    await api.http.get(`/api/v1/files/view/${id}?expires=${valid}&signature=${good}`).expect(200);
  });

  it('is a 404 for anyone else: presign, view, describe, model input; and for ids that are not ids', async () => {
    const owner = await guest(stack);
    const other = await guest(stack);
    const id = (await upload(owner, await makePng(16, 16), 'mine.png', 'image/png').expect(201)).body.object_store_object_id;
    await other.get(`/api/v1/files/presigned/${id}`).expect(404, { detail: 'File not found' });
    await other.get(`/api/v1/files/view/${id}`).expect(404, { detail: 'File not found' });
    await other.http.get(`/api/v1/files/view/${id}`).set('Cookie', `access_token=${other.token}`).expect(404);
    await expect(booted.rpc.call(FILES_RPC.describe, { object_store_object_id: id }, other.caller)).rejects.toMatchObject({
      shape: { status: 404 },
    });
    await expect(booted.rpc.call(FILES_RPC.readForModel, { object_store_object_id: id }, other.caller)).rejects.toMatchObject({
      shape: { status: 404 },
    });
    await owner.get(`/api/v1/files/presigned/${randomUUID()}`).expect(404);
    await owner.get('/api/v1/files/presigned/..%2F..%2Fetc%2Fpasswd').expect(404);
    await owner.get('/api/v1/files/view/not-an-id').expect(404);
    // A share that does not show the file (the chat side answers later): still 404.
    await other.get(`/api/v1/files/presigned/${id}?share_id=some-share`).expect(404);
  });

  it('refuses files over the limit (413) and types off the allow-list by their bytes (415), keeping nothing', async () => {
    const api = await guest(stack);
    const big = Buffer.alloc(MAX_BYTES + 1, 'a');
    expect((await upload(api, big, 'big.txt', 'text/plain').expect(413)).body).toEqual({
      detail: 'The file is too large (the limit is 2 MB).',
    });
    const renamed = await upload(api, makeExecutable(), 'cute-cat.png', 'image/png').expect(415);
    expect(renamed.body.detail).toMatch(/^This file looks like a Windows program/);
    await upload(api, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]), 'photo.jpg', 'image/jpeg').expect(415);
    await upload(api, Buffer.from('PK\u0003\u0004 zipped'), 'notes.txt', 'text/plain').expect(415);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(32)]);
    expect((await upload(api, heic, 'IMG_0001.HEIC', 'image/heic').expect(415)).body.detail).toMatch(/HEIC/);
    await upload(api, Buffer.from([0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3]), 'data.bin').expect(415);
    // Text that turns out not to be UTF-8 after the first chunk: refused at the commit.
    const lateBinary = Buffer.concat([Buffer.alloc(300 * 1024, 'x'), Buffer.from([0xff, 0xfe, 0x00])]);
    await upload(api, lateBinary, 'log.txt', 'text/plain').expect(415);
    await upload(api, Buffer.alloc(0), 'empty.txt', 'text/plain').expect(400, { detail: 'The file is empty.' });
    // Not multipart (refused by the route's declared media type, before the upload starts), or no `file` field.
    await api
      .auth(api.http.post('/api/v1/files/'))
      .send({ file: 'x' })
      .expect(415, { detail: 'This route takes multipart/form-data only.' });
    await api.auth(api.http.post('/api/v1/files/')).attach('document', Buffer.from('hi'), 'hi.txt').expect(422);
    await api.http.post('/api/v1/files/').attach('file', Buffer.from('hi'), 'hi.txt').expect(401);
    expect(await filesUnder(join(booted.dataDir, 'objects')).then((all) => all.filter((p) => p.startsWith('uploads/')))).toEqual([]);
    const { rows } = await booted.db.query(
      'SELECT (SELECT count(*) FROM files.file_object WHERE user_id = $1)::int AS f, (SELECT count(*) FROM files.upload_session WHERE user_id = $1)::int AS s',
      [api.userId],
    );
    expect(rows[0]).toEqual({ f: 0, s: 0 });
  });

  it('answers an upload whose body stops mid-part with 400 {detail}, and keeps nothing of it', async () => {
    const api = await guest(stack);
    const boundary = 'cut-short-boundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\nContent-Type: text/plain\r\n\r\n${'hello '.repeat(50_000)}`;
    const res = await rawRequest(
      stack.url,
      `POST /api/v1/files/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${api.token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ detail: 'Malformed multipart body' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeDefined();
    // Headers cut short too, and a part with no end at all.
    const headless = `--${boundary}\r\nContent-Disposition: form-data; name="fi`;
    const cut = await rawRequest(
      stack.url,
      `POST /api/v1/files/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${api.token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${headless.length}\r\nConnection: close\r\n\r\n${headless}`,
    );
    expect(cut.status).toBe(400);
    expect(JSON.parse(cut.body)).toEqual({ detail: 'Malformed multipart body' });
    await eventually(async () => {
      const { rows } = await booted.db.query(
        'SELECT (SELECT count(*) FROM files.file_object WHERE user_id = $1)::int AS f, (SELECT count(*) FROM files.upload_session WHERE user_id = $1)::int AS s',
        [api.userId],
      );
      return rows[0].f === 0 && rows[0].s === 0 ? true : undefined;
    });
  });

  it('takes a file at the limit, in many chunks, whole', async () => {
    const api = await guest(stack);
    const exact = Buffer.alloc(MAX_BYTES, 'z');
    exact.write('# Title\n', 0);
    const res = await upload(api, exact, 'long.md').expect(201);
    expect(res.body).toMatchObject({ mime_type: 'text/markdown', size: MAX_BYTES });
    const back = await binary(api.get(`/api/v1/files/view/${res.body.object_store_object_id}`)).expect(200);
    expect(back.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(Buffer.compare(back.body as Buffer, exact)).toBe(0);
  });

  it('cleans file names of path tricks, controls, right-to-left overrides and excess length', async () => {
    const api = await guest(stack);
    const text = Buffer.from('hello\n');
    const name = async (filename: string) => (await upload(api, text, filename, 'text/plain').expect(201)).body.filename as string;
    expect(await name('../../etc/passwd')).toBe('passwd');
    expect(await name('..\\..\\windows\\system32\\evil.txt')).toBe('evil.txt');
    expect(await name('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
    expect(await name('a\u0007b\u001fc.txt')).toBe('abc.txt');
    // NUL is refused like in any other text the product takes (422 naming the field), and nothing is kept.
    await upload(api, text, 'a\u0000b.txt', 'text/plain').expect(422, { detail: `filename: ${UNSAFE_TEXT_MESSAGE}` });
    expect(await name('...')).toBe('file');
    const long = await name(`${'x'.repeat(300)}.txt`);
    expect(long).toHaveLength(200);
    expect(long.endsWith('.txt')).toBe(true);
    // Whatever the names, nothing lands outside the store's own keys.
    for (const path of await filesUnder(booted.dataDir))
      expect(path).toMatch(/^objects\/(objects\/[0-9a-f-]{36}|derived\/[0-9a-f-]{36}\/[\w.-]+)$/);
    // Markup served as an attachment, never inline.
    const svg = (
      await upload(
        api,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'x.svg',
        'image/svg+xml',
      ).expect(201)
    ).body;
    expect(svg.mime_type).toBe('text/plain');
    const served = await api.get(`/api/v1/files/view/${svg.object_store_object_id}`).expect(200);
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('gives the chat service what it needs: put, describe, and files as the model takes them', async () => {
    const api = await guest(stack);
    const png = await makePng(2000, 1000);
    const put = await booted.rpc.call(
      FILES_RPC.put,
      { data: (await makePng(300, 200)).toString('base64'), filename: 'generated.png' },
      api.caller,
    );
    expect(put).toMatchObject({ mime_type: 'image/png', filename: 'generated.png' });
    expect(await booted.rpc.call(FILES_RPC.describe, { object_store_object_id: put.object_store_object_id }, api.caller)).toMatchObject({
      source: 'generated',
      mime_type: 'image/png',
    });
    await expect(
      booted.rpc.call(FILES_RPC.put, { data: makeExecutable().toString('base64'), filename: 'x.png' }, api.caller),
    ).rejects.toMatchObject({ shape: { status: 415 } });

    const bigImage = (await upload(api, png, 'big.png', 'image/png').expect(201)).body.object_store_object_id;
    const image = await booted.rpc.call(FILES_RPC.readForModel, { object_store_object_id: bigImage }, api.caller);
    expect(image).toMatchObject({ kind: 'image', mime_type: 'image/jpeg', width: 1568, height: 784 });
    if (image.kind === 'image') expect(await imageOfDataUrl(image.data_url)).toMatchObject({ format: 'jpeg', width: 1568, height: 784 });

    const pdf = (await upload(api, makePdf('Quarterly report: revenue grew 12 percent'), 'report.pdf', 'application/pdf').expect(201)).body;
    expect(pdf.mime_type).toBe('application/pdf');
    const pdfText = await booted.rpc.call(FILES_RPC.readForModel, { object_store_object_id: pdf.object_store_object_id }, api.caller);
    expect(pdfText).toMatchObject({ kind: 'text', pages: 1, truncated: false, text: expect.stringContaining('revenue grew 12 percent') });
    // A PDF is a download, never shown by a viewer from the product's origin.
    const served = await binary(api.get(`/api/v1/files/view/${pdf.object_store_object_id}`)).expect(200);
    expect(served.headers['content-disposition']).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect((await api.get(`/api/v1/files/presigned/${pdf.object_store_object_id}`).expect(200)).body.preview_data_url).toBeNull();

    const notes = (await upload(api, Buffer.from('ünïcode notes '.repeat(100)), 'notes.txt').expect(201)).body.object_store_object_id;
    const text = await booted.rpc.call(FILES_RPC.readForModel, { object_store_object_id: notes, max_text_chars: 50 }, api.caller);
    expect(text).toMatchObject({ kind: 'text', truncated: true, pages: null, text: 'ünïcode notes '.repeat(100).slice(0, 50) });
  });

  it("moves a guest's files to the account the guest signs in to (the objects stay where they are)", async () => {
    const phone = `+1415555${transport === 'nats' ? '7' : '6'}${String(Date.now() % 1000).padStart(3, '0')}`;
    const signIn = async (api: ApiClient) => {
      await api.fetchCsrf();
      expect((await api.requestPhoneCode(phone)).status).toBe(200);
      const code = await eventually(async () => {
        const messages = (await api.http.get(`/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`).expect(200)).body.messages as {
          to: string;
          body: string;
        }[];
        return messages.find((m) => m.to === phone)?.body.match(/\b(\d{6})\b/)?.[1];
      });
      const res = await api.phoneCallback(phone, code).expect(302);
      api.token = decodeURIComponent(String(res.headers.location).split('#access_token=')[1]);
    };
    const account = await guest(stack);
    await signIn(account); // the guest becomes the account
    const visitor = await guest(stack);
    const png = await makePng(30, 30);
    const id = (await upload(visitor, png, 'from-guest.png', 'image/png').expect(201)).body.object_store_object_id;
    await signIn(visitor); // an existing account: the guest's data moves to it
    expect((await visitor.get('/api/v1/auth/me').expect(200)).body.user_id).toBe(account.userId);
    const moved = await eventually(async () => {
      const res = await account.get(`/api/v1/files/presigned/${id}`);
      return res.status === 200 ? res.body : undefined;
    });
    expect(moved.filename).toBe('from-guest.png');
    const view = await binary(account.http.get(moved.presigned_url)).expect(200);
    expect(Buffer.compare(view.body as Buffer, png)).toBe(0);
  });

  it('exports the files (rows and bytes) and removes objects and rows with the account', async () => {
    const api = await guest(stack);
    const png = await makePng(120, 90);
    const id = (await upload(api, png, 'keep me.png', 'image/png').expect(201)).body.object_store_object_id;
    await api.get(`/api/v1/files/presigned/${id}`).expect(200);
    const zip = await binary(api.get('/api/v1/users/me/export')).expect(200);
    const entries = unzipSync(new Uint8Array(zip.body as Buffer));
    const rows = JSON.parse(strFromU8(entries['files.json']));
    expect(rows.file_object).toEqual([expect.objectContaining({ id, filename: 'keep me.png', mime_type: 'image/png' })]);
    expect(Buffer.compare(Buffer.from(entries[`files/${id}-keep me.png`]), png)).toBe(0);
    expect(await filesUnder(join(booted.dataDir, 'objects', 'derived', id))).toHaveLength(1);

    await api.delete('/api/v1/users/me').expect(204);
    expect(await filesUnder(join(booted.dataDir, 'objects', 'objects')).then((all) => all.filter((p) => p.includes(id)))).toEqual([]);
    expect(await filesUnder(join(booted.dataDir, 'objects', 'derived', id))).toEqual([]);
    const { rows: left } = await booted.db.query('SELECT count(*)::int AS n FROM files.file_object WHERE user_id = $1', [api.userId]);
    expect(left[0].n).toBe(0);
  });
});

describe('file attachments in an S3 bucket (s3rver through the AWS SDK)', () => {
  const s3 = new FakeS3('assistant-files');
  let booted: Booted;

  beforeAll(async () => {
    await s3.start({ createBucket: false }); // the files service creates its bucket when missing
    booted = await boot('files_s3', 'nats', { ...s3.env, FILES_SIGNED_URL_TTL_SECONDS: '2', FILES_MAX_BYTES: String(MAX_BYTES) });
  });

  afterAll(async () => {
    await booted?.close();
    await s3.stop();
  });

  it('stores uploads, previews and serves them from the bucket, signed links expire, and deletion empties it', async () => {
    const api = await guest(booted.stack);
    const png = await makePng(500, 500);
    const id = (await upload(api, png, 's3.png', 'image/png').expect(201)).body.object_store_object_id;
    expect(await s3.keys()).toEqual([`objects/${id}`]);
    expect(await filesUnder(booted.dataDir)).toEqual([]);

    const presigned = (await api.get(`/api/v1/files/presigned/${id}?preview_resolution=100`).expect(200)).body;
    expect(await imageOfDataUrl(presigned.preview_data_url)).toMatchObject({ width: 100, height: 100 });
    expect(await s3.keys()).toEqual([`derived/${id}/preview-100.webp`, `objects/${id}`]);
    const viewed = await binary(api.http.get(presigned.presigned_url)).expect(200);
    expect(Buffer.compare(viewed.body as Buffer, png)).toBe(0);

    // A tiny lifetime (2 s): the same link, a little later, is refused.
    await new Promise((r) => setTimeout(r, 3_100));
    await api.http
      .get(presigned.presigned_url)
      .expect(403, { detail: 'This link has expired. Open the file again from the conversation.' });
    await binary(api.get(`/api/v1/files/view/${id}`)).expect(200); // the owner still can

    const large = Buffer.alloc(MAX_BYTES - 10, 'q');
    const big = (await upload(api, large, 'big.csv').expect(201)).body;
    expect(big).toMatchObject({ mime_type: 'text/csv', size: large.length });
    expect(await s3.keys('uploads/')).toEqual([]);

    await api.delete('/api/v1/users/me').expect(204);
    await eventually(async () => ((await s3.keys()).length === 0 ? true : undefined), 5_000);
  });
});
