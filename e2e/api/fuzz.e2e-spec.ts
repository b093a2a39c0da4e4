import { claudeExportZip, FakeOpenAI, TRANSPORTS } from '@app/testing';
import { ApiClient, eventually } from '../support/api-client';
import {
  closeFuzzAgent,
  HOSTILE_STRINGS,
  operationsOf,
  pathSegment,
  percentEncode,
  problemsWith,
  Random,
  send,
  ValueMaker,
  type FuzzRequest,
  type Operation,
} from '../support/fuzz';
import { rawRequest } from '../support/raw-http';
import { postStream } from '../support/sse';
import { startTestStack, type TestStack } from '../support/test-stack';

/**
 * The API under hostile input, driven by the OpenAPI document the gateway serves: every operation
 * with valid, schema-violating and hostile values (NUL, lone surrogates, bidi overrides, traversal,
 * sizes), broken transport (malformed JSON, wrong content types, bad multipart, oversized bodies,
 * wrong methods), with and without tokens (a guest's, another guest's, forged ones). Every answer
 * must be below 500, every 4xx a JSON `{detail}`, and every one carry the security headers.
 *
 * Deterministic: FUZZ_SEED (default 20261123) decides every case. FUZZ_CASES (default 1200) is
 * the number of generated requests per transport; `FUZZ_CASES=20000 npm test -- e2e/api/fuzz`
 * runs a long session, FUZZ_CONCURRENCY (default 1) sends that many at once (bursts: pool
 * exhaustion and races). It prints how many requests it sent and what they answered.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CASES = Number(process.env.FUZZ_CASES ?? 1200);
const CONCURRENCY = Math.max(1, Number(process.env.FUZZ_CONCURRENCY ?? 1));
/** Stands for a guest made just before the request is sent (the operations that end their caller). */
const THROWAWAY = 'throwaway-guest';
const BODY_LIMIT = 64 * 1024;
const FILES_MAX = 64 * 1024;
const MODES = ['valid', 'violating', 'hostile', 'transport'] as const;
type Mode = (typeof MODES)[number];
const AUTHS = ['owner', 'none', 'other', 'garbage', 'owner', 'forged', 'cookie', 'owner'] as const;
type Auth = (typeof AUTHS)[number];
/** Operations that end the caller: sent with a guest made for the purpose, never the suite's own. */
const DESTRUCTIVE = new Set(['DELETE /api/v1/users/me', 'POST /api/v1/auth/logout']);

interface Fixtures {
  owner: ApiClient;
  other: ApiClient;
  csrf: { token: string; cookie: string };
  chatId: string;
  otherChatId: string;
  messageIds: string[];
  shareId?: string;
  fileId?: string;
  signature?: { expires: string; signature: string };
  memoryId?: string;
  /** A project of the owner's (with the file and a conversation of its own), and one of the other guest's. */
  projectId?: string;
  otherProjectId?: string;
  importId?: string;
}

jest.setTimeout(Math.max(120_000, CASES * 200));

