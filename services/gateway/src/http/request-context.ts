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

/** Echoes the request id and the session id, as the web client expects. */
export function echoRequestHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const state = request.state;
  if (!state) return;
  reply.header(HEADERS.requestId, state.requestId);
  if (state.sessionId) reply.header(HEADERS.userSessionId, state.sessionId);
}

/** The caller identity handed to services. Set from what the gateway verified, never from the body. */
export function callerOf(request: FastifyRequest): Caller {
  return { user_id: null, is_anon: false, session_id: request.state.sessionId, request_id: request.state.requestId };
}
