import { Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { FILES_RPC, PresignQuerySchema, ViewQuerySchema } from '@app/contracts/files';
import { Public, RpcClient } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { GatewayConfig } from '../config';
import { callerOf } from '../http/request-context';
import { ZodPipe } from '../http/zod-validation';
import { GATEWAY_CONFIG } from '../tokens';
import { sendFileStream } from './file-response';
import { relayUpload } from './upload-relay';

/** File attachments (issue 7): upload, signed links with previews, and the bytes. */
@Controller('api/v1/files')
export class FilesController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Multipart, field `file`; streamed to the files service in chunks (see relayUpload). */
  @Post()
  upload(@Req() request: FastifyRequest) {
    return relayUpload(request, this.rpc, callerOf(request));
  }

  @Get('presigned/:object_store_object_id')
  presigned(
    @Param('object_store_object_id') objectId: string,
    @Query(new ZodPipe(PresignQuerySchema)) query: z.output<typeof PresignQuerySchema>,
    @Req() request: FastifyRequest,
  ) {
    return this.rpc.call(FILES_RPC.presign, { object_store_object_id: objectId.slice(0, 128), ...query }, callerOf(request));
  }

  /**
   * Public as a route: a signed link needs no token. The files service decides: the owner (bearer
   * token, or the access_token cookie of this path) or a valid signature; nobody at all is a 401.
   */
  @Get('view/:object_store_object_id')
  @Public()
  async view(
    @Param('object_store_object_id') objectId: string,
    @Query(new ZodPipe(ViewQuerySchema)) query: z.output<typeof ViewQuerySchema>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const frames = this.rpc.stream(FILES_RPC.read, { object_store_object_id: objectId.slice(0, 128), ...query }, callerOf(request), {
      timeoutMs: this.config.STREAM_IDLE_TIMEOUT_MS,
    });
    return sendFileStream(reply, frames);
  }
}
