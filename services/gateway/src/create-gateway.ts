import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Runtime } from '@app/platform';
import { DomainError, runWithRequestContext } from '@app/platform';
import type { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import { HttpErrorFilter, sendFailure } from './http/http-errors';
import { RateLimiter } from './http/rate-limit';
import { echoRequestHeaders, readRequestState } from './http/request-context';
import { applySecurityHeaders, contentSecurityPolicy } from './http/security-headers';
import { WebAssets } from './web/web-assets';

export interface Gateway {
  app: NestFastifyApplication;
  /** Every route registered, as `METHOD path` (for the contract test and the docs). */
  routes: string[];
  url(): string;
  close(): Promise<void>;
}

/** Builds the gateway on a runtime: Fastify, the /api/v1 surface, errors as `{detail}`, the web client. */
export interface GatewayOptions {
  /** Extra Nest modules mounted beside the gateway's own (benchmarks and plumbing tests). */
  extraModules?: Type<unknown>[];
}

export async function createGateway(runtime: Runtime, config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const logger = runtime.logger.child('gateway');
  const adapter = new FastifyAdapter({
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    logger: false,
  });
  const fastify = adapter.getInstance();
  fastify.decorate(
    'contentSecurityPolicy',
    contentSecurityPolicy({ google: Boolean(config.GOOGLE_CLIENT_ID), apple: Boolean(config.APPLE_SERVICE_ID), firebase: Boolean(config.FIREBASE_PROJECT_ID) }),
  );
  const routes: string[] = [];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });

  const limiter = new RateLimiter(runtime.kv, config.RATE_LIMIT_PER_MINUTE);
  const blocked = new Set(config.BLOCKED_COUNTRIES);
  fastify.addHook('onRequest', (request, reply, done) => {
    request.state = readRequestState(request);
    runWithRequestContext({ request_id: request.state.requestId }, () => {
      if (!request.url.startsWith('/api/v1/')) return done();
      const country = config.REGION_HEADER ? request.headers[config.REGION_HEADER] : undefined;
      if (typeof country === 'string' && blocked.has(country.trim().toUpperCase())) {
        return sendFailure(request, reply, new DomainError('forbidden', 'The assistant is not available in your region.', 451), logger);
      }
      limiter.check(request).then(
        (retryAfter) => {
          if (retryAfter === null) return done();
          reply.header('retry-after', String(retryAfter));
          sendFailure(request, reply, { statusCode: 429 }, logger);
        },
        (error: unknown) => done(error as Error),
      );
    });
  });
  fastify.addHook('onSend', async (request, reply) => {
    echoRequestHeaders(request, reply);
    applySecurityHeaders(request, reply);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path === '/healthz' || path === '/readyz') return;
    const ms = Math.round(performance.now() - (request.state?.startedAt ?? performance.now()));
    // The path only: query strings may carry one-time codes.
    runWithRequestContext({ request_id: request.state?.requestId ?? String(request.id) }, () =>
      logger.log(
        { msg: `${request.method} ${path} ${reply.statusCode} ${ms}ms`, status: reply.statusCode, ms, user_label: request.state?.userLabel ?? undefined },
        'Http',
      ),
    );
  });

  await fastify.register((await import('@fastify/cookie')).default);
  // Uploads (POST /api/v1/files/): read as a stream, part by part, never as one body; the limits
  // are set per request (see files/upload-relay.ts), JSON keeps BODY_LIMIT_BYTES.
  await fastify.register((await import('@fastify/multipart')).default, { limits: { files: 1, fields: 10, fieldSize: 4096, parts: 20 } });

  const web = new WebAssets(config.WEB_DIST_DIR);
  await web.register(fastify);

  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(runtime, config, logger, options.extraModules ?? []), adapter, {
    logger,
    bodyParser: true,
  });
  app.useGlobalFilters(new HttpErrorFilter(logger, web));
  app.enableShutdownHooks([]);
  await app.init();
  // Fastify answers 429 above with statusCode; map the status words once here.
  await app.listen({ port: config.PORT, host: config.HOST });
  return {
    app,
    routes,
    url: () => {
      const address = fastify.server.address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
      return `http://${host}:${port}`;
    },
    close: () => app.close(),
  };
}
