import type { ReplyEvent } from '@app/contracts/chat';
import type { AppLogger } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayLifecycle } from '../health/lifecycle';
import { toHttpFailure } from '../http/http-errors';
import { echoRequestHeaders } from '../http/request-context';
import { applySecurityHeaders } from '../http/security-headers';
import { ReplyStreamWriter } from './reply-stream-writer';

const KEEP_ALIVE_MS = 15_000;

/** Opens the upstream call; `signal` aborts it (the gateway is stopping and ends the stream itself). */
export type OpenReplyStream = (signal: AbortSignal) => AsyncIterable<ReplyEvent>;

/**
 * Sends a reply stream as `text/event-stream`. Failures before the first event (not found, over
 * the limit, bad input, the service away) are ordinary HTTP errors; later ones become one `error`
 * event followed by `done`, and every stream ends with exactly one `done` (ReplyStreamWriter). A
 * browser that goes away stops receiving, but the stream is read to its end (the service stores
 * the reply anyway). When the gateway stops and its grace period runs out, the stream is ended
 * with an `error` and `done`.
 */
export async function sendEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  open: OpenReplyStream,
  logger: AppLogger,
  lifecycle: GatewayLifecycle,
): Promise<void> {
  const upstream = new AbortController();
  const iterator = open(upstream.signal)[Symbol.asyncIterator]();
  const first = await iterator.next(); // throws → the exception filter answers with a status and {detail}

  echoRequestHeaders(request, reply);
  applySecurityHeaders(request, reply);
  const headers = Object.fromEntries(
    Object.entries(reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined),
  );
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let connected = true;
  let resume: (() => void) | undefined;
  request.raw.on('close', () => {
    connected = false;
    resume?.(); // what was held for this reader is dropped now, not kept to the end of the reply
  });
  // Frames that arrive together (the bus delivers them in one go) leave in one write to the socket.
  // The socket itself is corked and uncorked (the response lets go of it once it ends).
  let corked = false;
  const writer = new ReplyStreamWriter({
    write: (chunk) => {
      if (!connected || raw.writableEnded) return true;
      const socket = raw.socket;
      if (!corked && socket) {
        corked = true;
        socket.cork();
        process.nextTick(() => {
          corked = false;
          socket.uncork();
        });
      }
      return raw.write(chunk);
    },
    onDrain: (next) => {
      resume = () => {
        resume = undefined;
        raw.off('drain', onDrain);
        next();
      };
      const onDrain = () => resume?.();
      raw.once('drain', onDrain);
    },
    end: () => raw.end(),
    abandon: () => raw.destroy(),
  });
  const untrack = lifecycle.track({
    abort: (detail) => {
      writer.fail(detail);
      upstream.abort(new Error(detail));
    },
  });
  const keepAlive = setInterval(() => writer.keepAlive(), KEEP_ALIVE_MS);
  try {
    if (!first.done) writer.send(first.value);
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      writer.send(next.value);
    }
    writer.finish();
  } catch (error) {
    if (upstream.signal.aborted) return; // ended by the lifecycle, which wrote the end
    const failure = toHttpFailure(error, request.state.requestId);
    if (failure.unexpected) logger.error(error instanceof Error ? error : String(error), 'EventStream');
    writer.fail(failure.detail);
  } finally {
    clearInterval(keepAlive);
    untrack();
    if (writer.abandoned) logger.warn({ msg: 'Cut off a reader that fell too far behind its reply stream' }, 'EventStream');
    else if (writer.dropped)
      logger.warn({ msg: `Dropped ${writer.dropped} events or failures that came after the reply stream's end` }, 'EventStream');
    if (!raw.writableEnded) raw.end();
  }
}
