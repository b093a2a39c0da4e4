import type { Caller } from '@app/contracts';
import { CHAT_RPC } from '@app/contracts/chat';
import { FILES_RPC } from '@app/contracts/files';
import { INSIDER_CONFIG_RPC } from '@app/contracts/insider-config';
import { ACCOUNT_DELETED, RpcCallError, RpcClient } from '@app/platform';
import { TRANSPORTS } from '@app/testing';
import { ApiClient } from '../support/api-client';
import { startTestStack, type TestStack } from '../support/test-stack';

/**
 * Nothing is written for a user who no longer exists (issue 11, High 2). The gateway already refuses
 * a deleted account's token (its sessions end in the deletion's transaction); this is the layer under
 * it: a request that was past the gateway when the account went, arriving at a service after its
 * purge, is refused there (401) under the same per-user lock as the purge, so it cannot leave rows
 * behind that nobody owns.
 */
describe.each(TRANSPORTS)('writes for a deleted account over the %s transport', (transport) => {
  let test: TestStack;
  let rpc: RpcClient;

  beforeAll(async () => {
    test = await startTestStack(`deleted-writes-${transport}`, transport, { ACCOUNT_DELETION_WAIT_MS: '15000' });
    rpc = RpcClient.forRuntime(test.stack.runtime);
  });
  afterAll(() => test?.close());

  async function refusal(call: Promise<unknown>): Promise<{ status: number; detail: string }> {
    const error = await call.then(
      () => new Error('the call succeeded'),
      (caught: unknown) => caught,
    );
    if (!(error instanceof RpcCallError)) throw error;
    return { status: error.shape.status, detail: error.shape.detail };
  }

  it('refuses, in every service that creates rows for a user, a write that arrives after the purge', async () => {
    const api = new ApiClient(test.stack.url);
    await api.guest();
    const me = await api.get('/api/v1/auth/me').expect(200);
    const caller: Caller = { user_id: me.body.user_id, is_anon: true, session_id: null, request_id: 'late-write' };
    // Before the deletion the same calls are accepted: the refusal below is about the account, not the call.
    await rpc.call(CHAT_RPC.create, { conversation_title: 'before' }, caller);

    await api.delete('/api/v1/users/me').expect(204);

    const refused = { status: 401, detail: ACCOUNT_DELETED };
    expect(await refusal(rpc.call(CHAT_RPC.create, { conversation_title: 'after' }, caller))).toEqual(refused);
    expect(await refusal(rpc.call(FILES_RPC.uploadBegin, { filename: 'late.txt', declared_type: 'text/plain' }, caller))).toEqual(refused);
    expect(await refusal(rpc.call(INSIDER_CONFIG_RPC.setVoice, { min_chars: 120 }, caller))).toEqual(refused);
    // Insider mode and flags write the same row of the insider-config service: refused too.
    expect(await refusal(rpc.call(INSIDER_CONFIG_RPC.setStatus, { is_insider_enabled: true }, caller))).toEqual(refused);
    expect((await refusal(rpc.call(INSIDER_CONFIG_RPC.setFlags, { enable_ko_search: true }, caller))).status).toBeGreaterThanOrEqual(400);

    const rows = await test.db.query(
      `SELECT (SELECT count(*)::int FROM chat.conversation WHERE user_id = $1) AS conversations,
              (SELECT count(*)::int FROM files.upload_session WHERE user_id = $1) AS uploads,
              (SELECT count(*)::int FROM insider_config.voice_config WHERE user_id = $1) AS voice,
              (SELECT count(*)::int FROM insider_config.insider_status WHERE user_id = $1) AS insider`,
      [caller.user_id],
    );
    expect(rows.rows[0]).toEqual({ conversations: 0, uploads: 0, voice: 0, insider: 0 });
  });
});
