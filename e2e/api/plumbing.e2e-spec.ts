import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { HTTP_ROUTES } from '@app/contracts/gateway';
import { createTestEnvironment, ProbeGatewayModule, probeService, TRANSPORTS, type TestEnvironment } from '@app/testing';
import request from 'supertest';

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
      { ...environment.env, GIT_COMMIT: 'abc123def', BODY_LIMIT_BYTES: '2048', WEB_DIST_DIR: '/nonexistent' },
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
      await api.get('/api/docs').expect(200).expect('content-type', /text\/html/);
      await api.get('/api/docs/assets/swagger-ui-bundle.js').expect(200);
      await api.get('/api/docs/assets/..%2Fpackage.json').expect(404);
    });

    it('serves exactly the routes the contracts declare (beside the docs and the probe)', () => {
      const served = stack.gateway.routes
        .filter((r) => !r.includes('/api/docs') && !r.includes('/api/v1/probe'))
        .sort();
      const declared = HTTP_ROUTES.map((r) => `${r.method} ${r.path}`).sort();
      expect(served).toEqual(declared);
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
      const res = await api.post('/api/v1/probe/echo').send({ text: 'x'.repeat(5000) }).expect(413);
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

    it('a domain error keeps its status and its text', async () => {
      await api.post('/api/v1/probe/fail').send({ kind: 'domain', status: 409, detail: 'Already there' }).expect(409, { detail: 'Already there' });
      await api.post('/api/v1/probe/fail').send({ kind: 'domain', status: 404, detail: 'No such thing' }).expect(404, { detail: 'No such thing' });
      await api.post('/api/v1/probe/fail').send({ kind: 'domain', status: 403, detail: 'Not yours' }).expect(403, { detail: 'Not yours' });
    });

    it('an unexpected error is a 500 with the request id and nothing internal', async () => {
      const res = await api.post('/api/v1/probe/fail').set('X-Request-Id', 'boom-1').send({ kind: 'unexpected' }).expect(500);
      expect(res.body).toEqual({ detail: 'Internal error (request boom-1)' });
      expect(JSON.stringify(res.body)).not.toContain('secret');
      // ...while the log keeps the whole story, under the same request id.
      const logged = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.request_id === 'boom-1' && l.level === 'error');
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
      await api.post('/api/v1/probe/events').send({ note: 'flaky', event_id: `${id}-flaky`, fail_times: 2 }).expect(202);
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
