import { Body, Controller, Delete, Get, Param, Post, Req, Res } from '@nestjs/common';
import { SERVICE_NAMES, userExportContract } from '@app/contracts';
import { AUTH_RPC, CreateInviteBodySchema } from '@app/contracts/auth';
import { RpcClient } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { strToU8 } from 'fflate';
import { Public } from '../auth/auth.decorators';
import { clearAccessTokenCookie } from '../auth/cookies';
import { sendZipStream, storedFileEntries, type ExportEntry } from '../files/export-zip';
import { callerOf } from '../http/request-context';
import { ZodPipe } from '../http/zod-validation';

const EXPORT_README = `Everything the assistant holds about you, one file per part of the product.
Each file lists rows by table, exactly as stored. Times are in UTC.
Your attached and generated files are under files/, named <id>-<name>.
`;

/** The caller's data rights (export, deletion) and the account-level extras (invites, campaigns). */
@Controller('api/v1')
export class AccountController {
  constructor(private readonly rpc: RpcClient) {}

  /** One zip: every service answers for its own data. */
  @Get('users/me/export')
  async export(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const caller = callerOf(request);
    const parts = await Promise.all(
      SERVICE_NAMES.map(async (service) => [service, await this.rpc.call(userExportContract(service), { user_id: caller.user_id! }, caller, { timeoutMs: 30_000 })] as const),
    );
    const entries: ExportEntry[] = [{ name: 'README.txt', data: strToU8(EXPORT_README) }];
    for (const [service, part] of parts) entries.push({ name: `${service}.json`, data: strToU8(JSON.stringify(part.tables, null, 2)) });
    // The files' bytes, streamed into the zip one by one (the rows are in files.json).
    const stored = parts.find(([service]) => service === 'files')?.[1].tables.file_object ?? [];
    entries.push(...storedFileEntries(this.rpc, caller, stored));
    const day = new Date().toISOString().slice(0, 10);
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="assistant-export-${day}.zip"`)
      .header('cache-control', 'no-store');
    return sendZipStream(reply, entries);
  }

  /** 204 once every service has purged; 202 while some still have to (the deletion goes on). */
  @Delete('users/me')
  async delete(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const result = await this.rpc.call(AUTH_RPC.deleteAccount, {}, callerOf(request), { timeoutMs: 30_000 });
    clearAccessTokenCookie(request, reply);
    if (result.status === 'deleted') return reply.status(204).send();
    return reply.status(202).send({ detail: 'Your account is being deleted. This finishes on its own within a few minutes.' });
  }

  @Post('invites')
  createInvite(@Body(new ZodPipe(CreateInviteBodySchema)) body: ReturnType<typeof CreateInviteBodySchema.parse>, @Req() request: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.createInvite, body, callerOf(request));
  }

  @Get('campaigns/:campaign_name')
  @Public()
  campaign(@Param('campaign_name') campaignName: string, @Req() request: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.campaign, { campaign_name: campaignName.slice(0, 64) }, callerOf(request));
  }
}
