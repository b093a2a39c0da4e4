import { randomUUID } from 'node:crypto';
import type { Caller } from '@app/contracts';
import { CHAT_RPC, type ReplyEvent } from '@app/contracts/chat';
import { NatsBus, RpcClient } from '@app/platform';
import { createTestEnvironment, FakeOpenAI, type TestEnvironment } from '@app/testing';
import { Client } from 'pg';
import { OwnNatsServer, haveNatsServer } from '../support/nats-server';
import { ServiceProcess } from '../support/service-process';
import { until } from '../support/until';

const LEASE_MS = 2_000;

/**
 * Faults: the chat process dies (SIGKILL: no shutdown hook, as in a crash or an OOM kill) or is
 * stopped (SIGTERM, a rollout, with a grace period shorter than the reply) in the middle of a reply.
 * The chat service runs in its own process on its own NATS server and database; the test is its
 * client over the bus. Either way the user's message ends with an incomplete reply holding what
 * had been written, the conversation points at it, and it can be regenerated.
 */
(haveNatsServer() ? describe : describe.skip)('the chat process stopped mid-reply', () => {
  let nats: OwnNatsServer;
  let environment: TestEnvironment;
  let db: Client;
  let bus: NatsBus;
  const processes: ServiceProcess[] = [];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    nats = await OwnNatsServer.start();
    environment = await createTestEnvironment('chatcrash', 'nats');
    env = {
      ...environment.env,
      NATS_URL: nats.url,
      MIGRATE_ON_BOOT: 'true',
      // A slow offline model, so that the reply is still being written when the process dies.
      OFFLINE_TOKEN_DELAY_MS: '150',
      CHAT_REPLY_LEASE_MS: String(LEASE_MS),
      SHUTDOWN_GRACE_MS: '2000',
    };
    db = new Client({ connectionString: environment.database.url });
    await db.connect();
    bus = await NatsBus.connect({ url: nats.url, prefix: environment.prefix, name: 'chat-crash-test' });
  }, 60_000);

  // One chat process at a time on the bus, so that each test knows which one answers.
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.kill()));
  });

  afterAll(async () => {
    await bus?.drain();
    await db?.end();
    await nats?.close();
    await environment?.cleanup();
  }, 60_000);

  it('killed: leaves an incomplete reply with what was written, which the next process recovers and which can be regenerated', async () => {
    const first = await ServiceProcess.start('chat', env);
    processes.push(first);
    const rpc = new RpcClient(bus, 10_000);
    const caller: Caller = { user_id: randomUUID(), is_anon: true, session_id: randomUUID(), request_id: randomUUID() };
    const chat = await rpc.call(CHAT_RPC.create, {}, caller);

    // The reply streams; the test reads it in the background, as a browser would.
    const seen: ReplyEvent[] = [];
    const reading = (async () => {
      for await (const event of rpc.stream(
        CHAT_RPC.send,
        { chat_id: chat.chat_id, content: 'Tell me about the history of Lisbon, please.' },
        caller,
      ))
        seen.push(event);
    })().catch((error: unknown) => error);

    // Once some of it is saved, the process dies.
    const saved = await until('part of the reply saved', async () => {
      const { rows } = await db.query(
        "SELECT id, content FROM chat.message WHERE sender = 'assistant' AND status = 'streaming' AND content <> ''",
      );
      return rows[0] as { id: string; content: string } | undefined;
    });
    // While the reply is being written, the user's message is readable; the unfinished reply is not shown.
    const during = await rpc.call(CHAT_RPC.get, { chat_id: chat.chat_id }, caller);
    expect(during.messages.map((m) => [m.sender, m.content])).toEqual([['user', 'Tell me about the history of Lisbon, please.']]);
    await first.kill('SIGKILL');
    const userMessage = seen.find((e) => e.event === 'user_message')!.data as { message_id: string };
    expect(seen.some((e) => e.event === 'assistant_message')).toBe(false);
    // The client is told the stream broke (the producer's heartbeats stopped), it is not left waiting.
    expect(await reading).toBeInstanceOf(Error);

    // What the crash left: the reply's row, still marked as being written.
    const left = (await db.query('SELECT status, previous_message_id FROM chat.message WHERE id = $1', [saved.id])).rows[0];
    expect(left).toEqual({ status: 'streaming', previous_message_id: userMessage.message_id });

    // Another chat process (a restart, another replica) turns it into an incomplete reply once its lease has run out.
    const second = await ServiceProcess.start('chat', env);
    processes.push(second);
    const recovered = await until('the reply recovered', async () => {
      const { rows } = await db.query("SELECT content, status, metadata FROM chat.message WHERE id = $1 AND status <> 'streaming'", [
        saved.id,
      ]);
      return rows[0] as { content: string; status: string; metadata: Record<string, unknown> } | undefined;
    });
    expect(recovered.status).toBe('incomplete');
    expect(recovered.metadata).toMatchObject({ incomplete: true, provider: 'offline' });
    expect(recovered.content.startsWith(saved.content)).toBe(true);
    expect(recovered.content.length).toBeGreaterThan(0);

    // The client sees the exchange as it would after any cut-short reply.
    const conversation = await rpc.call(CHAT_RPC.get, { chat_id: chat.chat_id }, caller);
    expect(conversation.last_active_message_id).toBe(saved.id);
    expect(conversation.messages.map((m) => [m.sender, m.message_id, m.previous_message_id])).toEqual([
      ['user', userMessage.message_id, null],
      ['assistant', saved.id, userMessage.message_id],
    ]);
    expect(conversation.messages[1]).toMatchObject({ content: recovered.content, metadata: expect.objectContaining({ incomplete: true }) });

    // And can regenerate it.
    const again: ReplyEvent[] = [];
    for await (const event of rpc.stream(CHAT_RPC.regenerate, { message_id: saved.id }, caller, { timeoutMs: 30_000 })) again.push(event);
    const reply = again.find((e) => e.event === 'assistant_message')!.data as { message_id: string; metadata: Record<string, unknown> };
    expect(reply.metadata.incomplete).toBeUndefined();
    expect((await rpc.call(CHAT_RPC.get, { chat_id: chat.chat_id }, caller)).last_active_message_id).toBe(reply.message_id);
  }, 120_000);

  it('alive but silent for longer than its lease: the reply keeps its lease, and another replica leaves it alone', async () => {
    // A model silent for 10 s before its first token (five leases): only the renewal of the leases
    // of the replies being written (ReplyLeases), not the saves of new text, keeps the reply alive.
    const model = new FakeOpenAI();
    await model.start();
    model.setDefaultReply('responses', () => ({ steps: [{ delayMs: 10_000 }, { text: 'Coimbra has the oldest university.' }] }));
    try {
      const silent = {
        ...env,
        LLM_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: model.baseURL,
        CHAT_MODEL: 'test-model',
      };
      processes.push(await ServiceProcess.start('chat', silent), await ServiceProcess.start('chat', silent));
      const rpc = new RpcClient(bus, 10_000);
      const caller: Caller = { user_id: randomUUID(), is_anon: true, session_id: randomUUID(), request_id: randomUUID() };
      const chat = await rpc.call(CHAT_RPC.create, {}, caller);
      const reading = (async () => {
        for await (const event of rpc.stream(CHAT_RPC.send, { chat_id: chat.chat_id, content: 'Tell me about Coimbra.' }, caller))
          void event;
      })().catch((error: unknown) => error);

      const replyId = await until('the reply under way', async () => {
        const { rows } = await db.query("SELECT id FROM chat.message WHERE chat_id = $1 AND sender = 'assistant'", [chat.chat_id]);
        return rows[0]?.id as string | undefined;
      });
      // Both replicas sweep expired leases every half lease: for three and a half leases, the reply
      // stays `streaming` with a lease in the future.
      const lapses: unknown[] = [];
      for (const stopAt = Date.now() + 3.5 * LEASE_MS; Date.now() < stopAt;) {
        const { rows } = await db.query('SELECT status, lease_expires_at > now() AS leased FROM chat.message WHERE id = $1', [replyId]);
        if (rows[0]?.status !== 'streaming' || !rows[0]?.leased) lapses.push(rows[0]);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(lapses).toEqual([]);
      await Promise.all(processes.splice(0).map((p) => p.kill()));
      await reading;
    } finally {
      await model.stop();
    }
  }, 120_000);

  it('stopped (SIGTERM) past its grace period: ends the reply as incomplete, tells the client, and exits cleanly', async () => {
    const chatProcess = await ServiceProcess.start('chat', env);
    processes.push(chatProcess);
    const rpc = new RpcClient(bus, 10_000);
    const caller: Caller = { user_id: randomUUID(), is_anon: true, session_id: randomUUID(), request_id: randomUUID() };
    const chat = await rpc.call(CHAT_RPC.create, {}, caller);
    const seen: ReplyEvent[] = [];
    const reading = (async () => {
      for await (const event of rpc.stream(CHAT_RPC.send, { chat_id: chat.chat_id, content: 'What should I see in Porto?' }, caller))
        seen.push(event);
    })().catch((error: unknown) => error);
    await until('the reply under way', async () => seen.some((e) => e.event === 'text'));

    // The offline model needs about 6 s; the grace period is 2 s.
    expect(await chatProcess.kill('SIGTERM')).toBe(0);
    expect(await reading).toBeUndefined();
    const kinds = seen.map((e) => e.event);
    expect(kinds.slice(-3)).toEqual(['assistant_message', 'error', 'done']);
    const reply = seen.find((e) => e.event === 'assistant_message')!.data as {
      message_id: string;
      content: string;
      metadata: Record<string, unknown>;
    };
    expect(reply.metadata.incomplete).toBe(true);
    expect(reply.content.length).toBeGreaterThan(0);
    const stored = (await db.query('SELECT status, content FROM chat.message WHERE id = $1', [reply.message_id])).rows[0];
    expect(stored).toEqual({ status: 'incomplete', content: reply.content });
    expect(
      (await db.query('SELECT last_active_message_id FROM chat.conversation WHERE id = $1', [chat.chat_id])).rows[0].last_active_message_id,
    ).toBe(reply.message_id);
  }, 120_000);
});