describe.each(TRANSPORTS)('the API under fuzzed input over the %s transport', (transport) => {
  let booted: TestStack;
  let url: string;
  const errors: string[] = [];

  // Speech-to-text is configured (answered by a fake OpenAI), so its route is fuzzed for real
  // rather than answering "not configured" to everything.
  const openai = new FakeOpenAI();

  beforeAll(async () => {
    await openai.start();
    openai.setDefaultReply('audio.transcriptions', () => ({ text: 'fuzzed speech' }));
    booted = await startTestStack(
      `fuzz`,
      transport,
      {
        STT_ENGINE: 'openai-compatible',
        STT_BASE_URL: openai.baseURL,
        STT_API_KEY: 'fuzz-key',
        RATE_LIMIT_PER_MINUTE: '1000000',
        GUESTS_PER_IP_PER_HOUR: '1000000',
        CHAT_GUEST_DAILY_LIMIT: '1000000',
        OFFLINE_TOKEN_DELAY_MS: '0',
        BODY_LIMIT_BYTES: String(BODY_LIMIT),
        FILES_MAX_BYTES: String(FILES_MAX),
        WEB_DIST_DIR: '/nonexistent',
      },
      {
        // Error lines are kept to explain a failure by its request id; the rest is noise here.
        sink: (line) => {
          if (line.includes('"level":"error"')) errors.push(line);
        },
      },
    );
    url = booted.stack.url;
  });

  afterAll(async () => {
    closeFuzzAgent();
    await booted?.close();
    await openai.stop();
  });

  /** A conversation with a message and its reply, shared. */
  async function conversationOf(owner: ApiClient): Promise<Pick<Fixtures, 'chatId' | 'messageIds' | 'shareId'>> {
    const chatId = (await owner.post('/api/v1/chats', { conversation_title: 'fuzz' }).expect(201)).body.chat_id as string;
    const reply = await postStream(`${url}/api/v1/chats/${chatId}/messages`, owner.token!, {
      content: 'My name is Ada and I live in Lisbon.',
    });
    const messageIds = reply.events
      .filter((e) => e.event === 'user_message' || e.event === 'assistant_message')
      .map((e) => e.data.message_id as string);
    const shareId = (await owner.post(`/api/v1/chats/${chatId}/share`).expect(201)).body.share_id as string | undefined;
    return { chatId, messageIds, shareId };
  }

  /** A guest with a conversation (a message and its reply, shared), a file and, when extraction finds one, a memory. */
  async function makeFixtures(): Promise<Fixtures> {
    const owner = new ApiClient(url);
    await owner.guest();
    const other = new ApiClient(url);
    await other.guest();
    const csrf = await owner.fetchCsrf();
    const otherChatId = (await other.post('/api/v1/chats', {}).expect(201)).body.chat_id as string;
    const { chatId, messageIds, shareId } = await conversationOf(owner);
    const upload = await owner
      .auth(owner.http.post('/api/v1/files/'))
      .attach('file', Buffer.from('fuzz notes\n'), { filename: 'notes.txt', contentType: 'text/plain' });
    const fileId = upload.status === 201 ? (upload.body.object_store_object_id as string) : undefined;
    let signature: Fixtures['signature'];
    if (fileId) {
      const presigned = (await owner.get(`/api/v1/files/presigned/${fileId}`).expect(200)).body.presigned_url as string;
      const link = new URL(presigned, url);
      signature = { expires: link.searchParams.get('expires')!, signature: link.searchParams.get('signature')! };
    }
    const projectId = (
      await owner
        .post('/api/v1/projects/', { name: 'fuzz', instructions: 'Be brief.', files: fileId ? [{ object_store_object_id: fileId }] : [] })
        .expect(201)
    ).body.project_id as string;
    await owner.post('/api/v1/chats/', { project_id: projectId }).expect(201);
    const otherProjectId = (await other.post('/api/v1/projects/', { name: 'theirs' }).expect(201)).body.project_id as string;
    // An import of a small Claude export (its routes take an import id).
    const zip = await owner
      .auth(owner.http.post('/api/v1/imports/uploads'))
      .attach('file', claudeExportZip(), { filename: 'export.zip', contentType: 'application/zip' });
    const importId =
      zip.status === 201
        ? ((await owner.post('/api/v1/imports/', { object_store_object_id: zip.body.object_store_object_id }).expect(202)).body
            .import_id as string)
        : undefined;
    const memoryId = await eventually(async () => {
      const list = (await owner.get('/api/v1/user_memory').expect(200)).body as { user_memory_id: string }[];
      return list[0]?.user_memory_id;
    }, 5_000).catch(() => undefined);
    return {
      owner,
      other,
      csrf: { token: csrf.token, cookie: csrf.cookie },
      chatId,
      otherChatId,
      messageIds,
      shareId,
      fileId,
      signature,
      memoryId,
      projectId,
      otherProjectId,
      importId,
    };
  }

  it('answers every operation with valid, violating and hostile input: no 5xx, {detail} on every 4xx, the security headers on all', async () => {
    const started = performance.now();
    const document = (await send(url, { method: 'GET', target: '/api/docs/openapi.json', headers: {}, label: 'the document' })).body;
    const operations = operationsOf(JSON.parse(document.toString('utf8')));
    expect(operations.length).toBeGreaterThan(40);
    let fixtures = await makeFixtures();
    const random = new Random(SEED);
    const known = (name: string): unknown => {
      const pick = <T>(items: (T | undefined)[]) => random.pick(items.filter((v): v is T => v !== undefined));
      switch (name) {
        case 'chat_id':
        case 'source_chat_id':
          return random.chance(0.8) ? fixtures.chatId : fixtures.otherChatId;
        case 'chat_ids':
          return random.chance(0.5) ? fixtures.chatId : `${fixtures.chatId},${fixtures.otherChatId}`;
        case 'message_id':
        case 'previous_message_id':
        case 'last_active_message_id':
          return fixtures.messageIds.length ? pick(fixtures.messageIds) : undefined;
        case 'user_memory_id':
          return fixtures.memoryId;
        case 'project_id':
          return random.chance(0.8) ? fixtures.projectId : fixtures.otherProjectId;
        case 'conversations':
          return random.pick(['keep', 'delete']);
        case 'object_store_object_id':
          return fixtures.fileId;
        case 'share_id':
          return fixtures.shareId;
        case 'import_id':
          return fixtures.importId;
        case 'expires':
          return fixtures.signature?.expires;
        case 'signature':
          return fixtures.signature?.signature;
        case 'phone_number':
          return `+1415555${String(9000 + random.int(0, 9))}`;
        case 'code':
          return String(random.int(100000, 999999));
        case 'birth_date':
          return random.pick(['1990-01-01', '2015-06-30']);
        case 'campaign_name':
          return random.pick(['spring', 'no-such-campaign']);
        case 'content':
          return random.pick(['hello', 'What do you know about me?', 'I moved to Porto']);
        default:
          return undefined;
      }
    };
    const values = new ValueMaker(random, known);
    let disposable = 0;

    /** A fresh guest's token, for the operations that end their caller. */
    const throwaway = async (): Promise<string | null> => {
      const res = await send(url, { method: 'POST', target: '/api/v1/auth/anon', headers: {}, label: 'throwaway guest' });
      disposable++;
      return res.status === 200 ? (JSON.parse(res.body.toString('utf8')) as { token: string }).token : null;
    };

    /** The headers of a case; a destructive operation's token is left to `send` to make (THROWAWAY). */
    const authHeaders = (operation: Operation, auth: Auth): Record<string, string> => {
      let token: string | null = null;
      if (auth === 'owner') token = fixtures.owner.token;
      if (auth === 'other') token = fixtures.other.token;
      if ((auth === 'owner' || auth === 'other') && DESTRUCTIVE.has(operation.id)) token = THROWAWAY;
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (auth === 'garbage')
        headers.authorization = random.pick([
          'Bearer garbage',
          'Bearer ',
          'Basic dXNlcjpwYXNz',
          `Bearer ${'a'.repeat(4000)}`,
          'bearer',
          'Bearer a.b.c',
        ]);
      if (auth === 'forged') {
        const [head, body, signature] = fixtures.owner.token!.split('.');
        const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
        const forged = Buffer.from(JSON.stringify({ ...claims, sub: random.uuid(), exp: 4102444800 })).toString('base64url');
        headers.authorization = random.pick([
          `Bearer ${head}.${forged}.${signature}`,
          `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${body}.`,
          `Bearer ${head}.${body}.${signature.slice(0, -4)}AAAA`,
        ]);
      }
      if (auth === 'cookie') headers.cookie = `access_token=${fixtures.owner.token}; ${fixtures.csrf.cookie}`;
      if (random.chance(0.3)) {
        headers['x-csrf-token'] = fixtures.csrf.token;
        headers.cookie = headers.cookie ?? fixtures.csrf.cookie;
      }
      if (random.chance(0.1)) headers['x-request-id'] = random.pick(['req-1', 'x'.repeat(300), 'a b<c>', '\u00e9t\u00e9']);
      if (random.chance(0.1)) headers['x-user-label'] = random.pick(['\u00e9'.repeat(2000), 'label', '']);
      if (random.chance(0.05)) headers['x-user-session-id'] = random.pick(['s.1', '../..', 'x'.repeat(200)]);
      if (random.chance(0.1)) headers.accept = random.pick(['text/html', '*/*', 'application/xml', 'text/event-stream']);
      return headers;
    };

    const paramValue = (mode: Mode, operation: Operation, name: string, schema: Operation['pathParams'][number]['schema']): string => {
      if (mode === 'valid' || mode === 'transport') return String(values.valid(schema, name) ?? random.uuid());
      if (mode === 'violating')
        return String(
          random.pick(['not-a-uuid', '', 'x'.repeat(random.pick([129, 199, 201, 1000])), '-1', random.uuid().replace(/-/g, '')]),
        );
      return random.pick(HOSTILE_STRINGS);
    };

    const queryOf = (mode: Mode, operation: Operation): string => {
      const pairs: [string, string][] = [];
      for (const param of operation.queryParams) {
        if (!param.required && random.chance(0.4)) continue;
        const value =
          mode === 'valid' || mode === 'transport'
            ? values.valid(param.schema, param.name)
            : mode === 'violating'
              ? values.violating(param.schema, param.name)
              : values.hostile(param.schema, param.name);
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        if (text !== undefined) pairs.push([param.name, text]);
        if (mode !== 'valid' && random.chance(0.15)) pairs.push([param.name, text ?? '']); // the same key twice: an array
      }
      if (mode !== 'valid' && random.chance(0.2)) pairs.push([random.pick(HOSTILE_STRINGS), random.pick(HOSTILE_STRINGS)]);
      if (mode === 'transport' && random.chance(0.1)) for (let i = 0; i < 300; i++) pairs.push([`k${i}`, 'v']);
      return pairs.length ? `?${pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}` : '';
    };

    const multipart = (mode: Mode): { body: Buffer; type: string } => {
      const boundary = `fuzz${random.int(0, 1e9)}`;
      const part = (name: string, filename: string | null, type: string, bytes: Buffer) =>
        Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}\r\nContent-Type: ${type}\r\n\r\n`,
          ),
          bytes,
          Buffer.from('\r\n'),
        ]);
      const end = Buffer.from(`--${boundary}--\r\n`);
      const text = Buffer.from('hello fuzz\n');
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
      if (mode === 'valid')
        return {
          body: Buffer.concat([
            part('file', random.pick(['a.txt', 'notes.md', 'x.png']), random.pick(['text/plain', 'image/png']), random.pick([text, png])),
            end,
          ]),
          type: `multipart/form-data; boundary=${boundary}`,
        };
      if (mode === 'violating') {
        const body = random.pick([
          () => Buffer.concat([part('document', 'a.txt', 'text/plain', text), end]),
          () => Buffer.concat([part('file', 'a.txt', 'text/plain', text), part('file', 'b.txt', 'text/plain', text), end]),
          () => Buffer.concat([part('file', null, 'text/plain', text), end]),
          () => Buffer.concat([part('file', 'empty.txt', 'text/plain', Buffer.alloc(0)), end]),
          () => Buffer.concat([part('file', 'big.txt', 'text/plain', Buffer.alloc(FILES_MAX + 1, 'a')), end]),
          () => Buffer.concat([part('file', 'cat.png', 'image/png', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)])), end]),
          () => Buffer.concat([...Array.from({ length: 25 }, (_, i) => part(`f${i}`, null, 'text/plain', text)), end]),
          () => end,
        ])();
        return { body, type: `multipart/form-data; boundary=${boundary}` };
      }
      if (mode === 'hostile') {
        const filename = random.pick(HOSTILE_STRINGS).replace(/"/g, '');
        return {
          body: Buffer.concat([
            part(
              'file',
              filename,
              random.pick(['text/plain', 'image/svg+xml', 'text/html', '\u0000', 'x'.repeat(300)]),
              random.pick([text, Buffer.from('<svg onload=alert(1)>'), Buffer.from([0, 0xff, 0xfe])]),
            ),
            end,
          ]),
          type: `multipart/form-data; boundary=${boundary}`,
        };
      }
      return random.pick([
        () => ({ body: Buffer.concat([part('file', 'a.txt', 'text/plain', text)]), type: `multipart/form-data; boundary=${boundary}` }), // no closing boundary
        () => ({
          body: Buffer.concat([part('file', 'a.txt', 'text/plain', text), end]).subarray(0, 60),
          type: `multipart/form-data; boundary=${boundary}`,
        }), // cut mid-part
        () => ({ body: Buffer.concat([part('file', 'a.txt', 'text/plain', text), end]), type: 'multipart/form-data' }), // no boundary
        () => ({ body: Buffer.concat([part('file', 'a.txt', 'text/plain', text), end]), type: 'multipart/form-data; boundary=other' }),
        () => ({ body: Buffer.from('not multipart at all'), type: `multipart/form-data; boundary=${boundary}` }),
      ])();
    };

    /** A body for a JSON operation (or any operation, in the transport mode). */
    const bodyOf = (mode: Mode, operation: Operation): { body?: Buffer; type?: string } => {
      if (operation.body?.contentType.startsWith('multipart/')) return multipart(mode);
      const schema = operation.body?.schema;
      if (mode === 'transport') {
        const json = JSON.stringify(schema ? values.valid(schema) : {});
        return random.pick([
          () => ({ body: Buffer.from(json.slice(0, Math.max(1, json.length - 1))), type: 'application/json' }),
          () => ({
            body: Buffer.from(random.pick(['{', '{"a":', 'nul', '\u0000', '{"a":1}}', '\ufeff{}', "{'a':1}", '[1,]', '"\\ud800"'])),
            type: 'application/json',
          }),
          () => ({
            body: Buffer.from(json),
            type: random.pick([
              'text/plain',
              'application/xml',
              'application/x-www-form-urlencoded',
              'application/json; charset=utf-16',
              'application/octet-stream',
              'image/png',
            ]),
          }),
          () => ({ body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), type: 'application/json' }),
          () => ({ body: Buffer.alloc(BODY_LIMIT + 1024, 'a'), type: 'application/json' }),
          () => ({ body: Buffer.alloc(0), type: 'application/json' }),
          () => ({ body: Buffer.from(`${'['.repeat(20_000)}${']'.repeat(20_000)}`), type: 'application/json' }),
          () => ({ body: Buffer.from(JSON.stringify({ a: Array.from({ length: 5_000 }, (_, i) => i) })), type: 'application/json' }),
          () => ({ body: Buffer.from('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'), type: 'application/json' }),
          () => multipart('valid'),
          () => ({ body: Buffer.from(json) }),
        ])();
      }
      if (!schema) return random.chance(0.15) ? { body: Buffer.from('{"unexpected":true}'), type: 'application/json' } : {};
      const value = mode === 'valid' ? values.valid(schema) : mode === 'violating' ? values.violating(schema) : values.hostile(schema);
      return { body: Buffer.from(JSON.stringify(value) ?? 'null'), type: 'application/json' };
    };

    const build = (index: number): FuzzRequest => {
      const operation = operations[index % operations.length];
      const round = Math.floor(index / operations.length);
      const mode = MODES[round % MODES.length];
      const auth = round < MODES.length * 2 ? (round < MODES.length ? 'owner' : 'none') : random.pick(AUTHS);
      let path = operation.path;
      for (const param of operation.pathParams)
        path = path.replace(`{${param.name}}`, pathSegment(random, paramValue(mode, operation, param.name, param.schema)));
      const { body, type } = bodyOf(mode, operation);
      const headers = authHeaders(operation, auth);
      if (type) headers['content-type'] = type;
      if (body) headers['content-length'] = String(body.length);
      const method =
        mode === 'transport' && random.chance(0.1)
          ? random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => m !== operation.method))
          : operation.method;
      return { method, target: `${path}${queryOf(mode, operation)}`, headers, body, label: `${operation.id} [${mode}, ${auth}]` };
    };

    const failures: string[] = [];
    const check = (fuzz: FuzzRequest, res: Awaited<ReturnType<typeof send>>) => {
      const problems = problemsWith(fuzz, res);
      if (!problems.length) return;
      const requestId = String(res.headers['x-request-id'] ?? '');
      const logged = errors.filter((line) => requestId && line.includes(requestId)).map((line) => line.slice(0, 600));
      failures.push(
        [
          `${fuzz.label}: ${problems.join('; ')}`,
          `  ${fuzz.method} ${fuzz.target.slice(0, 300)}`,
          `  body: ${fuzz.body?.toString('utf8').slice(0, 300) ?? '(none)'}`,
          `  answer: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`,
          ...logged.map((l) => `  log: ${l}`),
        ].join('\n'),
      );
    };

    // Requests no HTTP client would send, written to the socket as they are.
    const rawCases = [
      `GET /api/v1/chats HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GARBAGE\r\n\r\n',
      'GET /api/v1/chats/a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST /api/v1/chats HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /api/v1/chats HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'GET /api/v1/../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET http://evil.example/api/v1/chats HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      `GET /api/v1/chats/${'%'.repeat(10)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `POST /api/v1/files/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fixtures.owner.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 90\r\nConnection: close\r\n\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello wo`,
    ];
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const payload of rawCases) {
      const res = await rawRequest(url, payload);
      sent++;
      check(
        { method: 'RAW', target: payload.split('\r\n')[0].slice(0, 200), headers: {}, label: 'raw request' },
        { status: res.status, headers: res.headers, body: Buffer.from(res.body) },
      );
    }

    // Cases are made in their order whatever the concurrency (FUZZ_CONCURRENCY, default 1), so a seed always means the same requests.
    const cases = (function* () {
      for (let index = 0; index < CASES; index++) yield build(index);
    })();
    const worker = async () => {
      for (let next = cases.next(); !next.done; next = cases.next()) {
        const fuzz = next.value;
        if (fuzz.headers.authorization === `Bearer ${THROWAWAY}`) {
          const token = await throwaway();
          if (token) fuzz.headers.authorization = `Bearer ${token}`;
          else delete fuzz.headers.authorization;
        }
        let res: Awaited<ReturnType<typeof send>>;
        try {
          res = await send(url, fuzz);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === 'ERR_INVALID_CHAR' || code === 'ERR_UNESCAPED_CHARACTERS' || code === 'ERR_INVALID_HTTP_TOKEN') continue; // Node refused to send it
          failures.push(`${fuzz.label}: no answer (${String(error)})\n  ${fuzz.method} ${fuzz.target.slice(0, 300)}`);
          continue;
        }
        sent++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        check(fuzz, res);
        // A conversation the fuzzer deleted is made again, so valid ids keep reaching real rows.
        if (
          fuzz.method === 'DELETE' &&
          res.status < 300 &&
          fuzz.target.startsWith(`/api/v1/chats/${fixtures.chatId}`) &&
          !fuzz.target.includes('/share')
        ) {
          fixtures = { ...fixtures, ...(await conversationOf(fixtures.owner)) };
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `fuzz over ${transport}: ${sent} requests (${CASES} generated over ${operations.length} operations, ${rawCases.length} raw, ${disposable} throwaway guests) in ${seconds} s (concurrency ${CONCURRENCY}), seed ${SEED}; statuses ${[
        ...statuses,
      ]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ')}; ${failures.length} failures\n`,
    );
    // Server errors first: they are what matters most.
    expect([...failures.filter((f) => f.includes('status 5')), ...failures.filter((f) => !f.includes('status 5'))].slice(0, 25)).toEqual(
      [],
    );
  });

  it('makes the same cases from the same seed', () => {
    const a = new Random(SEED);
    const b = new Random(SEED);
    const values = (random: Random) =>
      Array.from({ length: 50 }, () => [random.uuid(), random.text(1, 20), random.pick(HOSTILE_STRINGS)].join('|'));
    expect(values(a)).toEqual(values(b));
    expect(values(new Random(SEED + 1))).not.toEqual(values(new Random(SEED)));
  });
});
