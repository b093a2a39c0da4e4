import {
  applyDecorators,
  createParamDecorator,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
  type ExecutionContext,
} from '@nestjs/common';
import { parseContract } from '@app/contracts';
import type { RouteDeclaration } from '@app/contracts/gateway';
import { Public, RequireCsrf } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

const ROUTE_DECLARATION = 'assistant:route';

/**
 * Serves a declared route (the contracts' API) with this handler: its method and path, its success
 * status, its access (public, CSRF). The handler never repeats them; it reads its input with
 * @ValidBody() / @ValidQuery() / @ValidParams(), checked against the declaration's schemas.
 */
export function Route(route: RouteDeclaration): MethodDecorator {
  return applyDecorators(
    RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
    HttpCode(route.status ?? 200),
    SetMetadata(ROUTE_DECLARATION, route),
    ...(route.auth === 'public' ? [Public()] : []),
    ...(route.csrf ? [RequireCsrf()] : []),
  );
}

/** The declaration a handler serves (@Route). */
export function declarationOf(handler: object): RouteDeclaration | undefined {
  return Reflect.getMetadata(ROUTE_DECLARATION, handler) as RouteDeclaration | undefined;
}

type Part = 'params' | 'query' | 'body';

/** One part of a request, checked against the route's schema (422 `{detail}` naming the field); as it came when none is declared. */
export function parseRoutePart(route: RouteDeclaration, part: Part, request: FastifyRequest): unknown {
  const schema = route[part];
  const value = request[part] ?? {};
  return schema ? parseContract(schema, value) : value;
}

function inputDecorator(part: Part) {
  return createParamDecorator((_data: unknown, context: ExecutionContext) => {
    const route = declarationOf(context.getHandler());
    if (!route) throw new Error(`@Valid${part} on a handler without @Route`);
    return parseRoutePart(route, part, context.switchToHttp().getRequest<FastifyRequest>());
  });
}

/** The request body, checked against the route's `body` schema. */
export const ValidBody = inputDecorator('body');
/** The query, checked against the route's `query` schema (defaults applied). */
export const ValidQuery = inputDecorator('query');
/** The path parameters, checked against the route's `params` schema (transforms applied). */
export const ValidParams = inputDecorator('params');

/** What a handler of the route receives from @ValidBody(), @ValidQuery(), @ValidParams(). */
export type BodyOf<R> = R extends { body: infer S extends z.ZodType } ? z.output<S> : never;
export type QueryOf<R> = R extends { query: infer S extends z.ZodType } ? z.output<S> : never;
export type ParamsOf<R> = R extends { params: infer S extends z.ZodType } ? z.output<S> : never;
