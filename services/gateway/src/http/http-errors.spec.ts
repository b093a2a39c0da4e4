import { NotFoundException } from '@nestjs/common';
import { RpcCallError } from '@app/platform';
import { z } from 'zod';
import { toHttpFailure } from './http-errors';

describe('toHttpFailure', () => {
  it('maps a service error to its status and detail', () => {
    const error = new RpcCallError({ status: 403, detail: 'Not yours', code: 'forbidden' }, 'chat.x.y');
    expect(toHttpFailure(error, 'r')).toEqual({ status: 403, detail: 'Not yours', unexpected: false });
  });

  it('maps a body that breaks its schema to 422', () => {
    const failure = z.object({ content: z.string().min(1) }).safeParse({ content: '' });
    expect(toHttpFailure(failure.error, 'r')).toMatchObject({ status: 422, detail: expect.stringMatching(/^content: /) });
  });

  it("words Fastify's own failures", () => {
    expect(toHttpFailure({ statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }, 'r').detail).toBe('Request body too large');
    expect(toHttpFailure({ statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }, 'r').detail).toBe('Malformed JSON body');
    expect(toHttpFailure(new NotFoundException('Cannot GET /x'), 'r')).toEqual({ status: 404, detail: 'Not Found', unexpected: false });
  });

  it('never lets an unknown error out', () => {
    expect(toHttpFailure(new Error('password=hunter2'), 'req-7')).toEqual({ status: 500, detail: 'Internal error (request req-7)', unexpected: true });
  });
});
