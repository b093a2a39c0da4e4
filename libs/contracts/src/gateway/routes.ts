import { z } from 'zod';

import { LivenessResponseSchema, ReadinessResponseSchema, VersionResponseSchema } from './schemas';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP route of the gateway, as documented in the OpenAPI description. */
export interface HttpRoute {
  readonly method: HttpMethod;
  /** Fastify-style path (`/api/v1/chats/:chat_id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth: 'none' | 'bearer';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Success answers by status; `null` for an empty body. */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /** Content type of the success answer when it is not JSON. */
  readonly produces?: string;
}

/** Every route the gateway serves. Capabilities append theirs; a test checks the gateway serves exactly these. */
export const HTTP_ROUTES: readonly HttpRoute[] = [
  {
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tag: 'operations',
    auth: 'none',
    responses: { 200: LivenessResponseSchema },
  },
  {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: every service and dependency answers',
    tag: 'operations',
    auth: 'none',
    responses: { 200: ReadinessResponseSchema, 503: ReadinessResponseSchema },
  },
  {
    method: 'GET',
    path: '/api/v1/version/commit',
    summary: 'The commit of the running build (never cached)',
    tag: 'version',
    auth: 'none',
    responses: { 200: VersionResponseSchema },
  },
];

