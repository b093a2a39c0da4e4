import { Public } from '@app/platform';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { HTTP_ROUTES } from '@app/contracts/gateway';
import type { FastifyReply } from 'fastify';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { BuildInfo } from '../version/build-info';
import { buildOpenApi } from './openapi';

const SWAGGER_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Assistant API</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#swagger-ui' });`;

/** `/api/docs`: Swagger UI over the OpenAPI description generated from the contracts. */
@Public()
@Controller('api/docs')
export class DocsController {
  private readonly document: Record<string, unknown>;

  constructor(build: BuildInfo) {
    this.document = buildOpenApi(HTTP_ROUTES, build.commit);
  }

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  page() {
    return PAGE;
  }

  @Get('openapi.json')
  openapi() {
    return this.document;
  }

  @Get('init.js')
  @Header('content-type', 'text/javascript; charset=utf-8')
  init() {
    return INIT;
  }

  @Get('assets/:file')
  async asset(@Param('file') file: string, @Res() reply: FastifyReply) {
    if (!SWAGGER_ASSETS.has(file)) return reply.status(404).send({ detail: 'Not Found' });
    const dir = dirname(require.resolve('swagger-ui-dist/package.json'));
    const body = await readFile(join(dir, file));
    return reply
      .header('content-type', file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(body);
  }
}
