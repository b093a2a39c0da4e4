import { Public } from '@app/platform';
import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ReadinessQuerySchema } from '@app/contracts/gateway';
import type { z } from 'zod';
import { ZodPipe } from '../http/zod-validation';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ReadinessService } from './readiness.service';

@Public()
@Controller()
export class HealthController {
  constructor(private readonly readinessService: ReadinessService) {}

  /** Alive: the process answers. Never touches a dependency. */
  @Get('healthz')
  @Header('cache-control', 'no-store')
  liveness() {
    return { status: 'ok' as const };
  }

  /** Ready: 200 when every dependency answers, 503 with the failing checks otherwise. */
  @Get('readyz')
  @Header('cache-control', 'no-store')
  async readiness(@Query(new ZodPipe(ReadinessQuerySchema)) query: z.output<typeof ReadinessQuerySchema>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await this.readinessService.check(request.state.requestId, query.scope);
    reply.status(result.status === 'ready' ? 200 : 503);
    return result;
  }
}
