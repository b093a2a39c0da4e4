import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Runtime } from '@app/platform';
import type { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import { registerAccessLog } from './http/access-log.hook';
import { registerApiCacheControl } from './http/cache-control.hook';
import { registerClosingRefusal } from './http/closing.hook';
import { answerClientError, frameworkErrorHandler, HttpErrorFilter } from './http/http-errors';
import { useBoundedJsonBodies } from './http/json-body';
import { registerRateLimitHook } from './http/rate-limit.hook';
import { registerRegionBlock } from './http/region-block.hook';
import { registerRequestState } from './http/request-state.hook';
import { registerResponseHeaders } from './http/response-headers.hook';
import { RouteParamsInterceptor } from './http/route-params';
import { registerRoutePolicy } from './http/route-policy';
import { collectRoutes } from './http/route-list.hook';
import { contentSecurityPolicy } from './http/security-headers';
import { WebAssets } from './web/web-assets';
import { BuildInfo } from './version/build-info';

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
  // refusals (clientErrorHandler) and the 503 while closing (http/closing.hook.ts).
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
  const routes = collectRoutes(fastify);

  // The edge, one concern per file (http/*.hook.ts), in the order a request meets them.
  registerRequestState(fastify);
  registerClosingRefusal(fastify, logger);
  registerRegionBlock(fastify, { header: config.REGION_HEADER, blocked: config.BLOCKED_COUNTRIES, logger });
  await registerRateLimitHook(fastify, {
    perMinute: config.RATE_LIMIT_PER_MINUTE,
    redisUrl: runtime.env.REDIS_URL,
    prefix: runtime.env.BUS_PREFIX ?? '',
    logger,
  });
  // Each declared route's own rules (texting routes refuse other sites, bodies of the declared media type only).
  registerRoutePolicy(fastify, { publicUrl: config.PUBLIC_URL, logger });
  registerResponseHeaders(fastify);
  registerApiCacheControl(fastify);
  registerAccessLog(fastify, logger);

  await fastify.register((await import('@fastify/cookie')).default);
  // Uploads (POST /api/v1/files/): read as a stream, part by part, never as one body; the limits
  // are set per request (see files/upload-relay.ts), JSON keeps BODY_LIMIT_BYTES.
  await fastify.register((await import('@fastify/multipart')).default, { limits: { files: 1, fields: 10, fieldSize: 4096, parts: 20 } });

  const web = new WebAssets(config.WEB_DIST_DIR, new BuildInfo(config.GIT_COMMIT).commit);
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
