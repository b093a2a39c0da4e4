import type { ReplyEvent } from '@app/contracts/chat';
import { DomainError, RpcCallError, type AppLogger } from '@app/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { GatewayLifecycle } from '../health/lifecycle';
import { sendFailure } from '../http/http-errors';
import { readRequestState } from '../http/request-context';
import { sendEventStream, type OpenReplyStream } from './event-stream';

const text = (delta: string): ReplyEvent => ({ event: 'text', data: { delta } });
const done: ReplyEvent = { event: 'done', data: {} };
const errors: unknown[] = [];
const logger = { error: (...args: unknown[]) => void errors.push(args), warn: () => undefined } as unknown as AppLogger;

let app: FastifyInstance;
let open: OpenReplyStream;

beforeAll(async () => {
  app = Fastify();
  app.addHook('onRequest', async (request) => {
    request.state = readRequestState(request);
  });
  // As the gateway's exception filter does: a failure before the first event is an ordinary answer.
  app.setErrorHandler((error, request, reply) => sendFailure(request, reply, error, logger));
  app.post('/stream', (request, reply) => sendEventStream(request, reply, open, logger, new GatewayLifecycle()));
  await app.ready();
});
afterAll(() => app.close());
beforeEach(() => (errors.length = 0));

const stream = (headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/stream', headers });

describe('sendEventStream: framing and headers', () => {
  it('frames each event as "event:" and one JSON "data:" line, blocks apart', async () => {
    open = async function* () {
      yield text('line one\nline two');
      yield done;
    };
    const { payload } = await stream();
    expect(payload).toBe('event: text\ndata: {"delta":"line one\\nline two"}\n\nevent: done\ndata: {}\n\n');
  });

  it('is not cached, not transformed nor buffered by a proxy, and carries the request id and the security headers', async () => {
    open = async function* () {
      yield done;
    };
    const response = await stream({ 'x-request-id': 'req-sse-1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': 'req-sse-1',
      'x-content-type-options': 'nosniff',
    });
  });

  it('an upstream that ends without any event still ends with one done', async () => {
    open = async function* () {
      yield* [];
    };
    expect((await stream()).payload).toBe('event: done\ndata: {}\n\n');
  });
});

describe('sendEventStream: failures', () => {
  it('before the first event: an ordinary {detail} answer with its status, no stream', async () => {
    open = async function* () {
      yield* [];
      throw DomainError.notFound('No such chat.');
    };
    const response = await stream();
    expect([response.statusCode, response.headers['content-type'], response.json()]).toEqual([
      404,
      'application/json; charset=utf-8',
      { detail: 'No such chat.' },
    ]);
  });

  it("mid-stream, a service's failure is one error event with its words, then done", async () => {
    open = async function* () {
      yield text('Hel');
      throw new RpcCallError({ status: 504, detail: 'The chat service did not answer in time', code: 'timeout' }, 'chat.reply');
    };
    const { payload } = await stream();
    expect(payload).toBe(
      'event: text\ndata: {"delta":"Hel"}\n\nevent: error\ndata: {"detail":"The chat service did not answer in time"}\n\nevent: done\ndata: {}\n\n',
    );
    expect(errors).toEqual([]);
  });

  it('mid-stream, an unexpected failure is logged and told only by its request id', async () => {
    open = async function* () {
      yield text('Hel');
      throw new Error('db password=hunter2');
    };
    const { payload } = await stream({ 'x-request-id': 'req-sse-2' });
    expect(payload).toContain('event: error\ndata: {"detail":"Internal error (request req-sse-2)"}\n\n');
    expect(payload).not.toContain('hunter2');
    expect(payload.endsWith('event: done\ndata: {}\n\n')).toBe(true);
    expect(errors).toHaveLength(1);
  });
});
