import { TRANSPORTS } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, binary, eventually } from '../support/api-client';
import { postStream } from '../support/sse';

// Long enough that no test's own waiting (memory extraction on a loaded machine) outlasts it; the
// expiry test moves a chat's end into the past instead of waiting for it.
const TTL_SECONDS = 600;

/**
 * Temporary chats (issue 25, part 4) through the gateway, on both transports, with the offline model
 * and the offline memory extractor: not listed, not searched, not personalized, not learnt from (no
 * exchange event is written, so none reaches memory), deleted when closed or once its time is up.
 */
describe.each(TRANSPORTS)('temporary chats over the %s transport', (transport) => {
  let booted: TestStack;
  let url: string;

  beforeAll(async () => {
    booted = await startTestStack('temporary', transport, {
      CHAT_TEMPORARY_CHAT_TTL_SECONDS: String(TTL_SECONDS),
      CHAT_TEMPORARY_SWEEP_MS: '200',
    });
    url = booted.stack.url;
  });
  afterAll(() => booted?.close());

  const guest = async () => {
    const api = new ApiClient(url);
    await api.guest();
    return api;
  };
  const exchange = async (api: ApiClient, chatId: string, content: string) => {
    const { events } = await postStream(`${url}/api/v1/chats/${chatId}/messages`, api.token!, { content });
    return {
      userMessageId: events.find((e) => e.event === 'user_message')!.data.message_id as string,
      replyId: events.find((e) => e.event === 'assistant_message')!.data.message_id as string,
      phases: events.filter((e) => e.event === 'phase').map((e) => e.data.phase as string),
    };
  };

  it('keeps a temporary chat out of the search and memory, flagged in the list; an ordinary one is learnt from', async () => {
    const api = await guest();
    const temporary = (await api.post('/api/v1/chats/', { temporary: true }).expect(201)).body;
    expect(temporary).toMatchObject({ temporary: true });
    expect(Date.parse(temporary.expires_at) - Date.now()).toBeLessThanOrEqual(TTL_SECONDS * 1000);
    const secret = await exchange(api, temporary.chat_id, 'I am allergic to kumquats.');
    expect(secret.phases).not.toContain('personalizing');
    const ordinary = (await api.post('/api/v1/chats/', {}).expect(201)).body;
    expect(ordinary).toMatchObject({ temporary: false, expires_at: null });
    await exchange(api, ordinary.chat_id, 'I am allergic to peanuts.');

    // Checked first, while it lasts (a busy machine can take longer than its window to learn from the other).
    // Listed with its flag, for the client to keep it out of the sidebar and show it as temporary.
    const listed = (await api.get('/api/v1/chats/').expect(200)).body as { chat_id: string; temporary: boolean }[];
    expect(listed.map((c) => [c.chat_id, c.temporary])).toEqual([
      [ordinary.chat_id, false],
      [temporary.chat_id, true],
    ]);
    expect((await api.get('/api/v1/chats/search?q=kumquats').expect(200)).body.results).toEqual([]);
    // Its owner still reads it while it lasts.
    expect((await api.get(`/api/v1/chats/${temporary.chat_id}`).expect(200)).body.messages).toHaveLength(2);

    // The ordinary exchange is learnt from; by then the temporary one would have been too.
    const memories = await eventually(async () => {
      const list = (await api.get('/api/v1/user_memory/').expect(200)).body as { text: string }[];
      return list.some((m) => /peanut/i.test(m.text)) ? list : undefined;
    }, 30_000);
    expect(memories.map((m) => m.text).join(' ')).not.toMatch(/kumquat/i);
    // No exchange event was ever written for it (the outbox is where every event starts).
    const { rows } = await booted.db.query('SELECT count(*)::int AS n FROM chat.outbox WHERE event_id = $1', [
      `exchange:${secret.replyId}`,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('deletes a temporary chat once its time is up, messages and all', async () => {
    const api = await guest();
    const temporary = (await api.post('/api/v1/chats/', { temporary: true }).expect(201)).body;
    await exchange(api, temporary.chat_id, 'Just between us.');
    // Its window, as the chat service set it, has passed (the time moves, not the test's clock).
    await booted.db.query("UPDATE chat.conversation SET expires_at = now() - interval '1 second' WHERE id = $1", [temporary.chat_id]);
    await eventually(async () => ((await api.get(`/api/v1/chats/${temporary.chat_id}`)).status === 404 ? true : undefined), 30_000);
    const { rows } = await booted.db.query(
      'SELECT (SELECT count(*) FROM chat.conversation WHERE id = $1)::int AS c, (SELECT count(*) FROM chat.message WHERE chat_id = $1)::int AS m',
      [temporary.chat_id],
    );
    expect(rows[0]).toEqual({ c: 0, m: 0 });
  });

  it('deletes a temporary chat when it is closed, and another user cannot touch it', async () => {
    const owner = await guest();
    const other = await guest();
    const temporary = (await owner.post('/api/v1/chats/', { temporary: true }).expect(201)).body;
    await other.get(`/api/v1/chats/${temporary.chat_id}`).expect(404);
    await other.delete(`/api/v1/chats/${temporary.chat_id}`).expect(404);
    await owner.delete(`/api/v1/chats/${temporary.chat_id}`).expect(204);
    await owner.get(`/api/v1/chats/${temporary.chat_id}`).expect(404);
  });

  it('refuses to share a temporary chat, with a reason; an ordinary one is shared', async () => {
    const api = await guest();
    const temporary = (await api.post('/api/v1/chats/', { temporary: true }).expect(201)).body;
    await exchange(api, temporary.chat_id, 'Nobody else should read this.');
    const refused = await api.post(`/api/v1/chats/${temporary.chat_id}/share`).expect(409);
    expect(refused.body.detail).toMatch(/temporary chat cannot be shared/i);
    const { rows } = await booted.db.query('SELECT count(*)::int AS n FROM chat.share WHERE chat_id = $1', [temporary.chat_id]);
    expect(rows[0].n).toBe(0);
    const ordinary = (await api.post('/api/v1/chats/', {}).expect(201)).body;
    await api.post(`/api/v1/chats/${ordinary.chat_id}/share`).expect(201);
  });

  it('says in the export that temporary chats are not kept', async () => {
    const api = await guest();
    const zip = await binary(api.get('/api/v1/users/me/export'));
    const chat = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json']));
    expect(chat.temporary_chats).toEqual([
      expect.objectContaining({ kept: false, note: expect.stringMatching(/^Temporary chats are not kept/) }),
    ]);
  });

  it('refuses a temporary flag that is not a boolean', async () => {
    const api = await guest();
    await api.post('/api/v1/chats/', { temporary: 'yes' }).expect(422);
  });
});
