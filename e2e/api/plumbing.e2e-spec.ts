import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { HTTP_ROUTES } from '@app/contracts/gateway';
import { createTestEnvironment, ProbeGatewayModule, probeService, TRANSPORTS, type TestEnvironment } from '@app/testing';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { UNSAFE_KEY_MESSAGE, UNSAFE_TEXT_MESSAGE } from '@app/contracts';
import { ApiClient } from '../support/api-client';
import { rawRequest } from '../support/raw-http';

/**
 * The plumbing under every capability, through the real gateway over HTTP, on both transports:
 * the same suite must pass on the in-process bus and on NATS (with Redis).
 */
describe.each(TRANSPORTS)('gateway and services over the %s transport', (transport) => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;
  let api: ReturnType<typeof request>;
  const logLines: string[] = [];

  beforeAll(async () => {
    environment = await createTestEnvironment('plumbing', transport);
    stack = await bootEmbedded(
      {
        ...environment.env,
        GIT_COMMIT: 'abc123def',
        BODY_LIMIT_BYTES: '2048',
        WEB_DIST_DIR: '/nonexistent',
        // Every route is walked with hostile parameters from one address: the texting routes' share
        // of the limit (a 120th) would answer 429 before the parameters are looked at.
        RATE_LIMIT_PER_MINUTE: '120000',
      },
      { extraServices: [probeService], extraGatewayModules: [ProbeGatewayModule], sink: (line) => logLines.push(line) },
    );
    api = request(stack.url);
  });

  afterAll(async () => {
    await stack?.close();
    await environment?.cleanup();
  });

  describe('operations', () => {
    it('is alive and ready, with every service and dependency checked', async () => {
      await api.get('/healthz').expect(200, { status: 'ok' });
      const ready = await api.get('/readyz').expect(200);
      expect(ready.body.status).toBe('ready');
      for (const name of ['bus', 'cache', 'auth', 'chat', 'memory', 'files', 'insider-config', 'tts', 'sms']) {
        expect(ready.body.checks[name]).toMatchObject({ status: 'up' });
      }
    });

    it('reports the commit without letting anything cache it', async () => {
      const res = await api.get('/api/v1/version/commit').expect(200);
      expect(res.body).toEqual({ commit: 'abc123def' });
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.headers['cache-control']).toContain('no-cache');
      expect(res.headers.pragma).toBe('no-cache');
    });

    it('serves the OpenAPI description generated from the contracts', async () => {
      const res = await api.get('/api/docs/openapi.json').expect(200);
      expect(res.body.openapi).toBe('3.1.0');
      expect(res.body.paths['/api/v1/version/commit'].get.responses['200'].content['application/json'].schema).toMatchObject({
        type: 'object',
        properties: { commit: { type: 'string' } },
      });
      await api
        .get('/api/docs')
        .expect(200)
        .expect('content-type', /text\/html/);
      await api.get('/api/docs/assets/swagger-ui-bundle.js').expect(200);
      await api.get('/api/docs/assets/..%2Fpackage.json').expect(404);
    });
  });

  describe('headers', () => {
    it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
      const echoed = await api.get('/api/v1/probe/echo?text=hi').set('X-Request-Id', 'req-42.abc').expect(200);
      expect(echoed.headers['x-request-id']).toBe('req-42.abc');
      // The service sees the same request id.
      expect(echoed.body).toEqual({ text: 'hi', request_id: 'req-42.abc', user_id: null });
      const replaced = await api.get('/healthz').set('X-Request-Id', 'bad id with spaces <script>').expect(200);
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const generated = await api.get('/healthz').expect(200);
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('echoes X-User-Session-Id', async () => {
      const res = await api.get('/api/v1/version/commit').set('X-User-Session-Id', 'session-1').expect(200);
      expect(res.headers['x-user-session-id']).toBe('session-1');
    });

    it('lets nothing store personal answers (Cache-Control: no-store), and leaves a route its own caching', async () => {
      const user = new ApiClient(stack.url);
      await user.guest();
      const chat = (await user.post('/api/v1/chats', { conversation_title: 'cache' }).expect(201)).body;
      for (const path of [
        '/api/v1/auth/me',
        '/api/v1/auth/session-id',
        '/api/v1/chats',
        `/api/v1/chats/${chat.chat_id}`,
        '/api/v1/messages/all_user_messages',
        '/api/v1/user_memory',
        '/api/v1/user_config/ai-voice',
        '/api/v1/user_config/insider-mode',
        '/api/v1/nowhere',
      ]) {
        const res = await user.get(path);
        expect({ path, status: res.status < 500, cache: res.headers['cache-control'] }).toEqual({ path, status: true, cache: 'no-store' });
      }
      const created = await user.post('/api/v1/chats', {}).expect(201);
      expect(created.headers['cache-control']).toBe('no-store');
      expect((await api.post('/api/v1/auth/anon').expect(200)).headers['cache-control']).toBe('no-store');
      // Routes that say how they may be cached keep it; pages and assets outside /api/v1 are not touched.
      expect((await api.get('/api/v1/version/commit').expect(200)).headers['cache-control']).toContain('no-cache');
      expect((await api.get('/api/docs/assets/swagger-ui.css').expect(200)).headers['cache-control']).toBe('public, max-age=86400');
    });

    it('sends security headers on answers and on errors', async () => {
      for (const res of [await api.get('/api/v1/version/commit'), await api.get('/api/v1/nowhere')]) {
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(res.headers['x-request-id']).toBeDefined();
      }
    });
  });

  describe('errors are {detail} with the right status, never a stack trace', () => {
    it('unknown API route: 404', async () => {
      const res = await api.get('/api/v1/nowhere').expect(404);
      expect(res.body).toEqual({ detail: 'Not Found' });
      await api.delete('/api/v1/version/commit').expect(404, { detail: 'Not Found' });
    });

    it('malformed JSON: 400', async () => {
      const res = await api.post('/api/v1/probe/echo').set('content-type', 'application/json').send('{"text": ').expect(400);
      expect(res.body).toEqual({ detail: 'Malformed JSON body' });
    });

    it('a body over the limit: 413', async () => {
      const res = await api
        .post('/api/v1/probe/echo')
        .send({ text: 'x'.repeat(5000) })
        .expect(413);
      expect(res.body).toEqual({ detail: 'Request body too large' });
    });

    it('an unsupported content type: 415', async () => {
      const res = await api.post('/api/v1/probe/echo').set('content-type', 'application/xml').send('<a/>').expect(415);
      expect(res.body).toEqual({ detail: 'Unsupported content type' });
    });

    it('a body that breaks the schema: 422 naming the field', async () => {
      const res = await api.post('/api/v1/probe/echo').send({ text: '' }).expect(422);
      expect(res.body.detail).toMatch(/^text: /);
      const extra = await api.post('/api/v1/probe/echo').send({ text: 'a', admin: true }).expect(422);
      expect(extra.body.detail).toMatch(/admin/);
    });

    it('the service validates what it receives too: 400', async () => {
      const res = await api.post('/api/v1/probe/echo-unchecked').send({ text: 12 }).expect(400);
      expect(res.body.detail).toMatch(/^text: /);
    });

    it('the service refuses NUL and unpaired surrogates itself, in values and keys: 422 naming the field', async () => {
      await api
        .post('/api/v1/probe/echo-unchecked')
        .send({ text: 'a\u0000b' })
        .expect(422, { detail: `text: ${UNSAFE_TEXT_MESSAGE}` });
      await api
        .post('/api/v1/probe/echo-unchecked')
        .send({ text: 'a\ud800' })
        .expect(422, { detail: `text: ${UNSAFE_TEXT_MESSAGE}` });
      await api
        .post('/api/v1/probe/echo-unchecked')
        .send({ text: 'a', ['k\udc00']: 1 })
        .expect(422, { detail: UNSAFE_KEY_MESSAGE });
      // And through the gateway's own validation, before any service.
      await api
        .post('/api/v1/probe/echo')
        .send({ text: 'x\u0000' })
        .expect(422, { detail: `text: ${UNSAFE_TEXT_MESSAGE}` });
    });

    it('a domain error keeps its status and its text', async () => {
      await api
        .post('/api/v1/probe/fail')
        .send({ kind: 'domain', status: 409, detail: 'Already there' })
        .expect(409, { detail: 'Already there' });
      await api
        .post('/api/v1/probe/fail')
        .send({ kind: 'domain', status: 404, detail: 'No such thing' })
        .expect(404, { detail: 'No such thing' });
      await api.post('/api/v1/probe/fail').send({ kind: 'domain', status: 403, detail: 'Not yours' }).expect(403, { detail: 'Not yours' });
    });

    it('an unexpected error is a 500 with the request id and nothing internal', async () => {
      const res = await api.post('/api/v1/probe/fail').set('X-Request-Id', 'boom-1').send({ kind: 'unexpected' }).expect(500);
      expect(res.body).toEqual({ detail: 'Internal error (request boom-1)' });
      expect(JSON.stringify(res.body)).not.toContain('secret');
      // ...while the log keeps the whole story, under the same request id.
      const logged = logLines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.request_id === 'boom-1' && l.level === 'error');
      expect(logged).toMatchObject({ service: 'probe', msg: 'secret internal detail that must not leak' });
      expect(String(logged?.stack)).toContain('ProbeLogic.fail');
    });

    it('a service that does not answer in time: 504', async () => {
      const res = await api.get('/api/v1/probe/slow?ms=1500&timeout=200').expect(504);
      expect(res.body.detail).toBe('The probe service did not answer in time (200 ms)');
    });

    it('nobody serving the subject: 503', async () => {
      const res = await api.get('/api/v1/probe/nobody').expect(503);
      expect(res.body).toEqual({ detail: 'The nobody service is unavailable, please try again shortly' });
    });
  });

  describe("Fastify's and Node's own refusals go through the same mapping", () => {
    const expectProductHeaders = (headers: Record<string, string | string[] | undefined>) => {
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['x-request-id']).toMatch(/^[\w.:-]+$/);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['content-type']).toBe('application/json; charset=utf-8');
    };

    it('a malformed URL: 400 {detail} that does not echo it', async () => {
      const res = await api.get('/api/v1/chats/%E0%A4%A').set('X-Request-Id', 'bad-url-1').expect(400);
      expect(res.body).toEqual({ detail: 'Malformed URL' });
      expectProductHeaders(res.headers);
      expect(res.headers['x-request-id']).toBe('bad-url-1');
      expect(res.text).not.toContain('%E0');
    });

    it('a path parameter over the router limit: 414 {detail}', async () => {
      const res = await api.get(`/api/v1/chats/${'a'.repeat(300)}`).expect(414);
      expect(res.body).toEqual({ detail: 'A part of the address is too long' });
      expectProductHeaders(res.headers);
      expect(res.text).not.toContain('aaaa');
    });

    it('headers over 16 KB: 431 {detail}, written before Fastify sees the request', async () => {
      const res = await rawRequest(stack.url, `GET /api/v1/chats HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body)).toEqual({ detail: 'The request headers are too large' });
      expectProductHeaders(res.headers);
    });

    it('not HTTP at all, or a NUL in the request line: 400 {detail}', async () => {
      for (const payload of ['GARBAGE\r\n\r\n', 'GET /api/v1/chats/a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n']) {
        const res = await rawRequest(stack.url, payload);
        expect(res.status).toBe(400);
        expect(JSON.parse(res.body)).toEqual({ detail: 'Malformed request' });
        expectProductHeaders(res.headers);
      }
    });
  });

  describe('hostile text and malformed ids never reach the database', () => {
    const guest = () => {
      const client = new ApiClient(stack.url);
      return client.guest().then(() => client);
    };

    it('refuses NUL and unpaired surrogates in bodies and queries with 422 naming the field', async () => {
      const user = await guest();
      const unsafe = (field: string) => ({ detail: `${field}: ${UNSAFE_TEXT_MESSAGE}` });
      const id = randomUUID();
      await user.post('/api/v1/chats', { conversation_title: 'a\u0000b' }).expect(422, unsafe('conversation_title'));
      await user.post('/api/v1/chats', { conversation_title: 'a\ud800b' }).expect(422, unsafe('conversation_title'));
      const chat = (await user.post('/api/v1/chats', { conversation_title: 'fine \ud83d\ude00 \u202Etxt' }).expect(201)).body;
      expect(chat.conversation_title).toBe('fine \ud83d\ude00 \u202Etxt');
      await user
        .auth(user.http.patch(`/api/v1/chats/${chat.chat_id}`))
        .send({ conversation_title: '\udfff' })
        .expect(422, unsafe('conversation_title'));
      await user.post(`/api/v1/chats/${chat.chat_id}/messages`, { content: 'hello\u0000' }).expect(422, unsafe('content'));
      await user
        .post(`/api/v1/chats/${chat.chat_id}/messages`, {
          content: 'hi',
          files: [{ object_store_object_id: 'x', mime_type: 'image/png\u0000' }],
        })
        .expect(422, unsafe('files.0.mime_type'));
      await user
        .auth(user.http.put(`/api/v1/messages/${id}/feedback`))
        .send({ feedback: 'dislike', verbose_feedback: 'bad\u0000' })
        .expect(422, unsafe('verbose_feedback'));
      await user
        .auth(user.http.put(`/api/v1/user_memory/${id}`))
        .send({ text: 'I live in \ud800' })
        .expect(422, unsafe('text'));
      await user.post('/api/v1/onboarding/profile', { name: 'Ann\u0000' }).expect(422, unsafe('name'));
      await user.post('/api/v1/user_config/ai-voice', { openai_model: 'x\u0000' }).expect(422, unsafe('openai_model'));
      await user.get('/api/v1/messages/all_user_messages?chat_ids=%00').expect(422, unsafe('chat_ids'));
      await user.get('/api/v1/user_memory?source_chat_id=a%00').expect(422, unsafe('source_chat_id'));
      await user.get(`/api/v1/files/presigned/${id}?share_id=%00`).expect(422, unsafe('share_id'));
      await api.get('/readyz?scope=%00').expect(422, unsafe('scope'));
      // invite_link_id, in a sign-in body (past the CSRF check) and in the texted link.
      await user.fetchCsrf();
      await user
        .withCsrf(user.http.post('/api/v1/auth/login/phone_number'))
        .send({ phone_number: '+14155550100', invite_link_id: 'a\u0000' })
        .expect(422, unsafe('invite_link_id'));
      const callback = await api.get('/api/v1/auth/callback/phone_number?phone_number=%2B14155550100&code=123456&invite_link_id=a%00');
      expect(callback.status).toBeLessThan(500);
      // Public path parameters (no token needed): the reproductions.
      await api.get('/api/v1/shared/%00').expect(422, unsafe('share_id'));
      await api.get('/api/v1/campaigns/a%00b').expect(422, unsafe('campaign_name'));
    });

    it('every path parameter of every route refuses NUL, and ids that are not ids are 404 or 422, never 500', async () => {
      const user = await guest();
      const declared = HTTP_ROUTES.filter((route) => route.path.includes(':'));
      expect(declared.length).toBeGreaterThan(10);
      const hostile = [
        '%00',
        'a%00b',
        'not-a-uuid',
        '..%2F..%2Fetc%2Fpasswd',
        `${randomUUID()}x`,
        '%F0%9F%98%80',
        '%E2%80%AEabc',
        "1'%20OR%20'1'%3D'1",
        'x'.repeat(190),
      ];
      const answers: string[] = [];
      for (const route of declared) {
        const name = /:([A-Za-z_]+)/.exec(route.path)![1];
        for (const value of hostile) {
          const path = route.path.replace(/:[A-Za-z_]+/g, value);
          const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
          const res = await user.auth(user.http[method](path)).send(method === 'get' || method === 'delete' ? undefined : {});
          answers.push(`${route.method} ${path} ${res.status} ${typeof res.body?.detail === 'string' ? 'detail' : res.text}`);
          expect(typeof res.body.detail).toBe('string');
          if (value.includes('%00')) expect(res.body.detail).toBe(`${name}: ${UNSAFE_TEXT_MESSAGE}`);
        }
      }
      // Refused as malformed (422) or simply not found (404): nothing else, and never a 5xx.
      expect(answers.filter((line) => !/ (404|422) detail$/.test(line))).toEqual([]);
    });
  });

  describe('transport', () => {
    it('round-trips an RPC', async () => {
      const res = await api.post('/api/v1/probe/echo').send({ text: 'héllo ✓' }).expect(200);
      expect(res.body.text).toBe('héllo ✓');
    });

    it('streams chunks in order, and carries a failure mid-stream', async () => {
      const res = await api.get('/api/v1/probe/stream?count=50').expect(200);
      expect(res.body.chunks).toEqual(Array.from({ length: 50 }, (_, i) => i));
      await api.get('/api/v1/probe/stream?count=0').expect(200, { chunks: [] });
      await api.get('/api/v1/probe/stream?count=5&fail_at=3').expect(409, { detail: 'failed at 3' });
    });

    it('delivers an event to its durable consumer, once, even when published twice or after failures', async () => {
      const id = `evt-${transport}-1`;
      await api.post('/api/v1/probe/events').send({ note: 'first', event_id: id }).expect(202);
      await api.post('/api/v1/probe/events').send({ note: 'first', event_id: id }).expect(202);
      await api
        .post('/api/v1/probe/events')
        .send({ note: 'flaky', event_id: `${id}-flaky`, fail_times: 2 })
        .expect(202);
      const deadline = Date.now() + 15_000;
      let body: { notes: { note: string; event_id: string }[]; attempts: Record<string, number> } = { notes: [], attempts: {} };
      while (Date.now() < deadline) {
        body = (await api.get('/api/v1/probe/events').expect(200)).body;
        if (body.notes.length >= 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(body.notes).toEqual([
        { note: 'first', event_id: id },
        { note: 'flaky', event_id: `${id}-flaky` },
      ]);
      expect(body.attempts[id]).toBe(1);
      expect(body.attempts[`${id}-flaky`]).toBe(3);
    });
  });

  describe('web', () => {
    it('answers a page navigation with the web client (a placeholder until it is built)', async () => {
      const res = await api.get('/chat/some-id').set('accept', 'text/html').expect(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.text).toContain('Assistant');
    });
  });

  describe('readiness follows the services', () => {
    it('is 503 naming the service that stopped', async () => {
      const tts = stack.services.find((s) => s.name === 'tts')!;
      await tts.close();
      stack.services.splice(stack.services.indexOf(tts), 1);
      const res = await api.get('/readyz').expect(503);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks.tts.status).toBe('down');
      expect(res.body.checks.auth.status).toBe('up');
      // The gateway itself can still serve: what an orchestrator's probe asks.
      const own = await api.get('/readyz?scope=gateway').expect(200);
      expect(Object.keys(own.body.checks).sort()).toEqual(['bus', 'cache']);
      await api.get('/readyz?scope=everything').expect(422);
    });
  });
});
