import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_PREFIX } from '@app/contracts/gateway';
import type { Runtime } from '@app/platform';
import { DomainError, nameHttpServerSpan, platformMetrics, runWithRequestContext } from '@app/platform';
import type { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import { answerClientError, frameworkErrorHandler, HttpErrorFilter, sendFailure } from './http/http-errors';
import { useBoundedJsonBodies } from './http/json-body';
import { connectRateLimitRedis, registerRateLimits } from './http/rate-limit';
import { echoRequestHeaders, readRequestState } from './http/request-context';
import { RouteParamsInterceptor } from './http/route-params';
import { registerRoutePolicy } from './http/route-policy';
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
  const policy = contentSecurityPolicy({
    google: Boolean(config.GOOGLE_CLIENT_ID),
    apple: Boolean(config.APPLE_SERVICE_ID),
    firebase: Boolean(config.FIREBASE_PROJECT_ID),
  });
  // Every answer goes through the one mapping (`{detail}`, request id, security headers), also
  // those Fastify and Node give before any hook: router refusals (frameworkErrors), HTTP parser
  // refusals (clientErrorHandler) and the 503 while closing (answered by the onRequest hook below).
  const adapter = new FastifyAdapter({
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(logger, config.TRUST_PROXY),
    clientErrorHandler: (error, socket) => answerClientError(error, socket, policy),
    logger: false,
  });
  const fastify = adapter.getInstance();
  fastify.decorate('contentSecurityPolicy', policy);
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const routes: string[] = [];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });

  // The rate limit (@fastify/rate-limit) counts in Redis when the process has one, in memory otherwise.
  const limiterRedis = runtime.env.REDIS_URL ? await connectRateLimitRedis(runtime.env.REDIS_URL) : undefined;
  if (limiterRedis) fastify.addHook('onClose', async () => void (await limiterRedis.quit().catch(() => limiterRedis.disconnect())));
  const checkRateLimit = await registerRateLimits(fastify, {
    perMinute: config.RATE_LIMIT_PER_MINUTE,
    redis: limiterRedis,
    prefix: runtime.env.BUS_PREFIX ?? '',
    logger,
  });
  const blocked = new Set(config.BLOCKED_COUNTRIES);
  fastify.addHook('onRequest', (request, reply, done) => {
    request.state = readRequestState(request);
    nameHttpServerSpan(request.method, request.routeOptions.url);
    runWithRequestContext({ request_id: request.state.requestId }, () => {
      if (closing) {
        reply.header('connection', 'close').header('retry-after', '5');
        return sendFailure(request, reply, new DomainError('unavailable', 'The server is restarting, please try again shortly'), logger);
      }
      if (!request.url.startsWith(`${API_PREFIX}/`)) return done();
      const country = config.REGION_HEADER ? request.headers[config.REGION_HEADER] : undefined;
      if (typeof country === 'string' && blocked.has(country.trim().toUpperCase())) {
        return sendFailure(request, reply, new DomainError('forbidden', 'The assistant is not available in your region.', 451), logger);
      }
      checkRateLimit(request).then(
        ({ exceeded, headers }) => {
          for (const [name, value] of headers) reply.header(name, value);
          if (!exceeded) return done();
          sendFailure(request, reply, { statusCode: 429 }, logger);
        },
        (error: unknown) => done(error as Error),
      );
    });
  });
  // Each declared route's own rules (texting routes refuse other sites, bodies of the declared media type only).
  registerRoutePolicy(fastify, { publicUrl: config.PUBLIC_URL, logger });
  fastify.addHook('onSend', async (request, reply) => {
    echoRequestHeaders(request, reply);
    applySecurityHeaders(request, reply);
    // What the API answers is personal unless a route says otherwise (file bodies, the export...).
    if (request.url.startsWith(`${API_PREFIX}/`) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path === '/healthz' || path === '/readyz') return;
    // By route pattern, never the URL (ids would make a series per conversation).
    platformMetrics.recordHttp(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    const ms = Math.round(performance.now() - (request.state?.startedAt ?? performance.now()));
    // The path only: query strings may carry one-time codes.
    runWithRequestContext({ request_id: request.state?.requestId ?? String(request.id) }, () =>
      logger.log(
        {
          msg: `${request.method} ${path} ${reply.statusCode} ${ms}ms`,
          status: reply.statusCode,
          ms,
          user_label: request.state?.userLabel ?? undefined,
        },
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

  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(runtime, config, logger, options.extraModules ?? []),
    adapter,
    {
      logger,
      bodyParser: true,
    },
  );
  // JSON bodies nested deeper than MAX_JSON_DEPTH are refused (400) before they are parsed, on every route.
  useBoundedJsonBodies(app, config.BODY_LIMIT_BYTES);
  app.useGlobalFilters(new HttpErrorFilter(logger, web));
  app.useGlobalInterceptors(new RouteParamsInterceptor());
  // No Nest shutdown hooks: on SIGTERM they close the app and re-raise the signal (exit 143) before
  // the process's own graceful stop (drainGateway in main.ts and the embedded host) has run.
  await app.init();
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
