import { Controller, Inject, Req, Res } from '@nestjs/common';
import { FILES_RPC } from '@app/contracts/files';
import { API } from '@app/contracts/gateway';
import { RpcClient } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { callerOf } from '../http/request-context';
import { Route, ValidParams, ValidQuery, type ParamsOf, type QueryOf } from '../http/route';
import { GATEWAY_CONFIG } from '../tokens';
import { sendFileStream } from './file-response';
import { relayUpload } from './upload-relay';

/** File attachments (issue 7): the upload and the bytes, both streamed (signed links are a plain proxy). */
@Controller()
export class FilesController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Multipart, field `file`; streamed to the files service in chunks (see relayUpload). */
  @Route(API.files.upload)
  upload(@Req() request: FastifyRequest) {
    return relayUpload(request, this.rpc, callerOf(request));
  }

  /**
   * Public as a route: a signed link needs no token. The files service decides: the owner (bearer
   * token, or the access_token cookie of this path) or a valid signature; nobody at all is a 401.
   */
  @Route(API.files.view)
  async view(
    @ValidParams() params: ParamsOf<typeof API.files.view>,
    @ValidQuery() query: QueryOf<typeof API.files.view>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const frames = this.rpc.stream(FILES_RPC.read, { ...params, ...query }, callerOf(request), {
      timeoutMs: this.config.STREAM_IDLE_TIMEOUT_MS,
    });
    return sendFileStream(reply, frames);
  }
}
