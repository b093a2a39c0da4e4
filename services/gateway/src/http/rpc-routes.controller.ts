import { Controller, Req } from '@nestjs/common';
import { API, routeEntries, type RouteDeclaration } from '@app/contracts/gateway';
import { RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { callerOf } from './request-context';
import { parseRoutePart, Route } from './route';

/** A route that is a plain proxy to one RPC. */
type RpcRoute = RouteDeclaration & Required<Pick<RouteDeclaration, 'rpc'>>;

/** The declared routes that need no handler of their own: every one with an `rpc`. */
export const RPC_ROUTES: [name: string, route: RpcRoute][] = routeEntries(API).filter(
  (entry): entry is [string, RpcRoute] => !!entry[1].rpc,
);

/** The request of a proxied call: the path parameters, the query and the body, each checked, merged in that order. */
export function rpcRequestOf(route: RouteDeclaration, request: FastifyRequest): Record<string, unknown> {
  return {
    ...(parseRoutePart(route, 'params', request) as object),
    ...(route.query ? (parseRoutePart(route, 'query', request) as object) : {}),
    ...(route.body ? (parseRoutePart(route, 'body', request) as object) : {}),
  };
}

/**
 * Serves every declared route that is a plain proxy to one RPC, from its declaration alone: one
 * handler per route (named as in the API, `memory.update`), calling the RPC as the caller and
 * answering what it answers, or nothing when the route declares no response (204).
 */
@Controller()
export class RpcRoutesController {
  constructor(private readonly rpc: RpcClient) {}

  /** One proxied call (the handlers below are this, bound to their route). */
  async forward(route: RpcRoute, request: FastifyRequest): Promise<unknown> {
    const answer = await this.rpc.call(route.rpc, rpcRequestOf(route, request), callerOf(request));
    return route.response === null ? undefined : answer;
  }
}

for (const [name, route] of RPC_ROUTES) {
  const prototype = RpcRoutesController.prototype as unknown as Record<string, unknown>;
  prototype[name] = function (this: RpcRoutesController, request: FastifyRequest) {
    return this.forward(route, request);
  };
  Route(route)(prototype, name, Object.getOwnPropertyDescriptor(prototype, name)!);
  Req()(prototype, name, 0);
}
