import { BadRequestException, ForbiddenException, HttpException, InternalServerErrorException, NotFoundException } from '@nestjs/common';
import { DomainError, RpcCallError, type AppLogger } from '@app/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { PassThrough } from 'node:stream';
import { answerClientError, frameworkErrorHandler, sendFailure, toHttpFailure } from './http-errors';
import { readRequestState } from './request-context';

describe('toHttpFailure: every branch', () => {
  it('a domain error keeps its status and words', () => {
    expect(toHttpFailure(DomainError.conflict('Already there.'), 'r')).toEqual({
      status: 409,
      detail: 'Already there.',
      unexpected: false,
    });
    expect(toHttpFailure(new DomainError('unavailable', 'Back soon.', 503), 'r')).toEqual({
      status: 503,
      detail: 'Back soon.',
      unexpected: false,
    });
  });

  it('a service error keeps its status even when 5xx (the service logged it)', () => {
    expect(
      toHttpFailure(new RpcCallError({ status: 504, detail: 'The chat service did not answer in time', code: 'timeout' }, 'chat.x'), 'r'),
    ).toEqual({
      status: 504,
      detail: 'The chat service did not answer in time',
      unexpected: false,
    });
  });

  it('a Nest exception: its string answer, its {detail}, else the words for its status, else its message', () => {
    expect(toHttpFailure(new HttpException('Gone fishing', 410), 'r')).toEqual({ status: 410, detail: 'Gone fishing', unexpected: false });
    expect(toHttpFailure(new HttpException({ detail: 'Pick one' }, 400), 'r')).toEqual({
      status: 400,
      detail: 'Pick one',
      unexpected: false,
    });
    expect(toHttpFailure(new ForbiddenException(), 'r')).toEqual({ status: 403, detail: 'Forbidden', unexpected: false });
    expect(toHttpFailure(new BadRequestException(), 'r')).toEqual({ status: 400, detail: 'Malformed request', unexpected: false });
    expect(toHttpFailure(new HttpException({ message: 'x' }, 429), 'r').detail).toBe('Too many requests, please slow down');
  });

  it('a Nest 5xx is unexpected (logged), still with its own words', () => {
    expect(toHttpFailure(new InternalServerErrorException(), 'r')).toMatchObject({ status: 500, unexpected: true });
  });

  it("a Fastify failure wrapped by Nest is worded by Fastify's code", () => {
    const wrapped = new HttpException('Request body is too large', 413, { cause: { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' } });
    expect(toHttpFailure(wrapped, 'r')).toEqual({ status: 413, detail: 'Request body too large', unexpected: false });
  });

  it('a JSON syntax error is a malformed body; other 4xx get the words for their status, or "Bad request"', () => {
    expect(toHttpFailure(Object.assign(new SyntaxError('Unexpected token } in JSON at position 9'), { statusCode: 400 }), 'r').detail).toBe(
      'Malformed JSON body',
    );
    expect(toHttpFailure({ statusCode: 415 }, 'r').detail).toBe('Unsupported content type');
    expect(toHttpFailure({ statusCode: 408 }, 'r').detail).toBe('The request took too long to arrive');
    expect(toHttpFailure({ statusCode: 418 }, 'r')).toEqual({ status: 418, detail: 'Bad request', unexpected: false });
  });

  it('anything else (a 5xx status code, a status out of range, a string, null) is a 500 naming only the request id', () => {
    for (const error of [{ statusCode: 502 }, { statusCode: 302 }, { statusCode: '400' }, 'boom', null, undefined]) {
      expect(toHttpFailure(error, 'req-9')).toEqual({ status: 500, detail: 'Internal error (request req-9)', unexpected: true });
    }
  });
});

describe('sendFailure: the answer on the wire', () => {
  let app: FastifyInstance;
  const logged: unknown[] = [];
  const logger = { error: (...args: unknown[]) => void logged.push(args) } as unknown as AppLogger;
  let failWith: unknown;

  beforeAll(async () => {
    app = Fastify({ maxParamLength: 20, frameworkErrors: frameworkErrorHandler(logger, false) });
    app.addHook('onRequest', async (request) => {
      request.state = readRequestState(request);
    });
    app.get('/fail/:id', (request, reply) => {
      if (failWith instanceof DomainError && failWith.detail === 'has retry-after') reply.header('retry-after', '99');
      sendFailure(request, reply, failWith, logger);
    });
    await app.ready();
  });
  afterAll(() => app.close());
  beforeEach(() => (logged.length = 0));

  const fail = async (error: unknown, headers: Record<string, string> = {}) => {
    failWith = error;
    return app.inject({ method: 'GET', url: '/fail/1', headers });
  };

  it('is {detail} JSON, not cached, with the request id echoed and the security headers', async () => {
    const response = await fail(DomainError.notFound('No such chat.'), { 'x-request-id': 'req-42' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No such chat.' });
    expect(response.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-request-id': 'req-42',
      'x-content-type-options': 'nosniff',
    });
    expect(response.headers['retry-after']).toBeUndefined();
    expect(logged).toEqual([]);
  });

  it('a 503 says when to come back: the error’s own hint, else a default, never over one already set', async () => {
    expect((await fail(new DomainError('unavailable', 'Later.', 503, { retryAfterSeconds: 7 }))).headers['retry-after']).toBe('7');
    expect(Number((await fail(new DomainError('unavailable', 'Later.', 503))).headers['retry-after'])).toBeGreaterThan(0);
    expect((await fail(new DomainError('unavailable', 'has retry-after', 503))).headers['retry-after']).toBe('99');
  });

  it('an unexpected error is logged and answered without any of its words', async () => {
    const response = await fail(new Error('password=hunter2'), { 'x-request-id': 'req-7' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Internal error (request req-7)' });
    expect(response.body).not.toContain('hunter2');
    expect(logged).toHaveLength(1);
  });

  it("the router's own refusals get the same answer and a request id", async () => {
    const long = await app.inject({ method: 'GET', url: `/fail/${'a'.repeat(30)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ detail: 'A part of the address is too long' });
    expect(long.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await app.inject({ method: 'GET', url: '/fail/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: 'Malformed URL' });
    expect(bad.body).not.toContain('%E0');
  });
});

describe('answerClientError: a refusal of the HTTP parser', () => {
  const socketOf = (fields: Partial<{ destroyed: boolean; writable: boolean; headersSent: boolean }> = {}) => {
    const socket = new PassThrough();
    const written: string[] = [];
    socket.on('data', (chunk: Buffer) => written.push(chunk.toString()));
    if (fields.writable === false) Object.defineProperty(socket, 'writable', { value: false });
    if (fields.headersSent) Object.assign(socket, { _httpMessage: { headersSent: true } });
    if (fields.destroyed) socket.destroy();
    return { socket, written };
  };
  const parserError = (code: string) => Object.assign(new Error(code), { code });

  it('writes the answer, then closes the connection', async () => {
    const { socket, written } = socketOf();
    answerClientError(parserError('HPE_HEADER_OVERFLOW'), socket, "default-src 'self'");
    await new Promise((resolve) => socket.on('close', resolve));
    expect(written.join('')).toMatch(/^HTTP\/1\.1 431 /);
    expect(socket.destroyed).toBe(true);
  });

  it('writes nothing on a reset or already closed connection', () => {
    const reset = socketOf();
    answerClientError(parserError('ECONNRESET'), reset.socket, '');
    expect([reset.written, reset.socket.destroyed]).toEqual([[], false]);
    const closed = socketOf({ destroyed: true });
    answerClientError(parserError('HPE_INVALID_METHOD'), closed.socket, '');
    expect(closed.written).toEqual([]);
  });

  it('only closes a connection whose response has started, or that cannot be written to', () => {
    for (const fields of [{ headersSent: true }, { writable: false }]) {
      const { socket, written } = socketOf(fields);
      answerClientError(parserError('HPE_INVALID_METHOD'), socket, '');
      expect([written, socket.destroyed]).toEqual([[], true]);
    }
  });
});

describe('NotFoundException stays a plain 404', () => {
  it('with the framework words, not its message (which names the URL)', () => {
    expect(toHttpFailure(new NotFoundException('Cannot GET /secret/path'), 'r').detail).toBe('Not Found');
  });
});

const quiet = { error: () => undefined } as unknown as AppLogger;

/**
 * Fastify answers a malformed URL (400) and a too long path parameter (414) before any hook, with a
 * request that does not apply `trustProxy`: behind a proxy that terminates TLS (X-Forwarded-Proto:
 * https), that answer must carry HSTS like every other (issue 22.5).
 */
describe('framework errors behind a TLS-terminating proxy', () => {
  async function app(trustProxy: boolean) {
    const server = Fastify({ trustProxy, maxParamLength: 100, frameworkErrors: frameworkErrorHandler(quiet, trustProxy) });
    server.get('/api/v1/chats/:id', async () => ({ ok: true }));
    await server.ready();
    return server;
  }

  it.each([
    ['a malformed URL', '/api/v1/chats/%E0%A4%A', 400],
    ['a path parameter over the router limit', `/api/v1/chats/${'a'.repeat(300)}`, 414],
  ])('%s: HSTS when the trusted proxy says https', async (_, url, status) => {
    const server = await app(true);
    const res = await server.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.statusCode).toBe(status);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await server.close();
  });

  it('no HSTS over plain http, nor from an X-Forwarded-Proto no proxy is trusted to set', async () => {
    const trusted = await app(true);
    expect((await trusted.inject({ method: 'GET', url: '/api/v1/chats/%E0%A4%A' })).headers['strict-transport-security']).toBeUndefined();
    await trusted.close();
    const untrusted = await app(false);
    const res = await untrusted.inject({ method: 'GET', url: '/api/v1/chats/%E0%A4%A', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    await untrusted.close();
  });
});
