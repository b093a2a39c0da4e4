import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { HTTP_ROUTES, routeKeyPath, type RouteDeclaration } from '@app/contracts/gateway';
import { MEMORY_RPC } from '@app/contracts/memory';
import { AppLogger, CSRF_PROTECTED, KEY_VALUE_STORE, PUBLIC_ROUTE, RUNTIME_ENV, RpcClient, Throttler } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONTROLLERS } from '../gateway.module';
import { ReadinessService } from '../health/readiness.service';
import { GatewayLifecycle } from '../health/lifecycle';
import { GATEWAY_CONFIG } from '../tokens';
import { BuildInfo } from '../version/build-info';
import { HttpErrorFilter } from './http-errors';
import { declarationOf } from './route';
import { readRequestState } from './request-context';
import { RouteParamsInterceptor } from './route-params';
import { RPC_ROUTES } from './rpc-routes.controller';

/** The gateway's own routes beside the declared ones: the documentation of those. */
const DOCS = /^[A-Z]+ \/api\/docs(\/|$)/;

const calls: { subject: string; request: unknown }[] = [];
const rpc = {
  call: async (contract: { subject: string }, request: unknown) => {
    calls.push({ subject: contract.subject, request });
    return { answered: contract.subject };
  },
};

const logger = { log: () => undefined, warn: () => undefined, error: () => undefined, child: () => logger } as unknown as AppLogger;

@Module({
  controllers: GATEWAY_CONTROLLERS,
  providers: [
    { provide: RpcClient, useValue: rpc },
    { provide: AppLogger, useValue: logger },
    { provide: GATEWAY_CONFIG, useValue: {} },
    { provide: KEY_VALUE_STORE, useValue: {} },
    Throttler,
    { provide: RUNTIME_ENV, useValue: {} },
    { provide: BuildInfo, useValue: new BuildInfo('test') },
    { provide: ReadinessService, useValue: {} },
    { provide: GatewayLifecycle, useValue: {} },
  ],
})
class RoutesOnlyModule {}

describe('the routes the gateway serves are the declared ones', () => {
  let app: NestFastifyApplication;
  const registered: string[] = [];
  const key = (route: Pick<RouteDeclaration, 'method' | 'path'>) => `${route.method} ${routeKeyPath(route.path)}`;

  beforeAll(async () => {
    const adapter = new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } });
    adapter.getInstance().addHook('onRequest', async (request) => void (request.state = readRequestState(request)));
    adapter.getInstance().addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') registered.push(`${method} ${routeKeyPath(route.url)}`);
    });
    app = await NestFactory.create<NestFastifyApplication>(RoutesOnlyModule, adapter, { logger: false });
    app.useGlobalFilters(new HttpErrorFilter(logger, { answerUnmatched: () => false } as never));
    app.useGlobalInterceptors(new RouteParamsInterceptor());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => (app as INestApplication | undefined)?.close());

  it('registers every declared route with its method and path, and no other /api or probe route', () => {
    const declared = HTTP_ROUTES.map(key).sort();
    expect(new Set(declared).size).toBe(declared.length);
    expect(registered.filter((route) => !DOCS.test(route)).sort()).toEqual(declared);
  });

  it('serves each declared route by exactly one handler, public and CSRF-checked as declared', () => {
    const served = new Map<RouteDeclaration, string[]>();
    for (const controller of GATEWAY_CONTROLLERS) {
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as unknown as Record<string, unknown>)[name];
        if (typeof handler !== 'function') continue;
        const route = declarationOf(handler);
        if (!route) continue;
        served.set(route, [...(served.get(route) ?? []), `${controller.name}.${name}`]);
        expect({ name, public: Reflect.getMetadata(PUBLIC_ROUTE, handler) === true }).toEqual({ name, public: route.auth === 'public' });
        expect({ name, csrf: Reflect.getMetadata(CSRF_PROTECTED, handler) === true }).toEqual({ name, csrf: route.csrf === true });
      }
    }
    for (const route of HTTP_ROUTES)
      expect({ route: key(route), handlers: served.get(route)?.length }).toEqual({ route: key(route), handlers: 1 });
  });

  it('proxies the routes with an rpc from their declaration: params, query and body merged, the declared status', async () => {
    expect(RPC_ROUTES.length).toBeGreaterThan(20);
    const id = randomUUID();
    calls.length = 0;
    const updated = await app.inject({ method: 'PUT', url: `/api/v1/user_memory/${id}`, payload: { text: 'Lives in Porto' } });
    expect({ status: updated.statusCode, body: updated.json() }).toEqual({ status: 200, body: { answered: MEMORY_RPC.update.subject } });
    const removed = await app.inject({ method: 'DELETE', url: `/api/v1/user_memory/${id}` });
    expect({ status: removed.statusCode, body: removed.body }).toEqual({ status: 204, body: '' });
    const listed = await app.inject({ method: 'GET', url: `/api/v1/user_memory/?source_chat_id=${id}` });
    expect(listed.statusCode).toBe(200);
    const created = await app.inject({ method: 'POST', url: '/api/v1/chats', payload: { conversation_title: 'x' } });
    expect(created.statusCode).toBe(201);
    const shared = await app.inject({ method: 'GET', url: `/api/v1/shared/${'s'.repeat(100)}` });
    expect(shared.statusCode).toBe(200);
    expect(calls).toEqual([
      { subject: MEMORY_RPC.update.subject, request: { user_memory_id: id, text: 'Lives in Porto' } },
      { subject: MEMORY_RPC.remove.subject, request: { user_memory_id: id } },
      { subject: MEMORY_RPC.list.subject, request: { user_preference_name: 'default', source_chat_id: id } },
      { subject: 'chat.conversation.create', request: { conversation_title: 'x' } },
      { subject: expect.any(String), request: { share_id: 's'.repeat(64), limit: 50 } },
    ]);
  });

  it('checks each part against the declaration before calling: 422 naming the field, nothing called', async () => {
    calls.length = 0;
    const badId = await app.inject({ method: 'PUT', url: '/api/v1/user_memory/not-an-id', payload: { text: 'x' } });
    expect({ status: badId.statusCode, detail: badId.json().detail }).toEqual({
      status: 422,
      detail: expect.stringMatching(/^user_memory_id: /),
    });
    const badBody = await app.inject({ method: 'PUT', url: `/api/v1/user_memory/${randomUUID()}`, payload: { text: 42 } });
    expect({ status: badBody.statusCode, detail: badBody.json().detail }).toEqual({
      status: 422,
      detail: expect.stringMatching(/^text: /),
    });
    expect(calls).toEqual([]);
  });
});
