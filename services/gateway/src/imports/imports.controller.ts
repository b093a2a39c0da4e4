import { Controller, Req } from '@nestjs/common';
import { API } from '@app/contracts/gateway';
import { RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { relayUpload } from '../files/upload-relay';
import { callerOf } from '../http/request-context';
import { Route } from '../http/route';

/**
 * Importing ChatGPT and Claude history (issue 25): the export zip goes up as any upload does (in
 * chunks to the files service, never whole), marked as an import so the files service takes a zip
 * and its own size limit (IMPORT_MAX_BYTES). Starting and following the import are plain proxies.
 */
@Controller()
export class ImportsController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(API.imports.upload)
  upload(@Req() request: FastifyRequest) {
    return relayUpload(request, this.rpc, callerOf(request), 'import');
  }
}
