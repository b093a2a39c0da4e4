import { randomUUID } from 'node:crypto';
import { Outbox, userDataController, type Bus } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { chatService } from './index';
import { chatMigrations } from './migrations';

const log = { warn: () => undefined, error: () => undefined };

type MergeHandlers = { merge(input: { event_id: string; payload: { from_user_id: string; into_user_id: string } }): Promise<void> };

/**
 * A guest signing in to an account whose rows clash with its own, on the chat's real tables: the
 * merge must not break on a unique index (it would be redelivered forever and move nothing), and
 * each clash is settled as the table declares (chatService.userData).
 */
describe("the chat's user data merged into an account (events.user.merged)", () => {
  let db: ServiceDatabase;
  let handlers: MergeHandlers;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'user-data-merge', schema: 'chat', migrations: chatMigrations });
    const Handlers = userDataController(chatService) as unknown as new (...args: unknown[]) => MergeHandlers;
    handlers = new Handlers(db.source, new Outbox(db.source, {} as Bus, log));
  });
  afterAll(() => db?.drop());

  const server = (userId: string, name: string) =>
    db.source.query("INSERT INTO mcp_server (id, user_id, name, url) VALUES ($1, $2, $3, 'https://mcp.example/') RETURNING id", [
      randomUUID(),
      userId,
      name,
    ]);
  const imported = async (userId: string, sourceId: string) => {
    const chatId = randomUUID();
    await db.source.query('INSERT INTO conversation (id, user_id, title) VALUES ($1, $2, $3)', [chatId, userId, sourceId]);
    await db.source.query(
      "INSERT INTO imported_conversation (user_id, source, source_id, chat_id, import_id) VALUES ($1, 'chatgpt', $2, $3, $4)",
      [userId, sourceId, chatId, randomUUID()],
    );
    return chatId;
  };
  const job = async (userId: string, status: string) => {
    const id = randomUUID();
    await db.source.query(
      "INSERT INTO import_job (id, user_id, object_id, filename, requested_source, status) VALUES ($1, $2, $3, 'export.zip', 'auto', $4)",
      [id, userId, randomUUID(), status],
    );
    return id;
  };
  const merge = (from: string, into: string, eventId = randomUUID()) =>
    handlers.merge({ event_id: eventId, payload: { from_user_id: from, into_user_id: into } });

  it('keeps the account’s own where the guest has the same (MCP server name, imported conversation), and moves the rest', async () => {
    const [account, guest] = [randomUUID(), randomUUID()];
    const [[accountNotes]] = [await server(account, 'Notes')];
    await server(guest, 'notes');
    await server(guest, 'Calendar');
    const accountChat = await imported(account, 'cg-1');
    const guestCopy = await imported(guest, 'cg-1');
    const guestOnly = await imported(guest, 'cg-2');

    const eventId = randomUUID();
    await merge(guest, account, eventId);
    await merge(guest, account, eventId); // redelivered: nothing twice

    const servers = await db.source.query('SELECT id, name FROM mcp_server WHERE user_id = $1 ORDER BY name', [account]);
    expect(servers).toEqual([
      { id: expect.any(String), name: 'Calendar' },
      { id: accountNotes.id, name: 'Notes' },
    ]);
    const keys = await db.source.query('SELECT source_id, chat_id FROM imported_conversation WHERE user_id = $1 ORDER BY source_id', [
      account,
    ]);
    expect(keys).toEqual([
      { source_id: 'cg-1', chat_id: accountChat },
      { source_id: 'cg-2', chat_id: guestOnly },
    ]);
    // The guest's copy of the conversation is the account's now (the export's key stays with the account's own).
    expect(await db.source.query('SELECT user_id FROM conversation WHERE id = $1', [guestCopy])).toEqual([{ user_id: account }]);
    for (const table of ['mcp_server', 'imported_conversation', 'conversation'])
      expect(await db.source.query(`SELECT 1 FROM ${table} WHERE user_id = $1`, [guest])).toEqual([]);
  });

  it('stops the guest’s import under way when the account has one too (one per user), and moves it as it is otherwise', async () => {
    const [account, guest] = [randomUUID(), randomUUID()];
    const accountJob = await job(account, 'running');
    const guestJob = await job(guest, 'queued');
    await merge(guest, account);
    const jobs = await db.source.query('SELECT id, user_id, status, error FROM import_job WHERE id = ANY($1) ORDER BY status', [
      [accountJob, guestJob],
    ]);
    expect(jobs).toEqual([
      { id: guestJob, user_id: account, status: 'cancelled', error: expect.stringContaining('stopped when you signed in') },
      { id: accountJob, user_id: account, status: 'running', error: null },
    ]);

    const [other, otherGuest] = [randomUUID(), randomUUID()];
    await job(other, 'done');
    const moved = await job(otherGuest, 'running');
    await merge(otherGuest, other);
    expect(await db.source.query('SELECT user_id, status FROM import_job WHERE id = $1', [moved])).toEqual([
      { user_id: other, status: 'running' },
    ]);
  });
});
