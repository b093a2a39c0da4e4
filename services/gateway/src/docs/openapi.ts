import { ErrorBodySchema } from '@app/contracts';
import { API_PREFIX, routeKeyPath, type RouteDeclaration } from '@app/contracts/gateway';
import { z } from 'zod';

/** `/api/v1/chats/:chat_id/` as OpenAPI writes it: `/api/v1/chats/{chat_id}`. */
const toOpenApiPath = (path: string) => routeKeyPath(path).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  return rest;
}

const errorContent = () => ({ 'application/json': { schema: jsonSchema(ErrorBodySchema) } });

function parameters(route: RouteDeclaration): unknown[] {
  const list: unknown[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      list.push({ name, in: where, required: where === 'path' || !field.safeParse(undefined).success, schema: jsonSchema(field) });
    }
  }
  if (route.csrf) {
    list.push({ name: 'X-CSRF-Token', in: 'header', required: true, schema: { type: 'string' }, description: 'The CSRF token' });
  }
  return list;
}

/** The OpenAPI 3.1 description of the gateway, generated from the contracts' route declarations. */
export function buildOpenApi(routes: readonly RouteDeclaration[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries({ [route.status ?? 200]: route.response, ...route.otherAnswers })) {
      responses[status] = schema
        ? { description: 'OK', content: { [route.produces ?? 'application/json']: { schema: jsonSchema(schema) } } }
        : { description: 'No content' };
    }
    for (const [status, description] of Object.entries(route.errors ?? {})) responses[status] = { description, content: errorContent() };
    responses.default = { description: 'Error', content: errorContent() };
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      operationId: `${route.method.toLowerCase()}_${route.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      parameters: parameters(route),
      responses,
      ...(route.auth === 'bearer' ? { security: [{ bearer: [] }] } : {}),
      ...(route.body
        ? { requestBody: { required: true, content: { [route.consumes ?? 'application/json']: { schema: jsonSchema(route.body) } } } }
        : {}),
    };
    paths[toOpenApiPath(route.path)] ??= {};
    paths[toOpenApiPath(route.path)][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Assistant API', version, description: `The HTTP surface of the assistant, behind ${API_PREFIX}.` },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
