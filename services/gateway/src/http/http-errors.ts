import { ArgumentsHost, Catch, HttpException, NotFoundException, type ExceptionFilter } from '@nestjs/common';
import { describeZodError, HEADERS } from '@app/contracts';
import { AppLogger, DomainError, retryAfterOf, RpcCallError } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { applySecurityHeaders, securityHeaders } from './security-headers';
import { echoRequestHeaders, readRequestState } from './request-context';
import type { WebAssets } from '../web/web-assets';

export interface HttpFailure {
  status: number;
  detail: string;
  /** Not a known failure: logged with its stack, answered as a bare 500. */
  unexpected: boolean;
}

/** Words for the statuses Fastify itself raises (bad JSON, body too large, wrong content type...). */
const FRAMEWORK_DETAIL: Record<number, string> = {
  400: 'Malformed request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'The request took too long to arrive',
  413: 'Request body too large',
  414: 'A part of the address is too long',
  415: 'Unsupported content type',
  429: 'Too many requests, please slow down',
  431: 'The request headers are too large',
};

/** Words for Fastify's own error codes; never the request's URL or anything else it sent. */
const FRAMEWORK_CODE_DETAIL: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The JSON body is empty',
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: FRAMEWORK_DETAIL[414],
};

/** The one place where any failure becomes an HTTP status and a `{detail}`. */
export function toHttpFailure(error: unknown, requestId: string): HttpFailure {
  if (error instanceof RpcCallError) return { status: error.shape.status, detail: error.shape.detail, unexpected: false };
  if (error instanceof DomainError) return { status: error.status, detail: error.detail, unexpected: false };
  if (error instanceof ZodError) return { status: 422, detail: describeZodError(error), unexpected: false };
  // Fastify's own failures (bad JSON, body too large...) reach us wrapped by Nest: use their code.
  if (error instanceof HttpException && typeof (error.cause as { statusCode?: unknown } | undefined)?.statusCode === 'number') {
    return toHttpFailure(error.cause, requestId);
  }
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : typeof response === 'object' && response && 'detail' in response
          ? String((response as { detail: unknown }).detail)
          : (FRAMEWORK_DETAIL[error.getStatus()] ?? error.message);
    return { status: error.getStatus(), detail: message, unexpected: error.getStatus() >= 500 };
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const code = (error as { code?: string }).code;
    const detail =
      (code && FRAMEWORK_CODE_DETAIL[code]) ??
      (error instanceof SyntaxError ? 'Malformed JSON body' : (FRAMEWORK_DETAIL[statusCode] ?? 'Bad request'));
    return { status: statusCode, detail, unexpected: false };
  }
  return { status: 500, detail: `Internal error (request ${requestId})`, unexpected: true };
}

export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown, logger: AppLogger, https?: boolean): void {
  const requestId = request.state?.requestId ?? String(request.id);
  const failure = toHttpFailure(error, requestId);
  if (failure.unexpected) logger.error(error instanceof Error ? error : String(error), { path: request.routeOptions?.url }, 'HttpErrors');
  echoRequestHeaders(request, reply);
  applySecurityHeaders(request, reply, https);
  // A 503 (an outage, a restart) says when to come back.
  const retryAfter = retryAfterOf(error, failure.status);
  if (retryAfter !== undefined && !reply.hasHeader('retry-after')) reply.header('retry-after', String(retryAfter));
  void reply
    .status(failure.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send({ detail: failure.detail });
}

/**
 * Fastify's router refuses some requests before any hook runs (a malformed URL: 400
 * FST_ERR_BAD_URL; a path parameter over maxParamLength: 414): they get the request state and the
 * one mapping like any other failure (Fastify's `frameworkErrors`). Fastify builds those requests
 * without `trustProxy`, so whether the client came over https (HSTS) is read here from the trusted
 * proxy's X-Forwarded-Proto, as Fastify does for every other request.
 */
export function frameworkErrorHandler(logger: AppLogger, trustProxy: boolean) {
  return (error: Error, request: FastifyRequest, reply: FastifyReply): void => {
    request.state ??= readRequestState(request);
    const forwarded = request.headers['x-forwarded-proto'];
    const proxiedProto = trustProxy && typeof forwarded === 'string' ? forwarded.split(',')[0].trim().toLowerCase() : undefined;
    sendFailure(request, reply, error, logger, request.protocol === 'https' || proxiedProto === 'https');
  };
}

interface ParserError extends Error {
  code?: string;
}

/** Which status a refusal of Node's HTTP parser gets (Fastify's `clientErrorHandler`). */
export function clientErrorStatus(error: ParserError): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** The raw HTTP answer written to the socket for such a refusal: `{detail}`, a request id and the security headers. */
export function clientErrorResponse(error: ParserError, policy: string): string {
  const status = clientErrorStatus(error);
  const body = JSON.stringify({ detail: FRAMEWORK_DETAIL[status] });
  const headers: [string, string][] = [
    ['content-type', 'application/json; charset=utf-8'],
    ['content-length', String(Buffer.byteLength(body))],
    ['cache-control', 'no-store'],
    ['connection', 'close'],
    [HEADERS.requestId, randomUUID()],
    ...securityHeaders(policy, false),
  ];
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}

/**
 * Node's HTTP parser refused a request (headers over 16 KB: 431; not HTTP at all: 400; too slow:
 * 408) before Fastify saw it: write the answer ourselves, unless the connection is gone or a
 * response on it has started already, then close the connection.
 */
export function answerClientError(error: ParserError, socket: Duplex, policy: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error, policy), () => socket.destroy());
}

/** Nest's side: every exception from a controller goes through `toHttpFailure`. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(
    private readonly logger: AppLogger,
    private readonly web: WebAssets,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    // A page path unknown to the server is a client-side route: hand it the web client.
    if (exception instanceof NotFoundException && this.web.serveApp(request, reply)) return;
    sendFailure(request, reply, exception, this.logger);
  }
}
