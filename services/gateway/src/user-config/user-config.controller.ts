import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import {
  AiVoiceConfigUpdateSchema,
  INSIDER_CONFIG_RPC,
  InsiderFlagsUpdateSchema,
  InsiderModeBodySchema,
  type AiVoiceConfigUpdate,
  type InsiderFlagsUpdate,
  type InsiderModeBody,
} from '@app/contracts/insider-config';
import { RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { callerOf } from '../http/request-context';
import { ZodPipe } from '../http/zod-validation';

/** The caller's own settings: insider mode, insider flags, AI voice (guests included). */
@Controller('api/v1/user_config')
export class UserConfigController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('insider-mode')
  insiderMode(@Req() request: FastifyRequest) {
    return this.rpc.call(INSIDER_CONFIG_RPC.getStatus, {}, callerOf(request));
  }

  @Post('insider-mode')
  @HttpCode(200)
  setInsiderMode(@Body(new ZodPipe(InsiderModeBodySchema)) body: InsiderModeBody, @Req() request: FastifyRequest) {
    return this.rpc.call(INSIDER_CONFIG_RPC.setStatus, body, callerOf(request));
  }

  @Get('insider-mode/insider-flags')
  insiderFlags(@Req() request: FastifyRequest) {
    return this.rpc.call(INSIDER_CONFIG_RPC.getFlags, {}, callerOf(request));
  }

  @Post('insider-mode/insider-flags')
  @HttpCode(200)
  setInsiderFlags(@Body(new ZodPipe(InsiderFlagsUpdateSchema)) body: InsiderFlagsUpdate, @Req() request: FastifyRequest) {
    return this.rpc.call(INSIDER_CONFIG_RPC.setFlags, body, callerOf(request));
  }

  @Get('ai-voice')
  aiVoice(@Req() request: FastifyRequest) {
    return this.rpc.call(INSIDER_CONFIG_RPC.getVoice, {}, callerOf(request));
  }

  @Post('ai-voice')
  @HttpCode(200)
  setAiVoice(@Body(new ZodPipe(AiVoiceConfigUpdateSchema)) body: AiVoiceConfigUpdate, @Req() request: FastifyRequest) {
    return this.rpc.call(INSIDER_CONFIG_RPC.setVoice, body, callerOf(request));
  }
}
