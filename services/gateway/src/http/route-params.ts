import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { parseContract } from '@app/contracts';
import { HTTP_ROUTES, routeKeyPath, type RouteDeclaration } from '@app/contracts/gateway';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { z } from 'zod';

const ANY_PARAMS = z.record(z.string(), z.string());

/**
 * Checks the path parameters of a request against its route's declaration (the contracts' API):
 * a `chat_id` that is not a UUID, a `share_id` with a NUL in it... are 422 naming the parameter
 * before a controller passes them on. Routes outside the table (the docs' assets) still get the
 * unsafe-text check. Runs after the guards: without a token, a protected route is a 401 first.
 */
export function checkRouteParams(route: RouteDeclaration | undefined, params: unknown): void {
  if (!params || typeof params !== 'object' || Object.keys(params).length === 0) return;
  parseContract(route?.params ?? ANY_PARAMS, params);
}

@Injectable()
export class RouteParamsInterceptor implements NestInterceptor {
  private readonly routes = new Map<string, RouteDeclaration>();

  constructor(routes: readonly RouteDeclaration[] = HTTP_ROUTES) {
    for (const route of routes) this.routes.set(`${route.method} ${routeKeyPath(route.path)}`, route);
  }

  /** The declaration of a request's route (HEAD is GET's), by the route Fastify matched. */
  routeOf(method: string, url: string | undefined): RouteDeclaration | undefined {
    return url === undefined ? undefined : this.routes.get(`${method === 'HEAD' ? 'GET' : method} ${routeKeyPath(url)}`);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      checkRouteParams(this.routeOf(request.method, request.routeOptions?.url), request.params);
    }
    return next.handle();
  }
}
