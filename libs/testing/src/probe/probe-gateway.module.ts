import { Body, Controller, Get, HttpCode, Module, Post, Query, Req } from '@nestjs/common';
import { systemCaller } from '@app/contracts';
import { Public, RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PROBE } from './probe.contracts';

/** Routes under /api/v1/probe that reach the probe service, for plumbing tests and the benchmark. */
@Public()
@Controller('api/v1/probe')
class ProbeController {
  constructor(private readonly rpc: RpcClient) {}

  /** The gateway puts its request state on the request (see services/gateway http/request-context). */
  private caller(request: FastifyRequest) {
    const { state } = request as FastifyRequest & { state: { requestId: string; sessionId: string | null } };
    return { ...systemCaller(state.requestId), session_id: state.sessionId };
  }

  /** The same answer as `echo`, given by the gateway itself: the benchmark's baseline. */
  @Get('local')
  local(@Query('text') text = 'pong') {
    return { text, request_id: 'local', user_id: null };
  }

  @Get('echo')
  echoGet(@Query('text') text = 'pong', @Req() request: FastifyRequest) {
    return this.rpc.call(PROBE.echo, { text }, this.caller(request));
  }

  @Post('echo')
  @HttpCode(200)
  echo(@Body() body: unknown, @Req() request: FastifyRequest) {
    const data = z
      .object({ text: z.string().min(1).max(1000) })
      .strict()
      .parse(body);
    return this.rpc.call(PROBE.echo, data, this.caller(request));
  }

  /** Sends the body unchecked, so the service's own validation answers. */
  @Post('echo-unchecked')
  @HttpCode(200)
  echoUnchecked(@Body() body: unknown, @Req() request: FastifyRequest) {
    return this.rpc.call(PROBE.echo, body as { text: string }, this.caller(request));
  }

  @Post('fail')
  @HttpCode(200)
  fail(@Body() body: { kind: 'domain' | 'unexpected'; status?: number; detail?: string }, @Req() request: FastifyRequest) {
    return this.rpc.call(PROBE.fail, body, this.caller(request));
  }

  @Get('slow')
  slow(@Query('ms') ms: string, @Query('timeout') timeout: string, @Req() request: FastifyRequest) {
    return this.rpc.call(PROBE.slow, { ms: Number(ms) }, this.caller(request), { timeoutMs: Number(timeout) || undefined });
  }

  @Get('nobody')
  nobody(@Req() request: FastifyRequest) {
    return this.rpc.call({ ...PROBE.echo, subject: 'nobody.echo.run' }, { text: 'hello?' }, this.caller(request), { timeoutMs: 2000 });
  }

  @Get('stream')
  async stream(@Query('count') count: string, @Query('fail_at') failAt: string | undefined, @Req() request: FastifyRequest) {
    const chunks: number[] = [];
    const request_ = { count: Number(count), ...(failAt !== undefined ? { fail_at: Number(failAt) } : {}) };
    for await (const chunk of this.rpc.stream(PROBE.stream, request_, this.caller(request))) chunks.push(chunk.index);
    return { chunks };
  }

  @Post('events')
  @HttpCode(202)
  publish(@Body() body: { note: string; event_id?: string; fail_times?: number }, @Req() request: FastifyRequest) {
    return this.rpc.call(PROBE.publish, body, this.caller(request));
  }

  @Get('events')
  received(@Req() request: FastifyRequest) {
    return this.rpc.call(PROBE.received, {}, this.caller(request));
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeGatewayModule {}
