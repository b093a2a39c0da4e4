import { defineRoute, HTTP_ROUTES } from '@app/contracts/gateway';
import { z } from 'zod';
import { buildOpenApi } from './openapi';

type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  security?: unknown;
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Document = { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>> };

const routes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/chats/:chat_id/messages',
    summary: 'Messages of a chat',
    tag: 'chat',
    auth: 'bearer',
    params: z.object({ chat_id: z.uuid() }),
    query: z.object({ limit: z.coerce.number().int().optional(), before: z.string() }),
    response: z.object({ messages: z.array(z.string()) }),
    errors: { 404: 'No such chat' },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/chats/:chat_id/messages',
    summary: 'Forget the messages',
    tag: 'chat',
    auth: 'bearer',
    params: z.object({ chat_id: z.uuid() }),
    response: null,
    status: 204,
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/files',
    summary: 'Upload',
    tag: 'files',
    auth: 'public',
    csrf: true,
    body: z.object({ file: z.string() }),
    consumes: 'multipart/form-data',
    response: z.object({ id: z.string() }),
    status: 201,
    produces: 'application/x-custom',
  }),
];

const doc = buildOpenApi(routes, '1.2.3') as unknown as Document;
const messages = doc.paths['/api/v1/chats/{chat_id}/messages'];

describe('buildOpenApi', () => {
  it('is OpenAPI 3.1 with the version given and bearer security declared', () => {
    expect(doc).toMatchObject({
      openapi: '3.1.0',
      info: { version: '1.2.3' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    });
  });

  it('writes Fastify path parameters the OpenAPI way, several methods under one path', () => {
    expect(Object.keys(doc.paths)).toEqual(['/api/v1/chats/{chat_id}/messages', '/api/v1/files']);
    expect(Object.keys(messages)).toEqual(['get', 'delete']);
  });

  it('names each operation by method and path, uniquely', () => {
    expect([messages.get.operationId, messages.delete.operationId]).toEqual([
      'get_api_v1_chats_chat_id_messages',
      'delete_api_v1_chats_chat_id_messages',
    ]);
  });

  it('lists path parameters as required, and query parameters as required unless optional', () => {
    expect(messages.get.parameters.map(({ name, in: where, required }) => ({ name, where, required }))).toEqual([
      { name: 'chat_id', where: 'path', required: true },
      { name: 'limit', where: 'query', required: false },
      { name: 'before', where: 'query', required: true },
    ]);
    expect(messages.get.parameters[0].schema).toMatchObject({ type: 'string', format: 'uuid' });
    expect(messages.get.parameters[0].schema).not.toHaveProperty('$schema');
  });

  it('gives success answers their schema, empty ones "No content", and every operation the {detail} error', () => {
    expect(messages.get.responses['200'].content!['application/json'].schema).toMatchObject({ type: 'object', required: ['messages'] });
    expect(messages.delete.responses['204']).toEqual({ description: 'No content' });
    for (const operation of [messages.get, messages.delete]) {
      expect(operation.responses.default.content!['application/json'].schema).toMatchObject({
        type: 'object',
        properties: { detail: { type: 'string' } },
      });
    }
  });

  it('names the failures a route declares, beside the general one', () => {
    expect(messages.get.responses['404']).toEqual({ description: 'No such chat', content: messages.get.responses.default.content });
    expect(Object.keys(messages.delete.responses)).toEqual(['204', 'default']);
  });

  it('asks for the CSRF header where the route needs it', () => {
    expect(doc.paths['/api/v1/files'].post.parameters).toEqual([
      expect.objectContaining({ name: 'X-CSRF-Token', in: 'header', required: true }),
    ]);
    expect(messages.get.parameters.some((p) => p.in === 'header')).toBe(false);
  });

  it('writes a path the web client calls with a trailing slash without it', () => {
    const listed = buildOpenApi([defineRoute({ ...routes[0], path: '/api/v1/chats/' })], 'x') as unknown as Document;
    expect(Object.keys(listed.paths)).toEqual(['/api/v1/chats']);
  });

  it('asks for the bearer token only where the route needs it, and takes the content types the route names', () => {
    expect(messages.get.security).toEqual([{ bearer: [] }]);
    const upload = doc.paths['/api/v1/files'].post;
    expect(upload.security).toBeUndefined();
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody!.required).toBe(true);
    expect(Object.keys(upload.responses['201'].content!)).toEqual(['application/x-custom']);
    expect(messages.get.requestBody).toBeUndefined();
  });

  it('describes every route of the gateway, each operation once', () => {
    const full = buildOpenApi(HTTP_ROUTES, 'test') as unknown as Document;
    const operations = Object.values(full.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(HTTP_ROUTES.length);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    expect(JSON.stringify(full)).not.toMatch(/\/:[a-z_]+/);
  });
});
