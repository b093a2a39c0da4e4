import { Controller, Inject, Req, Res } from '@nestjs/common';
import { CHAT_RPC } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { AppLogger, RpcClient } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { GatewayLifecycle } from '../health/lifecycle';
import { callerOf } from '../http/request-context';
import { Route, ValidBody, ValidParams, type BodyOf, type ParamsOf } from '../http/route';
import { GATEWAY_CONFIG } from '../tokens';
import { sendEventStream } from './event-stream';

/**
 * The reply streams (DESIGN section 4). The other chat routes are plain proxies to the chat
 * service, served from their declarations (RpcRoutesController).
 */
@Controller()
export class ChatController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly logger: AppLogger,
    private readonly lifecycle: GatewayLifecycle,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Route(API.chat.send)
  send(
    @ValidParams() params: ParamsOf<typeof API.chat.send>,
    @ValidBody() body: BodyOf<typeof API.chat.send>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const open = (signal: AbortSignal) =>
      this.rpc.stream(CHAT_RPC.send, { ...params, ...body }, callerOf(request), this.streamOptions(signal));
    return sendEventStream(request, reply, open, this.logger, this.lifecycle);
  }

  @Route(API.chat.regenerate)
  regenerate(@ValidParams() params: ParamsOf<typeof API.chat.regenerate>, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const open = (signal: AbortSignal) => this.rpc.stream(CHAT_RPC.regenerate, params, callerOf(request), this.streamOptions(signal));
    return sendEventStream(request, reply, open, this.logger, this.lifecycle);
  }

  /**
   * A live chat service accepts a stream in milliseconds: one that has not within
   * STREAM_ACCEPT_TIMEOUT_MS (it died or froze with the request) started nothing (it is told the
   * deadline), so the request goes once more, to another replica; else 503 with Retry-After. Once
   * accepted, the stream may go quiet for STREAM_IDLE_TIMEOUT_MS (a producer that dies is noticed
   * by its missing heartbeats within seconds).
   */
  private streamOptions(signal: AbortSignal) {
    return {
      timeoutMs: this.config.STREAM_IDLE_TIMEOUT_MS,
      acceptTimeoutMs: this.config.STREAM_ACCEPT_TIMEOUT_MS,
      retryUnaccepted: true,
      signal,
    };
  }
}
