import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  MEMORY_RPC,
  MemoryIdParamsSchema,
  MemoryListQuerySchema,
  UpdateMemoryBodySchema,
  type MemoryListQuery,
  type UpdateMemoryBody,
} from '@app/contracts/memory';
import { RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { callerOf } from '../http/request-context';
import { ZodPipe } from '../http/zod-validation';

type MemoryIdParams = z.output<typeof MemoryIdParamsSchema>;

/** The caller's long-term memories (spec section 7): list, edit, remove, and the undo of a removal. */
@Controller('api/v1/user_memory')
export class MemoryController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@Query(new ZodPipe(MemoryListQuerySchema)) query: MemoryListQuery, @Req() request: FastifyRequest) {
    return this.rpc.call(MEMORY_RPC.list, query, callerOf(request));
  }

  @Put(':user_memory_id')
  update(@Param(new ZodPipe(MemoryIdParamsSchema)) params: MemoryIdParams, @Body(new ZodPipe(UpdateMemoryBodySchema)) body: UpdateMemoryBody, @Req() request: FastifyRequest) {
    return this.rpc.call(MEMORY_RPC.update, { ...params, ...body }, callerOf(request));
  }

  @Delete(':user_memory_id')
  @HttpCode(204)
  async remove(@Param(new ZodPipe(MemoryIdParamsSchema)) params: MemoryIdParams, @Req() request: FastifyRequest) {
    await this.rpc.call(MEMORY_RPC.remove, params, callerOf(request));
  }

  @Post(':user_memory_id/restore')
  @HttpCode(200)
  restore(@Param(new ZodPipe(MemoryIdParamsSchema)) params: MemoryIdParams, @Req() request: FastifyRequest) {
    return this.rpc.call(MEMORY_RPC.restore, params, callerOf(request));
  }
}
