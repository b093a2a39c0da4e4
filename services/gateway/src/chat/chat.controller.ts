import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import {
  CHAT_RPC,
  CreateConversationBodySchema,
  FeedbackBodySchema,
  MessagesQuerySchema,
  SendMessageBodySchema,
  UpdateConversationBodySchema,
} from '@app/contracts/chat';
import { AppLogger, Public, RpcClient } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { GatewayConfig } from '../config';
import { callerOf } from '../http/request-context';
import { ZodPipe } from '../http/zod-validation';
import { GATEWAY_CONFIG } from '../tokens';
import { sendEventStream } from './event-stream';

/** Conversations, messages and the reply stream (DESIGN section 4). */
@Controller('api/v1')
export class ChatController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly logger: AppLogger,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('chats')
  list(@Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.list, {}, callerOf(request));
  }

  @Post('chats')
  create(@Body(new ZodPipe(CreateConversationBodySchema)) body: z.output<typeof CreateConversationBodySchema>, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.create, body, callerOf(request));
  }

  @Get('chats/:chat_id')
  get(@Param('chat_id') chatId: string, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.get, { chat_id: chatId }, callerOf(request));
  }

  @Patch('chats/:chat_id')
  update(@Param('chat_id') chatId: string, @Body(new ZodPipe(UpdateConversationBodySchema)) body: z.output<typeof UpdateConversationBodySchema>, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.update, { chat_id: chatId, ...body }, callerOf(request));
  }

  @Delete('chats/:chat_id')
  @HttpCode(204)
  async remove(@Param('chat_id') chatId: string, @Req() request: FastifyRequest) {
    await this.rpc.call(CHAT_RPC.remove, { chat_id: chatId }, callerOf(request));
  }

  @Get('messages/all_user_messages')
  messages(@Query(new ZodPipe(MessagesQuerySchema)) query: z.output<typeof MessagesQuerySchema>, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.messages, { chat_ids: query.chat_ids }, callerOf(request));
  }

  @Post('chats/:chat_id/messages')
  send(
    @Param('chat_id') chatId: string,
    @Body(new ZodPipe(SendMessageBodySchema)) body: z.output<typeof SendMessageBodySchema>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const events = this.rpc.stream(CHAT_RPC.send, { chat_id: chatId, ...body }, callerOf(request), { timeoutMs: this.config.STREAM_IDLE_TIMEOUT_MS });
    return sendEventStream(request, reply, events, this.logger);
  }

  @Post('messages/:message_id/regenerate')
  regenerate(@Param('message_id') messageId: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const events = this.rpc.stream(CHAT_RPC.regenerate, { message_id: messageId }, callerOf(request), { timeoutMs: this.config.STREAM_IDLE_TIMEOUT_MS });
    return sendEventStream(request, reply, events, this.logger);
  }

  @Post('messages/:message_id/stop')
  @HttpCode(200)
  stop(@Param('message_id') messageId: string, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.stop, { message_id: messageId }, callerOf(request));
  }

  @Put('messages/:message_id/feedback')
  feedback(@Param('message_id') messageId: string, @Body(new ZodPipe(FeedbackBodySchema)) body: z.output<typeof FeedbackBodySchema>, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.feedback, { message_id: messageId, ...body }, callerOf(request));
  }

  @Post('chats/:chat_id/share')
  share(@Param('chat_id') chatId: string, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.share, { chat_id: chatId }, callerOf(request));
  }

  @Delete('chats/:chat_id/share')
  unshare(@Param('chat_id') chatId: string, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.unshare, { chat_id: chatId }, callerOf(request));
  }

  @Get('shared/:share_id')
  @Public()
  shared(@Param('share_id') shareId: string, @Req() request: FastifyRequest) {
    return this.rpc.call(CHAT_RPC.shared, { share_id: shareId.slice(0, 64) }, callerOf(request));
  }
}
