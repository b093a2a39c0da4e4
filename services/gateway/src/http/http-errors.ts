import { ArgumentsHost, Catch, HttpException, NotFoundException, type ExceptionFilter } from '@nestjs/common';
import { describeZodError } from '@app/contracts';
import { AppLogger, DomainError, RpcCallError } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { applySecurityHeaders } from './security-headers';
import { echoRequestHeaders } from './request-context';
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
  413: 'Request body too large',
  415: 'Unsupported content type',
  429: 'Too many requests, please slow down',
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
      code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'Malformed JSON body'
        : code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The JSON body is empty'
          : (FRAMEWORK_DETAIL[statusCode] ?? 'Bad request');
    return { status: statusCode, detail, unexpected: false };
  }
  return { status: 500, detail: `Internal error (request ${requestId})`, unexpected: true };
}

export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown, logger: AppLogger): void {
  const requestId = request.state?.requestId ?? String(request.id);
  const failure = toHttpFailure(error, requestId);
  if (failure.unexpected) logger.error(error instanceof Error ? error : String(error), { path: request.routeOptions?.url }, 'HttpErrors');
  echoRequestHeaders(request, reply);
  applySecurityHeaders(request, reply);
  void reply.status(failure.status).header('content-type', 'application/json; charset=utf-8').send({ detail: failure.detail });
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
