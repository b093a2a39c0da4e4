import type { ReplyEvent } from '@app/contracts/chat';
import type { AppLogger } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toHttpFailure } from '../http/http-errors';
import { echoRequestHeaders } from '../http/request-context';
import { applySecurityHeaders } from '../http/security-headers';

const HEARTBEAT_MS = 15_000;

/**
 * Sends a reply stream as `text/event-stream`. Failures before the first event (not found, over
 * the limit, bad input) are ordinary HTTP errors; later ones become an `error` event. A browser
 * that goes away stops receiving, but the stream is read to its end: the reply is stored anyway.
 */
export async function sendEventStream(request: FastifyRequest, reply: FastifyReply, events: AsyncIterable<ReplyEvent>, logger: AppLogger): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next(); // throws → the exception filter answers with a status and {detail}

  echoRequestHeaders(request, reply);
  applySecurityHeaders(request, reply);
  const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined));
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let open = true;
  request.raw.on('close', () => (open = false));
  const write = (event: ReplyEvent) => {
    if (open) raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
  };
  const heartbeat = setInterval(() => open && raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
  try {
    if (!first.done) write(first.value);
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      write(next.value);
    }
  } catch (error) {
    const failure = toHttpFailure(error, request.state.requestId);
    if (failure.unexpected) logger.error(error instanceof Error ? error : String(error), 'EventStream');
    write({ event: 'error', data: { detail: failure.detail } });
    write({ event: 'done', data: {} });
  } finally {
    clearInterval(heartbeat);
    raw.end();
  }
}
