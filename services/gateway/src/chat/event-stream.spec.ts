import type { ReplyEvent } from '@app/contracts/chat';
import { AppLogger, RpcCallError } from '@app/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { GatewayLifecycle, RESTARTING_DETAIL } from '../health/lifecycle';
import { readRequestState } from '../http/request-context';
import { sendEventStream, type OpenReplyStream } from './event-stream';

const quiet = new AppLogger({ service: 'gateway', level: 'error', format: 'json', sink: () => {} });
const text = (delta: string): ReplyEvent => ({ event: 'text', data: { delta } });
const done: ReplyEvent = { event: 'done', data: {} };

function eventsOf(payload: string): { event: string; data: unknown }[] {
  return payload
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => ({ event: block.split('\n')[0].slice(7), data: JSON.parse(block.split('\n')[1].slice(6)) }));
}

/** A Fastify server with one route relaying a scripted upstream through sendEventStream. */
async function relayServer(open: OpenReplyStream, lifecycle = new GatewayLifecycle()): Promise<FastifyInstance> {
  const app = Fastify();
  app.addHook('onRequest', async (request) => {
    request.state = readRequestState(request);
  });
  app.post('/stream', (request, reply) => sendEventStream(request, reply, open, quiet, lifecycle));
  await app.ready();
  return app;
}

describe('sendEventStream (the SSE relay)', () => {
  it('relays a reply and ends with its one done', async () => {
    const app = await relayServer(async function* () {
      yield text('Hello');
      yield done;
    });
    const res = await app.inject({ method: 'POST', url: '/stream' });
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(eventsOf(res.payload)).toEqual([
      { event: 'text', data: { delta: 'Hello' } },
      { event: 'done', data: {} },
    ]);
    await app.close();
  });

  it('a failure of the upstream after done (the end frame never came) sends nothing more: no error, no second done', async () => {
    const app = await relayServer(async function* () {
      yield text('complete reply');
      yield done;
      throw new RpcCallError(
        { status: 504, detail: 'The chat service did not answer in time (120000 ms)', code: 'timeout' },
        'chat.message.send',
      );
    });
    const res = await app.inject({ method: 'POST', url: '/stream' });
    expect(eventsOf(res.payload).map((e) => e.event)).toEqual(['text', 'done']);
    await app.close();
  });

  it('a producer that dies mid-reply ends the stream with exactly one error and one done', async () => {
    const app = await relayServer(async function* () {
      yield text('half a rep');
      throw new RpcCallError(
        {
          status: 503,
          detail: 'The chat service stopped responding while answering (nothing for 3.0 s); please try again',
          code: 'unavailable',
        },
        'chat.message.send',
      );
    });
    const res = await app.inject({ method: 'POST', url: '/stream' });
    expect(eventsOf(res.payload)).toEqual([
      { event: 'text', data: { delta: 'half a rep' } },
      { event: 'error', data: { detail: 'The chat service stopped responding while answering (nothing for 3.0 s); please try again' } },
      { event: 'done', data: {} },
    ]);
    await app.close();
  });

  it('when the gateway stops and the grace period runs out, an open stream ends with one error and one done, and its upstream call is abandoned', async () => {
    const lifecycle = new GatewayLifecycle();
    let abandoned: unknown;
    const app = await relayServer(async function* (signal) {
      yield text('still going');
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      abandoned = signal.reason;
      throw signal.reason;
    }, lifecycle);
    const response = app.inject({ method: 'POST', url: '/stream' });
    while (lifecycle.openStreams === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(lifecycle.abortStreams(RESTARTING_DETAIL)).toBe(1);
    const res = await response;
    expect(eventsOf(res.payload)).toEqual([
      { event: 'text', data: { delta: 'still going' } },
      { event: 'error', data: { detail: RESTARTING_DETAIL } },
      { event: 'done', data: {} },
    ]);
    expect(abandoned).toBeInstanceOf(Error);
    expect(lifecycle.openStreams).toBe(0);
    await app.close();
  });
});

describe('sendEventStream: a reader slower than the reply', () => {
  it('does not pile the reply up in the socket while the reader does not read; it gets all of it, in order, once it does', async () => {
    const { connect } = await import('node:net');
    let mostQueued = 0;
    const delta = 'x'.repeat(1_000);
    const app = Fastify();
    app.addHook('onRequest', async (request) => {
      request.state = readRequestState(request);
    });
    const upstreamDone = new Promise<void>((resolve) => {
      app.post('/stream', (request, reply) => {
        return sendEventStream(
          request,
          reply,
          async function* () {
            for (let i = 0; i < 3_000; i++) {
              yield text(delta);
              if (i % 50 === 0) await new Promise((r) => setImmediate(r));
              mostQueued = Math.max(mostQueued, reply.raw.writableLength);
            }
            resolve();
            yield done;
          },
          quiet,
          new GatewayLifecycle(),
        );
      });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as import('node:net').AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.pause(); // a reader that does not read
    socket.write(`POST /stream HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n`);
    try {
      await upstreamDone;
      // 3 MB went by upstream; the gateway's socket buffer stayed a small fraction of it.
      expect(mostQueued).toBeLessThan(256 * 1024);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      // The response's last chunk (the connection itself is kept alive).
      await new Promise<void>((resolve) =>
        socket.on('data', () => Buffer.concat(chunks).toString().endsWith('\r\n0\r\n\r\n') && resolve()),
      );
      const body = Buffer.concat(chunks).toString();
      const events = eventsOf(
        body
          .slice(body.indexOf('\r\n\r\n') + 4)
          .replace(/\r\n[0-9a-f]+\r\n/g, '')
          .replace(/^[0-9a-f]+\r\n/, ''),
      );
      expect(events.at(-1)).toEqual({ event: 'done', data: {} });
      expect(
        events
          .filter((e) => e.event === 'text')
          .map((e) => (e.data as { delta: string }).delta)
          .join(''),
      ).toBe(delta.repeat(3_000));
    } finally {
      socket.destroy();
      await app.close();
    }
  });
});
