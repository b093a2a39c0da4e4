import { NotFoundException } from '@nestjs/common';
import { RpcCallError } from '@app/platform';
import { z } from 'zod';
import { clientErrorResponse, clientErrorStatus, toHttpFailure } from './http-errors';

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

  it("words the router's refusals without echoing the URL", () => {
    const badUrl = Object.assign(new Error("'/api/v1/chats/%E0%A4%A' is not a valid url component"), {
      statusCode: 400,
      code: 'FST_ERR_BAD_URL',
    });
    expect(toHttpFailure(badUrl, 'r')).toEqual({ status: 400, detail: 'Malformed URL', unexpected: false });
    const long = Object.assign(new Error("'/api/v1/chats/aaaa' is exceeding the max param length"), {
      statusCode: 414,
      code: 'FST_ERR_MAX_PARAM_LENGTH',
    });
    expect(toHttpFailure(long, 'r')).toEqual({ status: 414, detail: 'A part of the address is too long', unexpected: false });
    expect(toHttpFailure({ statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }, 'r').detail).toBe('The JSON body is empty');
    expect(toHttpFailure({ statusCode: 400, code: 'FST_SOMETHING_NEW' }, 'r').detail).toBe('Malformed request');
  });

  it('answers a refusal of the HTTP parser itself with {detail}, a request id and the security headers', () => {
    expect(clientErrorStatus(Object.assign(new Error('x'), { code: 'HPE_HEADER_OVERFLOW' }))).toBe(431);
    expect(clientErrorStatus(Object.assign(new Error('x'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }))).toBe(408);
    expect(clientErrorStatus(Object.assign(new Error('x'), { code: 'HPE_INVALID_METHOD' }))).toBe(400);
    const raw = clientErrorResponse(Object.assign(new Error('x'), { code: 'HPE_HEADER_OVERFLOW' }), "default-src 'self'");
    const [head, body] = raw.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    const headers = Object.fromEntries(lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
    expect(headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'self'",
      'cache-control': 'no-store',
      connection: 'close',
    });
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(body)).toEqual({ detail: 'The request headers are too large' });
  });

  it('never lets an unknown error out', () => {
    expect(toHttpFailure(new Error('password=hunter2'), 'req-7')).toEqual({
      status: 500,
      detail: 'Internal error (request req-7)',
      unexpected: true,
    });
  });
});
