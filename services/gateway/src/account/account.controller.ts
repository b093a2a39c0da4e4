import { Controller, Req, Res } from '@nestjs/common';
import { SERVICE_NAMES, userExportContract } from '@app/contracts';
import { AUTH_RPC } from '@app/contracts/auth';
import { API } from '@app/contracts/gateway';
import { RpcClient } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { strToU8 } from 'fflate';
import { clearAccessTokenCookie } from '../auth/cookies';
import { sendZipStream, storedFileEntries, type ExportEntry } from '../files/export-zip';
import { callerOf } from '../http/request-context';
import { Route } from '../http/route';

const EXPORT_README = `Everything the assistant holds about you, one file per part of the product.
Each file lists rows by table, exactly as stored. Times are in UTC.
Your attached and generated files are under files/, named <id>-<name>.
`;

/** The caller's data rights: export and deletion (invites and campaigns are plain proxies, see RpcRoutesController). */
@Controller()
export class AccountController {
  constructor(private readonly rpc: RpcClient) {}

  /** One zip: every service answers for its own data. */
  @Route(API.account.export)
  async export(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const caller = callerOf(request);
    const parts = await Promise.all(
      SERVICE_NAMES.map(
        async (service) =>
          [service, await this.rpc.call(userExportContract(service), { user_id: caller.user_id! }, caller, { timeoutMs: 30_000 })] as const,
      ),
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
  @Route(API.account.delete)
  async delete(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const result = await this.rpc.call(AUTH_RPC.deleteAccount, {}, callerOf(request), { timeoutMs: 30_000 });
    clearAccessTokenCookie(request, reply);
    if (result.status === 'deleted') return reply.status(204).send();
    return reply.status(202).send({ detail: 'Your account is being deleted. This finishes on its own within a few minutes.' });
  }
}
