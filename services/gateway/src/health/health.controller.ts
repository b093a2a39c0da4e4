import { Controller, Header, Req, Res } from '@nestjs/common';
import { API } from '@app/contracts/gateway';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Route, ValidQuery, type QueryOf } from '../http/route';
import { ReadinessService } from './readiness.service';

@Controller()
export class HealthController {
  constructor(private readonly readinessService: ReadinessService) {}

  /** Alive: the process answers. Never touches a dependency. */
  @Route(API.operations.liveness)
  @Header('cache-control', 'no-store')
  liveness() {
    return { status: 'ok' as const };
  }

  /** Ready: 200 when every dependency answers, 503 with the failing checks otherwise. */
  @Route(API.operations.readiness)
  @Header('cache-control', 'no-store')
  async readiness(
    @ValidQuery() query: QueryOf<typeof API.operations.readiness>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.readinessService.check(request.state.requestId, query.scope);
    reply.status(result.status === 'ready' ? 200 : 503);
    return result;
  }
}
