import { randomUUID } from 'node:crypto';
import { HEADERS, PRODUCT_CONSTANTS, type Caller } from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the gateway knows about a request before any handler runs. */
export interface HttpRequestState {
  requestId: string;
  sessionId: string | null;
  userLabel: string | null;
  startedAt: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    state: HttpRequestState;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads the request id (or makes one), the session id and the user label (cut to 100 characters). */
export function readRequestState(request: FastifyRequest): HttpRequestState {
  const requestId = header(request, HEADERS.requestId);
  const sessionId = header(request, HEADERS.userSessionId);
  const label = header(request, HEADERS.userLabel);
  return {
    requestId: requestId && SAFE_ID.test(requestId) ? requestId : randomUUID(),
    sessionId: sessionId && SAFE_ID.test(sessionId) ? sessionId : null,
    userLabel: label ? label.slice(0, PRODUCT_CONSTANTS.userLabelMaxLength) : null,
    startedAt: performance.now(),
  };
}

/** Echoes the request id, and the session id (the token's, else the one the client sent). */
export function echoRequestHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const state = request.state;
  if (!state) return;
  reply.header(HEADERS.requestId, state.requestId);
  if (reply.hasHeader(HEADERS.userSessionId)) return;
  const sessionId = request.auth?.session_id ?? state.sessionId;
  if (sessionId) reply.header(HEADERS.userSessionId, sessionId);
}

/** The caller identity handed to services: from the verified token (see AuthGuard), never from the body. */
export function callerOf(request: FastifyRequest): Caller {
  const auth = request.auth;
  return {
    user_id: auth?.user_id ?? null,
    is_anon: auth?.is_anon ?? false,
    session_id: auth?.session_id ?? request.state.sessionId,
    request_id: request.state.requestId,
  };
}

/** Who is at the other end, for sign-in records and limits. */
export function clientOf(request: FastifyRequest): { ip: string; user_agent: string | null } {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, user_agent: typeof agent === 'string' ? agent.slice(0, 512) : null };
}
