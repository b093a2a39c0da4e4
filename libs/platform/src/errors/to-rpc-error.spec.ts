import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { z } from 'zod';
import { DomainError, retryAfterOf, RpcCallError } from './domain-error';
import { toRpcError } from './to-rpc-error';

describe('toRpcError', () => {
  it('keeps a domain error as it is', () => {
    expect(toRpcError(DomainError.notFound('No such chat'), 'r')).toEqual({
      shape: { status: 404, detail: 'No such chat', code: 'not_found' },
      unexpected: false,
    });
    expect(toRpcError(new DomainError('bad_request', 'Too young', 403), 'r').shape.status).toBe(403);
  });

  it('passes on the error of a downstream call', () => {
    const shape = { status: 504, detail: 'late', code: 'timeout' as const };
    expect(toRpcError(new RpcCallError(shape, 'a.b.c'), 'r').shape).toEqual(shape);
  });

  it('turns a validation failure into a 400 naming the field', () => {
    const failure = z.object({ text: z.string() }).safeParse({ text: 1 });
    expect(toRpcError(failure.error, 'r').shape).toMatchObject({
      status: 400,
      code: 'bad_request',
      detail: expect.stringMatching(/^text: /),
    });
  });

  it('answers 503 (busy, try again) when the database pool has no connection to give', () => {
    const result = toRpcError(new Error('timeout exceeded when trying to connect'), 'r');
    expect(result).toEqual({
      shape: { status: 503, detail: 'The service is busy. Try again in a moment.', code: 'unavailable' },
      unexpected: true,
    });
  });

  it('answers 503 (try again shortly) when the database is unreachable or restarting', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('database "app" is not currently accepting connections'), { code: '55000' }),
      new QueryRunnerAlreadyReleasedError(),
    ]) {
      expect(toRpcError(error, 'r')).toEqual({
        shape: { status: 503, detail: 'The service is temporarily unavailable; please try again shortly', code: 'unavailable' },
        unexpected: true,
      });
    }
  });

  it('hides anything else behind a 500 with the request id', () => {
    const result = toRpcError(new TypeError('cannot read x of undefined at /srv/secret.ts'), 'req-9');
    expect(result).toEqual({ shape: { status: 500, detail: 'Internal error (request req-9)', code: 'internal' }, unexpected: true });
  });
});

describe('retryAfterOf: every 503, 504 and 429 says when to try again', () => {
  it("keeps the error's own hint, also across the bus (retry_after in the RPC error shape)", () => {
    const limited = new DomainError('rate_limited', 'Too many', 429, { retryAfterSeconds: 42 });
    expect(limited.toShape()).toMatchObject({ retry_after: 42 });
    expect(retryAfterOf(new RpcCallError(limited.toShape(), 'chat.message.send'), 429)).toBe(42);
  });

  it('gives a default to a 503, a 504 and a 429 without one, and nothing to other statuses', () => {
    const bare = (status: number) => new RpcCallError({ status, detail: 'x' }, 'memory.search');
    expect(retryAfterOf(bare(503), 503)).toBeGreaterThan(0);
    expect(retryAfterOf(bare(504), 504)).toBeGreaterThan(0);
    expect(retryAfterOf(bare(429), 429)).toBeGreaterThan(0);
    expect(retryAfterOf(bare(404), 404)).toBeUndefined();
    expect(retryAfterOf(bare(500), 500)).toBeUndefined();
  });
});
